package cmvm

import (
	"math/rand/v2"
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

// int8Problem returns bench/cmvm's seed-0 int8 matrix of r inputs and c
// outputs (entries uniform in -128..127, y = x @ W) with int8 inputs.
func int8Problem(r, c int) Problem {
	rng := rand.New(rand.NewPCG(0xc3a1<<32|uint64(r)<<16|uint64(c), 0))
	m := make([][]int64, r)
	for i := range m {
		m[i] = make([]int64, c)
		for j := range m[i] {
			m[i][j] = -128 + rng.Int64N(256)
		}
	}
	return Problem{Matrix: m, Transposed: true, Inputs: inputs8(r)}
}

// benchInt8 solves one int8 matrix as lower-tiles does (no restarts) and
// reports its adders (negations included) per weight.
func benchInt8(b *testing.B, r, c int) {
	p := int8Problem(r, c)
	var s Stats
	for b.Loop() {
		g, err := Solve(p, Options{Restarts: -1})
		if err != nil {
			b.Fatal(err)
		}
		s = g.Stats()
	}
	b.ReportMetric(float64(s.Adders+s.Negations), "adders")
	b.ReportMetric(float64(s.Adders+s.Negations)/float64(r*c), "adders/weight")
	b.ReportMetric(float64(s.Depth), "depth")
}

func BenchmarkInt8x64(b *testing.B)   { benchInt8(b, 64, 64) }
func BenchmarkInt8x128(b *testing.B)  { benchInt8(b, 128, 128) }
func BenchmarkInt8x256(b *testing.B)  { benchInt8(b, 256, 256) }
func BenchmarkInt8x1024(b *testing.B) { benchInt8(b, 1024, 64) }

// BenchmarkInt8x128Depth solves the 128x128 int8 matrix at minimal depth.
func BenchmarkInt8x128Depth(b *testing.B) {
	p := int8Problem(128, 128)
	var s Stats
	for b.Loop() {
		g, err := Solve(p, Options{Restarts: -1, MaxDepth: DepthMinimal})
		if err != nil {
			b.Fatal(err)
		}
		s = g.Stats()
	}
	b.ReportMetric(float64(s.Adders+s.Negations), "adders")
	b.ReportMetric(float64(s.Depth), "depth")
}

func BenchmarkInt8x256x64(b *testing.B) { benchInt8(b, 256, 64) }
