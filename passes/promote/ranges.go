package promote

import (
	"math/big"

	"github.com/otir-dev/otir/internal/intrange"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/typing"
)

// Integer ranges: bounds of exact results, from the ranges of what an
// operation reads (on internal/intrange's exact interval arithmetic), and
// small math/big helpers.

// resultRange bounds the exact result of an integer operation given the
// ranges of what it reads of its operands. ok is false when no useful bound
// is known (pow, special functions, shifts by unknown amounts).
func resultRange(key string, rs [][2]*big.Int) (lo, hi *big.Int, ok bool) {
	if len(rs) == 0 {
		return nil, nil, false
	}
	a := intrange.Range{Lo: rs[0][0], Hi: rs[0][1]}
	var r intrange.Range
	switch key {
	case "neg":
		r = a.Neg()
	case "invert": // ~x = -x - 1
		r = a.Not()
	case "abs":
		if a.Lo.Sign() >= 0 {
			return a.Lo, a.Hi, true
		}
		return big.NewInt(0), a.MaxAbs(), true
	}
	if r.Lo != nil {
		return r.Lo, r.Hi, true
	}
	if len(rs) != 2 {
		return nil, nil, false
	}
	b := intrange.Range{Lo: rs[1][0], Hi: rs[1][1]}
	switch key {
	case "add":
		r = a.Add(b)
	case "sub":
		r = a.Sub(b)
	case "mul":
		r = a.Mul(b)
	case "max", "min":
		r = a.Union(b)
	case "div", "floordiv":
		// |a / b| <= |a| for |b| >= 1, whichever way the quotient rounds;
		// rounded toward zero (design section 4), it is not negative when
		// neither operand is.
		m := a.MaxAbs()
		if a.Lo.Sign() >= 0 && b.Lo.Sign() >= 0 {
			return big.NewInt(0), m, true
		}
		return neg(m), m, true
	case "mod":
		// |a mod b| < |b|, with the dividend's sign (div_s/rem_s
		// truncate, design section 4) or, for Allo's floor mod, the
		// divisor's: both are covered.
		k := sub(b.MaxAbs(), one)
		if k.Sign() < 0 {
			k = big.NewInt(0)
		}
		if a.Lo.Sign() >= 0 && b.Lo.Sign() >= 0 {
			return big.NewInt(0), k, true
		}
		return neg(k), k, true
	case "bitwise_and", "bitwise_or", "bitwise_xor":
		// Two's complement: the result fits the narrowest signed (or, for
		// non-negative operands, unsigned) width both operands fit.
		if a.Lo.Sign() >= 0 && b.Lo.Sign() >= 0 {
			r = intrange.Unsigned(max(a.Hi.BitLen(), b.Hi.BitLen()))
		} else {
			r = intrange.Signed(max(a.SignedBits(), b.SignedBits()))
		}
	case "lshift":
		if b.Lo.Sign() < 0 || b.Hi.Cmp(big.NewInt(ir.MaxIntWidth)) > 0 {
			return nil, nil, false
		}
		r = a.Mul(intrange.Range{Lo: new(big.Int).Lsh(one, uint(b.Lo.Int64())), Hi: new(big.Int).Lsh(one, uint(b.Hi.Int64()))})
	case "rshift":
		if b.Lo.Sign() < 0 {
			return nil, nil, false
		}
		// floor(a / 2^b) lies between a and 0 (or -1).
		return intrange.Min(a.Lo, big.NewInt(0)), intrange.Max(a.Hi, big.NewInt(0)), true
	default:
		if typing.IsComparison(key) {
			return big.NewInt(0), big.NewInt(1), true
		}
		return nil, nil, false
	}
	return r.Lo, r.Hi, true
}

var one = big.NewInt(1)

func add(x, y *big.Int) *big.Int { return new(big.Int).Add(x, y) }
func sub(x, y *big.Int) *big.Int { return new(big.Int).Sub(x, y) }
func neg(x *big.Int) *big.Int    { return new(big.Int).Neg(x) }
