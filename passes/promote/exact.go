package promote

import (
	"math/big"

	"github.com/otir-dev/otir/internal/intrange"
	"github.com/otir-dev/otir/ir"
)

// The value model the pass reasons with (otir-text.md section 4): an integer
// type holds the integers of its range; a conversion to an integer type drops
// fraction bits toward -inf and wraps modulo 2^width; a float type holds the
// values of its IEEE-754 format. index is modelled as a signed 64-bit integer
// (MLIR's index on the 64-bit hosts the executor runs on), which only makes
// the checks below more conservative than an unbounded index would.

// indexModel is the integer type index is modelled as.
var indexModel = ir.Int(64, true)

// intModel returns the integer view of an integer or index type.
func intModel(t ir.Type) (*ir.IntType, bool) {
	switch t := t.(type) {
	case *ir.IntType:
		return t, true
	case *ir.IndexType:
		return indexModel, true
	}
	return nil, false
}

// isIntLike reports whether t is an integer or index type.
func isIntLike(t ir.Type) bool {
	_, ok := intModel(t)
	return ok
}

// modelWidth is the width of an integer type, 64 for index.
func modelWidth(t ir.Type) int {
	m, _ := intModel(t)
	return m.Width
}

// typeRange is the closed range of an integer or index type.
func typeRange(t ir.Type) (lo, hi *big.Int) {
	m, _ := intModel(t)
	r := intrange.OfBits(m.Width, m.Signed)
	return r.Lo, r.Hi
}

// inRange reports whether [lo, hi] lies inside the range of integer type t.
func inRange(lo, hi *big.Int, t ir.Type) bool {
	tlo, thi := typeRange(t)
	return lo.Cmp(tlo) >= 0 && hi.Cmp(thi) <= 0
}

// precision is the significand precision of a float format, in bits.
func precision(t *ir.FloatType) int {
	switch t.Kind {
	case ir.F16:
		return 11
	case ir.BF16:
		return 8
	case ir.F32:
		return 24
	}
	return 53
}

// castExact reports whether every value of type from is exactly a value of
// type to, so that otir.cast from -> to never changes a value.
func castExact(from, to ir.Type) bool {
	if from == to {
		return true
	}
	if isIntLike(from) && isIntLike(to) {
		lo, hi := typeRange(from)
		return inRange(lo, hi, to)
	}
	tf, toFloat := to.(*ir.FloatType)
	if !toFloat {
		return false // a float never converts exactly to an integer type
	}
	switch f := from.(type) {
	case *ir.IntType:
		// An integer of n magnitude bits is exact in a format of precision >= n
		// (-2^(w-1), a power of two, is exact too); every such value is far
		// below the format's largest finite value.
		bits := f.Width
		if f.Signed {
			bits--
		}
		return bits <= precision(tf)
	case *ir.IndexType:
		return 63 <= precision(tf)
	case *ir.FloatType:
		// f16 and bf16 widen exactly to f32 and f64, f32 to f64; f16 and bf16
		// do not hold each other's values.
		return f.Bits() < tf.Bits()
	}
	return false
}

// floatsByWidth lists the float formats from the narrowest.
var floatsByWidth = []ir.Type{ir.Float(ir.F16), ir.Float(ir.BF16), ir.Float(ir.F32), ir.Float(ir.F64)}

// exactJoin is the smallest type that holds every value of every given type
// exactly: for integers the signed max(S, U + 1) or the unsigned max(U); index
// when one type is index and every integer fits it; the narrowest float format
// holding all when one type is a float. ok is false when none exists (index
// with a float, or an integer too wide for index or f64).
func exactJoin(ts ...ir.Type) (ir.Type, bool) {
	hasIndex, hasFloat := false, false
	signed, sw, uw := false, 0, 0
	for _, t := range ts {
		switch t := t.(type) {
		case *ir.IntType:
			if t.Signed {
				signed, sw = true, max(sw, t.Width)
			} else {
				uw = max(uw, t.Width)
			}
		case *ir.IndexType:
			hasIndex = true
		case *ir.FloatType:
			hasFloat = true
		default:
			return nil, false
		}
	}
	candidates := floatsByWidth
	switch {
	case hasIndex && hasFloat:
		return nil, false
	case hasIndex:
		candidates = []ir.Type{ir.Index()}
	case !hasFloat:
		if signed {
			return ir.Int(max(sw, uw+1), true), true
		}
		return ir.Int(uw, false), true
	}
	for _, c := range candidates {
		all := true
		for _, t := range ts {
			all = all && castExact(t, c)
		}
		if all {
			return c, true
		}
	}
	return nil, false
}
