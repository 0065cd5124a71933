package dais

import (
	"fmt"
	"math"
	"math/big"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/internal/intrange"
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
// holds every integer in [lo, hi]: (lo < 0, intrange's ExactMag, 0).
func IntBits(lo, hi *big.Int) alir.KIF {
	return alir.KIF{Signed: lo.Sign() < 0, Integers: intrange.Range{Lo: lo, Hi: hi}.ExactMag()}
}

// IntBits64 is IntBits of int64 bounds.
func IntBits64(lo, hi int64) alir.KIF {
	return alir.KIF{Signed: lo < 0, Integers: intrange.ExactMag64(lo, hi)}
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
	fmin, fmax := Scaled(lo, 0, big.Below), Scaled(hi, 0, big.Above)
	if fmin < full.Min {
		fmin = full.Min
	}
	if fmax > full.Max {
		fmax = full.Max
	}
	return alir.QInterval{Min: fmin, Max: fmax, Step: 1}, nil
}

// Scaled returns x*2^-f as a float64, rounded in the given direction
// (big.Below or big.Above): the bound of an interval of raw values at f
// fractional bits.
func Scaled(x *big.Int, f int, dir big.Accuracy) float64 {
	bf := new(big.Float).SetInt(x)
	bf.SetMantExp(bf, -f)
	v, acc := bf.Float64()
	if acc == big.Exact || acc == dir {
		return v
	}
	if dir == big.Above {
		return math.Nextafter(v, math.Inf(1))
	}
	return math.Nextafter(v, math.Inf(-1))
}
