package daisopt

import (
	"testing"

	"otir/backend/alir"
	"otir/ir"
)

var half = alir.QInterval{Min: -8, Max: 7.5, Step: 0.5}

func TestFoldRewrites(t *testing.T) {
	add, sub, mul := alir.OpAdd, alir.OpSub, alir.OpMul
	q9 := alir.AddQInt(q8, q8, 0, false)
	runCases(t, []rewriteCase{
		{name: "constants add", ops: []alir.Op{cst(3, q8), cst(5, q8), bin(add, 0, 1, 0, q9)},
			want: "const const const", check: wantAttr(2, "value", 8)},
		{name: "constants add with shift", ops: []alir.Op{cst(3, q8), cst(5, q8), bin(add, 0, 1, 2, q16)},
			want: "const const const", check: wantAttr(2, "value", 23)},
		{name: "constant sum wraps", ops: []alir.Op{cst(100, q8), cst(100, q8), bin(add, 0, 1, 0, q8)},
			want: "const const const", check: wantAttr(2, "value", -56)},
		{name: "constant product floors", ops: []alir.Op{cst(3, q8), cst(1, half), bin(mul, 0, 1, 0, q8)},
			want: "const const const", check: wantAttr(2, "value", 1)},
		{name: "constant negative product floors", ops: []alir.Op{cst(-3, q8), cst(1, half), bin(mul, 0, 1, 0, q8)},
			want: "const const const", check: wantAttr(2, "value", -2)},
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
		{name: "x*1", ops: []alir.Op{in(0, q8), cst(2, half), bin(mul, 0, 1, 0, q9)},
			want: "input const quantize"},
		{name: "1*x", ops: []alir.Op{in(0, q8), cst(1, q8), bin(mul, 1, 0, 0, q9)},
			want: "input const quantize"},
		{name: "x*-1", ops: []alir.Op{in(0, q8), cst(-2, half), bin(mul, 0, 1, 0, q9)},
			want: "input const neg"},
		{name: "x*0", ops: []alir.Op{in(0, q8), cst(0, half), bin(mul, 0, 1, 0, q9)},
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
		{name: "neg neg wrapping stays", ops: []alir.Op{in(0, q8), un(alir.OpNeg, 0, q8), un(alir.OpNeg, 1, q8)},
			want: "input neg neg"},
		{name: "quantize to own type", ops: []alir.Op{in(0, q8), un(alir.OpQuantize, 0, q8), un(alir.OpQuantize, 1, q8)},
			want: "input"},
		{name: "quantize to same width other interval stays", ops: []alir.Op{in(0, q8), un(alir.OpQuantize, 0, alir.QInterval{Min: -100, Max: 100, Step: 1})},
			want: "input quantize"},
	}, Fold)
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
