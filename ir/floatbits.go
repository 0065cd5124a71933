package ir

import (
	"math"
	"strconv"
	"strings"
)

// A FloatAttr or dense float element holds its value as a float64, rounded
// to its type. A NaN of a narrower type keeps its payload: the type's
// mantissa bits sit at the top of float64's mantissa, where a hardware
// widening puts them, and FloatBits takes them back, so a signalling NaN
// or a payload survives parse -> print (MLIR keeps the bit pattern).

// layout gives the mantissa and exponent widths of a float format.
func (t *FloatType) layout() (mant, exp uint) {
	switch t.Kind {
	case F16:
		return 10, 5
	case BF16:
		return 7, 8
	case F32:
		return 23, 8
	}
	return 52, 11
}

// FloatBits is the bit pattern of f rounded to t (to nearest, ties to even;
// beyond the largest finite value, an infinity). A NaN keeps the top of its
// payload (and stays a NaN if that is all zero).
func FloatBits(f float64, t *FloatType) uint64 {
	b := math.Float64bits(f)
	mant, exp := t.layout()
	if mant == 52 {
		return b
	}
	sign := b >> 63 << (mant + exp)
	inf := uint64(1<<exp-1) << mant
	switch {
	case math.IsNaN(f):
		p := (b & (1<<52 - 1)) >> (52 - mant)
		if p == 0 {
			p = 1 << (mant - 1)
		}
		return sign | inf | p
	case math.IsInf(f, 0):
		return sign | inf
	}
	a := math.Abs(f)
	bias := 1<<(exp-1) - 1
	if a < math.Ldexp(1, 1-bias) {
		// Subnormal (or zero): a multiple of 2^(1-bias-mant). Rounding up
		// to 1<<mant gives the smallest normal's pattern, as it should.
		return sign | uint64(math.RoundToEven(math.Ldexp(a, bias-1+int(mant))))
	}
	m, e := math.Frexp(a) // a = m * 2^e, m in [0.5, 1)
	q := uint64(math.RoundToEven(math.Ldexp(m, int(mant)+1))) - 1<<mant
	be := uint64(e - 1 + bias)
	if q == 1<<mant {
		q, be = 0, be+1
	}
	if be >= 1<<exp-1 {
		return sign | inf
	}
	return sign | be<<mant | q
}

// FloatFromBits decodes a bit pattern of t (bits above t's width are
// ignored). A NaN keeps its payload (see FloatBits).
func FloatFromBits(bits uint64, t *FloatType) float64 {
	mant, exp := t.layout()
	if mant == 52 {
		return math.Float64frombits(bits)
	}
	neg := bits>>(mant+exp)&1 != 0
	e := bits >> mant & (1<<exp - 1)
	m := bits & (1<<mant - 1)
	bias := 1<<(exp-1) - 1
	var f float64
	switch e {
	case 1<<exp - 1:
		f = math.Float64frombits(0x7FF<<52 | m<<(52-mant))
	case 0:
		f = math.Ldexp(float64(m), 1-bias-int(mant))
	default:
		f = math.Ldexp(float64(1<<mant|m), int(e)-bias-int(mant))
	}
	if neg {
		return math.Float64frombits(math.Float64bits(f) | 1<<63)
	}
	return f
}

// RoundFloat rounds f to the nearest value of t (see FloatBits).
func RoundFloat(f float64, t *FloatType) float64 { return FloatFromBits(FloatBits(f, t), t) }

// FormatFloatOf prints f, a value of t (nil: f64), so that it reads back as
// the same value of t: infinities and NaNs as t's bit pattern in hex, of t's own
// width (MLIR rejects 0x7FF8000000000000 : f32), NaN payload included;
// finite values as the shortest decimal that rounds back to f.
func FormatFloatOf(f float64, t *FloatType) string {
	if t == nil {
		t = Float(F64)
	}
	f = RoundFloat(f, t) // a value built unrounded prints as it will read back
	if math.IsNaN(f) || math.IsInf(f, 0) {
		digits := t.Bits() / 4
		s := strings.ToUpper(strconv.FormatUint(FloatBits(f, t), 16))
		return "0x" + strings.Repeat("0", digits-len(s)) + s
	}
	var s string
	switch t.Kind {
	case F64:
		s = strconv.FormatFloat(f, 'g', -1, 64)
	case F32:
		s = strconv.FormatFloat(f, 'g', -1, 32)
	default:
		for prec := 1; ; prec++ {
			s = strconv.FormatFloat(f, 'g', prec, 64)
			if v, _ := strconv.ParseFloat(s, 64); RoundFloat(v, t) == f || prec >= 17 {
				break
			}
		}
	}
	return floatLooking(s)
}

// floatLooking makes a formatted number look like a float ("1" -> "1.0",
// "1e+20" -> "1.0e+20"), MLIR's style.
func floatLooking(s string) string {
	if !strings.ContainsAny(s, ".eEn") {
		return s + ".0"
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 && !strings.Contains(s, ".") {
		return s[:i] + ".0" + s[i:]
	}
	return s
}
