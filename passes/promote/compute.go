package promote

import (
	"math/big"

	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/typing"
)

// An element-wise operation `%r = op %a, %b : (A, B) -> R` computes, as
// docs/executor.md decides design section 4, the exact result of what it reads
// of its operands, converted to R. Making its promotion explicit rewrites it as
//
//	%a' = otir.cast %a : A -> Q     %b' = otir.cast %b : B -> Q
//	%t  = op %a', %b' : Q           %r  = otir.cast %t : Q -> R
//
// for a compute type Q, which is the type Allo's rule prescribes (P) whenever
// that keeps the value. sound decides it; computeType tries P, then R, then
// the exact join of the operand types (with and without R), then the reading
// type of a bit-reading operation, and reports false when none keeps the
// value: the pass then leaves the operation as written. Comparisons keep
// their i1 result; shifts convert only the shifted operand, never the amount.

// compFormat is the float format an operation with float operands (or a
// special function) computes in: the widest float among operands and result,
// at least f32; f64 when none is a float.
func compFormat(as []ir.Type, r ir.Type) ir.Type {
	ts := append(append([]ir.Type(nil), as...), r)
	if !anyFloat(ts...) {
		return ir.Float(ir.F64)
	}
	k := ir.Type(ir.Float(ir.F32))
	for _, t := range ts {
		if isFloat(t) && typing.PrimitiveWidth(t) > typing.PrimitiveWidth(k) {
			k = t
		}
	}
	return k
}

// sound reports whether computing the operation in type q (its converted
// operands and its result in q, then converted to r) gives what it computes
// as written; for comparisons, whether converting the operands to q keeps the
// outcome.
func sound(s opSem, as []ir.Type, q, r ir.Type) bool {
	if !ir.IsScalar(q) {
		return false
	}
	kept := true
	for i, a := range as {
		kept = kept && readKept(s.reads[i], a, q)
	}
	switch {
	case typing.IsComparison(s.key):
		return kept // (a bit reading is never kept in a float type)
	case anyFloat(as...) || isSpecial(s.key):
		return floatSound(s, as, q, r)
	case isFloat(q):
		// Written on integers, computed on floats: only when the float
		// computation is exact.
		if !kept || s.bitReads() || !floatKey(s.key) || isSpecial(s.key) {
			return false
		}
		if valueKey(s.key) {
			return true
		}
		lo, hi, ok := resultRange(s.key, ranges(s, as))
		return ok && floatHolds(q.(*ir.FloatType), lo, hi)
	}
	rInt := isIntLike(r)
	if modularKey(s.key) && rInt && modelWidth(q) >= modelWidth(r) {
		return true
	}
	if !kept {
		return false
	}
	// The operation reads the same numbers. Converting to q then to r equals
	// converting to r when both wrap and q is at least as wide, or when q
	// holds the exact result (for a non-integral one, its floor, which r
	// must floor too).
	if rInt && modelWidth(q) >= modelWidth(r) {
		return true
	}
	lo, hi, ok := resultRange(s.key, ranges(s, as))
	return ok && inRange(lo, hi, q) && (rInt || integralKey(s.key))
}

// floatSound is sound for an operation that computes in a float format.
func floatSound(s opSem, as []ir.Type, q, r ir.Type) bool {
	k := compFormat(as, r)
	if !isFloat(q) {
		// Only a special function on integers (no float operand converts
		// exactly to an integer) keeps computing in f64 when its operands
		// and result stay integers.
		exact := true
		for _, a := range as {
			exact = exact && castExact(a, q)
		}
		return exact && q == r
	}
	for i, a := range castOperands(s.key, as) {
		if s.reads[i] != readValue {
			return false
		}
		// Converted to q, an operand must read as it did: exactly, or
		// rounded to the same format K the written operation rounds to.
		if q != k && !(castExact(a, q) && (isFloat(a) || castExact(a, k))) {
			return false
		}
	}
	// In q the operation rounds to max(f32, q), then to q: the same
	// rounding as the written one when q is K, or when q is r (K is then
	// max(f32, r), every operand being exact in q); no rounding at all when
	// the result is an operand's value.
	return q == k || q == r || valueKey(s.key)
}

// floatHolds reports whether every integer of [lo, hi] is a value of f.
func floatHolds(f *ir.FloatType, lo, hi *big.Int) bool {
	limit := new(big.Int).Lsh(one, uint(precision(f)))
	return new(big.Int).Abs(lo).Cmp(limit) <= 0 && new(big.Int).Abs(hi).Cmp(limit) <= 0
}

func ranges(s opSem, as []ir.Type) [][2]*big.Int {
	rs := make([][2]*big.Int, len(as))
	for i, a := range as {
		if !isIntLike(a) {
			return nil
		}
		rs[i] = readRange(s.reads[i], a)
	}
	return rs
}

// computeType picks the type an operation computes in (see the file comment).
func computeType(s opSem, as []ir.Type, p, r ir.Type) (ir.Type, bool) {
	cands := []ir.Type{p}
	if !typing.IsComparison(s.key) {
		cands = append(cands, r)
	}
	joined := castOperands(s.key, as)
	if j, ok := exactJoin(joined...); ok {
		cands = append(cands, j)
	}
	if !typing.IsComparison(s.key) && isIntLike(r) {
		if j, ok := exactJoin(append(append([]ir.Type(nil), joined...), r)...); ok {
			cands = append(cands, j)
		}
	}
	if q, ok := readingJoin(s, as); ok {
		cands = append(cands, q)
	}
	for _, q := range cands {
		if it, ok := q.(*ir.IntType); ok && it.Width > ir.MaxIntWidth {
			continue // not a type the toolchain can print and read back
		}
		if sound(s, as, q, r) {
			return q, true
		}
	}
	return nil, false
}

// readingJoin is a compute type for a bit-reading operation: an integer of
// the reading's signedness, as wide as the operands whose signedness differs
// from the reading (their bits must stay in place), and at least as wide as
// the others.
func readingJoin(s opSem, as []ir.Type) (ir.Type, bool) {
	if !s.bitReads() {
		return nil, false
	}
	signed := false
	width, fixed := 0, 0
	for i, a := range castOperands(s.key, as) {
		m, ok := intModel(a)
		if !ok {
			return nil, false
		}
		signed = s.reads[i] == readSigned
		if m.Signed != signed {
			if fixed != 0 && fixed != m.Width {
				return nil, false
			}
			fixed = m.Width
		}
		width = max(width, m.Width)
	}
	if fixed != 0 {
		if width > fixed {
			return nil, false
		}
		width = fixed
	}
	return ir.Int(width, signed), true
}
