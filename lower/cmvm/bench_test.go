package cmvm

import (
	"slices"
	"testing"
	"time"
)

// benchTable2 solves the Table 2 matrices of size n in turn (one per
// iteration, so ns/op is the mean time per matrix) and reports the average
// adders and depth, and worst-ms/matrix: the time of the slowest matrix,
// each matrix timed by its fastest pass. On a shared machine a pass can be
// descheduled for whole time slices, so run several passes: -benchtime=500x
// makes five over the default 100 matrices (see -cmvm.first, -cmvm.count).
func benchTable2(b *testing.B, n int, opt Options) {
	problems := make([]Problem, max(*table2Count, 1))
	for s := range problems {
		problems[s] = table2Problem(n, *table2First+uint64(s))
	}
	fastest := make([]time.Duration, len(problems))
	adders, depth, solved := 0, 0, 0
	for b.Loop() {
		k := solved % len(problems)
		t0 := time.Now()
		g, err := Solve(problems[k], opt)
		if d := time.Since(t0); fastest[k] == 0 || d < fastest[k] {
			fastest[k] = d
		}
		if err != nil {
			b.Fatal(err)
		}
		s := g.Stats()
		adders += s.Adders
		depth += s.Depth
		solved++
	}
	b.ReportMetric(float64(adders)/float64(solved), "adders/matrix")
	b.ReportMetric(float64(depth)/float64(solved), "depth/matrix")
	b.ReportMetric(float64(slices.Max(fastest))/float64(time.Millisecond), "worst-ms/matrix")
}

func BenchmarkCMVM8(b *testing.B)  { benchTable2(b, 8, Options{}) }
func BenchmarkCMVM16(b *testing.B) { benchTable2(b, 16, Options{}) }

// BenchmarkCMVM64Depth bounds the depth to the minimal adder tree.
func BenchmarkCMVM64Depth(b *testing.B) { benchTable2(b, 64, Options{MaxDepth: DepthMinimal}) }
