package daisopt

import (
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
)

// rescaled runs dais-rescale on p, checks the result (verified, printed
// and parsed back, the same outputs on random inputs) and returns it with
// the number of adders removed and the ops left by opcode.
func rescaled(t *testing.T, p *alir.Program) (*alir.Program, int, map[alir.Opcode]int) {
	t.Helper()
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
	return after, removed, count
}

// dais-rescale makes the shifts of lower-tiles free: a floor shift (0 +
// x*2^-3) that only a relu reads becomes a quantize, an exact shift (0 +
// y*2^2) disappears, a constant plus a shifted value and a value minus a
// shifted constant become constant adds; only the adder of two values
// stays.
func TestRescaleShifts(t *testing.T) {
	b := alir.NewBuilder(alir.ALIR, 2)
	i8 := alir.KIF{Signed: true, Integers: 7}.QInterval()
	x := b.Input(0, i8)
	y := b.Input(1, i8)
	zero := b.Const(0, alir.QInterval{Min: 0, Max: 0, Step: 1})
	c := b.Const(5, alir.QInterval{Min: 5, Max: 5, Step: 1})
	floor := b.Add(zero, x, -3, alir.QInterval{Min: -16, Max: 15, Step: 1}) // floor(x / 8)
	relu := b.ReLU(floor, alir.QInterval{Min: 0, Max: 15, Step: 1})
	exact := b.Add(zero, y, 2, alir.QInterval{Min: -512, Max: 508, Step: 4})  // y * 4
	bias := b.Add(c, x, 3, alir.QInterval{Min: -1019, Max: 1021, Step: 1})    // 5 + x*8
	minus := b.Sub(exact, c, 1, alir.QInterval{Min: -522, Max: 498, Step: 2}) // y*4 - 10
	sum := b.Add(bias, minus, 0, alir.QInterval{Min: -1541, Max: 1519, Step: 1})
	for _, s := range []int32{floor, relu, exact, sum} {
		b.Output(s, 0, false)
	}
	p, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	_, removed, count := rescaled(t, p)
	if removed != 4 || count[alir.OpAdd]+count[alir.OpSub] != 1 || count[alir.OpConstAdd] != 2 || count[alir.OpQuantize] != 1 {
		t.Errorf("removed %d adders, left %v; want 4 removed, 1 adder (sum), 2 constant adds, 1 quantize (the floor)", removed, count)
	}
}

// A shift whose raw bits a lookup reads stays a slot of its own type (x +
// 0, a constant add: it keeps an exact interval), so the lookup's index is
// unchanged.
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
	after, _, _ := rescaled(t, p)
	if op := after.Ops[after.Outputs[1].Index]; op.Opcode != alir.OpConstAdd {
		t.Errorf("the looked-up shift became opcode %d, want a constant add of 0", op.Opcode)
	}
}

// max(a, 4b) as lower-tiles makes it, a mux of its condition 4b - a, then
// negated: rescaled, the program computes the same and stays portable (the
// check bounds a mux by the types of its branches, which a rescale may
// change: dais-rescale then spares what muxes read).
func TestRescaleSparesMuxes(t *testing.T) {
	b := alir.NewBuilder(alir.ALIR, 2)
	i6 := alir.KIF{Signed: true, Integers: 5}.QInterval()
	a := b.Input(0, i6)
	x := b.Input(1, i6)
	zero := b.Const(0, alir.QInterval{Min: 0, Max: 0, Step: 1})
	four := b.Add(zero, x, 2, alir.QInterval{Min: -128, Max: 124, Step: 4})
	cond := b.Sub(four, a, 0, alir.QInterval{Min: -159, Max: 156, Step: 1})
	m := b.Mux(cond, a, four, 0, alir.QInterval{Min: -32, Max: 124, Step: 1})
	n := b.Neg(m, alir.QInterval{Min: -124, Max: 128, Step: 1})
	b.Output(n, 0, false)
	p, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if bad, err := p.Portability(); err != nil || len(bad) > 0 {
		t.Fatalf("the test program is not portable: %v %v", bad, err)
	}
	rescaled(t, p)
}

// A program lowered from a quantized graph (the differential test's mlp3 of
// lower/nn/kernels: max of two linears, abs, reduce_sum; testdata/
// rescale-mux.json, lower-tiles{max-adder-depth=-1} and dais-optimize)
// whose rescale, as first made, the portability check rejects: abs's
// negation of a rescaled max loses its bound. dais-rescale then spares
// what the muxes read, and still removes the other shifts.
func TestRescaleFallsBackForMuxes(t *testing.T) {
	p, _, err := alir.ReadFile(filepath.Join("testdata", "rescale-mux.json"), alir.FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	_, prog := toDais(t, p)
	v, err := load(prog)
	if err != nil {
		t.Fatal(err)
	}
	v.rescale(false)
	if bad, err := v.p.Portability(); err != nil || len(bad) == 0 {
		t.Fatalf("the first rescale is portable (%v): the case no longer tests the fallback", err)
	}
	_, removed, _ := rescaled(t, p)
	if removed == 0 {
		t.Errorf("the fallback removed no adder")
	}
}

// A negated difference that nothing else reads becomes one sub with its
// operands swapped and a negative shift, at a finer scale: -(x - y*2^3) is
// (y - x*2^-3)*2^3. The negation, an adder and a level, goes; a negated
// difference read elsewhere too, and a negated sum, keep their negations.
func TestRescaleSwapsNegatedSub(t *testing.T) {
	b := alir.NewBuilder(alir.ALIR, 3)
	i8 := alir.KIF{Signed: true, Integers: 7}.QInterval()
	x := b.Input(0, i8)
	y := b.Input(1, i8)
	z := b.Input(2, i8)
	diff := b.Sub(x, y, 3, alir.QInterval{Min: -1144, Max: 1151, Step: 1})   // x - y*8
	neg := b.Neg(diff, alir.QInterval{Min: -1151, Max: 1144, Step: 1})       // y*8 - x
	shared := b.Sub(y, z, 0, alir.QInterval{Min: -255, Max: 255, Step: 1})   // y - z
	negShared := b.Neg(shared, alir.QInterval{Min: -255, Max: 255, Step: 1}) // z - y
	sum := b.Add(x, z, 1, alir.QInterval{Min: -384, Max: 381, Step: 1})      // x + z*2
	negSum := b.Neg(sum, alir.QInterval{Min: -381, Max: 384, Step: 1})
	for _, s := range []int32{neg, negShared, shared, negSum} {
		b.Output(s, 0, false)
	}
	p, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	after, removed, count := rescaled(t, p)
	if removed != 1 || count[alir.OpNeg] != 2 || count[alir.OpSub] != 2 || count[alir.OpAdd] != 1 {
		t.Errorf("removed %d, left %v; want 1 removed, 2 negations (of the shared sub and of the sum), 2 subs, 1 add", removed, count)
	}
	o := after.Outputs[0]
	if op := after.Ops[o.Index]; op.Opcode != alir.OpSub || op.Data != -3 || o.Shift != 3 || o.Neg {
		t.Errorf("output 0 reads %+v with shift %d (neg %v); want a sub of shift -3 read with shift 3", op, o.Shift, o.Neg)
	}
}
