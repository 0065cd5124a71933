package promote

import (
	"math/big"

	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/typing"
)

// Integer ranges: bounds of exact results, from the ranges of what an
// operation reads, and small math/big helpers.

// resultRange bounds the exact result of an integer operation given the
// ranges of what it reads of its operands. ok is false when no useful bound
// is known (pow, special functions, shifts by unknown amounts).
func resultRange(key string, rs [][2]*big.Int) (lo, hi *big.Int, ok bool) {
	if len(rs) == 0 {
		return nil, nil, false
	}
	a := rs[0]
	switch key {
	case "neg":
		return neg(a[1]), neg(a[0]), true
	case "invert": // ~x = -x - 1
		return sub(neg(a[1]), one), sub(neg(a[0]), one), true
	case "abs":
		if a[0].Sign() >= 0 {
			return a[0], a[1], true
		}
		return big.NewInt(0), maxAbs(a), true
	}
	if len(rs) != 2 {
		return nil, nil, false
	}
	b := rs[1]
	switch key {
	case "add":
		return add(a[0], b[0]), add(a[1], b[1]), true
	case "sub":
		return sub(a[0], b[1]), sub(a[1], b[0]), true
	case "mul":
		lo, hi = corners(a, b)
		return lo, hi, true
	case "max", "min":
		return minInt(a[0], b[0]), maxInt(a[1], b[1]), true
	case "div", "floordiv":
		// |a / b| <= |a| for |b| >= 1, whichever way the quotient rounds;
		// rounded toward zero (design section 4), it is not negative when
		// neither operand is.
		m := maxAbs(a)
		if a[0].Sign() >= 0 && b[0].Sign() >= 0 {
			return big.NewInt(0), m, true
		}
		return neg(m), m, true
	case "mod":
		// |a mod b| < |b|, with the dividend's sign (div_s/rem_s
		// truncate, design section 4) or, for Allo's floor mod, the
		// divisor's: both are covered.
		k := sub(maxAbs(b), one)
		if k.Sign() < 0 {
			k = big.NewInt(0)
		}
		if a[0].Sign() >= 0 && b[0].Sign() >= 0 {
			return big.NewInt(0), k, true
		}
		return neg(k), k, true
	case "bitwise_and", "bitwise_or", "bitwise_xor":
		// Two's complement: the result fits the narrowest signed (or, for
		// non-negative operands, unsigned) width both operands fit.
		if a[0].Sign() >= 0 && b[0].Sign() >= 0 {
			n := max(a[1].BitLen(), b[1].BitLen())
			return big.NewInt(0), sub(new(big.Int).Lsh(one, uint(n)), one), true
		}
		n := max(signedBits(a), signedBits(b))
		top := new(big.Int).Lsh(one, uint(n-1))
		return neg(top), sub(top, one), true
	case "lshift":
		if b[0].Sign() < 0 || b[1].Cmp(big.NewInt(ir.MaxIntWidth)) > 0 {
			return nil, nil, false
		}
		scale := [2]*big.Int{new(big.Int).Lsh(one, uint(b[0].Int64())), new(big.Int).Lsh(one, uint(b[1].Int64()))}
		lo, hi = corners(a, scale)
		return lo, hi, true
	case "rshift":
		if b[0].Sign() < 0 {
			return nil, nil, false
		}
		// floor(a / 2^b) lies between a and 0 (or -1).
		return minInt(a[0], big.NewInt(0)), maxInt(a[1], big.NewInt(0)), true
	}
	if typing.IsComparison(key) {
		return big.NewInt(0), big.NewInt(1), true
	}
	return nil, nil, false
}

var one = big.NewInt(1)

func add(x, y *big.Int) *big.Int { return new(big.Int).Add(x, y) }
func sub(x, y *big.Int) *big.Int { return new(big.Int).Sub(x, y) }
func neg(x *big.Int) *big.Int    { return new(big.Int).Neg(x) }

func minInt(x, y *big.Int) *big.Int {
	if x.Cmp(y) <= 0 {
		return x
	}
	return y
}

func maxInt(x, y *big.Int) *big.Int {
	if x.Cmp(y) >= 0 {
		return x
	}
	return y
}

// maxAbs is the largest magnitude in a range.
func maxAbs(r [2]*big.Int) *big.Int {
	return maxInt(new(big.Int).Abs(r[0]), new(big.Int).Abs(r[1]))
}

// signedBits is the narrowest two's complement width holding a range.
func signedBits(r [2]*big.Int) int {
	n := 1
	for _, v := range r {
		b := v.BitLen() + 1
		if v.Sign() < 0 {
			b = new(big.Int).Not(v).BitLen() + 1 // -2^k needs k+1 bits
		}
		n = max(n, b)
	}
	return n
}

// corners bounds a product over two ranges by its values at the four corners
// (exact: multiplication is bilinear).
func corners(a, b [2]*big.Int) (lo, hi *big.Int) {
	for _, x := range a {
		for _, y := range b {
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
