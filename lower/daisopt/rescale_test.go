package daisopt

import (
	"testing"

	"github.com/otir-dev/otir/backend/alir"
)

// dais-rescale makes the shifts of lower-tiles free: a floor shift (0 +
// x*2^-3) becomes a quantize, an exact shift (0 + x*2^2) disappears, a
// constant plus a shifted value and a value minus a shifted constant become
// constant adds; what reads the shifted values (an adder, a relu, a mux
// whose condition is one, a lookup) computes the same outputs.
func TestRescaleShifts(t *testing.T) {
	b := alir.NewBuilder(alir.ALIR, 2)
	i8 := alir.KIF{Signed: true, Integers: 7}.QInterval()
	x := b.Input(0, i8)
	y := b.Input(1, i8)
	zero := b.Const(0, alir.QInterval{Min: 0, Max: 0, Step: 1})
	c := b.Const(5, alir.QInterval{Min: 5, Max: 5, Step: 1})
	floor := b.Add(zero, x, -3, alir.QInterval{Min: -16, Max: 15, Step: 1})   // floor(x / 8)
	exact := b.Add(zero, y, 2, alir.QInterval{Min: -512, Max: 508, Step: 4})  // y * 4
	bias := b.Add(c, floor, 3, alir.QInterval{Min: -123, Max: 125, Step: 1})  // 5 + floor*8
	minus := b.Sub(exact, c, 1, alir.QInterval{Min: -522, Max: 498, Step: 2}) // y*4 - 10
	sum := b.Add(bias, minus, 0, alir.QInterval{Min: -645, Max: 623, Step: 1})
	relu := b.ReLU(floor, alir.QInterval{Min: 0, Max: 15, Step: 1})
	mux := b.Mux(floor, exact, relu, 0, alir.QInterval{Min: -512, Max: 508, Step: 1})
	table := b.AddTable(alir.Table{Values: make([]int32, 32)})
	look := b.Lookup(floor, table, alir.QInterval{Min: 0, Max: 0, Step: 1})
	for _, s := range []int32{floor, exact, sum, relu, mux, look} {
		b.Output(s, 0, false)
	}
	p, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	m, prog := toDais(t, p)
	removed, err := Rescale(prog, true)
	if err != nil {
		t.Fatal(err)
	}
	after := check(t, m)
	sameOutputs(t, p, after, 4000, 1)
	count := map[alir.Opcode]int{}
	for _, op := range after.Ops {
		count[op.Opcode]++
	}
	// The floor shift becomes a quantize, the exact shift nothing, the bias
	// and the subtraction of a constant constant adds: only sum stays an
	// adder.
	if removed != 4 || count[alir.OpAdd]+count[alir.OpSub] != 1 || count[alir.OpConstAdd] != 2 || count[alir.OpQuantize] != 1 {
		t.Errorf("removed %d adders, left %v; want 4 removed, 1 adder (sum), 2 constant adds, 1 quantize", removed, count)
	}
}

// An exact shift whose raw bits a lookup reads stays a slot of its own type
// (x + 0, a constant add), so the lookup's index is unchanged.
func TestRescaleKeepsRawBits(t *testing.T) {
	b := alir.NewBuilder(alir.ALIR, 1)
	x := b.Input(0, alir.KIF{Signed: true, Integers: 3}.QInterval())
	zero := b.Const(0, alir.QInterval{Min: 0, Max: 0, Step: 1})
	exact := b.Add(zero, x, 2, alir.QInterval{Min: -32, Max: 28, Step: 4})
	values := make([]int32, 16)
	for k := range values {
		values[k] = int32(k * k)
	}
	look := b.Lookup(exact, b.AddTable(alir.Table{Values: values}), alir.QInterval{Min: 0, Max: 225, Step: 1})
	b.Output(look, 0, false)
	b.Output(exact, 0, false)
	p, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	m, prog := toDais(t, p)
	if _, err := Rescale(prog, true); err != nil {
		t.Fatal(err)
	}
	after := check(t, m)
	sameOutputs(t, p, after, 1000, 2)
	if op := after.Ops[after.Outputs[1].Index]; op.Opcode != alir.OpConstAdd {
		t.Errorf("the looked-up shift became opcode %d, want a constant add of 0", op.Opcode)
	}
}
