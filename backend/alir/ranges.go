package alir

import "math/big"

// rng is a closed range of integers, used at compile time to prove that an
// operation's intermediate values fit 64 bits and that its result already
// lies in its type (so no wrap is needed).
type rng struct{ lo, hi *big.Int }

var (
	minInt64  = big.NewInt(-1 << 63)
	maxInt64  = big.NewInt(1<<63 - 1)
	maxUint64 = new(big.Int).SetUint64(1<<64 - 1)
	minInt32  = big.NewInt(-1 << 31)
	maxInt32  = big.NewInt(1<<31 - 1)
)

func typeRange(t KIF) rng { lo, hi := t.rawRange(); return rng{lo, hi} }

func pointRange(v *big.Int) rng { return rng{new(big.Int).Set(v), new(big.Int).Set(v)} }

func (r rng) shl(s uint) rng {
	return rng{new(big.Int).Lsh(r.lo, s), new(big.Int).Lsh(r.hi, s)}
}

// sar divides by 2^s rounding down (monotone, so the bounds map to bounds).
func (r rng) sar(s uint) rng {
	return rng{new(big.Int).Rsh(r.lo, s), new(big.Int).Rsh(r.hi, s)}
}

func (r rng) neg() rng { return rng{new(big.Int).Neg(r.hi), new(big.Int).Neg(r.lo)} }

func (r rng) add(o rng) rng {
	return rng{new(big.Int).Add(r.lo, o.lo), new(big.Int).Add(r.hi, o.hi)}
}

func (r rng) union(o rng) rng {
	lo, hi := r.lo, r.hi
	if o.lo.Cmp(lo) < 0 {
		lo = o.lo
	}
	if o.hi.Cmp(hi) > 0 {
		hi = o.hi
	}
	return rng{lo, hi}
}

func (r rng) mul(o rng) rng {
	c := [4]*big.Int{
		new(big.Int).Mul(r.lo, o.lo), new(big.Int).Mul(r.lo, o.hi),
		new(big.Int).Mul(r.hi, o.lo), new(big.Int).Mul(r.hi, o.hi),
	}
	lo, hi := c[0], c[0]
	for _, v := range c[1:] {
		if v.Cmp(lo) < 0 {
			lo = v
		}
		if v.Cmp(hi) > 0 {
			hi = v
		}
	}
	return rng{lo, hi}
}

// relu returns the range of max(x, 0).
func (r rng) relu() rng {
	z := new(big.Int)
	lo, hi := r.lo, r.hi
	if lo.Sign() < 0 {
		lo = z
	}
	if hi.Sign() < 0 {
		hi = z
	}
	return rng{lo, hi}
}

func (r rng) fitsInt64() bool { return r.lo.Cmp(minInt64) >= 0 && r.hi.Cmp(maxInt64) <= 0 }

func (r rng) within(o rng) bool { return r.lo.Cmp(o.lo) >= 0 && r.hi.Cmp(o.hi) <= 0 }

// bits returns the width of the narrowest two's complement or unsigned type
// that holds r.
func (r rng) bits() int {
	if r.lo.Sign() >= 0 {
		return r.mag()
	}
	return r.mag() + 1
}

// mag returns the least n such that r lies in [-2^n, 2^n-1].
func (r rng) mag() int {
	n := r.hi.BitLen()
	if r.lo.Sign() < 0 {
		n = max(n, new(big.Int).Not(r.lo).BitLen()) // -lo-1
	}
	return n
}

// bitwise returns a range that holds x op y for x in r and y in o, op the
// bitwise operation sub (BitAnd, BitOr, BitXor): with both non-negative and
// below 2^n the result is too (at most the smaller operand for and, at
// least the larger for or); otherwise both lie in [-2^n, 2^n) and so does
// the result (and with a non-negative operand is at most that operand).
func (r rng) bitwise(o rng, sub uint64) rng {
	if r.lo.Sign() >= 0 && o.lo.Sign() >= 0 {
		top := new(big.Int).Lsh(big.NewInt(1), uint(max(r.hi.BitLen(), o.hi.BitLen())))
		top.Sub(top, big.NewInt(1))
		switch sub {
		case BitAnd:
			return rng{new(big.Int), minBig(r.hi, o.hi)}
		case BitOr:
			return rng{maxBig(r.lo, o.lo), top}
		}
		return rng{new(big.Int), top}
	}
	if sub == BitAnd {
		if r.lo.Sign() >= 0 {
			return rng{new(big.Int), r.hi}
		}
		if o.lo.Sign() >= 0 {
			return rng{new(big.Int), o.hi}
		}
	}
	top := new(big.Int).Lsh(big.NewInt(1), uint(max(r.mag(), o.mag())))
	return rng{new(big.Int).Neg(top), new(big.Int).Sub(top, big.NewInt(1))}
}

// BitwiseBounds returns a range of raw results of the bitwise operation sub
// (BitAnd, BitOr, BitXor) on raw values in [alo, ahi] and [blo, bhi], the
// one that Portability proves: writers use it to give bit operations an
// interval that holds their result.
func BitwiseBounds(sub uint8, alo, ahi, blo, bhi *big.Int) (lo, hi *big.Int) {
	r := rng{alo, ahi}.bitwise(rng{blo, bhi}, uint64(sub))
	return r.lo, r.hi
}

func minBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

func maxBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

// not returns the range of ^x.
func (r rng) not() rng { return rng{new(big.Int).Not(r.hi), new(big.Int).Not(r.lo)} }
