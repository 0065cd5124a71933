// Package quant defines the one type of MLIR's quant dialect that circuits
// need: !quant.uniform<i8:f64, 0.0625>, a per-tensor fixed-point format with
// a power-of-two scale and zero point 0 (../shared/design/nn-graph.md §5). A
// value is stored as a W-bit integer q (signed iW or unsigned uW) and means
// q·2^-F. Quantizing a real v is what ALIR's quantize does: floor(v·2^F),
// then wrap to W bits (two's complement for signed), never rounding to
// nearest and never saturating.
package quant

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/otir-dev/otir/ir"
)

// MaxWidth bounds the storage width: values are held in int64.
const MaxWidth = 63

// MaxFrac bounds |F|, the scale's exponent (scale = 2^-F).
const MaxFrac = 126

// UniformType is !quant.uniform<iW:f64, 2^-F> (or uW): storage of Width
// bits, Signed or not, scale 2^-Frac, zero point 0, expressed in f64.
type UniformType struct {
	ir.DialectType
	Width  int
	Signed bool
	Frac   int
	str    string
}

func (t *UniformType) String() string { return t.str }

// Uniform returns the interned type of W-bit storage at scale 2^-frac. The
// caller checks the ranges (Check); Uniform does not.
func Uniform(width int, signed bool, frac int) *UniformType {
	s := "u"
	if signed {
		s = "i"
	}
	key := "!quant.uniform<" + s + strconv.Itoa(width) + ":f64, " + FormatScale(frac) + ">"
	return ir.InternType(key, func() ir.Type {
		return &UniformType{Width: width, Signed: signed, Frac: frac, str: key}
	}).(*UniformType)
}

// FromKIF returns the type of alkaid's (k, i, f) convention: k = 1 signed,
// i integer bits excluding the sign, f fractional bits; width k+i+f.
func FromKIF(k, i, f int) (*UniformType, error) {
	if k != 0 && k != 1 {
		return nil, fmt.Errorf("kif: k must be 0 or 1, got %d", k)
	}
	if err := Check(k+i+f, k == 1, f); err != nil {
		return nil, err
	}
	return Uniform(k+i+f, k == 1, f), nil
}

// KIF returns the type in alkaid's (k, i, f) convention.
func (t *UniformType) KIF() (k, i, f int) {
	if t.Signed {
		k = 1
	}
	return k, t.Width - k - t.Frac, t.Frac
}

// Check reports whether a width, signedness and scale exponent form a valid
// type.
func Check(width int, signed bool, frac int) error {
	min := 1
	if signed {
		min = 2
	}
	if width < min || width > MaxWidth {
		return fmt.Errorf("storage width must be in [%d, %d], got %d", min, MaxWidth, width)
	}
	if frac < -MaxFrac || frac > MaxFrac {
		return fmt.Errorf("scale 2^%d is out of range [2^-%d, 2^%d]", -frac, MaxFrac, MaxFrac)
	}
	return nil
}

// Step is the scale, 2^-Frac: the distance between two representable values.
func (t *UniformType) Step() float64 { return math.Ldexp(1, -t.Frac) }

// QMin and QMax bound the stored integer.
func (t *UniformType) QMin() int64 {
	if t.Signed {
		return -(int64(1) << (t.Width - 1))
	}
	return 0
}

// QMax is the largest stored integer.
func (t *UniformType) QMax() int64 {
	if t.Signed {
		return int64(1)<<(t.Width-1) - 1
	}
	return int64(1)<<t.Width - 1
}

// Min and Max are the smallest and largest representable reals.
func (t *UniformType) Min() float64 { return math.Ldexp(float64(t.QMin()), -t.Frac) }

// Max is the largest representable real.
func (t *UniformType) Max() float64 { return math.Ldexp(float64(t.QMax()), -t.Frac) }

// Wrap reduces an integer to the storage: modulo 2^Width, into [QMin, QMax].
func (t *UniformType) Wrap(q int64) int64 {
	shift := 64 - t.Width
	if t.Signed {
		return q << shift >> shift
	}
	return int64(uint64(q) << shift >> shift)
}

// Quantize returns the stored integer of a real: floor(v·2^Frac) wrapped to
// Width bits, exactly (v is any finite float64; the floor of a float is an
// integer-valued float, whose residue modulo 2^Width math.Mod computes
// exactly). NaN and ±Inf quantize to 0, as in ALIR's interpreters.
func (t *UniformType) Quantize(v float64) int64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	x := math.Floor(math.Ldexp(v, t.Frac))
	if math.Abs(x) < 1<<62 {
		return t.Wrap(int64(x))
	}
	m := math.Mod(x, math.Ldexp(1, t.Width)) // exact; in (-2^W, 2^W)
	return t.Wrap(int64(m))
}

// Value is the real a stored integer means, q·2^-Frac.
func (t *UniformType) Value(q int64) float64 { return math.Ldexp(float64(q), -t.Frac) }

// FormatScale spells 2^-frac as MLIR reads a float: 0.0625, 1.0, 4.0,
// 9.5367431640625e-07 (always with a decimal point or an exponent).
func FormatScale(frac int) string {
	s := strconv.FormatFloat(math.Ldexp(1, -frac), 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// parseUniform reads the body of !quant.uniform<...>: "i8:f64, 0.0625",
// "u7:f64, 1.250000e-01", "i8:f64, 0.0625:0".
func parseUniform(body string) (ir.Type, error) {
	storage, rest, ok := strings.Cut(body, ":")
	if !ok {
		return nil, fmt.Errorf("expected '!quant.uniform<iN:f64, scale>', got '!quant.uniform<%s>'", body)
	}
	storage = strings.TrimSpace(storage)
	if strings.Contains(storage, "<") {
		return nil, fmt.Errorf("storage ranges ('%s') are not supported: the storage is the full iN or uN", storage)
	}
	signed := strings.HasPrefix(storage, "i")
	if !signed && !strings.HasPrefix(storage, "u") {
		return nil, fmt.Errorf("storage type must be iN or uN, got '%s'", storage)
	}
	width, err := strconv.Atoi(storage[1:])
	if err != nil {
		return nil, fmt.Errorf("storage type must be iN or uN, got '%s'", storage)
	}
	expressed, scaleText, ok := strings.Cut(rest, ",")
	if !ok {
		if strings.Contains(rest, "{") {
			return nil, fmt.Errorf("per-axis quantization is not supported: one scale per tensor")
		}
		return nil, fmt.Errorf("expected '!quant.uniform<%s:f64, scale>', missing the scale", storage)
	}
	if e := strings.TrimSpace(expressed); e != "f64" {
		if strings.HasPrefix(e, "f64:") {
			return nil, fmt.Errorf("per-axis quantization is not supported: one scale per tensor")
		}
		return nil, fmt.Errorf("expressed type must be f64, got '%s'", e)
	}
	scaleText = strings.TrimSpace(scaleText)
	if strings.HasPrefix(scaleText, "{") {
		return nil, fmt.Errorf("per-axis quantization is not supported: one scale per tensor")
	}
	if s, zp, ok := strings.Cut(scaleText, ":"); ok {
		if z := strings.TrimSpace(zp); z != "0" {
			return nil, fmt.Errorf("zero point must be 0, got %s", z)
		}
		scaleText = strings.TrimSpace(s)
	}
	scale, err := strconv.ParseFloat(scaleText, 64)
	if err != nil || math.IsNaN(scale) || math.IsInf(scale, 0) {
		return nil, fmt.Errorf("invalid scale '%s'", scaleText)
	}
	frac, exp := math.Frexp(scale)
	if scale <= 0 || frac != 0.5 {
		return nil, fmt.Errorf("scale must be a positive power of two, got %s", scaleText)
	}
	f := 1 - exp // scale = 0.5·2^exp = 2^(exp-1) = 2^-f
	if err := Check(width, signed, f); err != nil {
		return nil, err
	}
	return Uniform(width, signed, f), nil
}

// ElementOf returns t's quantized element type, or nil when t (a tensor or a
// scalar) is not quantized.
func ElementOf(t ir.Type) *UniformType {
	if tt, ok := t.(*ir.TensorType); ok {
		t = tt.Elem
	}
	q, _ := t.(*UniformType)
	return q
}

func init() { ir.RegisterType("quant.uniform", parseUniform) }

// MaxTableWidth bounds the input width of a lookup table (2^20 entries).
const MaxTableWidth = 20

// LookupTable tabulates f over every value of in: entry j is the stored
// integer of out for f(in.Value(in.QMin()+j)), quantized as Quantize does
// (floor, wrap; NaN and ±Inf give 0). The quantized evaluator and the
// lowering to a circuit both read functions through it, so that the table a
// circuit holds is the evaluator's function, bit for bit.
func LookupTable(in, out *UniformType, f func(float64) float64) ([]int64, error) {
	if in.Width > MaxTableWidth {
		return nil, fmt.Errorf("a lookup table over %s would have 2^%d entries (at most 2^%d: narrow the input)", in, in.Width, MaxTableWidth)
	}
	n := int64(1) << in.Width
	table := make([]int64, n)
	for j := range table {
		table[j] = out.Quantize(f(in.Value(in.QMin() + int64(j))))
	}
	return table, nil
}

// Round returns the stored integer nearest to a real, ties to even, and
// saturated at the type's bounds: how a parameter (a weight, a bias, a
// constant) is quantized offline, unlike Quantize (floor and wrap), which is
// what a circuit does to activations. NaN rounds to 0; ±Inf saturate.
func (t *UniformType) Round(v float64) int64 {
	if math.IsNaN(v) {
		return 0
	}
	r := math.RoundToEven(math.Ldexp(v, t.Frac))
	top := t.Width // QMax+1 = 2^top and QMin are exact in float64
	if t.Signed {
		top--
	}
	if r >= math.Ldexp(1, top) {
		return t.QMax()
	}
	if r <= float64(t.QMin()) {
		return t.QMin()
	}
	return int64(r)
}
