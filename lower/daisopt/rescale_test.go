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
