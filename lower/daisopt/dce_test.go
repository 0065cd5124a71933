package daisopt

import (
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

func TestDCERewrites(t *testing.T) {
	add := alir.OpAdd
	q9 := alir.AddQInt(q8, q8, 0, false)
	tab := func(x int32) []int32 { return []int32{x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x} }
	tables := func(n int) func(t *testing.T, prog *ir.Operation) {
		return func(t *testing.T, prog *ir.Operation) {
			t.Helper()
			got := 0
			for _, op := range body(prog).Ops {
				if op.Name == dais.OpTable {
					got++
				}
			}
			if got != n {
				t.Errorf("%d tables left, want %d", got, n)
			}
		}
	}
	runCases(t, []rewriteCase{
		{name: "dead chain", ops: []alir.Op{in(0, q8), in(1, q8), bin(add, 0, 1, 0, q9), un(alir.OpNeg, 2, alir.NegQInt(q9)), un(alir.OpQuantize, 0, q16)},
			want: "input quantize"},
		{name: "all live", ops: []alir.Op{in(0, q8), in(1, q8), bin(add, 0, 1, 0, q9)},
			want: "input input add"},
		{name: "zero outputs only", ops: []alir.Op{in(0, q8), cst(1, q8)}, outs: []int32{-1, -1},
			want: ""},
		{name: "mux condition is live", ops: []alir.Op{in(0, q8), in(1, q8), un(alir.OpNeg, 1, q9), mux(2, 0, 0, 0, q8)},
			want: "input input neg mux"},
		{name: "unused table dropped, lookup renumbered", ops: []alir.Op{in(0, u4), mk(alir.OpLookup, 0, -1, 1, q8)},
			tables: [][]int32{tab(1), tab(2), tab(3)},
			want:   "input lookup", check: func(t *testing.T, prog *ir.Operation) {
				tables(1)(t, prog)
				wantAttr(1, "table", 0)(t, prog)
			}},
		{name: "table of a dead lookup dropped", ops: []alir.Op{in(0, u4), mk(alir.OpLookup, 0, -1, 0, q8), mk(alir.OpLookup, 0, -1, 1, q8)},
			tables: [][]int32{tab(1), tab(2)}, outs: []int32{1},
			want: "input lookup", check: func(t *testing.T, prog *ir.Operation) {
				tables(1)(t, prog)
				wantAttr(1, "table", 0)(t, prog)
			}},
		{name: "shared table kept once", ops: []alir.Op{in(0, u4), mk(alir.OpLookup, 0, -1, 2, q8), mk(alir.OpLookup, 0, -1, 2, q8), bin(add, 1, 2, 0, q9)},
			tables: [][]int32{tab(1), tab(2), tab(3)},
			want:   "input lookup lookup add", check: func(t *testing.T, prog *ir.Operation) {
				tables(1)(t, prog)
				wantAttr(1, "table", 0)(t, prog)
				wantAttr(2, "table", 0)(t, prog)
			}},
	}, DCE)
}
