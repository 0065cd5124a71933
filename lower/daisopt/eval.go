package daisopt

import (
	"math/big"

	"github.com/otir-dev/otir/backend/alir"
)

// evalConst returns the raw result of op in slot i when op reads only slots
// whose raw values val knows (val returns nil for a slot that is not
// constant). It is alir's reference semantics (alir.Evaluator); ok is false
// for inputs, for ops with a non-constant operand, and for a lookup whose
// index falls outside its table (which fails at run time, so it is left in
// place).
func (v *view) evalConst(i int, op alir.Op, val func(int32) *big.Int) (z *big.Int, ok bool) {
	ids, n := args(op)
	for _, s := range ids[:n] {
		if val(s) == nil {
			return nil, false
		}
	}
	if op.Opcode == alir.OpInput {
		return nil, false
	}
	z, err := v.eval.Eval(i, op, val)
	return z, err == nil
}

// msb reports whether the most significant bit of raw value r of type t is
// set (an ALIR mux condition, alir.MuxTrue); a zero-width value has none.
func msb(r *big.Int, t alir.KIF) bool { return alir.MuxTrue(alir.ALIR, t, r) }
