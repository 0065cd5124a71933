package alir

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestInfoCounts checks each category of Counts, and the constant outputs
// and unused inputs, on a program with every case, against figures
// counted by hand (the comments).
func TestInfoCounts(t *testing.T) {
	b := NewBuilder(ALIR, 4)
	q := QInterval{Min: -8, Max: 7, Step: 1}
	x := b.Input(0, q)
	y := b.Input(1, q)
	_ = b.Input(2, q)                                // read by nothing: input 2 unused
	z := b.Input(3, q)                               // read only by a dead relu: input 3 unused
	s := b.Add(x, y, 0, QInterval{-16, 14, 1})       // adder 1
	d := b.Sub(x, y, 1, QInterval{-22, 23, 1})       // adder 2
	n := b.Neg(s, QInterval{-14, 16, 1})             // adder 3
	c := b.Const(5, QInterval{5, 5, 1})              // constant 1
	xc := b.Add(x, c, 0, QInterval{-3, 12, 1})       // constant add 1
	cc := b.Add(c, c, 0, QInterval{10, 10, 1})       // both operands constant: constant 2
	ca := b.ConstAdd(d, 3, 0, QInterval{-19, 26, 1}) // constant add 2
	sum := b.Op(Op{ID0: -1, ID1: -1, Opcode: OpSum, QInt: QInterval{-21, 23, 1},
		Terms: []Term{{ID: x}, {ID: y}, {ID: c}}}) // x + y: adder 4; + c: constant add 3
	m := b.Mux(x, s, d, 0, QInterval{-22, 23, 1}) // mux 1
	r := b.ReLU(n, QInterval{0, 15, 1})           // quantizer 1
	qz := b.Quantize(d, QInterval{-8, 7, 1})      // quantizer 2
	dead := b.ReLU(z, QInterval{0, 0, 1})         // width 0: constant 3
	tb := b.AddTable(Table{Values: []int32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}})
	lk := b.Lookup(x, tb, QInterval{1, 16, 1}) // lookup 1
	flat := b.AddTable(Table{Values: make([]int32, 16)})
	lz := b.Lookup(y, flat, QInterval{0, 0, 1}) // a table of zeros: constant 4
	mul := b.Mul(x, y, QInterval{-56, 64, 1})   // multiplier 1
	for _, o := range []int32{s, d, n, xc, cc, ca, sum, m, r, qz, dead, lk, lz, mul} {
		b.Output(o, 0, false)
	}
	b.Output(-1, 0, false)
	in := infoOf(t, b)
	want := Counts{Adders: 4, ConstAdds: 3, Muxes: 1, Lookups: 1, Quantizers: 2, Multipliers: 1, Constants: 4}
	if in.Counts != want {
		t.Errorf("counts %+v, want %+v", in.Counts, want)
	}
	// The deepest output: relu(neg(x + y)), two adders (the relu adds no
	// level; the constant add after x - y neither).
	if in.AdderDepth != 2 {
		t.Errorf("adder depth %d, want 2", in.AdderDepth)
	}
	// Outputs 4 (c + c = 10), 10 (the dead relu), 12 (the table of zeros)
	// and 14 (index -1) are constants.
	var got []string
	for _, c := range in.ConstantOutputs {
		got = append(got, fmt.Sprintf("%d=%v", c.Output, *c.Value))
	}
	if want := []string{"4=10", "10=0", "12=0", "14=0"}; !slices.Equal(got, want) {
		t.Errorf("constant outputs %v, want %v", got, want)
	}
	if want := []int{2, 3}; !slices.Equal(in.UnusedInputs, want) {
		t.Errorf("unused inputs %v, want %v", in.UnusedInputs, want)
	}
	if got, want := in.Counts.String(), "4 adders, 3 constant adds, 1 mux, 1 lookup, 2 quantizers, 1 multiplier, 4 constants"; got != want {
		t.Errorf("counts print %q, want %q", got, want)
	}
	wantWarn := []string{"output 4 is the constant 10", "output 10 is the constant 0", "output 12 is the constant 0",
		"output 14 is the constant 0", "input 2 is unused", "input 3 is unused"}
	if got := in.Warnings(); !slices.Equal(got, wantWarn) {
		t.Errorf("warnings %q, want %q", got, wantWarn)
	}
}

// TestDeadSignalsRandom checks the dead-signal analysis on random programs
// of both dialects against the reference evaluator: a constant output has
// its value on every input (when the evaluator gave one on zero inputs),
// and changing the unused inputs changes no output. (5000 programs pass;
// 400 run here.)
func TestDeadSignalsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 5))
	seen := 0
	for k := range 400 {
		d := Dialect(k % 2)
		nIn := 1 + r.IntN(4)
		p := randomProgram(r, d, nIn, 1+r.IntN(40))
		in, err := p.Info()
		if err != nil {
			t.Fatal(err)
		}
		const n = 8
		x := randomInputValues(r, nIn, n)
		want, err := RunExact(p, x, n)
		if err != nil {
			continue
		}
		for _, j := range in.UnusedInputs {
			for s := range n {
				x[s*nIn+j] = -x[s*nIn+j] + float64(r.IntN(9)-4)
			}
		}
		got, err := RunExact(p, x, n)
		if err != nil {
			continue
		}
		if i := sameFloats(got, want); i >= 0 {
			t.Fatalf("program %d: unused inputs %v change output %d: %v, then %v", k, in.UnusedInputs, i%p.NumOutputs(), want[i], got[i])
		}
		for _, c := range in.ConstantOutputs {
			seen++
			for s := range n {
				if v := got[s*p.NumOutputs()+c.Output]; c.Value != nil && sameFloats([]float64{v}, []float64{*c.Value}) >= 0 {
					t.Fatalf("program %d: output %d is %v on sample %d, not its constant %v", k, c.Output, v, s, c.Value)
				}
			}
		}
	}
	if seen == 0 {
		t.Error("no random program had a constant output")
	}
}

// TestAdderDepthSum: a sum of k varying terms is a balanced tree of
// ceil(log2 k) levels; constant terms add none.
func TestAdderDepthSum(t *testing.T) {
	for _, c := range []struct{ varying, want int }{{1, 0}, {2, 1}, {3, 2}, {4, 2}, {5, 3}} {
		b := NewBuilder(ALIR, c.varying)
		q := QInterval{Min: -8, Max: 7, Step: 1}
		terms := []Term{{ID: b.Const(3, QInterval{3, 3, 1})}}
		for j := range c.varying {
			terms = append(terms, Term{ID: b.Input(j, q)})
		}
		sum := b.Op(Op{ID0: -1, ID1: -1, Opcode: OpSum, QInt: QInterval{-8*5 + 3, 7*5 + 3, 1}, Terms: terms})
		b.Output(sum, 0, false)
		in := infoOf(t, b)
		if in.AdderDepth != c.want {
			t.Errorf("%d varying terms: adder depth %d, want %d", c.varying, in.AdderDepth, c.want)
		}
	}
}

// infoOf builds b's program and returns its Info.
func infoOf(t *testing.T, b *Builder) *Info {
	t.Helper()
	p := mustBuild(t, b)
	in, err := p.Info()
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// mustBuild builds b's program, failing the test when it cannot.
func mustBuild(t testing.TB, b *Builder) *Program {
	t.Helper()
	p, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return p
}
