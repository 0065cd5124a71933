package quant

import (
	"math"
	"math/bits"
)

// FracOf is the least f for which v·2^f is an integer (v finite, not
// zero): the fraction bits an exact fixed-point v needs. Every finite
// float64 is dyadic, so one exists.
func FracOf(v float64) int {
	fr, exp := math.Frexp(v) // v = fr·2^exp, 0.5 ≤ |fr| < 1
	m := uint64(math.Ldexp(math.Abs(fr), 53))
	return 53 - exp - bits.TrailingZeros64(m)
}

// ExactWidth is the width of the narrowest signed fixed-point format that
// holds every value of vs exactly (finite values; 1 when all are zero):
// the bits a parameter tensor costs when it is kept as it is.
func ExactWidth(vs []float64) int {
	f, top := math.MinInt, math.MinInt
	for _, v := range vs {
		if v == 0 {
			continue
		}
		f = max(f, FracOf(v))
		_, e := math.Frexp(v) // |v| < 2^e
		top = max(top, e)
	}
	if f == math.MinInt {
		return 1
	}
	return top + f + 1 // sign, integer and fraction bits
}
