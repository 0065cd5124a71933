package cmvm

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

// TestGraphLUTs sums alir.AdderLUTs over a graph, placing each value by its
// step: an input of step 4 starts two bits up, so adding it to an integer
// input costs only the bits from there.
func TestGraphLUTs(t *testing.T) {
	g := &Graph{
		Inputs: []Interval{{Lo: -128, Hi: 127}, {Lo: -128, Hi: 127, Exp: 2}},
		Ops: []Op{
			{A: 0, B: 1, Interval: Interval{Lo: -640, Hi: 635}},                        // x0 + x1·4: 8 + (8 << 2)
			{A: 2, B: 0, Shift: 3, Sub: true, Interval: Interval{Lo: -1656, Hi: 1659}}, // 11 bits - (8 << 3)
		},
		Outputs: []Output{{Node: 3, Neg: true}},
	}
	// 8 LUTs, then max(11, 8+3) - 3 = 8, then the negation of 12 bits.
	if got, want := g.LUTs(), 8+8+12; got != want {
		t.Errorf("LUTs = %d, want %d", got, want)
	}
}

// TestLUTObjective: under Objective LUTs every graph is still M·x within
// the bound, and random int8 matrices come out with fewer estimated LUTs
// than under the adder objective (about 3 % on 16x16, docs/cmvm.md).
func TestLUTObjective(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	var luts, adders [2]int
	for range 4 {
		m := make([][]int64, 16)
		for i := range m {
			m[i] = make([]int64, 16)
			for j := range m[i] {
				m[i][j] = rng.Int64N(256) - 128
			}
		}
		in := make([]Interval, 16)
		for j := range in {
			in[j] = Interval{Lo: -128, Hi: 127}
		}
		p := Problem{Matrix: m, Inputs: in}
		n, err := normalize(p)
		if err != nil {
			t.Fatal(err)
		}
		for k, obj := range []Objective{Adders, LUTs} {
			opt := Options{MaxDepth: DepthMinimal, DepthSlack: 1, Objective: obj, Restarts: -1}
			if obj == LUTs {
				opt.Restarts = 16
			}
			g, err := Solve(p, opt)
			if err != nil {
				t.Fatal(err)
			}
			checkGraph(t, rng, n, g, minimalDepth(n)+1)
			luts[k] += g.LUTs()
			adders[k] += g.Stats().Adders
		}
	}
	t.Logf("adder objective: %d LUTs, %d adders; LUT objective: %d LUTs, %d adders", luts[0], adders[0], luts[1], adders[1])
	if float64(luts[1]) > 0.98*float64(luts[0]) {
		t.Errorf("LUT objective: %d LUTs, adder objective %d: not 2 %% fewer", luts[1], luts[0])
	}
}

var lutTable = flag.Int("cmvm.luts", 0, "run TestLUTObjectiveTable over this many int8 matrices a size")

// TestLUTObjectiveTable prints the figures of docs/cmvm.md "LUT objective":
// both objectives on random int8 matrices (entries uniform in -128..127,
// alkaid's gen_cmvm64.py distribution; 8-bit signed inputs), at the minimal
// adder tree and with two levels of slack. Run with -cmvm.luts N.
func TestLUTObjectiveTable(t *testing.T) {
	if *lutTable == 0 {
		t.Skip("run with -cmvm.luts N")
	}
	for _, size := range []int{8, 16, 32} {
		for _, slack := range []int{0, 2} {
			for _, obj := range []Objective{Adders, LUTs} {
				var luts, adders, depth int
				start := cpuTime()
				for seed := range *lutTable {
					rng := rand.New(rand.NewPCG(uint64(seed), 29))
					m := make([][]int64, size)
					for i := range m {
						m[i] = make([]int64, size)
						for j := range m[i] {
							m[i][j] = rng.Int64N(256) - 128
						}
					}
					opt := Options{MaxDepth: DepthMinimal, DepthSlack: slack, Objective: obj, Restarts: -1}
					if obj == LUTs {
						opt.Restarts = 0 // automatic, as lower-tiles does
					}
					g, err := Solve(Problem{Matrix: m, Inputs: inputs8(size)}, opt)
					if err != nil {
						t.Fatal(err)
					}
					s := g.Stats()
					luts += g.LUTs()
					adders += s.Adders + s.Negations
					depth += s.Depth
				}
				k := float64(*lutTable)
				fmt.Printf("| %dx%d | %d | %s | %.0f | %.1f | %.2f | %.0f ms |\n", size, size, slack,
					[]string{"adders", "luts"}[obj], float64(luts)/k, float64(adders)/k, float64(depth)/k,
					float64((cpuTime()-start).Milliseconds())/k)
			}
		}
	}
}

// cpuTime returns the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
