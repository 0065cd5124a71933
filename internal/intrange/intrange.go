// Package intrange is exact interval arithmetic on integers: closed ranges
// [Lo, Hi] of math/big integers, the bounds of operations on them, and the
// small math/big helpers the range analyses share (Min, Max). It is the one
// copy the analyses above use: backend/alir's compile-time proofs,
// passes/promote's result ranges, dialect/otir's constant ranges, the
// lowerings of lower/nn/kernels and lower/nn/qonnx, lower/dais's types and
// lower/tiles' bounds. Its int64 fast path (int64.go: checked int64
// arithmetic, Range64, ExactMag64) serves lower/cmvm, lower/dais and
// lower/tiles.
//
// Every operation returns new integers or one of its operands' own (Min,
// Max, Union, Relu): a Range's integers are never changed in place.
package intrange

import "math/big"

// Range is the closed range of integers Lo..Hi (empty when Lo > Hi).
type Range struct{ Lo, Hi *big.Int }

// Point is the range holding v alone (copies of v).
func Point(v *big.Int) Range { return Range{new(big.Int).Set(v), new(big.Int).Set(v)} }

// Unsigned is [0, 2^n - 1], the values of an n-bit unsigned integer.
func Unsigned(n int) Range {
	top := new(big.Int).Lsh(big.NewInt(1), uint(n))
	return Range{new(big.Int), top.Sub(top, big.NewInt(1))}
}

// Signed is [-2^(n-1), 2^(n-1) - 1], the values of an n-bit two's
// complement integer (n >= 1).
func Signed(n int) Range {
	top := new(big.Int).Lsh(big.NewInt(1), uint(n-1))
	return Range{new(big.Int).Neg(top), new(big.Int).Sub(top, big.NewInt(1))}
}

// OfBits is the range of an n-bit integer: Signed(n) or Unsigned(n).
func OfBits(n int, signed bool) Range {
	if signed {
		return Signed(n)
	}
	return Unsigned(n)
}

// Min is the least of xs (the first of equals), one of them.
func Min(xs ...*big.Int) *big.Int {
	m := xs[0]
	for _, x := range xs[1:] {
		if x.Cmp(m) < 0 {
			m = x
		}
	}
	return m
}

// Max is the greatest of xs (the first of equals), one of them.
func Max(xs ...*big.Int) *big.Int {
	m := xs[0]
	for _, x := range xs[1:] {
		if x.Cmp(m) > 0 {
			m = x
		}
	}
	return m
}

// Empty reports whether r holds no integer.
func (r Range) Empty() bool { return r.Lo.Cmp(r.Hi) > 0 }

// Add is the range of x + y.
func (r Range) Add(o Range) Range {
	return Range{new(big.Int).Add(r.Lo, o.Lo), new(big.Int).Add(r.Hi, o.Hi)}
}

// Sub is the range of x - y.
func (r Range) Sub(o Range) Range {
	return Range{new(big.Int).Sub(r.Lo, o.Hi), new(big.Int).Sub(r.Hi, o.Lo)}
}

// Neg is the range of -x.
func (r Range) Neg() Range { return Range{new(big.Int).Neg(r.Hi), new(big.Int).Neg(r.Lo)} }

// Not is the range of ^x (-x - 1).
func (r Range) Not() Range { return Range{new(big.Int).Not(r.Hi), new(big.Int).Not(r.Lo)} }

// Shl is the range of x · 2^s.
func (r Range) Shl(s uint) Range {
	return Range{new(big.Int).Lsh(r.Lo, s), new(big.Int).Lsh(r.Hi, s)}
}

// Sar is the range of floor(x / 2^s) (monotone, so the bounds map to
// bounds).
func (r Range) Sar(s uint) Range {
	return Range{new(big.Int).Rsh(r.Lo, s), new(big.Int).Rsh(r.Hi, s)}
}

// Mul is the range of x · y: the least and greatest of the four corners'
// products (exact: multiplication is bilinear).
func (r Range) Mul(o Range) Range {
	lo, hi := corners(r, o)
	return Range{lo, hi}
}

func corners(a, b Range) (lo, hi *big.Int) {
	for _, x := range [2]*big.Int{a.Lo, a.Hi} {
		for _, y := range [2]*big.Int{b.Lo, b.Hi} {
			v := new(big.Int).Mul(x, y)
			if lo == nil || v.Cmp(lo) < 0 {
				lo = v
			}
			if hi == nil || v.Cmp(hi) > 0 {
				hi = v
			}
		}
	}
	return lo, hi
}

// Union is the least range holding r and o.
func (r Range) Union(o Range) Range { return Range{Min(r.Lo, o.Lo), Max(r.Hi, o.Hi)} }

// Relu is the range of max(x, 0).
func (r Range) Relu() Range {
	lo, hi := r.Lo, r.Hi
	if lo.Sign() < 0 {
		lo = new(big.Int)
	}
	if hi.Sign() < 0 {
		hi = new(big.Int)
	}
	return Range{lo, hi}
}

// MaxAbs is the largest magnitude in r.
func (r Range) MaxAbs() *big.Int {
	return Max(new(big.Int).Abs(r.Lo), new(big.Int).Abs(r.Hi))
}

// Within reports whether r lies in o.
func (r Range) Within(o Range) bool { return r.Lo.Cmp(o.Lo) >= 0 && r.Hi.Cmp(o.Hi) <= 0 }

var (
	minInt64 = big.NewInt(-1 << 63)
	maxInt64 = big.NewInt(1<<63 - 1)
)

// FitsInt64 reports whether r lies in int64's range.
func (r Range) FitsInt64() bool { return r.Lo.Cmp(minInt64) >= 0 && r.Hi.Cmp(maxInt64) <= 0 }

// Mag is the least n such that r lies in [-2^n, 2^n - 1] (for a negative
// Hi, |Hi|'s width: an upper bound).
func (r Range) Mag() int {
	n := r.Hi.BitLen()
	if r.Lo.Sign() < 0 {
		n = max(n, new(big.Int).Not(r.Lo).BitLen()) // -lo-1
	}
	return n
}

// Bits is the width of the narrowest unsigned (r not negative) or two's
// complement type that holds r.
func (r Range) Bits() int {
	if r.Lo.Sign() >= 0 {
		return r.Mag()
	}
	return r.Mag() + 1
}

// SignedBits is the width of the narrowest two's complement type that
// holds r (at least 1).
func (r Range) SignedBits() int {
	n := 1
	for _, v := range [2]*big.Int{r.Lo, r.Hi} {
		b := v.BitLen() + 1
		if v.Sign() < 0 {
			b = new(big.Int).Not(v).BitLen() + 1 // -2^k needs k+1 bits
		}
		n = max(n, b)
	}
	return n
}

// ExactMag is the least n such that r lies in [-2^n, 2^n - 1]: ceil(log2
// (max(-Lo, Hi + 1))), counting only a negative Lo and a non-negative Hi
// (0 for [0, 0]). Unlike Mag it is exact for a negative Hi; with the sign it
// is the integer bits of the narrowest fixed-point type holding r.
func (r Range) ExactMag() int {
	if r.Lo.IsInt64() && r.Hi.IsInt64() {
		return ExactMag64(r.Lo.Int64(), r.Hi.Int64())
	}
	n := 0
	if r.Lo.Sign() < 0 {
		n = new(big.Int).Not(r.Lo).BitLen() // -lo-1: ceil_log2(-lo)
	}
	if r.Hi.Sign() >= 0 {
		n = max(n, r.Hi.BitLen()) // ceil_log2(hi+1)
	}
	return n
}
