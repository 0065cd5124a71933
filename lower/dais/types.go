package dais

import (
	"fmt"
	"math"
	"math/big"
	mathbits "math/bits"

	"github.com/otir-dev/otir/backend/alir"
)

// QInt is the ALIR quantization interval of a dais type.
func QInt(t *FixedType) alir.QInterval {
	return alir.QInterval{Min: t.Min, Max: t.Max, Step: t.Step}
}

// Fixed is the dais type of an ALIR interval.
func Fixed(q alir.QInterval) *FixedType { return FixedOf(q.Min, q.Max, q.Step) }

// KIF is the fixed-point type (signed, integers, fractionals) of a dais type.
func KIF(t *FixedType) (alir.KIF, error) { return QInt(t).KIF() }

// Width is the bit width of a dais type (0 if the type is invalid).
func Width(t *FixedType) int {
	k, err := KIF(t)
	if err != nil {
		return 0
	}
	return k.Width()
}

// IntBits returns the fixed-point type of the smallest integer format that
// holds every integer in [lo, hi]: (lo < 0, bits, 0).
func IntBits(lo, hi *big.Int) alir.KIF {
	if lo.Sign() == 0 && hi.Sign() == 0 {
		return alir.KIF{}
	}
	// bits = ceil_log2(max(|lo|, hi + 1)).
	if lo.IsInt64() && hi.IsInt64() {
		return IntBits64(lo.Int64(), hi.Int64())
	}
	bits := 0
	if lo.Sign() < 0 {
		bits = ceilLog2(new(big.Int).Neg(lo))
	}
	if hi.Sign() >= 0 {
		bits = max(bits, ceilLog2(new(big.Int).Add(hi, big.NewInt(1))))
	}
	return alir.KIF{Signed: lo.Sign() < 0, Integers: bits}
}

// IntBits64 is IntBits of int64 bounds.
func IntBits64(lo, hi int64) alir.KIF {
	// bits = ceil_log2(max(|lo|, hi + 1)); in int64, ceil_log2(x) =
	// len(x - 1) for x >= 1, and -lo - 1 and hi do not overflow.
	bits := 0
	if lo < 0 {
		bits = mathbits.Len64(uint64(-(lo + 1)))
	}
	if hi >= 0 {
		bits = max(bits, mathbits.Len64(uint64(hi)))
	}
	return alir.KIF{Signed: lo < 0, Integers: bits}
}

// ceilLog2 is the least n with 2^n >= x, for x >= 1.
func ceilLog2(x *big.Int) int {
	n := x.BitLen()
	if new(big.Int).Sub(x, big.NewInt(1)).BitLen() < n { // x is a power of two
		return n - 1
	}
	return n
}

// IntType returns the dais type of integers in [lo, hi] (step 1): its
// fixed-point type is the smallest that holds the interval, and its bounds
// are lo and hi. Bounds beyond float64's exact integers are widened outward
// where that keeps the fixed-point type, else set to the type's own bounds
// (so the type, which alone decides ALIR's arithmetic, is always exact).
// Intervals wider than 64 bits are an error.
func IntType(lo, hi *big.Int) (*FixedType, error) {
	q, err := IntInterval(lo, hi)
	if err != nil {
		return nil, err
	}
	return Fixed(q), nil
}

// IntInterval is IntType's interval, without making the type.
func IntInterval(lo, hi *big.Int) (alir.QInterval, error) {
	if lo.Cmp(hi) > 0 {
		return alir.QInterval{}, fmt.Errorf("empty interval [%v, %v]", lo, hi)
	}
	if lo.IsInt64() && hi.IsInt64() {
		// The common case, without big.Float: bounds within ±2^53 are
		// exact floats.
		const exact = 1 << 53
		if l, h := lo.Int64(), hi.Int64(); l >= -exact && h <= exact {
			return alir.QInterval{Min: float64(l), Max: float64(h), Step: 1}, nil
		}
	}
	k := IntBits(lo, hi)
	if w := k.Width(); w > alir.MaxWidth {
		return alir.QInterval{}, fmt.Errorf("interval [%v, %v] needs %d bits, more than ALIR's %d", lo, hi, w, alir.MaxWidth)
	}
	full := k.QInterval()
	fmin, fmax := toFloat(lo, big.Below), toFloat(hi, big.Above)
	if fmin < full.Min {
		fmin = full.Min
	}
	if fmax > full.Max {
		fmax = full.Max
	}
	return alir.QInterval{Min: fmin, Max: fmax, Step: 1}, nil
}

// toFloat rounds x to a float64 in the given direction.
func toFloat(x *big.Int, dir big.Accuracy) float64 {
	f, acc := new(big.Float).SetInt(x).Float64()
	if acc == big.Exact || acc == dir {
		return f
	}
	if dir == big.Above {
		return math.Nextafter(f, math.Inf(1))
	}
	return math.Nextafter(f, math.Inf(-1))
}
