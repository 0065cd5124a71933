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

// span is a closed range of raw values: alir's Range, whose opcode table
// gives the ranges of results (see analyze).
type span alir.Range

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

func (s span) within(o span) bool { return s.Lo.Cmp(o.Lo) >= 0 && s.Hi.Cmp(o.Hi) <= 0 }

func (s span) shl(n uint) span {
	return span{new(big.Int).Lsh(s.Lo, n), new(big.Int).Lsh(s.Hi, n)}
}

func (s span) neg() span { return span{new(big.Int).Neg(s.Hi), new(big.Int).Neg(s.Lo)} }

func (s span) add(o span) span {
	return span{new(big.Int).Add(s.Lo, o.Lo), new(big.Int).Add(s.Hi, o.Hi)}
}

// rescale brings raw values at e fractional bits to f fractional bits:
// exactly when f >= e, else by floor (which is monotone, so bounds map to
// bounds); floored reports the latter.
func (s span) rescale(e, f int) (r span, floored bool) {
	if f >= e {
		return s.shl(uint(f - e)), false
	}
	n := uint(e - f)
	return span{new(big.Int).Rsh(s.Lo, n), new(big.Int).Rsh(s.Hi, n)}, true
}

// spanInterval returns the interval of the raw values s at f fractional
// bits: the smallest fixed-point type with f fractional bits holding them (the
// zero-width type when s is {0}), with bounds lo*2^-f and hi*2^-f, rounded
// outward when float64 cannot hold them. ok is false when no such type
// exists (wider than 64 bits, or a step float64 cannot hold).
func spanInterval(s span, f int) (q alir.QInterval, k alir.KIF, ok bool) {
	ib := dais.IntBits(s.Lo, s.Hi)
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
	lo := scaled(s.Lo, f, big.Below)
	hi := scaled(s.Hi, f, big.Above)
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
