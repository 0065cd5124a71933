package daisopt

import (
	"math"
	"math/big"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/lower/dais"
)

// Raw-value arithmetic of ALIR (ERRATA, "Quantization"): a slot of type
// (k, i, f) holds a raw integer r standing for r*2^-f. (The operations
// themselves are alir's: alir.Evaluator.)

// span is a closed range of raw values.
type span struct{ lo, hi *big.Int }

func point(v *big.Int) span { return span{v, v} }

// fullSpan returns the range of every raw value of t.
func fullSpan(t alir.KIF) span {
	w := uint(t.Width())
	if w == 0 {
		return span{new(big.Int), new(big.Int)}
	}
	if t.Signed {
		hi := new(big.Int).Lsh(big.NewInt(1), w-1)
		lo := new(big.Int).Neg(hi)
		return span{lo, hi.Sub(hi, big.NewInt(1))}
	}
	hi := new(big.Int).Lsh(big.NewInt(1), w)
	return span{new(big.Int), hi.Sub(hi, big.NewInt(1))}
}

func (s span) within(o span) bool { return s.lo.Cmp(o.lo) >= 0 && s.hi.Cmp(o.hi) <= 0 }

func (s span) shl(n uint) span {
	return span{new(big.Int).Lsh(s.lo, n), new(big.Int).Lsh(s.hi, n)}
}

func (s span) neg() span { return span{new(big.Int).Neg(s.hi), new(big.Int).Neg(s.lo)} }

func (s span) add(o span) span {
	return span{new(big.Int).Add(s.lo, o.lo), new(big.Int).Add(s.hi, o.hi)}
}

func (s span) union(o span) span {
	r := s
	if o.lo.Cmp(r.lo) < 0 {
		r.lo = o.lo
	}
	if o.hi.Cmp(r.hi) > 0 {
		r.hi = o.hi
	}
	return r
}

func (s span) mul(o span) span {
	c := [4]*big.Int{
		new(big.Int).Mul(s.lo, o.lo), new(big.Int).Mul(s.lo, o.hi),
		new(big.Int).Mul(s.hi, o.lo), new(big.Int).Mul(s.hi, o.hi),
	}
	r := span{c[0], c[0]}
	for _, v := range c[1:] {
		r = r.union(point(v))
	}
	return r
}

func (s span) relu() span {
	r := s
	if r.lo.Sign() < 0 {
		r.lo = new(big.Int)
	}
	if r.hi.Sign() < 0 {
		r.hi = new(big.Int)
	}
	return r
}

// bitwise returns a range that holds x AND y, x OR y and x XOR y for x in
// s and y in o: with both non-negative and below 2^n, so is the result;
// otherwise both lie in [-2^n, 2^n), and so does the result. (alir's
// Portability bounds AND and OR more tightly, never more loosely.)
func (s span) bitwise(o span) span {
	if s.lo.Sign() >= 0 && o.lo.Sign() >= 0 {
		top := new(big.Int).Lsh(big.NewInt(1), uint(max(s.hi.BitLen(), o.hi.BitLen())))
		return span{new(big.Int), top.Sub(top, big.NewInt(1))}
	}
	top := new(big.Int).Lsh(big.NewInt(1), uint(max(s.mag(), o.mag())))
	return span{new(big.Int).Neg(top), new(big.Int).Sub(top, big.NewInt(1))}
}

// mag returns the least n such that s lies in [-2^n, 2^n).
func (s span) mag() int {
	n := s.hi.BitLen()
	if s.lo.Sign() < 0 {
		n = max(n, new(big.Int).Not(s.lo).BitLen()) // -lo-1
	}
	return n
}

// rescale brings raw values at e fractional bits to f fractional bits:
// exactly when f >= e, else by floor (which is monotone, so bounds map to
// bounds); floored reports the latter.
func (s span) rescale(e, f int) (r span, floored bool) {
	if f >= e {
		return s.shl(uint(f - e)), false
	}
	n := uint(e - f)
	return span{new(big.Int).Rsh(s.lo, n), new(big.Int).Rsh(s.hi, n)}, true
}

// spanInterval returns the interval of the raw values s at f fractional
// bits: the smallest fixed-point type with f fractional bits holding them (the
// zero-width type when s is {0}), with bounds lo*2^-f and hi*2^-f, rounded
// outward when float64 cannot hold them. ok is false when no such type
// exists (wider than 64 bits, or a step float64 cannot hold).
func spanInterval(s span, f int) (q alir.QInterval, k alir.KIF, ok bool) {
	ib := dais.IntBits(s.lo, s.hi)
	if ib.Width() == 0 {
		step := math.Ldexp(1, -f)
		if step == 0 || math.IsInf(step, 0) {
			return q, k, false
		}
		return alir.QInterval{Min: 0, Max: 0, Step: step}, alir.KIF{}, true
	}
	k = alir.KIF{Signed: ib.Signed, Integers: ib.Integers - f, Fractionals: f}
	if k.Check() != nil {
		return q, k, false
	}
	full := k.QInterval()
	lo := scaled(s.lo, f, big.Below)
	hi := scaled(s.hi, f, big.Above)
	lo, hi = math.Max(lo, full.Min), math.Min(hi, full.Max)
	if lo == 0 {
		lo = 0 // never -0
	}
	if hi == 0 {
		hi = 0
	}
	q = alir.QInterval{Min: lo, Max: hi, Step: full.Step}
	if got, err := q.KIF(); err != nil || got != k {
		return q, k, false
	}
	return q, k, true
}

// spanType is spanInterval as a dais type.
func spanType(s span, f int) (*dais.FixedType, alir.KIF, bool) {
	q, k, ok := spanInterval(s, f)
	if !ok {
		return nil, k, false
	}
	return dais.Fixed(q), k, true
}

// scaled returns x*2^-f as a float64, rounded in the given direction.
func scaled(x *big.Int, f int, dir big.Accuracy) float64 {
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
