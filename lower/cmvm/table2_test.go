package cmvm

import (
	"flag"
	"math/rand/v2"
	"testing"
)

// The Table 2 protocol of the da4ml paper (and of its artifact,
// calad0i/da4ml-ae table2.ipynb): random N×N matrices with entries uniform in
// 129..255 (floor(U[0,1)·127) + 129), 8-bit signed inputs ([-128, 127],
// da4ml's default), averaged over many matrices. Published averages of
// adders: da4ml 98.1 (N=8) and 343.2 (N=16); H_cmvm 96.3 and 338.3.

// table2Matrix returns the seed-th random N×N matrix of the protocol.
func table2Matrix(n int, seed uint64) [][]int64 {
	rng := rand.New(rand.NewPCG(0x7ab1e2, seed))
	m := make([][]int64, n)
	for i := range m {
		m[i] = make([]int64, n)
		for j := range m[i] {
			m[i][j] = 129 + rng.Int64N(127)
		}
	}
	return m
}

// table2Problem wraps a Table 2 matrix with 8-bit signed inputs.
func table2Problem(n int, seed uint64) Problem {
	return Problem{Matrix: table2Matrix(n, seed), Inputs: inputs8(n)}
}

// The matrices the adder-count test and the benchmarks use: seeds
// first .. first+count-1 (by default 0..99). Other ranges check that the
// figures hold beyond the matrices they were tuned on.
var (
	table2First    = flag.Uint64("cmvm.first", 0, "first seed of the Table 2 matrices")
	table2Count    = flag.Int("cmvm.count", 100, "number of Table 2 matrices")
	table2Ablation = flag.Bool("cmvm.ablation", false, "run TestTable2Ablation")
)

// TestTable2Adders fails if the average adder count on the Table 2 protocol
// exceeds the targets: 96 for N=8, 335 for N=16 (below da4ml's 98.1 and
// 343.2 and H_cmvm's 96.3 and 338.3). It counts adders only; the time is
// measured by BenchmarkCMVM8 and BenchmarkCMVM16. -short averages over
// fewer matrices.
func TestTable2Adders(t *testing.T) {
	count := *table2Count
	if testing.Short() {
		count = min(count, 30)
	}
	for _, tc := range []struct {
		n     int
		limit float64
	}{{8, 96}, {16, 335}} {
		sum := 0
		for s := range count {
			g, err := Solve(table2Problem(tc.n, *table2First+uint64(s)), Options{})
			if err != nil {
				t.Fatal(err)
			}
			sum += g.Stats().Adders
		}
		avg := float64(sum) / float64(count)
		t.Logf("N=%d: %.2f adders on average over seeds %d..%d (target <= %v)", tc.n, avg, *table2First, *table2First+uint64(count)-1, tc.limit)
		if avg > tc.limit {
			t.Errorf("N=%d: %.2f adders on average, want at most %v", tc.n, avg, tc.limit)
		}
	}
}

func TestAutoRestarts(t *testing.T) {
	for _, tc := range []struct {
		n    int
		opt  Options
		want int
	}{
		{8, Options{}, 0}, // its budget goes to the CSD and signed-digit attempts (plans)
		{16, Options{}, 0},
		{64, Options{MaxDepth: DepthMinimal}, 0},
	} {
		got, err := AutoRestarts(table2Problem(tc.n, 0), tc.opt)
		if err != nil || got != tc.want {
			t.Errorf("AutoRestarts(N=%d, %+v) = %d, %v; want %d", tc.n, tc.opt, got, err, tc.want)
		}
	}
}

// TestTable2Ablation reports the average adders of each strategy alone and
// of their combinations on the Table 2 matrices (docs/cmvm.md). It only runs
// with -cmvm.ablation.
func TestTable2Ablation(t *testing.T) {
	if !*table2Ablation {
		t.Skip("run with -cmvm.ablation")
	}
	for _, n := range []int{8, 16} {
		for _, c := range []struct {
			name       string
			strategies []strategy
			restarts   int
		}{
			{"plain CSE", []strategy{plainRows}, 0},
			{"row tree", []strategy{rowTree}, 0},
			{"column tree", []strategy{colTree}, 0},
			{"both trees", []strategy{rowTree, colTree}, 0},
			{"both trees + 4 restarts", []strategy{rowTree, colTree}, 4},
		} {
			sum := 0
			ws := newWorkspace()
			for s := range *table2Count {
				prob, err := normalize(table2Problem(n, *table2First+uint64(s)))
				if err != nil {
					t.Fatal(err)
				}
				best := -1
				for a := range len(c.strategies) + c.restarts {
					var rng *rand.Rand
					if a >= len(c.strategies) {
						rng = rand.New(rand.NewPCG(0, uint64(a)))
					}
					g, err := attempt(ws, prob, CostModel{}, -1, plan{st: c.strategies[a%len(c.strategies)]}, rng, Adders)
					if err != nil {
						t.Fatal(err)
					}
					if best < 0 || len(g.Ops) < best {
						best = len(g.Ops)
					}
				}
				sum += best
			}
			t.Logf("N=%d %-24s %.2f adders", n, c.name, float64(sum)/float64(*table2Count))
		}
	}
}
