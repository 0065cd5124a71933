package tiles

import (
	"math"
	"math/big"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/internal/intrange"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// Comparisons produce i1 values as msb conditions (see num):
//
//   - a < b is the sign of the exact difference a - b: one dais.sub whose
//     msb dais.mux tests directly. When the difference needs more than 64
//     bits, the sub drops its low bits (its result step is coarser), which
//     keeps the sign.
//   - a != b is dais.bit_unary "any" (some bit set) of the exact difference
//     (of a xor b when the difference needs more than 64 bits): a 0/1
//     value; a == b is its negation, which costs nothing as a mux
//     condition.
//
// le, gt and ge are lt with swapped operands and/or negated.

// compare lowers otir.cmp kind(pred) on one element.
func (l *lowerer) compare(pred string, a, b num, ta, tb intT) (num, error) {
	var err error
	switch pred[0] {
	case 's', 'u':
		if a, err = l.reading(a, ta, pred[0] == 's'); err != nil {
			return num{}, err
		}
		if b, err = l.reading(b, tb, pred[0] == 's'); err != nil {
			return num{}, err
		}
		pred = pred[1:]
	case 'o':
		pred = pred[1:]
	}
	switch pred {
	case "lt":
		return l.lessThan(a, b)
	case "gt":
		return l.lessThan(b, a)
	case "le":
		r, err := l.lessThan(b, a)
		return not(r), err
	case "ge":
		r, err := l.lessThan(a, b)
		return not(r), err
	case "ne":
		return l.notEqual(a, b)
	case "eq":
		r, err := l.notEqual(a, b)
		return not(r), err
	}
	return num{}, l.errf("unknown comparison predicate '%s'", pred)
}

// not negates a boolean num.
func not(n num) num {
	switch {
	case n.c != nil:
		return boolNum(n.c.Sign() == 0)
	case n.m != nil:
		return num{m: n.m, inv: !n.inv}
	}
	return num{m: n.s, inv: true} // a 0/1 slot: its msb is its value
}

// lessThan returns a < b.
func (l *lowerer) lessThan(a, b num) (num, error) {
	if err := l.needExact(a, b); err != nil {
		return num{}, err
	}
	alo, ahi := a.bounds()
	blo, bhi := b.bounds()
	switch {
	case ahi.Cmp(blo) < 0:
		return boolNum(true), nil
	case alo.Cmp(bhi) >= 0:
		return boolNum(false), nil
	}
	// a < 0 is a's own sign bit.
	if b.c != nil && b.c.Sign() == 0 && a.s != nil {
		return num{m: a.s}, nil
	}
	lo, hi := sub(alo, bhi), sub(ahi, blo)
	d, err := l.difference(a, b, lo, hi)
	if err != nil {
		return num{}, err
	}
	return num{m: d}, nil
}

// difference emits a - b (exact bounds lo..hi) for its sign: at most 64
// bits wide, dropping low bits if needed.
func (l *lowerer) difference(a, b num, lo, hi *big.Int) (*slot, error) {
	sa, err := l.data(a)
	if err != nil {
		return nil, err
	}
	var name string
	var operands []*slot
	var attrs ir.Attrs
	if b.c != nil && b.c.IsInt64() && -b.c.Int64() == int64(int32(-b.c.Int64())) {
		name, operands = dais.OpConstAdd, []*slot{sa}
		attrs = ir.Attrs{{Name: "exp", Value: ir.I64(0)}, {Name: "value", Value: ir.I64(-b.c.Int64())}}
	} else {
		sb, err := l.data(b)
		if err != nil {
			return nil, err
		}
		name, operands, attrs = dais.OpSub, []*slot{sa, sb}, shiftAttr(0)
	}
	w := dais.IntBits(lo, hi).Width()
	if w <= 64 {
		return l.emit(name, operands, attrs, lo, hi)
	}
	// Drop k low bits: floor((a - b) / 2^k) has a - b's sign.
	k := w - 64
	rlo, rhi := sar(lo, k), sar(hi, k)
	t, err := dais.IntInterval(rlo, rhi)
	if err != nil {
		return nil, l.errf("internal error: %v", err)
	}
	scale := math.Ldexp(1, k)
	return l.emitTyped(name, operands, attrs, alir.QInterval{Min: t.Min * scale, Max: t.Max * scale, Step: scale}, rlo, rhi)
}

// notEqual returns a != b as a 0/1 value.
func (l *lowerer) notEqual(a, b num) (num, error) {
	if err := l.needExact(a, b); err != nil {
		return num{}, err
	}
	alo, ahi := a.bounds()
	blo, bhi := b.bounds()
	switch {
	case a.c != nil && b.c != nil:
		return boolNum(a.c.Cmp(b.c) != 0), nil
	case ahi.Cmp(blo) < 0 || bhi.Cmp(alo) < 0:
		return boolNum(true), nil
	}
	if a.c != nil {
		a, b = b, a
		alo, ahi, blo, bhi = blo, bhi, alo, ahi
	}
	var d *slot
	var err error
	lo, hi := sub(alo, bhi), sub(ahi, blo)
	switch {
	case b.c != nil && b.c.Sign() == 0:
		d, err = l.data(a)
	case dais.IntBits(lo, hi).Width() <= 64:
		d, err = l.difference(a, b, lo, hi)
	default:
		// a xor b is zero exactly when a = b, if it is exact in 64 bits.
		t := makeIntT(64, alo.Sign() < 0 || blo.Sign() < 0)
		if !t.contains(intrange.Min(alo, blo), intrange.Max(ahi, bhi)) {
			return num{}, l.cannot("comparing values that need more than 64 bits")
		}
		var x num
		if x, err = l.bitwise("xor", a, b, t); err == nil {
			if x.c != nil {
				return boolNum(x.c.Sign() != 0), nil
			}
			d, err = l.data(x)
		}
	}
	if err != nil {
		return num{}, err
	}
	at := ir.Attrs{{Name: "kind", Value: &ir.StringAttr{Value: "any"}}}
	s, err := l.emit(dais.OpBitUnary, []*slot{d}, at, bigZero, bigOne)
	if err != nil {
		return num{}, err
	}
	return slotNum(s), nil
}
