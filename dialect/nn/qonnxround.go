package nn

import (
	"fmt"
	"math"
	"math/big"
	"slices"
)

// The scalar semantics of the QONNX quantizers (docs/nn.md, "QONNX
// quantizers"): the one copy of their rounding rules, which the float
// evaluator (backend/nneval) applies to every element and the circuit path
// applies to constants. They follow QONNX's reference functions int_quant,
// binary_quant, trunc_v1 and trunc_v2 step by step in float64, with one
// difference: the integer is decided on the exact value of x/scale +
// zero_point (x, scale and zero point are float64 numbers, hence exact
// rationals), not on its float64 rounding, which QONNX's NumPy code
// divides and adds. The two differ only where the float64 quotient lands
// on a rounding boundary that the exact value misses (x = 0.25,
// scale = 0.1: the quotient rounds to the tie 2.5, the exact value is
// below it).

// CheckScale is the rule of a scale (and of a version-2 trunc's output
// scale): positive and finite.
func CheckScale(v float64) error {
	if !(v > 0) || math.IsInf(v, 1) {
		return fmt.Errorf("a scale must be positive and finite, but got %v", v)
	}
	return nil
}

// CheckZeroPoint is the rule of a zero point: a finite integer. QONNX
// allows a fractional zero point in principle; no exporter writes one, and
// otir rejects it rather than give its codes a meaning of its own.
func CheckZeroPoint(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v != math.Trunc(v) {
		return fmt.Errorf("a zero point must be a finite integer, but got %v", v)
	}
	return nil
}

// RoundMode applies QONNX's rounding mode (one of RoundingModes) to v:
// the NumPy function of QONNX's resolve_rounding_mode (ROUND np.round,
// half to even; CEIL; FLOOR; UP sign·ceil|v|; DOWN np.fix; HALF_UP
// sign·floor(|v|+0.5); HALF_DOWN sign·ceil(|v|-0.5)), computed exactly:
// QONNX's |v|+0.5 rounds in float64 at |v| = 0.5-2^-54 and beyond 2^52,
// this does not. Signed zeros are NumPy's. An unknown mode gives NaN.
func RoundMode(mode string, v float64) float64 {
	a := math.Abs(v)
	switch mode {
	case "ROUND":
		return math.RoundToEven(v)
	case "CEIL":
		return math.Ceil(v)
	case "FLOOR":
		return math.Floor(v)
	case "UP":
		return npSign(v) * math.Ceil(a)
	case "DOWN":
		return math.Trunc(v)
	case "HALF_UP":
		switch {
		case a < 0.5:
			a = 0
		case a < 1<<52:
			a = math.Floor(a + 0.5) // exact: 0.5 is a multiple of a's ulp
		}
		return npSign(v) * a
	case "HALF_DOWN":
		if a < 1<<52 {
			a = math.Ceil(a - 0.5) // exact from 0.25 up; below, -0 either way
		}
		return npSign(v) * a
	}
	return math.NaN()
}

// npSign is np.sign: -1, +1, +0 for either zero, NaN for NaN.
func npSign(v float64) float64 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	case v == 0:
		return 0
	}
	return v
}

// Scaled is x/scale + zp as QONNX computes it in float64, moved to its
// neighbour toward the exact value when it lands on a rounding boundary
// (an integer or half integer) that the exact value misses. Every rounding
// mode, comparison and clamp to integer bounds then gives on Scaled what
// it gives on the exact value: a float64 rounding never crosses a boundary
// (boundaries below 2^51 are float64 numbers), and a neighbour of a
// boundary below 2^51 lies strictly between it and the next. Beyond 2^51
// it is the float64 value. scale must be positive and finite (CheckScale),
// zp finite.
func Scaled(x, scale, zp float64) float64 {
	q := x / scale
	w := q + zp
	if !(math.Abs(w) < 1<<51) || w*2 != math.Floor(w*2) {
		return w
	}
	switch exactSign(x, scale, zp, q, w) {
	case 1:
		return math.Nextafter(w, math.Inf(1))
	case -1:
		return math.Nextafter(w, math.Inf(-1))
	}
	return w
}

// exactSign is the sign of the exact x/scale + zp - w, where q = x/scale
// and w = q + zp in float64: x/scale - q is the remainder x - q·scale
// (exact by a fused multiply-add when nothing under- or overflows) over
// scale > 0, and q + zp - w is TwoSum's error term. When both are non-zero
// with opposite signs, or the operands are extreme, exact rationals decide.
func exactSign(x, scale, zp, q, w float64) int {
	if x == 0 {
		return 0 // q = ±0: w = zp exactly
	}
	if ax, aq := math.Abs(x), math.Abs(q); ax >= 0x1p-900 && ax <= 0x1p1000 && aq >= 0x1p-1000 && scale >= 0x1p-1000 {
		r := math.FMA(-q, scale, x)
		bv := w - q
		e := (q - (w - bv)) + (zp - bv)
		switch sr, se := int(npSign(r)), int(npSign(e)); {
		case se == 0 || sr == se:
			return sr
		case sr == 0:
			return se
		}
	}
	v := new(big.Rat).SetFloat64(x)
	s, z, wr := new(big.Rat).SetFloat64(scale), new(big.Rat).SetFloat64(zp), new(big.Rat).SetFloat64(w)
	if v == nil || s == nil || z == nil || wr == nil || s.Sign() == 0 {
		return 0
	}
	v.Quo(v, s).Add(v, z)
	return v.Cmp(wr)
}

// clamp is QONNX's clamp by np.where: NaN stays NaN.
func (s QuantSpec) clamp(v float64) float64 {
	if lo, hi := float64(s.Min()), float64(s.Max()); v > hi {
		return hi
	} else if v < lo {
		return lo
	}
	return v
}

// Code is nn.quant's integer for x: QONNX's int_quant before its rescale,
// decided on the exact x/scale + zp (Scaled), clamped to [Min, Max] and
// rounded by the mode; ±1 for a bipolar spec (1 where x/scale + zp ≥ 0).
// ok is false when x is NaN (the value is NaN). scale must be positive and
// finite (CheckScale), zp a finite integer (CheckZeroPoint).
func (s QuantSpec) Code(x, scale, zp float64) (n int64, ok bool) {
	c := s.code(x, scale, zp)
	if math.IsNaN(c) {
		return 0, false
	}
	return int64(c), true
}

// code is Code as QONNX's float64 (NaN for NaN, NumPy's signed zeros).
func (s QuantSpec) code(x, scale, zp float64) float64 {
	v := Scaled(x, scale, zp)
	if s.Bipolar() {
		if v >= 0 {
			return 1
		}
		return -1
	}
	return RoundMode(s.Rounding, s.clamp(v))
}

// QuantValue is nn.quant's value of x: (Code - zp)·scale in float64, as
// QONNX's int_quant rescales.
func (s QuantSpec) QuantValue(x, scale, zp float64) float64 {
	return (s.code(x, scale, zp) - zp) * scale
}

// TruncValue is nn.trunc's value of x (outScale is read by version 2
// only). Version 1 (QONNX's trunc_v1): the integer a = round half to even
// of the exact x/scale + zp, divided by 2^(in_bits - out_bits), rounded by
// the mode, rescaled by (n - zp)·scale; no clamp. Version 2 (trunc_v2):
// a divided by t = 2^round(log2(outScale/scale)), clamped to out_bits'
// range, rounded by the mode, rescaled by (n - zp/t)·outScale.
func (s QuantSpec) TruncValue(x, scale, zp, outScale float64) float64 {
	a := math.RoundToEven(Scaled(x, scale, zp))
	t := s.TruncDivisor(scale, outScale)
	if s.Version == 2 {
		n := RoundMode(s.Rounding, s.clamp(a/t))
		return (n - zp/t) * outScale
	}
	n := RoundMode(s.Rounding, a/t)
	return (n - zp) * scale
}

// TruncDivisor is what nn.trunc divides its integer by: 2^(in_bits -
// out_bits) for version 1, t = 2^round(log2(outScale/scale)) for version 2
// (QONNX's trunc_scale); a power of two either way.
func (s QuantSpec) TruncDivisor(scale, outScale float64) float64 {
	if s.Version == 2 {
		return math.Pow(2, math.RoundToEven(math.Log2(outScale/scale)))
	}
	return math.Pow(2, float64(s.InBits-s.Bits))
}

// BipolarValue is nn.bipolar_quant's value of x, QONNX's binary_quant:
// scale where x ≥ 0, -scale elsewhere (NaN included); x is not divided by
// the scale.
func BipolarValue(x, scale float64) float64 {
	if x >= 0 {
		return scale
	}
	return -scale
}

// FloatQuantSpec is an nn.float_quant's signed minifloat format (QONNX
// FloatQuant): exponent and mantissa bit widths, the exponent bias and the
// rounding mode.
type FloatQuantSpec struct {
	ExpBits, ManBits, Bias int64
	Rounding               string
}

// MinExp is 1 − bias − mantissa bits, the exponent of the format's
// smallest step (QONNX's fp_internal_scale_min): every value is a
// multiple of 2^MinExp.
func (s FloatQuantSpec) MinExp() int64 { return 1 - s.Bias - s.ManBits }

// MaxValue is QONNX's compute_max_val, the largest value of the format:
// (2 − 2^-M)·2^(2^E − 1 − bias).
func (s FloatQuantSpec) MaxValue() float64 {
	return (2 - math.Ldexp(1, -int(s.ManBits))) * math.Ldexp(1, int(int64(1)<<s.ExpBits-1-s.Bias))
}

// CheckMaxVal is the rule of a max_val entry: positive and finite.
func CheckMaxVal(v float64) error {
	if !(v > 0) || math.IsInf(v, 1) {
		return fmt.Errorf("a max_val must be positive and finite, but got %v", v)
	}
	return nil
}

// FloatQuantValue is nn.float_quant's value of x: QONNX's float_quant,
// signed and saturating. With y = x/scale, the step is 2^e, e =
// max(⌊log2|y|⌋ − M, MinExp); y is rounded to a multiple of the step by
// the mode, clamped to ±min(MaxValue, maxVal) and multiplied by the
// scale. As for nn.quant, the binade and the rounding are decided on the
// exact y (QONNX's NumPy code takes log2 and divides in floating point).
// scale and maxVal must be positive and finite.
func (s FloatQuantSpec) FloatQuantValue(x, scale, maxVal float64) float64 {
	if math.IsNaN(x) {
		return x
	}
	if x == 0 {
		return x * scale // ±0, as NumPy's
	}
	mv := min(s.MaxValue(), maxVal)
	if math.IsInf(x, 0) {
		return math.Copysign(mv, x) * scale
	}
	// ⌊log2|y|⌋ of the float64 quotient is the exact y's: below s·2^k (a
	// float64 number) x is at least an ulp away, so x/s is further below
	// 2^k than half the spacing of the float64 numbers there.
	y := x / scale
	if math.IsInf(y, 0) {
		return math.Copysign(mv, x) * scale
	}
	e := s.MinExp() // y underflowed to 0: far below the smallest step
	if y != 0 {
		_, p := math.Frexp(math.Abs(y))
		e = max(int64(p-1)-s.ManBits, e)
	}
	step := math.Ldexp(scale, int(e))
	q := math.Ldexp(RoundMode(s.Rounding, Scaled(x, step, 0)), int(e))
	return max(-mv, min(mv, q)) * scale
}

// RoundShift is RoundMode(mode, m/2^k) for an integer m, exactly: m/2^k
// may need more bits than a float64 holds. The result is n = ⌊m/2^k⌋ or
// n+1, and RoundMode itself decides which, on a small number of the same
// sign, the same parity of its floor and the same kind of fraction (none,
// below a half, a half, above a half): every mode's choice depends on
// those only. ok is false for an unknown mode.
func RoundShift(mode string, m int64, k uint) (q int64, ok bool) {
	if k == 0 {
		return m, slices.Contains(RoundingModes, mode)
	}
	var n int64
	frac := 0.0 // the kind of fraction: 0, 0.25, 0.5 or 0.75
	if k >= 64 {
		// |m| ≤ 2^63 ≤ 2^(k-1): m/2^k is in [-1/2, 1/2), -1/2 only for
		// m = -2^63 and k = 64.
		switch {
		case m > 0:
			frac = 0.25
		case m == math.MinInt64 && k == 64:
			n, frac = -1, 0.5
		case m < 0:
			n, frac = -1, 0.75
		}
	} else {
		n = m >> k // floor (Go's shift of a signed integer is arithmetic)
		rem, half := uint64(m)&(1<<k-1), uint64(1)<<(k-1)
		switch {
		case rem == 0:
		case rem < half:
			frac = 0.25
		case rem == half:
			frac = 0.5
		default:
			frac = 0.75
		}
	}
	p := n & 1 // n's parity, with n's sign: 0 or 1, -2 or -1
	if n < 0 {
		p -= 2
	}
	r := RoundMode(mode, float64(p)+frac)
	if math.IsNaN(r) {
		return 0, false
	}
	return n + int64(r) - p, true
}
