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

// span is a closed range of raw values: alir's Span (int64 bounds while
// they fit, big.Ints beyond), whose opcode table gives the ranges of
// results (see analyze).
type span = alir.Span

// spanOf returns [lo, hi].
func spanOf(lo, hi *big.Int) span { return alir.SpanOf(alir.Range{Lo: lo, Hi: hi}) }

// rescale brings raw values at e fractional bits to f fractional bits:
// exactly when f >= e, else by floor (which is monotone, so bounds map to
// bounds); floored reports the latter.
func rescale(s span, e, f int) (r span, floored bool) {
	if f >= e {
		return s.Shl(uint(f - e)), false
	}
	return s.Sar(uint(e - f)), true
}

// spanInterval returns the interval of the raw values s at f fractional
// bits: the smallest fixed-point type with f fractional bits holding them (the
// zero-width type when s is {0}), with bounds lo*2^-f and hi*2^-f, rounded
// outward when float64 cannot hold them. ok is false when no such type
// exists (wider than 64 bits, or a step float64 cannot hold).
func spanInterval(s span, f int) (q alir.QInterval, k alir.KIF, ok bool) {
	var ib alir.KIF
	var lo, hi float64
	if l, h, narrow := s.Int64(); narrow {
		ib = dais.IntBits64(l, h)
		lo, hi = scaled64(l, f, big.Below), scaled64(h, f, big.Above)
	} else {
		r := s.Range()
		ib = dais.IntBits(r.Lo, r.Hi)
		lo, hi = dais.Scaled(r.Lo, f, big.Below), dais.Scaled(r.Hi, f, big.Above)
	}
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

// scaled64 is dais.Scaled of an int64: exact in float64 arithmetic when x has
// at most 53 significant bits and x*2^-f is a normal number.
func scaled64(x int64, f int, dir big.Accuracy) float64 {
	const exact = 1 << 53
	if x > -exact && x < exact && f > -900 && f < 900 {
		return math.Ldexp(float64(x), -f)
	}
	return dais.Scaled(big.NewInt(x), f, dir)
}

// spanType is spanInterval as a dais type.
func spanType(s span, f int) (*dais.FixedType, alir.KIF, bool) {
	q, k, ok := spanInterval(s, f)
	if !ok {
		return nil, k, false
	}
	return dais.Fixed(q), k, true
}
