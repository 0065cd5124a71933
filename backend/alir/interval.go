package alir

import (
	"fmt"
	"math"
	"math/big"

	"github.com/otir-dev/otir/internal/intrange"
)

// MaxWidth is the widest fixed-point type a program may use (the
// interpreter's 64-bit buffer).
const MaxWidth = 64

// Limits on fractional bits: a step 2^-f must be a finite, non-zero float64.
const (
	MinFractionals = -1023
	MaxFractionals = 1074
)

// QInterval is a quantization interval: the values Min..Max in steps of Step
// (a power of two).
type QInterval struct {
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	Step float64 `json:"step"`
}

func (q QInterval) String() string { return fmt.Sprintf("[%v, %v, %v]", q.Min, q.Max, q.Step) }

// KIF is a fixed-point type: a sign bit if Signed, Integers integer bits (not
// counting the sign) and Fractionals fractional bits. Either count may be
// negative. A raw value r stands for r*2^-Fractionals.
type KIF struct {
	Signed      bool
	Integers    int
	Fractionals int
}

func (t KIF) String() string {
	k := 0
	if t.Signed {
		k = 1
	}
	return fmt.Sprintf("(%d, %d, %d)", k, t.Integers, t.Fractionals)
}

// Width returns the number of bits k + i + f.
func (t KIF) Width() int {
	w := t.Integers + t.Fractionals
	if t.Signed {
		w++
	}
	return w
}

// Check reports whether t is a type the interpreter supports: width 0..64
// (a signed type needs at least its sign bit; the only zero-width type is
// (0, 0, 0)) and fractional bits whose step is a normal float64 power of two.
func (t KIF) Check() error {
	w := t.Width()
	switch {
	case t.Fractionals < MinFractionals || t.Fractionals > MaxFractionals:
		return fmt.Errorf("type %v: fractional bits out of range [%d, %d]", t, MinFractionals, MaxFractionals)
	case t.Integers < -MaxFractionals-1 || t.Integers > 1023:
		return fmt.Errorf("type %v: integer bits out of range", t)
	case w > MaxWidth:
		return fmt.Errorf("type %v: width %d exceeds %d bits", t, w, MaxWidth)
	case w < 0 || (t.Signed && w < 1):
		return fmt.Errorf("type %v: negative width", t)
	case w == 0 && (t.Integers != 0 || t.Fractionals != 0):
		return fmt.Errorf("type %v: a zero-width type must be (0, 0, 0)", t)
	}
	return nil
}

// IsPow2 reports whether x is a positive finite power of two.
func IsPow2(x float64) bool {
	if !(x > 0) || math.IsInf(x, 0) {
		return false
	}
	frac, _ := math.Frexp(x)
	return frac == 0.5
}

// ceilLog2 returns the least n with 2^n >= x, for finite x > 0.
func ceilLog2(x float64) int {
	frac, exp := math.Frexp(x) // x = frac * 2^exp, frac in [0.5, 1)
	if frac == 0.5 {
		return exp - 1
	}
	return exp
}

// ceilLog2Plus1 returns the least n with 2^n >= x+1, computed exactly (x+1
// may not be representable).
func ceilLog2Plus1(x float64) int {
	if x >= 1<<53 {
		// x is an integer: x+1 <= 2^n iff x < 2^n.
		n := ceilLog2(x)
		if frac, _ := math.Frexp(x); frac == 0.5 {
			n++
		}
		return n
	}
	return ceilLog2(x + 1) // exact: x+1 is a multiple of ulp(x) below 2^54
}

// KIF returns the fixed-point type of q by the ERRATA rule: (0, 0, 0) when
// min = max = 0, else k = min < 0, f = -log2(step),
// i = ceil_log2(max(|min/step|, max/step + 1)) - f.
func (q QInterval) KIF() (KIF, error) {
	if math.IsNaN(q.Min) || math.IsNaN(q.Max) || math.IsInf(q.Min, 0) || math.IsInf(q.Max, 0) {
		return KIF{}, fmt.Errorf("interval %v: bounds must be finite", q)
	}
	if !IsPow2(q.Step) {
		return KIF{}, fmt.Errorf("interval %v: step is not a power of two", q)
	}
	if q.Min > q.Max {
		return KIF{}, fmt.Errorf("interval %v: min > max", q)
	}
	if q.Min == 0 && q.Max == 0 {
		return KIF{}, nil
	}
	_, e := math.Frexp(q.Step)
	f := -(e - 1)
	lo := math.Abs(q.Min / q.Step) // exact unless it overflows
	hi := q.Max / q.Step
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return KIF{}, fmt.Errorf("interval %v: too many steps", q)
	}
	var bits int
	switch {
	case lo == 0 && hi+1 <= 0:
		return KIF{}, fmt.Errorf("interval %v: empty", q)
	case lo == 0:
		bits = ceilLog2Plus1(hi)
	case hi+1 <= 0:
		bits = ceilLog2(lo)
	default:
		bits = max(ceilLog2(lo), ceilLog2Plus1(hi))
	}
	t := KIF{Signed: q.Min < 0, Integers: bits - f, Fractionals: f}
	if err := t.Check(); err != nil {
		return KIF{}, fmt.Errorf("interval %v: %w", q, err)
	}
	return t, nil
}

// QInterval returns the interval of all values of t. Its max is rounded
// down to a float64 when 2^i - 2^-f is not representable, so that
// t.QInterval().KIF() == t for every valid t.
func (t KIF) QInterval() QInterval {
	if t.Width() == 0 {
		return QInterval{0, 0, 1}
	}
	step := math.Ldexp(1, -t.Fractionals)
	top := math.Ldexp(1, t.Integers)
	max := top - step
	if max >= top { // step below half an ulp of top: round down
		max = math.Nextafter(top, 0)
	}
	min := 0.0
	if t.Signed {
		min = -top
	}
	return QInterval{min, max, step}
}

// rawRange returns the least and greatest raw values of t.
func (t KIF) rawRange() (lo, hi *big.Int) {
	w := t.Width()
	if w == 0 {
		return new(big.Int), new(big.Int)
	}
	r := intrange.OfBits(w, t.Signed)
	return r.Lo, r.Hi
}

// Interval helpers for builders: each returns the exact interval of the
// result of an operation on values in the argument intervals.

// AddQInt returns the interval of a + b*2^shift (a - b*2^shift if sub).
func AddQInt(a, b QInterval, shift int, sub bool) QInterval {
	s := math.Ldexp(1, shift)
	bmin, bmax := b.Min*s, b.Max*s
	if sub {
		bmin, bmax = -bmax, -bmin
	}
	return QInterval{a.Min + bmin, a.Max + bmax, math.Min(a.Step, b.Step*s)}
}

// NegQInt returns the interval of -a.
func NegQInt(a QInterval) QInterval { return QInterval{-a.Max, -a.Min, a.Step} }

// MulQInt returns the interval of a*b.
func MulQInt(a, b QInterval) QInterval {
	c := [4]float64{a.Min * b.Min, a.Min * b.Max, a.Max * b.Min, a.Max * b.Max}
	lo, hi := c[0], c[0]
	for _, v := range c[1:] {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return QInterval{lo, hi, a.Step * b.Step}
}

// ReLUQInt returns the interval of max(a, 0).
func ReLUQInt(a QInterval) QInterval {
	return QInterval{math.Max(a.Min, 0), math.Max(a.Max, 0), a.Step}
}

// KIFCache memoizes QInterval.KIF: a program has few distinct intervals
// (the element types of its tiles, their products and sums), so a walk
// over its ops that needs every op's type computes each once. The cache is
// direct-mapped on the interval's bits; an invalid interval is never
// cached (its error is computed again). (-0 and 0 bounds give the same
// KIF, so == is the right test.) The zero value is ready to use;
// a KIFCache is not safe for concurrent use.
type KIFCache struct {
	q   [kifCacheSize]QInterval
	k   [kifCacheSize]KIF
	set [kifCacheSize]bool
}

const kifCacheSize = 256

// KIF returns q.KIF().
func (c *KIFCache) KIF(q QInterval) (KIF, error) {
	h := math.Float64bits(q.Min)*0x9E3779B97F4A7C15 ^ math.Float64bits(q.Max)*0xC2B2AE3D27D4EB4F ^ math.Float64bits(q.Step)
	h ^= h >> 29
	s := h % kifCacheSize
	if c.set[s] && c.q[s] == q {
		return c.k[s], nil
	}
	t, err := q.KIF()
	if err == nil {
		c.q[s], c.k[s], c.set[s] = q, t, true
	}
	return t, err
}
