package intrange

import "math/bits"

// The int64 fast path. Range analyses whose bounds almost always fit int64
// (lower/cmvm's adder graphs, whose values must fit int64 anyway) keep
// them as int64s and use these checked operations instead of big.Int
// ranges: each returns the exact result and true, or 0 and false when the
// result does not fit int64 (the caller then redoes the work on big.Int
// ranges, or reports an overflow).

// AddInt64 returns a + b.
func AddInt64(a, b int64) (int64, bool) {
	s := a + b
	if (s > a) != (b > 0) {
		return 0, false
	}
	return s, true
}

// SubInt64 returns a - b.
func SubInt64(a, b int64) (int64, bool) {
	d := a - b
	if (d < a) != (b > 0) {
		return 0, false
	}
	return d, true
}

// MulInt64 returns a · b (a 128-bit product, no division).
func MulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	hi, lo := bits.Mul64(absU(a), absU(b))
	if hi != 0 {
		return 0, false
	}
	if (a < 0) != (b < 0) {
		if lo > 1<<63 {
			return 0, false
		}
		return int64(-lo), true
	}
	if lo >= 1<<63 {
		return 0, false
	}
	return int64(lo), true
}

// ShlInt64 returns a · 2^s for s >= 0 (any s when a is 0; a negative s
// with a non-zero a is false).
func ShlInt64(a int64, s int) (int64, bool) {
	if a == 0 {
		return 0, true
	}
	if s < 0 || s > 63 {
		return 0, false
	}
	r := a << uint(s)
	if r>>uint(s) != a {
		return 0, false
	}
	return r, true
}

func absU(a int64) uint64 {
	if a < 0 {
		return -uint64(a)
	}
	return uint64(a)
}

// Range64 is the closed range of integers Lo..Hi held in int64s: Range's
// fast path. Its operations are exact, or false when a bound leaves int64.
type Range64 struct{ Lo, Hi int64 }

// Add is the range of x + y.
func (r Range64) Add(o Range64) (Range64, bool) {
	lo, ok1 := AddInt64(r.Lo, o.Lo)
	hi, ok2 := AddInt64(r.Hi, o.Hi)
	return Range64{lo, hi}, ok1 && ok2
}

// Neg is the range of -x.
func (r Range64) Neg() (Range64, bool) {
	if r.Lo == -1<<63 {
		return Range64{}, false
	}
	return Range64{-r.Hi, -r.Lo}, true
}

// Scale is the range of c · x.
func (r Range64) Scale(c int64) (Range64, bool) {
	a, ok1 := MulInt64(c, r.Lo)
	b, ok2 := MulInt64(c, r.Hi)
	return Range64{min(a, b), max(a, b)}, ok1 && ok2
}

// Shl is the range of x · 2^s, s >= 0.
func (r Range64) Shl(s int) (Range64, bool) {
	lo, ok1 := ShlInt64(r.Lo, s)
	hi, ok2 := ShlInt64(r.Hi, s)
	return Range64{lo, hi}, ok1 && ok2
}

// Bits is the width of the narrowest unsigned (r not negative) or two's
// complement type that holds r, exactly (Range.Bits bounds it from above
// when Hi is negative): 0 for [0, 0].
func (r Range64) Bits() int {
	if r.Lo >= 0 {
		return bits.Len64(uint64(r.Hi))
	}
	return 1 + bits.Len64(uint64(max(r.Hi, ^r.Lo))) // ^Lo = -Lo - 1
}

// ExactMag64 is ExactMag of the range [lo, hi] of int64s.
func ExactMag64(lo, hi int64) int {
	// In int64, ceil_log2(x) = len(x - 1) for x >= 1, and -lo - 1 and hi
	// do not overflow.
	n := 0
	if lo < 0 {
		n = bits.Len64(uint64(-(lo + 1)))
	}
	if hi >= 0 {
		n = max(n, bits.Len64(uint64(hi)))
	}
	return n
}
