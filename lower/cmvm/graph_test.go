package cmvm

import (
	"errors"
	"math/big"
	"testing"
)

func TestEvalFallsBackToBig(t *testing.T) {
	// 2^62·x0 + 2^62·x1 over bits: the output step is 2^62 and its range
	// [0, 2^63] is exact, but 2^63 does not fit Eval's int64 units of 1.
	p := Problem{Matrix: [][]int64{{1 << 62, 1 << 62}}, Inputs: []Interval{{Lo: 0, Hi: 1}, {Lo: 0, Hi: 1}}}
	g, err := Solve(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if y, err := g.Eval([]int64{1, 0}); err != nil || y[0] != 1<<62 {
		t.Errorf("Eval(1, 0) = %v, %v; want 2^62", y, err)
	}
	if _, err := g.Eval([]int64{1, 1}); !errors.Is(err, ErrOverflow) {
		t.Errorf("Eval(1, 1): error %v, want ErrOverflow", err)
	}
	y, err := g.EvalBig([]*big.Int{big.NewInt(1), big.NewInt(1)})
	if want := new(big.Int).Lsh(big.NewInt(1), 63); err != nil || y[0].Cmp(want) != 0 {
		t.Errorf("EvalBig(1, 1) = %v, %v; want 2^63", y, err)
	}

	// An intermediate 1 - 2^63 (from the CSD of MaxInt64) is exact too.
	p = Problem{Matrix: [][]int64{{1<<63 - 1}}, Inputs: []Interval{{Lo: -1, Hi: 1}}}
	if g, err = Solve(p, Options{}); err != nil {
		t.Fatal(err)
	}
	if y, err := g.Eval([]int64{-1}); err != nil || y[0] != -(1<<63-1) {
		t.Errorf("Eval(-1) = %v, %v; want -(2^63 - 1)", y, err)
	}
}

func TestGraphCheck(t *testing.T) {
	in := []Interval{{Lo: 0, Hi: 1}, {Lo: 0, Hi: 1}}
	tests := []struct {
		name string
		g    Graph
		ok   bool
	}{
		{"valid", Graph{Inputs: in, Ops: []Op{{A: 0, B: 1, Shift: 2}}, Outputs: []Output{{Node: 2}, {Node: -1}}}, true},
		{"operand not earlier", Graph{Inputs: in, Ops: []Op{{A: 0, B: 2}}}, false},
		{"negative operand", Graph{Inputs: in, Ops: []Op{{A: -1, B: 0}}}, false},
		{"negative shift", Graph{Inputs: in, Ops: []Op{{A: 0, B: 1, Shift: -1}}}, false},
		{"missing output node", Graph{Inputs: in, Outputs: []Output{{Node: 2}}}, false},
		{"bad output node", Graph{Inputs: in, Outputs: []Output{{Node: -2}}}, false},
		{"negative output shift", Graph{Inputs: in, Outputs: []Output{{Node: 0, Shift: -3}}}, false},
	}
	for _, tc := range tests {
		err := tc.g.Check()
		if (err == nil) != tc.ok {
			t.Errorf("%s: Check() = %v", tc.name, err)
		}
		if !tc.ok {
			if _, err := tc.g.Eval([]int64{0, 0}); err == nil {
				t.Errorf("%s: Eval accepted an invalid graph", tc.name)
			}
			if _, err := tc.g.EvalBig(bigInts([]int64{0, 0})); err == nil {
				t.Errorf("%s: EvalBig accepted an invalid graph", tc.name)
			}
		}
	}
}

func TestEvalInputCount(t *testing.T) {
	g := &Graph{Inputs: []Interval{{Lo: 0, Hi: 1}}}
	if _, err := g.Eval(nil); err == nil {
		t.Error("Eval accepted the wrong number of inputs")
	}
	if _, err := g.EvalBig(nil); err == nil {
		t.Error("EvalBig accepted the wrong number of inputs")
	}
}

func TestStatsAndUnit(t *testing.T) {
	g := &Graph{
		Inputs: []Interval{{Lo: 0, Hi: 1, Exp: 2}, {Lo: 0, Hi: 1, Exp: -1}},
		Ops: []Op{
			{A: 0, B: 1, Depth: 1, Cost: 3, Latency: 2},
			{A: 2, B: 1, Depth: 2, Cost: 4, Latency: 5},
		},
		Outputs: []Output{{Node: 2}, {Node: -1}, {Node: 1}},
	}
	want := Stats{Adders: 2, Depth: 1, Cost: 7, Latency: 2} // op 3 is not read
	if s := g.Stats(); s != want {
		t.Errorf("Stats() = %+v, want %+v", s, want)
	}
	if u := g.Unit(); u != -1 {
		t.Errorf("Unit() = %d, want -1", u)
	}
	if u := (&Graph{}).Unit(); u != 0 {
		t.Errorf("Unit() of no inputs = %d, want 0", u)
	}
}
