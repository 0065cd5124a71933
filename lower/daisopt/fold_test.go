package daisopt

import (
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
)

var half = alir.QInterval{Min: -8, Max: 7.5, Step: 0.5}

// The expected values below follow from the semantics by hand (ERRATA,
// "Quantization"): an add is exact, a mul gives its raw product at step
// step_a*step_b, and only quantize (relu, mux) floors and wraps.
func TestFoldRewrites(t *testing.T) {
	add, sub, mul := alir.OpAdd, alir.OpSub, alir.OpMul
	q9 := alir.AddQInt(q8, q8, 0, false)
	qh := alir.MulQInt(q8, half) // [-1016, 1024] at step 0.5: products of q8 and half
	runCases(t, []rewriteCase{
		{name: "constants add", ops: []alir.Op{cst(3, q8), cst(5, q8), bin(add, 0, 1, 0, q9)},
			want: "const const const", check: wantAttr(2, "value", 8)},
		{name: "constants add with shift", ops: []alir.Op{cst(3, q8), cst(5, q8), bin(add, 0, 1, 2, q16)},
			want: "const const const", check: wantAttr(2, "value", 23)},
		// 100 + 100 = 200 exactly (an add never wraps; q9 holds it); the
		// quantize to q8 wraps it: 200 - 256 = -56.
		{name: "constant sum is exact, its quantize wraps", ops: []alir.Op{cst(100, q8), cst(100, q8), bin(add, 0, 1, 0, q9), un(alir.OpQuantize, 2, q8)},
			want: "const const const const", check: both(wantAttr(2, "value", 200), wantAttr(3, "value", -56))},
		// 3 * 0.5: the raw product 3*1 = 3 at step 0.5 (1.5); the quantize
		// to step 1 floors it to 1.
		{name: "constant product is raw, its quantize floors", ops: []alir.Op{cst(3, q8), cst(1, half), bin(mul, 0, 1, 0, qh), un(alir.OpQuantize, 2, q8)},
			want: "const const const const", check: both(wantAttr(2, "value", 3), wantAttr(3, "value", 1))},
		// -3 * 0.5: raw -3 at step 0.5 (-1.5), floored to -2.
		{name: "constant negative product floors", ops: []alir.Op{cst(-3, q8), cst(1, half), bin(mul, 0, 1, 0, qh), un(alir.OpQuantize, 2, q8)},
			want: "const const const const", check: both(wantAttr(2, "value", -3), wantAttr(3, "value", -2))},
		// 2^31 * 2^32 = 2^63 lies in the 64-bit unsigned type but not in
		// the int64 a dais.const holds: the mul stays.
		{name: "constant beyond int64 stays", ops: []alir.Op{cst(1<<31, alir.KIF{Integers: 32}.QInterval()), cst(1<<32, alir.KIF{Integers: 33}.QInterval()),
			bin(mul, 0, 1, 0, alir.KIF{Integers: 64}.QInterval())},
			want: "const const mul"},
		{name: "constant relu", ops: []alir.Op{cst(-3, q8), un(alir.OpReLU, 0, q8)},
			want: "const const", check: wantAttr(1, "value", 0)},
		{name: "constant chain", ops: []alir.Op{cst(3, q8), un(alir.OpNeg, 0, q8), bin(sub, 1, 0, 1, q16)},
			want: "const const const", check: wantAttr(2, "value", -9)},
		{name: "constant const_add", ops: []alir.Op{cst(3, half), mk(alir.OpConstAdd, 0, -1, alir.PackData(3, 1), half)},
			want: "const const", check: wantAttr(1, "value", 6)},
		{name: "constant lookup", ops: []alir.Op{cst(2, u4), mk(alir.OpLookup, 0, -1, 0, q8)},
			tables: [][]int32{{10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25}},
			want:   "const const", check: wantAttr(1, "value", 12)},
		{name: "lookup out of range stays", ops: []alir.Op{cst(2, u4), mk(alir.OpLookup, 0, -1, 0, q8)},
			tables: [][]int32{{10, 11}}, outs: []int32{0},
			want: "const lookup", failsAtRunTime: true},
		{name: "constant bit and", ops: []alir.Op{cst(6, q8), cst(3, q8), mk(alir.OpBitBinary, 0, 1, alir.BitBinaryData(0, alir.BitAnd), q8)},
			want: "const const const", check: wantAttr(2, "value", 2)},
		{name: "constant bit not", ops: []alir.Op{cst(6, u4), mk(alir.OpBitUnary, 0, -1, alir.BitNot, u4)},
			want: "const const", check: wantAttr(1, "value", 9)},
		{name: "constant mux", ops: []alir.Op{cst(-1, q8), cst(4, q8), cst(5, q8), mux(0, 1, 2, 1, q16)},
			want: "const const const const", check: wantAttr(3, "value", 4)},
		{name: "input is not folded", ops: []alir.Op{in(0, q8), un(alir.OpQuantize, 0, q16)},
			want: "input quantize"},

		{name: "x+0", ops: []alir.Op{in(0, q8), cst(0, q8), bin(add, 0, 1, 0, q9)},
			want: "input const quantize"},
		{name: "x+0 same type is x", ops: []alir.Op{in(0, q8), cst(0, q8), bin(add, 0, 1, 3, q8)},
			want: "input const"},
		{name: "0+x", ops: []alir.Op{in(0, q8), cst(0, q8), bin(add, 1, 0, 0, q9)},
			want: "input const quantize"},
		{name: "0+x shifted stays", ops: []alir.Op{in(0, q8), cst(0, q8), bin(add, 1, 0, 1, q16)},
			want: "input const add"},
		{name: "x-0", ops: []alir.Op{in(0, q8), cst(0, q8), bin(sub, 0, 1, 2, q9)},
			want: "input const quantize"},
		{name: "0-x", ops: []alir.Op{in(0, q8), cst(0, q8), bin(sub, 1, 0, 0, q9)},
			want: "input const neg"},
		{name: "x-x", ops: []alir.Op{in(0, q8), bin(sub, 0, 0, 0, q9)},
			want: "input const", check: wantAttr(1, "value", 0)},
		{name: "x-x shifted stays", ops: []alir.Op{in(0, q8), bin(sub, 0, 0, 1, q16)},
			want: "input sub"},
		{name: "x+y stays", ops: []alir.Op{in(0, q8), in(1, q8), bin(add, 0, 1, 0, q9)},
			want: "input input add"},
		{name: "const_add 0", ops: []alir.Op{in(0, q8), mk(alir.OpConstAdd, 0, -1, alir.PackData(0, 3), q9)},
			want: "input quantize"},
		// mul(x, 1) is x's raw value at x's step when 1 has step 1.
		{name: "x*1", ops: []alir.Op{in(0, half), cst(1, q8), bin(mul, 0, 1, 0, qh)},
			want: "input const quantize"},
		// With 1 at step 0.5 (raw 2) the product is at step 0.5, finer than
		// x's: a quantize may not make the step finer (nor neg rescale).
		{name: "x*1 at a finer step stays", ops: []alir.Op{in(0, q8), cst(2, half), bin(mul, 0, 1, 0, qh)},
			want: "input const mul"},
		{name: "1*x", ops: []alir.Op{in(0, q8), cst(1, q8), bin(mul, 1, 0, 0, q9)},
			want: "input const quantize"},
		{name: "x*-1", ops: []alir.Op{in(0, half), cst(-1, q8), bin(mul, 0, 1, 0, qh)},
			want: "input const neg"},
		{name: "x*-1 at a finer step stays", ops: []alir.Op{in(0, q8), cst(-2, half), bin(mul, 0, 1, 0, qh)},
			want: "input const mul"},
		{name: "x*0", ops: []alir.Op{in(0, q8), cst(0, half), bin(mul, 0, 1, 0, qh)},
			want: "input const const", check: wantAttr(2, "value", 0)},
		{name: "x*2 stays", ops: []alir.Op{in(0, q8), cst(2, q8), bin(mul, 0, 1, 0, q16)},
			want: "input const mul"},
		{name: "mux true", ops: []alir.Op{in(0, q8), in(1, q8), cst(-1, q8), mux(2, 0, 1, 0, q9)},
			want: "input input const quantize", check: wantOperand(3, 0, 0)},
		{name: "mux true same type", ops: []alir.Op{in(0, q8), in(1, q8), cst(-1, q8), mux(2, 0, 1, 2, q8)},
			want: "input input const"},
		{name: "mux false", ops: []alir.Op{in(0, q8), in(1, q8), cst(1, q8), mux(2, 0, 1, 0, q9)},
			want: "input input const quantize", check: wantOperand(3, 0, 1)},
		{name: "mux false shifted stays", ops: []alir.Op{in(0, q8), in(1, q8), cst(1, q8), mux(2, 0, 1, 1, q16)},
			want: "input input const mux"},
		{name: "mux unsigned condition msb", ops: []alir.Op{in(0, q8), in(1, q8), cst(8, u4), mux(2, 0, 1, 0, q9)},
			want: "input input const quantize", check: wantOperand(3, 0, 0)},
		{name: "mux same branches", ops: []alir.Op{in(0, q8), in(1, q8), mux(1, 0, 0, 0, q9)},
			want: "input input quantize"},
		{name: "relu of unsigned", ops: []alir.Op{in(0, u4), un(alir.OpReLU, 0, q8)},
			want: "input quantize"},
		{name: "relu of signed stays", ops: []alir.Op{in(0, q8), un(alir.OpReLU, 0, q8)},
			want: "input relu"},
		{name: "neg neg", ops: []alir.Op{in(0, q8), un(alir.OpNeg, 0, alir.NegQInt(q8)), un(alir.OpNeg, 1, q8)},
			want: "input neg"},
		{name: "neg neg into another type", ops: []alir.Op{in(0, q8), un(alir.OpNeg, 0, alir.NegQInt(q8)), un(alir.OpNeg, 1, q16)},
			want: "input neg quantize"},
		// -(-128) = 128, which the quantize to q8 wraps to -128, negated
		// again to 128: not x.
		{name: "neg of a wrapping quantize of a neg stays", ops: []alir.Op{in(0, q8), un(alir.OpNeg, 0, alir.NegQInt(q8)),
			un(alir.OpQuantize, 1, q8), un(alir.OpNeg, 2, alir.NegQInt(q8))},
			want: "input neg quantize neg"},
		{name: "quantize to own type", ops: []alir.Op{in(0, q8), un(alir.OpQuantize, 0, q8), un(alir.OpQuantize, 1, q8)},
			want: "input"},
		{name: "quantize to same width other interval stays", ops: []alir.Op{in(0, q8), un(alir.OpQuantize, 0, alir.QInterval{Min: -100, Max: 100, Step: 1})},
			want: "input quantize"},
	}, Fold)
}

// both runs two checks.
func both(a, b func(t *testing.T, prog *ir.Operation)) func(t *testing.T, prog *ir.Operation) {
	return func(t *testing.T, prog *ir.Operation) {
		t.Helper()
		a(t, prog)
		b(t, prog)
	}
}

// wantOperand checks that operand k of slot op i is the result of slot op j.
func wantOperand(i, k, j int) func(t *testing.T, prog *ir.Operation) {
	return func(t *testing.T, prog *ir.Operation) {
		t.Helper()
		if got := slotOp(prog, i).Operands[k]; got != slotOp(prog, j).Results[0] {
			t.Errorf("slot %d operand %d is not slot %d", i, k, j)
		}
	}
}
