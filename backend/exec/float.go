package exec

import (
	"math"
	"math/big"

	"github.com/otir-dev/otir/ir"
)

// floatFormat describes an IEEE-754 binary format: p significand bits
// (including the implicit one), the exponent range of normal numbers, and the
// largest finite value.
type floatFormat struct {
	p          int
	emin, emax int
	max        float64
}

var floatFormats = [...]floatFormat{
	ir.F16:  {p: 11, emin: -14, emax: 15, max: 65504},
	ir.BF16: {p: 8, emin: -126, emax: 127, max: math.Ldexp(255, 120)},
	ir.F32:  {p: 24, emin: -126, emax: 127, max: math.MaxFloat32},
	ir.F64:  {p: 53, emin: -1022, emax: 1023, max: math.MaxFloat64},
}

// roundFloat64 rounds x to the nearest value of format k, ties to even, with
// gradual underflow and overflow to infinity. The result is a float64 holding
// that value exactly.
func roundFloat64(x float64, k ir.FloatKind) float64 {
	switch k {
	case ir.F64:
		return x
	case ir.F32:
		return float64(float32(x)) // Go converts with round-to-nearest-even
	}
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	f := floatFormats[k]
	a := math.Abs(x)
	_, exp := math.Frexp(a) // a = frac * 2^exp, frac in [0.5, 1)
	e := exp - 1
	if e < f.emin {
		e = f.emin // subnormal: the quantum stops shrinking
	}
	q := e - (f.p - 1) // exponent of the last significand bit
	r := math.Ldexp(math.RoundToEven(math.Ldexp(a, -q)), q)
	if r > f.max {
		r = math.Inf(1)
	}
	return math.Copysign(r, x)
}

// roundBigFloat rounds an exact value to format k once (ties to even), for
// sources wider than float64: big integers and exact matmul sums.
func roundBigFloat(x *big.Float, k ir.FloatKind) float64 {
	switch k {
	case ir.F64:
		v, _ := x.Float64() // nearest float64, ties to even, with subnormals
		return v
	case ir.F32:
		v, _ := x.Float32()
		return float64(v)
	}
	if x.IsInf() || x.Sign() == 0 {
		v, _ := x.Float64()
		return v
	}
	f := floatFormats[k]
	e := x.MantExp(nil) - 1 // |x| in [2^e, 2^(e+1))
	prec := f.p
	if e < f.emin {
		prec -= f.emin - e
	}
	neg := x.Sign() < 0
	var r float64
	if prec <= 0 {
		// |x| < 2^(emin-p+1), the smallest subnormal q: the result is 0 or q;
		// exactly q/2 (prec == 0 and x a power of two) ties to 0, the even one.
		q := math.Ldexp(1, f.emin-f.p+1)
		if prec == 0 && !isPow2(x) {
			r = q
		}
	} else {
		z := new(big.Float).SetMode(big.ToNearestEven).SetPrec(uint(prec)).Set(x)
		r, _ = z.Float64() // at most p <= 53 bits within range: exact
		r = math.Abs(r)
		if r > f.max {
			r = math.Inf(1)
		}
	}
	if neg {
		r = -r
	}
	return r
}

// isPow2 reports whether |x| is a power of two.
func isPow2(x *big.Float) bool {
	m := new(big.Float)
	x.MantExp(m) // |m| in [0.5, 1)
	return m.Abs(m).Cmp(big.NewFloat(0.5)) == 0
}
