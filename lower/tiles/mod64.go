package tiles

import (
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// Arithmetic modulo 2^64.
//
// ALIR adders and products never wrap and a type holds at most 64 bits, so
// an addition, subtraction, negation or product whose exact result does not
// fit 64 bits cannot be one op. When only the result modulo
// 2^64 is needed (it is converted to a type of at most 64 bits, or to a
// wider type whose later uses need only its low bits, see slot.mod64), it
// is computed on 32-bit halves, every op exact in int64 (as alkaid's
// interpreter computes):
//
//   - a ± b: the low halves (u32) and the high halves (i32) are added
//     apart, the carry of the low sum (floor of it by 2^32) joins the high
//     sum, and hw*2^32 + lw, with hw and lw the sums wrapped to 32 bits,
//     fits int64;
//   - a * b: with a = ah*2^32 + al, al signed in [-2^31, 2^31), the product
//     modulo 2^64 is al*bl + 2^32*((ah*bl + al*bh) mod 2^32), each product
//     within int64.
//
// An addition costs four adders and a product three products and six
// adders instead of one op: only 64-bit arithmetic that overflows pays it.

var i32T, u32T, i64T = makeIntT(32, true), makeIntT(32, false), makeIntT(64, true)

// mod64 emits op name on operands (which hold values of at most 64 bits)
// computed modulo 2^64, and returns the slot holding that as an i64. name
// is dais.add or dais.sub (attrs holds the shift), dais.const_add (exp 0),
// dais.neg or dais.mul.
func (l *lowerer) mod64(name string, operands []*slot, attrs ir.Attrs) (*slot, error) {
	// An operand kept modulo 2^64 holds the low 64 bits, as an i64: all
	// that arithmetic modulo 2^64 reads.
	plain := make([]*slot, len(operands))
	for i, o := range operands {
		plain[i] = o
		if o.mod64 {
			plain[i] = &slot{id: o.id, lo: o.lo, hi: o.hi}
		}
	}
	operands = plain
	switch name {
	case dais.OpNeg:
		zero, err := l.constSlot(bigZero)
		if err != nil {
			return nil, err
		}
		return l.addMod64(zero, operands[0], true)
	case dais.OpMul:
		return l.mulMod64(operands[0], operands[1])
	case dais.OpConstAdd:
		v, _ := attrs.Get("value").(*ir.IntAttr)
		if e, _ := attrs.Get("exp").(*ir.IntAttr); v == nil || e == nil || e.Value.Sign() != 0 {
			return nil, l.errf("internal error: a const_add modulo 2^64 needs an integer constant")
		}
		c, err := l.constSlot(v.Value)
		if err != nil {
			return nil, err
		}
		return l.addMod64(operands[0], c, false)
	case dais.OpAdd, dais.OpSub:
		k := 0
		if a, _ := attrs.Get("shift").(*ir.IntAttr); a != nil {
			k = int(a.Value.Int64())
		}
		var t num
		var err error
		switch {
		case k >= 64: // b*2^k is a multiple of 2^64
			t = intNum(0)
		case k > 0: // b*2^k mod 2^64 = (b mod 2^(64-k)) * 2^k
			if t, err = l.convert(slotNum(operands[1]), makeIntT(64-k, true)); err == nil {
				t, err = l.shiftLeft(t, k, i64T)
			}
		case k < 0:
			t, err = l.floorShift(slotNum(operands[1]), -k, i64T)
		default:
			t = slotNum(operands[1])
		}
		if err != nil {
			return nil, err
		}
		b, err := l.data(t)
		if err != nil {
			return nil, err
		}
		return l.addMod64(operands[0], b, name == dais.OpSub)
	}
	return nil, l.cannot("a %s result needs more than 64 bits", name)
}

// halves splits a slot into its low 32 bits (unsigned) and floor(s/2^32).
func (l *lowerer) halves(s *slot) (lo, hi *slot, err error) {
	lw, err := l.convert(slotNum(s), u32T)
	if err != nil {
		return nil, nil, err
	}
	hw, err := l.floorShift(slotNum(s), 32, i64T)
	if err != nil {
		return nil, nil, err
	}
	if lo, err = l.data(lw); err != nil {
		return nil, nil, err
	}
	hi, err = l.data(hw)
	return lo, hi, err
}

// addMod64 returns a ± b modulo 2^64 as an i64 slot.
func (l *lowerer) addMod64(a, b *slot, sub bool) (*slot, error) {
	al, ah, err := l.halves(a)
	if err != nil {
		return nil, err
	}
	bl, bh, err := l.halves(b)
	if err != nil {
		return nil, err
	}
	op := l.add
	if sub {
		op = l.sub
	}
	wide := makeIntT(40, true) // every partial sum fits
	lsum, err := op(slotNum(al), slotNum(bl), wide)
	if err != nil {
		return nil, err
	}
	carry, err := l.floorShift(lsum, 32, wide)
	if err != nil {
		return nil, err
	}
	hsum, err := op(slotNum(ah), slotNum(bh), wide)
	if err != nil {
		return nil, err
	}
	if hsum, err = l.add(hsum, carry, wide); err != nil {
		return nil, err
	}
	return l.join64(hsum, lsum)
}

// join64 returns (hi mod 2^32)*2^32 + (lo mod 2^32) as an i64 slot.
func (l *lowerer) join64(hi, lo num) (*slot, error) {
	hw, err := l.convert(hi, i32T)
	if err != nil {
		return nil, err
	}
	lw, err := l.convert(lo, u32T)
	if err != nil {
		return nil, err
	}
	hs, err := l.data(hw)
	if err != nil {
		return nil, err
	}
	ls, err := l.data(lw)
	if err != nil {
		return nil, err
	}
	r, err := l.value(dais.OpAdd, []*slot{ls, hs}, shiftAttr(32), add(ls.lo, shl(hs.lo, 32)), add(ls.hi, shl(hs.hi, 32)), i64T)
	if err != nil {
		return nil, err
	}
	return l.data(r)
}

// mulMod64 returns a * b modulo 2^64 as an i64 slot.
func (l *lowerer) mulMod64(a, b *slot) (*slot, error) {
	split := func(s *slot) (lo, hi num, err error) {
		// lo = s mod 2^32 in [-2^31, 2^31); hi = (s - lo)/2^32 =
		// floor(s/2^32) + bit 31 of s.
		if lo, err = l.convert(slotNum(s), i32T); err != nil {
			return
		}
		u, err := l.convert(slotNum(s), u32T)
		if err != nil {
			return
		}
		bit, err := l.floorShift(u, 31, i64T)
		if err != nil {
			return
		}
		f, err := l.floorShift(slotNum(s), 32, i64T)
		if err != nil {
			return
		}
		hi, err = l.add(f, bit, i64T)
		return
	}
	al, ah, err := split(a)
	if err != nil {
		return nil, err
	}
	bl, bh, err := split(b)
	if err != nil {
		return nil, err
	}
	mul := func(x, y num) (num, error) { return l.mul(x, y, i64T) }
	p0, err := mul(al, bl)
	if err != nil {
		return nil, err
	}
	p1, err := mul(ah, bl)
	if err != nil {
		return nil, err
	}
	p2, err := mul(al, bh)
	if err != nil {
		return nil, err
	}
	w1, err := l.convert(p1, i32T)
	if err != nil {
		return nil, err
	}
	w2, err := l.convert(p2, i32T)
	if err != nil {
		return nil, err
	}
	x, err := l.add(w1, w2, makeIntT(40, true))
	if err != nil {
		return nil, err
	}
	xs, err := l.convert(x, i32T)
	if err != nil {
		return nil, err
	}
	t, err := l.shiftLeft(xs, 32, i64T)
	if err != nil {
		return nil, err
	}
	p0s, err := l.data(p0)
	if err != nil {
		return nil, err
	}
	ts, err := l.data(t)
	if err != nil {
		return nil, err
	}
	return l.addMod64(p0s, ts, false)
}
