package daisopt

import (
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
)

func TestCSERewrites(t *testing.T) {
	add, sub, mul := alir.OpAdd, alir.OpSub, alir.OpMul
	q9 := alir.AddQInt(q8, q8, 0, false)
	and := alir.BitBinaryData(0, alir.BitAnd)
	runCases(t, []rewriteCase{
		{name: "identical adds", ops: []alir.Op{in(0, q8), in(1, q8), bin(add, 0, 1, 0, q9), bin(add, 0, 1, 0, q9), bin(sub, 2, 3, 0, q16)},
			want: "input input add sub", check: wantOperand(3, 1, 2)},
		{name: "commuted add", ops: []alir.Op{in(0, q8), in(1, q8), bin(add, 0, 1, 0, q9), bin(add, 1, 0, 0, q9), bin(sub, 2, 3, 0, q16)},
			want: "input input add sub"},
		{name: "commuted mul", ops: []alir.Op{in(0, q8), in(1, q8), bin(mul, 0, 1, 0, q16), bin(mul, 1, 0, 0, q16), bin(sub, 2, 3, 0, q16)},
			want: "input input mul sub"},
		{name: "commuted bit and", ops: []alir.Op{in(0, q8), in(1, q8), bin(alir.OpBitBinary, 0, 1, and, q8), bin(alir.OpBitBinary, 1, 0, and, q8), bin(sub, 2, 3, 0, q16)},
			want: "input input bit_binary sub"},
		{name: "commuted sub stays", ops: []alir.Op{in(0, q8), in(1, q8), bin(sub, 0, 1, 0, q9), bin(sub, 1, 0, 0, q9), bin(sub, 2, 3, 0, q16)},
			want: "input input sub sub sub"},
		{name: "commuted shifted add stays", ops: []alir.Op{in(0, q8), in(1, q8), bin(add, 0, 1, 1, q16), bin(add, 1, 0, 1, q16), bin(sub, 2, 3, 0, q16)},
			want: "input input add add sub"},
		{name: "other shift stays", ops: []alir.Op{in(0, q8), in(1, q8), bin(add, 0, 1, 0, q16), bin(add, 0, 1, 1, q16), bin(sub, 2, 3, 0, q16)},
			want: "input input add add sub"},
		{name: "other type stays", ops: []alir.Op{in(0, q8), in(1, q8), bin(add, 0, 1, 0, q9), bin(add, 0, 1, 0, q16), bin(sub, 2, 3, 0, q16)},
			want: "input input add add sub"},
		{name: "annotations ignored", ops: []alir.Op{in(0, q8), in(1, q8), bin(add, 0, 1, 0, q9), {ID0: 0, ID1: 1, Opcode: add, QInt: q9, Latency: 3, Cost: 2}, bin(sub, 2, 3, 0, q16)},
			want: "input input add sub"},
		{name: "inputs and constants", ops: []alir.Op{in(0, q8), in(0, q8), cst(3, q8), cst(3, q8), cst(3, q16), bin(add, 0, 1, 0, q9), bin(add, 2, 3, 0, q9), bin(add, 5, 6, 0, q16), bin(add, 7, 4, 0, q16)},
			want: "input const const add add add add"},
		{name: "transitive", ops: []alir.Op{in(0, q8), in(1, q8), bin(add, 0, 1, 0, q9), bin(add, 0, 1, 0, q9),
			un(alir.OpNeg, 2, alir.NegQInt(q9)), un(alir.OpNeg, 3, alir.NegQInt(q9)), bin(sub, 4, 5, 0, q16)},
			want: "input input add neg sub"},
		{name: "mux operands in order", ops: []alir.Op{in(0, q8), in(1, q8), mux(0, 0, 1, 0, q8), mux(1, 0, 1, 0, q8), mux(0, 1, 0, 0, q8), bin(add, 2, 3, 0, q9), bin(add, 5, 4, 0, q16)},
			want: "input input mux mux mux add add"},
		{name: "outputs follow", ops: []alir.Op{in(0, q8), in(1, q8), bin(add, 0, 1, 0, q9), bin(add, 0, 1, 0, q9)}, outs: []int32{2, 3},
			want: "input input add", check: func(t *testing.T, prog *ir.Operation) {
				out := body(prog).Terminator()
				if out.Operands[0] != out.Operands[1] {
					t.Errorf("outputs read different values")
				}
			}},
	}, CSE)
}
