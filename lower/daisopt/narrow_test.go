package daisopt

import (
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
)

func TestNarrowRewrites(t *testing.T) {
	add, sub, mul := alir.OpAdd, alir.OpSub, alir.OpMul
	u8 := alir.QInterval{Min: 0, Max: 255, Step: 1}
	narrow := func(p *ir.Operation) (int, error) { return Narrow(p, true) }
	runCases(t, []rewriteCase{
		{name: "wide add", ops: []alir.Op{in(0, q8), in(1, q8), bin(add, 0, 1, 0, q16)},
			want: "input input add", check: wantType(2, "!dais.q<-256, 254, 1>")},
		{name: "wide sub with shift", ops: []alir.Op{in(0, q8), in(1, u4), bin(sub, 0, 1, 2, q16)},
			want: "input input sub", check: wantType(2, "!dais.q<-188, 127, 1>")},
		// An add never wraps: the quantize after it does, and keeps its type
		// (x + y lies in [-256, 254], beyond q8).
		{name: "wrapping quantize keeps its type", ops: []alir.Op{in(0, q8), in(1, q8), bin(add, 0, 1, 0, alir.AddQInt(q8, q8, 0, false)), un(alir.OpQuantize, 2, q8)},
			want: "input input add quantize", check: wantType(3, "!dais.q<-128, 127, 1>")},
		// x - y lies in [-15, 15]: the quantize into u8 wraps the negative
		// values.
		{name: "signed into unsigned wraps", ops: []alir.Op{in(0, u4), in(1, u4), bin(sub, 0, 1, 0, alir.AddQInt(u4, u4, 0, true)), un(alir.OpQuantize, 2, u8)},
			want: "input input sub quantize", check: both(wantType(2, "!dais.q<-15, 15, 1>"), wantType(3, "!dais.q<0, 255, 1>"))},
		{name: "floored quantize", ops: []alir.Op{in(0, half), un(alir.OpQuantize, 0, q16)},
			want: "input quantize", check: wantType(1, "!dais.q<-8, 7, 1>")},
		{name: "narrowing follows narrowed operands", ops: []alir.Op{in(0, u4), un(alir.OpQuantize, 0, q16), bin(add, 1, 1, 0, q16)},
			want: "input quantize add", check: wantType(2, "!dais.q<0, 30, 1>")},
		{name: "input keeps its type", ops: []alir.Op{in(0, alir.QInterval{Min: -3, Max: 3, Step: 1}), un(alir.OpQuantize, 0, q8)},
			want: "input quantize", check: func(t *testing.T, prog *ir.Operation) {
				wantType(0, "!dais.q<-3, 3, 1>")(t, prog)
				wantType(1, "!dais.q<-4, 3, 1>")(t, prog) // the input may hold -4
			}},
		{name: "constant", ops: []alir.Op{cst(5, q8), in(0, q8), bin(add, 0, 1, 0, q16)},
			want: "const input add", check: wantType(0, "!dais.q<5, 5, 1>")},
		// A constant is its raw value: 300 gets [300, 300]. Its quantize to
		// q8 wraps (to 44) and keeps its type, so the add reads a value of
		// [-128, 127] and gets [-256, 254].
		{name: "wrapping quantize of a constant keeps its type", ops: []alir.Op{cst(300, q16), un(alir.OpQuantize, 0, q8), in(0, q8), bin(add, 1, 2, 0, q16)},
			want: "const quantize input add", check: func(t *testing.T, prog *ir.Operation) {
				wantType(0, "!dais.q<300, 300, 1>")(t, prog)
				wantType(1, "!dais.q<-128, 127, 1>")(t, prog)
				wantType(3, "!dais.q<-256, 254, 1>")(t, prog)
			}},
		{name: "zero constant", ops: []alir.Op{cst(0, half), in(0, q8), bin(add, 1, 0, 0, q16)},
			want: "const input add", check: wantType(0, "!dais.q<0, 0, 0.5>")},
		{name: "zero output keeps its step", ops: []alir.Op{in(0, q8), cst(0, half)},
			want: "input const", check: wantType(1, "!dais.q<-8, 7.5, 0.5>")},
		{name: "relu", ops: []alir.Op{in(0, q8), un(alir.OpReLU, 0, q16)},
			want: "input relu", check: wantType(1, "!dais.q<0, 127, 1>")},
		{name: "neg", ops: []alir.Op{in(0, u4), un(alir.OpNeg, 0, q16)},
			want: "input neg", check: wantType(1, "!dais.q<-15, 0, 1>")},
		{name: "mul", ops: []alir.Op{in(0, u4), in(1, q8), bin(mul, 0, 1, 0, q16)},
			want: "input input mul", check: wantType(2, "!dais.q<-1920, 1905, 1>")},
		{name: "const_add", ops: []alir.Op{in(0, u4), mk(alir.OpConstAdd, 0, -1, alir.PackData(-3, 1), alir.QInterval{Min: -128, Max: 127.5, Step: 0.5})},
			want: "input const_add", check: wantType(1, "!dais.q<-1.5, 13.5, 0.5>")},
		{name: "mux", ops: []alir.Op{in(0, u4), in(1, q8), mux(1, 0, 0, 2, q16)},
			want: "input input mux", check: wantType(2, "!dais.q<0, 60, 1>")},
		{name: "lookup result", ops: []alir.Op{in(0, u4), mk(alir.OpLookup, 0, -1, 0, q16)},
			tables: [][]int32{{-3, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 20}},
			want:   "input lookup", check: wantType(1, "!dais.q<-3, 20, 1>")},
		{name: "lookup operand keeps its type", ops: []alir.Op{in(0, u4), un(alir.OpQuantize, 0, u8), mk(alir.OpLookup, 1, -1, 0, q8)},
			tables: [][]int32{make([]int32, 256)},
			want:   "input quantize lookup", check: wantType(1, "!dais.q<0, 255, 1>")},
		{name: "bit operand keeps its type", ops: []alir.Op{in(0, u4), un(alir.OpQuantize, 0, u8), mk(alir.OpBitUnary, 1, -1, alir.BitNot, u8)},
			want: "input quantize bit_unary", check: wantType(1, "!dais.q<0, 255, 1>")},
		{name: "reduce result", ops: []alir.Op{in(0, q8), mk(alir.OpBitUnary, 0, -1, alir.BitReduceAny, u4)},
			want: "input bit_unary", check: wantType(1, "!dais.q<0, 1, 1>")},
		{name: "signed condition stays signed", ops: []alir.Op{in(0, u4), un(alir.OpNeg, 0, q16), mux(1, 0, 0, 0, q8)},
			want: "input neg mux", check: wantType(1, "!dais.q<-15, 0, 1>")},
		{name: "unsigned condition keeps its type", ops: []alir.Op{in(0, u4), un(alir.OpQuantize, 0, u8), mux(1, 0, 0, 0, q8)},
			want: "input quantize mux", check: wantType(1, "!dais.q<0, 255, 1>")},
		{name: "signed condition becoming unsigned keeps its type", ops: []alir.Op{in(0, u4), un(alir.OpQuantize, 0, q16), mux(1, 0, 0, 0, q8)},
			want: "input quantize mux", check: wantType(1, "!dais.q<-32768, 32767, 1>")},
	}, narrow)
}

// Narrowing lowers the cost-model estimate of a program of wide adders,
// and the annotations follow.
func TestNarrowLowersCost(t *testing.T) {
	b := alir.NewBuilder(alir.ALIR, 2)
	b.SetCostModel(4, 4)
	x := b.Input(0, q8)
	y := b.Input(1, q8)
	wide := alir.QInterval{Min: -1 << 20, Max: 1<<20 - 1, Step: 1}
	s := b.Add(x, y, 0, wide)
	d := b.Sub(s, y, 1, wide)
	b.Output(d, 0, false)
	p, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	m, prog := toDais(t, p)
	if _, err := Narrow(prog, true); err != nil {
		t.Fatal(err)
	}
	after := check(t, m)
	before, _ := p.Info()
	got, _ := after.Info()
	// 21-bit adders cost ceil(21/4) = 6 each; 9 and 11 bits cost 3 and 3.
	if before.Estimate.Cost != 12 || got.Estimate.Cost != 6 {
		t.Errorf("estimated cost %v -> %v, want 12 -> 6", before.Estimate.Cost, got.Estimate.Cost)
	}
	if got.Cost != got.Estimate.Cost || got.LatencyMax != got.Estimate.Latency {
		t.Errorf("annotations (cost %v, latency %v) differ from the estimate %+v", got.Cost, got.LatencyMax, got.Estimate)
	}
	sameOutputs(t, p, after, 1000, 2)
}
