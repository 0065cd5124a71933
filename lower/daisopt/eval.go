package daisopt

import (
	"math/big"

	"otir/backend/alir"
)

// evalConst returns the raw result of op i when op reads only slots whose
// raw values val knows (val returns nil for a slot that is not constant).
// It follows the ALIR reference semantics (alir.RunExact) exactly; ok is
// false for inputs, for ops with a non-constant operand, and for a lookup
// whose index falls outside its table (which fails at run time, so it is left
// in place).
func (v *view) evalConst(i int, op alir.Op, val func(int32) *big.Int) (z *big.Int, ok bool) {
	ids, n := args(op)
	var x [3]*big.Int
	for k, s := range ids[:n] {
		if x[k] = val(s); x[k] == nil {
			return nil, false
		}
	}
	t := v.kif[i]
	f := func(s int32) int { return v.kif[s].Fractionals }
	switch op.Opcode {
	case alir.OpConst:
		return wrap(big.NewInt(op.Data), t), true
	case alir.OpNeg:
		return quantize(new(big.Int).Neg(x[0]), f(ids[0]), t), true
	case alir.OpAdd, alir.OpSub:
		fa, fb := f(ids[0]), f(ids[1])-int(op.DataLow())
		e := max(fa, fb)
		a := new(big.Int).Lsh(x[0], uint(e-fa))
		b := new(big.Int).Lsh(x[1], uint(e-fb))
		if op.Opcode == alir.OpSub {
			return quantize(a.Sub(a, b), e, t), true
		}
		return quantize(a.Add(a, b), e, t), true
	case alir.OpReLU:
		a := new(big.Int).Set(x[0])
		if a.Sign() < 0 {
			a.SetInt64(0)
		}
		return quantize(a, f(ids[0]), t), true
	case alir.OpQuantize:
		return quantize(x[0], f(ids[0]), t), true
	case alir.OpConstAdd:
		k, ek := big.NewInt(int64(op.DataLow())), int(op.DataHigh())
		fa := f(ids[0])
		e := max(fa, ek)
		a := new(big.Int).Lsh(x[0], uint(e-fa))
		return quantize(a.Add(a, k.Lsh(k, uint(e-ek))), e, t), true
	case alir.OpMux:
		if msb(x[0], v.kif[ids[0]]) {
			return quantize(x[1], f(ids[1]), t), true
		}
		return quantize(x[2], f(ids[2])-int(op.DataHigh()), t), true
	case alir.OpMul:
		return quantize(new(big.Int).Mul(x[0], x[1]), f(ids[0])+f(ids[1]), t), true
	case alir.OpLookup:
		return v.lookupConst(i, op, x[0])
	case alir.OpBitUnary:
		return bitUnary(x[0], v.kif[ids[0]], op.Data, t), true
	case alir.OpBitBinary:
		sh := int(op.DataLow()) + f(ids[0]) - f(ids[1])
		a, b := new(big.Int).Set(x[0]), new(big.Int).Set(x[1])
		if sh > 0 {
			b.Lsh(b, uint(sh))
		} else {
			a.Lsh(a, uint(-sh))
		}
		switch uint64(op.Data) >> 56 {
		case alir.BitAnd:
			a.And(a, b)
		case alir.BitOr:
			a.Or(a, b)
		default:
			a.Xor(a, b)
		}
		return wrap(a, t), true
	}
	return nil, false
}

// msb reports whether the most significant bit of raw value r of type t is
// set (a mux condition); a zero-width value has none.
func msb(r *big.Int, t alir.KIF) bool {
	w := t.Width()
	return w > 0 && new(big.Int).Rsh(r, uint(w-1)).Bit(0) == 1
}

// lookupConst reads lookup op i's table at the index of raw operand a.
func (v *view) lookupConst(i int, op alir.Op, a *big.Int) (*big.Int, bool) {
	ta := v.kif[op.ID0]
	pad, err := v.p.LookupPad(i)
	if err != nil {
		return nil, false
	}
	idx := new(big.Int).Set(a)
	if ta.Signed {
		idx.Add(idx, new(big.Int).Lsh(big.NewInt(1), uint(ta.Width()-1)))
	}
	idx.Sub(idx, big.NewInt(pad))
	tab := v.p.Tables[op.DataLow()].Values
	if !idx.IsInt64() || idx.Int64() < 0 || idx.Int64() >= int64(len(tab)) {
		return nil, false
	}
	return wrap(big.NewInt(int64(tab[idx.Int64()])), v.kif[i]), true
}

// bitUnary applies NOT, reduce-any or reduce-all to raw value a of type ta.
func bitUnary(a *big.Int, ta alir.KIF, kind int64, t alir.KIF) *big.Int {
	mask := new(big.Int).Lsh(big.NewInt(1), uint(ta.Width()))
	mask.Sub(mask, big.NewInt(1))
	z := new(big.Int)
	switch kind {
	case alir.BitNot:
		z.Not(a)
		if !t.Signed {
			z.And(z, mask)
		}
	case alir.BitReduceAny:
		z.SetInt64(int64(a.Sign() & 1))
	default:
		if new(big.Int).And(a, mask).Cmp(mask) == 0 {
			z.SetInt64(1)
		}
	}
	return wrap(z, t)
}
