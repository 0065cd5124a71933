package cmvm

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"
)

// randomInputs returns random input intervals: signed, unsigned, constant
// zero, and with random exponents when mixedSteps is set.
func randomInputs(rng *rand.Rand, n int, mixedSteps bool) []Interval {
	in := make([]Interval, n)
	for j := range in {
		lo, hi := rng.Int64N(2049)-1024, rng.Int64N(2049)-1024
		if lo > hi {
			lo, hi = hi, lo
		}
		switch rng.IntN(6) {
		case 0:
			lo, hi = 0, 0 // contributes nothing
		case 1:
			lo = 0
			hi = max(hi, 1)
		}
		in[j] = Interval{Lo: lo, Hi: hi}
		if mixedSteps {
			in[j].Exp = rng.IntN(7) - 3
		}
	}
	return in
}

// product returns y = M·x exactly, in units of 2^unit, from raw inputs.
func product(n *normalized, x []int64, unit int) []*big.Int {
	y := make([]*big.Int, n.nOut)
	for i, r := range n.rows {
		y[i] = new(big.Int)
		for j, c := range r {
			t := new(big.Int).Mul(big.NewInt(c), big.NewInt(x[j]))
			y[i].Add(y[i], t.Lsh(t, uint(n.inputs[j].Exp-unit)))
		}
	}
	return y
}

// sampleInputs returns raw input vectors to test with: all lower bounds,
// all upper bounds, and random points.
func sampleInputs(rng *rand.Rand, in []Interval, random int) [][]int64 {
	lo, hi := make([]int64, len(in)), make([]int64, len(in))
	for j, iv := range in {
		lo[j], hi[j] = iv.Lo, iv.Hi
	}
	xs := [][]int64{lo, hi}
	for range random {
		x := make([]int64, len(in))
		for j, iv := range in {
			x[j] = iv.Lo + rng.Int64N(iv.Hi-iv.Lo+1)
		}
		xs = append(xs, x)
	}
	return xs
}

func bigs(x []int64) []*big.Int {
	b := make([]*big.Int, len(x))
	for i, v := range x {
		b[i] = big.NewInt(v)
	}
	return b
}

// checkGraph verifies everything Solve promises about g for problem n: the
// structure, exact results on sample inputs (checked int64 and big), the
// exact interval, depth, cost and latency of every op, and the depth bound.
func checkGraph(t *testing.T, rng *rand.Rand, n *normalized, g *Graph, bound int) {
	t.Helper()
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
	if len(g.Inputs) != n.nIn || len(g.Outputs) != n.nOut {
		t.Fatalf("graph has %d inputs, %d outputs; want %d, %d", len(g.Inputs), len(g.Outputs), n.nIn, n.nOut)
	}
	unit := g.Unit()
	for _, x := range sampleInputs(rng, n.inputs, 4) {
		want := product(n, x, unit)
		got, err := g.Eval(x)
		if err != nil {
			t.Fatalf("Eval(%v): %v", x, err)
		}
		gotBig, err := g.EvalBig(bigs(x))
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if !want[i].IsInt64() || got[i] != want[i].Int64() || gotBig[i].Cmp(want[i]) != 0 {
				t.Fatalf("output %d on %v: Eval %d, EvalBig %v, want %v", i, x, got[i], gotBig[i], want[i])
			}
		}
	}
	// Node coefficients over the raw inputs, from the basis vectors.
	nIn := len(g.Inputs)
	coef := make([][]*big.Int, nIn+len(g.Ops))
	for j := range n.nIn {
		e := make([]*big.Int, nIn)
		for k := range e {
			e[k] = new(big.Int)
		}
		e[j].SetInt64(1)
		vals, err := g.nodeValues(e)
		if err != nil {
			t.Fatal(err)
		}
		for id, v := range vals {
			coef[id] = append(coef[id], v)
		}
	}
	depth := make([]int, nIn+len(g.Ops))
	lat := make([]int, nIn+len(g.Ops))
	for k, op := range g.Ops {
		id := nIn + k
		// The exact range in units of 2^unit, over the corners.
		lo, hi := new(big.Int), new(big.Int)
		for j, c := range coef[id] {
			a := new(big.Int).Mul(c, big.NewInt(n.inputs[j].Lo))
			b := new(big.Int).Mul(c, big.NewInt(n.inputs[j].Hi))
			if a.Cmp(b) > 0 {
				a, b = b, a
			}
			lo.Add(lo, a)
			hi.Add(hi, b)
		}
		iv := op.Interval
		gl := new(big.Int).Lsh(big.NewInt(iv.Lo), uint(iv.Exp-unit))
		gh := new(big.Int).Lsh(big.NewInt(iv.Hi), uint(iv.Exp-unit))
		if gl.Cmp(lo) != 0 || gh.Cmp(hi) != 0 {
			t.Fatalf("op %d: interval %+v is [%v, %v] in units 2^%d, exact range [%v, %v]", id, iv, gl, gh, unit, lo, hi)
		}
		depth[id] = max(depth[op.A], depth[op.B]) + 1
		if op.Depth != depth[id] {
			t.Fatalf("op %d: depth %d, want %d", id, op.Depth, depth[id])
		}
		cost, l := g.Model.Adder(iv.Width())
		lat[id] = max(lat[op.A], lat[op.B]) + l
		if op.Cost != cost || op.Latency != lat[id] {
			t.Fatalf("op %d: cost %d latency %d, want %d %d", id, op.Cost, op.Latency, cost, lat[id])
		}
	}
	if s := g.Stats(); bound >= 0 && s.Depth > bound {
		t.Fatalf("depth %d exceeds the bound %d", s.Depth, bound)
	}
}

// naiveAdders is the adder count without any sharing: one fewer than the
// CSD digits of each output.
func naiveAdders(n *normalized) int {
	a := 0
	for _, r := range n.rows {
		a += max(rowWeight(r)-1, 0)
	}
	return a
}

func TestSolveMatchesProduct(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		maxAbs     int64
		opt        Options
		mixedSteps bool
		transposed bool
		slack      int // with opt.MaxDepth == 1: bound = MinimalDepth + slack
	}{
		{name: "default", rows: 5, cols: 5, maxAbs: 300},
		{name: "plain", rows: 6, cols: 4, maxAbs: 300, opt: Options{NoDecompose: true}},
		{name: "minimal depth", rows: 6, cols: 6, maxAbs: 1000, opt: Options{MaxDepth: DepthMinimal}},
		{name: "depth plus one", rows: 6, cols: 6, maxAbs: 1000, opt: Options{MaxDepth: 1}, slack: 1},
		{name: "wide entries", rows: 4, cols: 7, maxAbs: 1 << 40},
		{name: "tall", rows: 9, cols: 2, maxAbs: 100},
		{name: "wide", rows: 2, cols: 9, maxAbs: 100},
		{name: "single row", rows: 1, cols: 6, maxAbs: 255},
		{name: "single column", rows: 6, cols: 1, maxAbs: 255},
		{name: "mixed steps", rows: 5, cols: 5, maxAbs: 200, mixedSteps: true},
		{name: "mixed steps, minimal depth", rows: 5, cols: 5, maxAbs: 200, mixedSteps: true, opt: Options{MaxDepth: DepthMinimal}},
		{name: "transposed", rows: 4, cols: 6, maxAbs: 255, transposed: true},
		{name: "restarts", rows: 6, cols: 6, maxAbs: 255, opt: Options{Restarts: 3, Seed: 7}},
		{name: "cost model", rows: 5, cols: 5, maxAbs: 255, opt: Options{AdderSize: 4, CarrySize: 2}},
		{name: "LUT objective", rows: 6, cols: 6, maxAbs: 255, opt: Options{Objective: LUTs, Restarts: 2}},
		{name: "LUT objective, mixed steps, depth plus one", rows: 5, cols: 5, maxAbs: 200, mixedSteps: true, opt: Options{Objective: LUTs, MaxDepth: 1}, slack: 1},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for trial := range 40 {
				m := randomMatrix(rng, tc.rows, tc.cols, tc.maxAbs)
				nIn := tc.cols
				if tc.transposed {
					nIn = tc.rows
				}
				p := Problem{Matrix: m, Transposed: tc.transposed, Inputs: randomInputs(rng, nIn, tc.mixedSteps)}
				n, err := normalize(p)
				if err != nil {
					t.Fatal(err)
				}
				opt := tc.opt
				bound := -1
				switch {
				case opt.MaxDepth == DepthMinimal:
					bound = minimalDepth(n)
				case opt.MaxDepth > 0:
					bound = minimalDepth(n) + tc.slack
					opt.MaxDepth = max(bound, 1)
				}
				g, err := Solve(p, opt)
				if err != nil {
					t.Fatalf("trial %d: %v\nmatrix %v", trial, err, m)
				}
				checkGraph(t, rng, n, g, bound)
				if s := g.Stats(); s.Adders > naiveAdders(n) {
					t.Fatalf("trial %d: %d adders, more than the %d of plain CSD", trial, s.Adders, naiveAdders(n))
				}
			}
		})
	}
}

func TestSolveEdgeCases(t *testing.T) {
	in8 := Interval{Lo: -128, Hi: 127}
	tests := []struct {
		name    string
		p       Problem
		opt     Options
		wantErr error // nil: any error when errSub is set
		anyErr  bool
		adders  int
		outputs []Output
	}{
		{name: "empty", p: Problem{}, outputs: nil},
		{name: "no outputs", p: Problem{Inputs: []Interval{in8, in8}}, outputs: nil},
		{name: "no inputs", p: Problem{Matrix: [][]int64{{}, {}}}, outputs: []Output{{Node: -1}, {Node: -1}}},
		{name: "transposed, no outputs", p: Problem{Matrix: [][]int64{{}, {}}, Transposed: true, Inputs: []Interval{in8, in8}}, outputs: nil},
		{name: "zero matrix", p: Problem{Matrix: [][]int64{{0, 0}, {0, 0}}, Inputs: []Interval{in8, in8}},
			outputs: []Output{{Node: -1}, {Node: -1}}},
		{name: "1x1 zero", p: Problem{Matrix: [][]int64{{0}}, Inputs: []Interval{in8}}, outputs: []Output{{Node: -1}}},
		{name: "1x1 one", p: Problem{Matrix: [][]int64{{1}}, Inputs: []Interval{in8}}, outputs: []Output{{Node: 0}}},
		{name: "1x1 minus four", p: Problem{Matrix: [][]int64{{-4}}, Inputs: []Interval{in8}},
			outputs: []Output{{Node: 0, Shift: 2, Neg: true}}},
		{name: "1x1 three", p: Problem{Matrix: [][]int64{{3}}, Inputs: []Interval{in8}}, adders: 1},
		{name: "1x1 255", p: Problem{Matrix: [][]int64{{255}}, Inputs: []Interval{in8}}, adders: 1},
		{name: "1x1 minimal depth", p: Problem{Matrix: [][]int64{{6}}, Inputs: []Interval{in8}},
			opt: Options{MaxDepth: DepthMinimal}, adders: 1},
		{name: "constant-zero input ignored", p: Problem{Matrix: [][]int64{{3, 5}}, Inputs: []Interval{{}, in8}}, adders: 1},
		{name: "shared shifted output", p: Problem{Matrix: [][]int64{{3, 3}, {6, 6}, {-12, -12}}, Inputs: []Interval{in8, in8}}, adders: 2},
		{name: "min int64 on a bit", p: Problem{Matrix: [][]int64{{math.MinInt64}}, Inputs: []Interval{{Lo: 0, Hi: 1}}},
			outputs: []Output{{Node: 0, Shift: 63, Neg: true}}},
		{name: "max int64 on a bit", p: Problem{Matrix: [][]int64{{math.MaxInt64, 1}}, Inputs: []Interval{{Lo: 0, Hi: 1}, {Lo: -1, Hi: 0}}}, adders: 2},
		{name: "huge entry overflows", p: Problem{Matrix: [][]int64{{math.MaxInt64}}, Inputs: []Interval{in8}}, wantErr: ErrOverflow},
		{name: "huge entry, odd", p: Problem{Matrix: [][]int64{{1<<62 + 1}}, Inputs: []Interval{{Lo: -2, Hi: 1}}}, wantErr: ErrOverflow},
		{name: "ragged", p: Problem{Matrix: [][]int64{{1, 2}, {3}}, Inputs: []Interval{in8, in8}}, anyErr: true},
		{name: "too few intervals", p: Problem{Matrix: [][]int64{{1, 2}}, Inputs: []Interval{in8}}, anyErr: true},
		{name: "transposed interval count", p: Problem{Matrix: [][]int64{{1, 2}}, Transposed: true, Inputs: []Interval{in8, in8}}, anyErr: true},
		{name: "inverted interval", p: Problem{Matrix: [][]int64{{1}}, Inputs: []Interval{{Lo: 1, Hi: 0}}}, anyErr: true},
		{name: "exponent out of range", p: Problem{Matrix: [][]int64{{1}}, Inputs: []Interval{{Lo: 0, Hi: 1, Exp: 5000}}}, anyErr: true},
		{name: "depth below minimal", p: Problem{Matrix: [][]int64{{0x55}}, Inputs: []Interval{in8}}, opt: Options{MaxDepth: 1}, anyErr: true},
		{name: "negative depth", p: Problem{Matrix: [][]int64{{1}}, Inputs: []Interval{in8}}, opt: Options{MaxDepth: -7}, anyErr: true},
		{name: "unknown objective", p: Problem{Matrix: [][]int64{{1}}, Inputs: []Interval{in8}}, opt: Options{Objective: 2}, anyErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Solve(tc.p, tc.opt)
			if tc.wantErr != nil || tc.anyErr {
				if err == nil {
					t.Fatalf("Solve succeeded with %d adders, want an error", len(g.Ops))
				}
				if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
					t.Fatalf("error %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Ops) != tc.adders {
				t.Errorf("%d adders, want %d", len(g.Ops), tc.adders)
			}
			if tc.outputs != nil && !reflect.DeepEqual(g.Outputs, tc.outputs) {
				t.Errorf("outputs %+v, want %+v", g.Outputs, tc.outputs)
			}
			n, err := normalize(tc.p)
			if err != nil {
				t.Fatal(err)
			}
			checkGraph(t, rand.New(rand.NewPCG(3, 4)), n, g, -1)
		})
	}
}

func TestSolveDeterministic(t *testing.T) {
	p := table2Problem(8, 42)
	for _, opt := range []Options{{}, {Restarts: 4, Seed: 9}, {MaxDepth: DepthMinimal}, {Objective: LUTs}} {
		a, err := Solve(p, opt)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Solve(p, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("options %+v: two runs differ", opt)
		}
	}
}

func TestTransposedMatchesRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20 {
		m := randomMatrix(rng, 3+rng.IntN(4), 3+rng.IntN(4), 500)
		mt := make([][]int64, len(m[0]))
		for j := range mt {
			mt[j] = make([]int64, len(m))
			for i := range m {
				mt[j][i] = m[i][j]
			}
		}
		in := inputs8(len(m[0]))
		a, err := Solve(Problem{Matrix: m, Inputs: in}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Solve(Problem{Matrix: mt, Transposed: true, Inputs: in}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("transposed problem gave a different graph")
		}
	}
}

func TestMinimalDepth(t *testing.T) {
	in8 := Interval{Lo: -128, Hi: 127}
	tests := []struct {
		m    [][]int64
		in   []Interval
		want int
	}{
		{m: [][]int64{{0}}, in: []Interval{in8}, want: 0},
		{m: [][]int64{{8}}, in: []Interval{in8}, want: 0},
		{m: [][]int64{{3}}, in: []Interval{in8}, want: 1},     // 4 - 1
		{m: [][]int64{{0x55}}, in: []Interval{in8}, want: 2},  // four digits
		{m: [][]int64{{0x155}}, in: []Interval{in8}, want: 3}, // five digits
		{m: [][]int64{{1, 1}, {1, 0}}, in: []Interval{in8, in8}, want: 1},
		{m: [][]int64{{0x55, 1}}, in: []Interval{in8, {}}, want: 2}, // zero input ignored
	}
	for _, tc := range tests {
		got, err := MinimalDepth(Problem{Matrix: tc.m, Inputs: tc.in})
		if err != nil || got != tc.want {
			t.Errorf("MinimalDepth(%v) = %d, %v; want %d", tc.m, got, err, tc.want)
		}
	}
}

// TestSolveConcurrent checks that concurrent Solve calls (which share the
// workspace pool) give the same graphs as sequential ones.
func TestSolveConcurrent(t *testing.T) {
	var problems []Problem
	for s := range 8 {
		problems = append(problems, table2Problem(4+s%3*2, uint64(s)))
	}
	want := make([]*Graph, len(problems))
	for i, p := range problems {
		g, err := Solve(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = g
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(problems))
	for range 4 {
		wg.Go(func() {
			for i, p := range problems {
				g, err := Solve(p, Options{})
				if err != nil {
					errs <- err
				} else if !reflect.DeepEqual(g, want[i]) {
					errs <- fmt.Errorf("problem %d: concurrent result differs", i)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// uniformMatrix returns an nOut x nIn matrix of entries uniform in
// -255..255, each zero with probability 1/zeroOneIn (never when 0: no draw).
func uniformMatrix(rng *rand.Rand, nOut, nIn, zeroOneIn int) [][]int64 {
	m := make([][]int64, nOut)
	for i := range m {
		m[i] = make([]int64, nIn)
		for j := range m[i] {
			if zeroOneIn == 0 || rng.IntN(zeroOneIn) > 0 {
				m[i][j] = rng.Int64N(511) - 255
			}
		}
	}
	return m
}

// TestBlocks forces the split by inputs on small problems: exact results,
// intervals, depths and costs (checkGraph), and the depth bound.
func TestBlocks(t *testing.T) {
	defer func(v int) { blockPairs = v }(blockPairs)
	blockPairs = 20
	rng := rand.New(rand.NewPCG(5, 15))
	for it := range 40 {
		nOut, nIn := 1+rng.IntN(7), 2+rng.IntN(9)
		m := uniformMatrix(rng, nOut, nIn, 0)
		ins := make([]Interval, nIn)
		for j := range ins {
			ins[j] = Interval{Lo: -rng.Int64N(200), Hi: rng.Int64N(200), Exp: rng.IntN(3) - 1}
		}
		p := Problem{Matrix: m, Inputs: ins}
		n, err := normalize(p)
		if err != nil {
			t.Fatal(err)
		}
		if numBlocks(n) < 2 {
			continue
		}
		for _, md := range []int{0, DepthMinimal} {
			g, err := Solve(p, Options{MaxDepth: md})
			if err != nil {
				t.Fatalf("case %d: %v", it, err)
			}
			bound := -1
			if md == DepthMinimal {
				bound = minimalDepth(n)
			}
			checkGraph(t, rng, n, g, bound)
		}
	}
}

// TestTranspose solves random problems through their transpose
// (transposeGraph of a graph for Mᵀ): exact results, intervals, depths and
// costs (checkGraph), with zero, constant-zero and mixed-step inputs, and
// the adder count A' + outputs' - inputs' where every node is used.
func TestTranspose(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 21))
	for it := range 60 {
		nOut, nIn := 1+rng.IntN(6), 1+rng.IntN(12)
		m := uniformMatrix(rng, nOut, nIn, 5)
		p := Problem{Matrix: m, Inputs: randomInputs(rng, nIn, it%2 == 0)}
		n, err := normalize(p)
		if err != nil {
			t.Fatal(err)
		}
		nt := transposed(n)
		model := CostModel{AdderSize: 1 + rng.IntN(8), CarrySize: 1 + rng.IntN(8)}
		gt, err := solveNormalized(nt, Options{}, model, -1)
		if err != nil {
			t.Fatal(err)
		}
		g, err := transposeGraph(gt, n.inputs, model)
		if err != nil {
			t.Fatalf("case %d: %v", it, err)
		}
		checkGraph(t, rng, n, g, -1)
	}
	// Through Solve: a tall problem that needs blocks goes through its
	// transpose.
	defer func(v int) { blockPairs = v }(blockPairs)
	blockPairs = 40
	p := int8Problem(24, 3)
	n, err := normalize(p)
	if err != nil {
		t.Fatal(err)
	}
	if transposeFor(n, Options{}, -1) == nil {
		t.Fatal("a 24x3 problem over 40-pair blocks is not transposed")
	}
	g, err := Solve(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkGraph(t, rng, n, g, -1)
}

// TestSolveSlack: a bound above the minimal depth is met and spent: the
// decompositions run under it with limited tree heights, so two levels of
// slack save adders on trained-like 16x64 matrices (summed over four: on
// one, the minimal-depth graph may already be as small); more slack never
// costs adders; every graph is what Solve promises (checkGraph), and
// DepthSlack s is the bound minimal + s.
func TestSolveSlack(t *testing.T) {
	total := map[int]int{} // adders by slack, over the matrices
	for seed := uint64(29); seed < 33; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		m := randomMatrix(rng, 64, 16, 127)
		in := make([]Interval, 16)
		for j := range in {
			in[j] = Interval{Lo: 0, Hi: 1023}
		}
		p := Problem{Matrix: m, Inputs: in}
		n, err := normalize(p)
		if err != nil {
			t.Fatal(err)
		}
		md := minimalDepth(n)
		cost := map[int]int{}
		for _, d := range []int{md, md + 1, md + 2, md + 4} {
			g, err := Solve(p, Options{MaxDepth: d})
			if err != nil {
				t.Fatal(err)
			}
			checkGraph(t, rng, n, g, d)
			s := g.Stats()
			cost[d] = s.Adders + s.Negations
			total[d-md] += cost[d]
			// DepthSlack above the minimal tree is the same bound.
			gs, err := Solve(p, Options{MaxDepth: DepthMinimal, DepthSlack: d - md})
			if err != nil {
				t.Fatal(err)
			}
			if gs.Stats() != s {
				t.Errorf("DepthSlack %d: %+v; MaxDepth %d: %+v", d-md, gs.Stats(), d, s)
			}
		}
		if cost[md+2] > cost[md] || cost[md+4] > cost[md+2] {
			t.Errorf("seed %d: adders by bound %v: more slack costs adders", seed, cost)
		}
		t.Logf("seed %d: minimal depth %d; adders (with negations) by bound: %v", seed, md, cost)
	}
	if total[2] >= total[0] {
		t.Errorf("adders by slack, summed: %v: slack saves nothing", total)
	}
}

// TestBareNegationsWithinBound checks Problem.Bare: above the minimal depth
// a bare output read negated has room for its negation under the bound
// (without Bare, the 8x8 Table 2 matrices, whose CSD digits often end in a
// -1, read some output negated at the bound in most graphs); at the
// minimal depth it takes at most one level more; and where the graph
// found without Bare has room for its negations, that graph is kept.
func TestBareNegationsWithinBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	atBound := 0
	for s := range 20 {
		p := table2Problem(8, uint64(s))
		n, err := normalize(p)
		if err != nil {
			t.Fatal(err)
		}
		md := minimalDepth(n)
		bare := make([]bool, n.nOut)
		for i := range bare {
			bare[i] = true
		}
		for slack := range 3 {
			opt := Options{MaxDepth: DepthMinimal, DepthSlack: slack}
			free, err := Solve(p, opt)
			if err != nil {
				t.Fatal(err)
			}
			if bareDepth(free, bare) > md+slack {
				atBound++
			}
			p.Bare = bare
			g, err := Solve(p, opt)
			p.Bare = nil
			if err != nil {
				t.Fatal(err)
			}
			checkGraph(t, rng, n, g, md+slack)
			limit := md + slack
			if slack == 0 {
				limit++
			}
			if d := bareDepth(g, bare); d > limit {
				t.Errorf("seed %d, slack %d: depth %d with the negations of bare outputs, bound %d", s, slack, d, md+slack)
			}
			if a, b := g.Stats(), free.Stats(); bareDepth(free, bare) <= md+slack && a.Adders+a.Negations > b.Adders+b.Negations {
				t.Errorf("seed %d, slack %d: %d adders and negations, %d without Bare, which has room for its negations", s, slack, a.Adders+a.Negations, b.Adders+b.Negations)
			}
		}
	}
	if atBound < 10 {
		t.Errorf("only %d graphs without Bare read an output negated at the bound: the test checks too little", atBound)
	}
	if _, err := Solve(Problem{Matrix: [][]int64{{1}}, Inputs: inputs8(1), Bare: []bool{true, false}}, Options{}); err == nil {
		t.Error("Solve accepted 2 Bare flags for 1 output")
	}
}
