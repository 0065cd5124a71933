package daisopt

import (
	"math/big"

	"github.com/otir-dev/otir/backend/alir"
)

// ranges is a value-range analysis of a program: for every slot, a range of
// raw values (at the slot's fractional bits) that holds every value the slot
// takes on any input.
type ranges struct {
	span []span
	// wraps marks slots whose span is their type's full range: the exact
	// result may not fit the type (so the op wraps, or the program is not
	// portable), or the op reads an input.
	wraps []bool
	// floors marks slots whose op drops fraction bits of its exact result.
	floors []bool
}

// exact reports whether slot i holds its op's exact result: neither floored
// nor wrapped.
func (r *ranges) exact(i int) bool { return !r.wraps[i] && !r.floors[i] }

// analyze computes the ranges of every slot in one forward walk (see
// spanner.op). Each span contains the range that alir.Program.Portability
// proves for the slot, which treats every op as this analysis does but adds
// linear forms where this adds intervals (never a wider range): so an op
// whose type holds its span is portable as far as its range goes.
func analyze(v *view) *ranges {
	n := len(v.p.Ops)
	r := &ranges{span: make([]span, n), wraps: make([]bool, n), floors: make([]bool, n)}
	sp := newSpanner(v)
	of := func(s int32) span { return r.span[s] }
	for i, op := range v.p.Ops {
		r.span[i], r.wraps[i], r.floors[i] = sp.op(i, op, of)
	}
	return r
}

// spanner computes the range of one op from its operands' ranges.
type spanner struct {
	v      *view
	full   map[alir.KIF]span
	tables map[tableKey]span
}

type tableKey struct {
	table int32
	t     alir.KIF
}

func newSpanner(v *view) *spanner {
	return &spanner{v: v, full: map[alir.KIF]span{}, tables: map[tableKey]span{}}
}

func (sp *spanner) fullOf(t alir.KIF) span {
	s, ok := sp.full[t]
	if !ok {
		s = fullSpan(t)
		sp.full[t] = s
	}
	return s
}

// op returns the range of op in slot i (of type v.kif[i]), its operands'
// ranges given by of. The exact result's range follows from the operands'
// (add/sub with shift, neg, relu, quantize, const_add, mul, mux, const,
// lookup over its table's entries, bit operations as bitwise bounds), by
// the semantics of ERRATA, "Quantization": neg and mul give their raw
// result, const and lookup their raw value, bit operations their raw
// bitwise result; the others bring it to the slot's step by floor
// (floored). When it does not fit the slot's type it is replaced by the
// type's full range (full): the op wraps, or, for an op that does not, the
// program is not portable.
func (sp *spanner) op(i int, op alir.Op, of func(int32) span) (s span, full, floored bool) {
	v := sp.v
	t := v.kif[i]
	f := func(s int32) int { return v.kif[s].Fractionals }
	e := t.Fractionals // the exponent s is at
	known := true      // s is the exact result's range
	switch op.Opcode {
	case alir.OpInput:
		known = false
	case alir.OpConst:
		s = point(big.NewInt(op.Data))
	case alir.OpNeg:
		s = of(op.ID0).neg()
	case alir.OpAdd, alir.OpSub:
		fa, fb := f(op.ID0), f(op.ID1)-int(op.DataLow())
		e = max(fa, fb)
		b := of(op.ID1).shl(uint(e - fb))
		if op.Opcode == alir.OpSub {
			b = b.neg()
		}
		s = of(op.ID0).shl(uint(e - fa)).add(b)
	case alir.OpReLU:
		s, e = of(op.ID0).relu(), f(op.ID0)
	case alir.OpQuantize:
		s, e = of(op.ID0), f(op.ID0)
	case alir.OpConstAdd:
		fa, ek := f(op.ID0), int(op.DataHigh())
		e = max(fa, ek)
		k := new(big.Int).Lsh(big.NewInt(int64(op.DataLow())), uint(e-ek))
		s = of(op.ID0).shl(uint(e - fa)).add(point(k))
	case alir.OpMux:
		a, fa := of(op.ID0).rescale(f(op.ID0), e)
		b, fb := of(op.ID1).rescale(f(op.ID1)-int(op.DataHigh()), e)
		s, floored = a.union(b), fa || fb
	case alir.OpMul:
		s = of(op.ID0).mul(of(op.ID1))
	case alir.OpLookup:
		key := tableKey{op.DataLow(), t}
		ts, ok := sp.tables[key]
		if !ok {
			ts = tableSpan(v.p.Tables[key.table].Values, t)
			sp.tables[key] = ts
		}
		s, known = ts, ts.lo != nil
	case alir.OpBitUnary:
		switch {
		case op.Data != alir.BitNot:
			s = span{new(big.Int), big.NewInt(1)} // reduce-any and reduce-all give 0 or 1
		case t.Signed:
			a := of(op.ID0)
			s = span{new(big.Int).Not(a.hi), new(big.Int).Not(a.lo)}
		default: // masked to the operand's width
			s = fullSpan(alir.KIF{Integers: v.kif[op.ID0].Width()})
		}
	case alir.OpBitBinary:
		// b aligned to a (or a to b) by the shift, as alir computes it.
		a, b := of(op.ID0), of(op.ID1)
		if sh := int(op.DataLow()) + f(op.ID0) - f(op.ID1); sh > 0 {
			b = b.shl(uint(sh))
		} else {
			a = a.shl(uint(-sh))
		}
		s = a.bitwise(b)
	}
	if known && e != t.Fractionals {
		s, floored = s.rescale(e, t.Fractionals)
	}
	if !known || !s.within(sp.fullOf(t)) {
		return sp.fullOf(t), true, floored
	}
	return s, false, floored
}

// tableSpan returns the range of a table's entries read into type t, or a
// span with nil bounds when some entry does not fit t.
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
