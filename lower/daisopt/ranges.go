package daisopt

import (
	"math/big"

	"otir/backend/alir"
)

// ranges is a value-range analysis of a program: for every slot, a range of
// raw values (at the slot's fractional bits) that holds every value the slot
// takes on any input.
type ranges struct {
	span []span
	// wraps marks slots whose exact result may not fit their type, so the
	// op wraps (or reads an input, which wraps, or is a bit operation, whose
	// range is not tracked): the slot may hold any value of its type and
	// span is its type's full range.
	wraps []bool
	// floors marks slots whose op drops fraction bits of its exact result.
	floors []bool
}

// exact reports whether slot i holds its op's exact result: neither floored
// nor wrapped.
func (r *ranges) exact(i int) bool { return !r.wraps[i] && !r.floors[i] }

// analyze computes the ranges of every slot in one forward walk. Each op's
// exact result range follows from its operands' ranges (add/sub with shift,
// neg, relu, quantize, const_add, mul, mux, const, lookup over its table's
// entries); it is brought to the slot's step by floor and, when it does not
// fit the slot's type, replaced by the type's full range.
func analyze(v *view) *ranges {
	n := len(v.p.Ops)
	r := &ranges{span: make([]span, n), wraps: make([]bool, n), floors: make([]bool, n)}
	full := map[alir.KIF]span{}
	fullOf := func(t alir.KIF) span {
		s, ok := full[t]
		if !ok {
			s = fullSpan(t)
			full[t] = s
		}
		return s
	}
	type tableKey struct {
		table int32
		t     alir.KIF
	}
	tables := map[tableKey]span{}
	for i, op := range v.p.Ops {
		t := v.kif[i]
		f := func(s int32) int { return v.kif[s].Fractionals }
		var s span
		e := t.Fractionals // the exponent s is at
		known := true      // s is the exact result (else the op wraps)
		switch op.Opcode {
		case alir.OpInput, alir.OpBitBinary:
			known = false
		case alir.OpConst:
			raw := big.NewInt(op.Data)
			s = point(wrap(new(big.Int).Set(raw), t))
			known = s.lo.Cmp(raw) == 0
		case alir.OpNeg:
			s, e = r.span[op.ID0].neg(), f(op.ID0)
		case alir.OpAdd, alir.OpSub:
			fa, fb := f(op.ID0), f(op.ID1)-int(op.DataLow())
			e = max(fa, fb)
			b := r.span[op.ID1].shl(uint(e - fb))
			if op.Opcode == alir.OpSub {
				b = b.neg()
			}
			s = r.span[op.ID0].shl(uint(e - fa)).add(b)
		case alir.OpReLU:
			s, e = r.span[op.ID0].relu(), f(op.ID0)
		case alir.OpQuantize:
			s, e = r.span[op.ID0], f(op.ID0)
		case alir.OpConstAdd:
			fa, ek := f(op.ID0), int(op.DataHigh())
			e = max(fa, ek)
			k := new(big.Int).Lsh(big.NewInt(int64(op.DataLow())), uint(e-ek))
			s = r.span[op.ID0].shl(uint(e - fa)).add(point(k))
		case alir.OpMux:
			a, fa := r.span[op.ID0].rescale(f(op.ID0), e)
			b, fb := r.span[op.ID1].rescale(f(op.ID1)-int(op.DataHigh()), e)
			s, r.floors[i] = a.union(b), fa || fb
		case alir.OpMul:
			s, e = r.span[op.ID0].mul(r.span[op.ID1]), f(op.ID0)+f(op.ID1)
		case alir.OpLookup:
			key := tableKey{op.DataLow(), t}
			ts, ok := tables[key]
			if !ok {
				ts = tableSpan(v.p.Tables[key.table].Values, t)
				tables[key] = ts
			}
			s, known = ts, ts.lo != nil
		case alir.OpBitUnary:
			if op.Data == alir.BitNot {
				known = false
				break
			}
			// reduce-any and reduce-all give 0 or 1.
			one := wrap(big.NewInt(1), t)
			s = point(new(big.Int)).union(point(one))
			known = one.Cmp(big.NewInt(1)) == 0
		}
		if known && e != t.Fractionals {
			s, r.floors[i] = s.rescale(e, t.Fractionals)
		}
		if !known || !s.within(fullOf(t)) {
			s, r.wraps[i] = fullOf(t), true
		}
		r.span[i] = s
	}
	return r
}

// tableSpan returns the range of a table's entries read into type t, or a
// span with nil bounds when some entry does not fit t (the lookup wraps).
func tableSpan(vals []int32, t alir.KIF) span {
	if len(vals) == 0 {
		return span{}
	}
	lo, hi := vals[0], vals[0]
	for _, x := range vals[1:] {
		lo, hi = min(lo, x), max(hi, x)
	}
	s := span{big.NewInt(int64(lo)), big.NewInt(int64(hi))}
	if !s.within(fullSpan(t)) {
		return span{}
	}
	return s
}
