package typing

import "github.com/otir-dev/otir/ir"

// This file is Allo's rule table as data, laid out like the spec
// (allo-type-promotion.md): one rule per operator group, each a map from the
// operand kinds to the function giving the promoted type. A pair missing from
// a rule is a combination with "no type promotion rule".

type (
	unaryFn  func(t ir.Type) ir.Type
	binaryFn func(l, r ir.Type) ir.Type
	pair     [2]Kind
)

// rule is one operator group's typing rule (Allo's TypingRule). A commutative
// rule also matches its pairs swapped, calling the function with the operands
// swapped.
type rule struct {
	unary       map[Kind]unaryFn
	binary      map[pair]binaryFn
	commutative bool
}

// Short names for the kinds, to keep the tables readable.
const (
	sI = KindSigned
	uI = KindUnsigned
	fP = KindFloat
	iX = KindIndex
)

// indexWithInts is the index part of the common numeric rules: "index has
// dedicated rules"; index with index or any integer gives index (ERRATA:
// "index with an integer gives index"; "index with a float has no rule").
func indexWithInts(m map[pair]binaryFn) {
	for _, p := range []pair{{iX, iX}, {iX, sI}, {iX, uI}, {sI, iX}, {uI, iX}} {
		m[p] = toIndex
	}
}

// commonNumeric is "Common numeric type" (spec: "Common Helpers" and the
// operator tables): integer pairs use the common integer selector, "float op
// integer keeps the float type", "float op float promotes to the wider float";
// withIndex adds the index rules.
func commonNumeric(withIndex, commutative bool) rule {
	m := map[pair]binaryFn{
		{sI, sI}: commonInt, {sI, uI}: commonInt, {sI, fP}: pickRight,
		{uI, uI}: commonInt, {uI, sI}: commonInt, {uI, fP}: pickRight,
		{fP, fP}: widerFloat, {fP, sI}: pickLeft, {fP, uI}: pickLeft,
	}
	if withIndex {
		indexWithInts(m)
	}
	return rule{binary: m, commutative: commutative}
}

// hlsAddSub is the pairwise HLS add/sub rule (spec "HLS Integer Add/Sub"). It is
// reached only when the n-ary rule does not apply, i.e. when a float or index
// term takes part, and the expression folds pairwise from the left.
func hlsAddSub() rule {
	m := map[pair]binaryFn{
		{sI, sI}: func(l, r ir.Type) ir.Type { return ir.Int(max(w(l), w(r))+1, true) },
		{sI, uI}: func(l, r ir.Type) ir.Type { return ir.Int(max(w(l), w(r)+1)+1, true) },
		{uI, uI}: func(l, r ir.Type) ir.Type { return ir.Int(max(w(l), w(r))+1, false) },
		{uI, sI}: func(l, r ir.Type) ir.Type { return ir.Int(max(w(l)+1, w(r))+1, true) },
		{sI, fP}: pickRight, {uI, fP}: pickRight,
		{fP, fP}: widerFloat, {fP, sI}: pickLeft, {fP, uI}: pickLeft,
	}
	indexWithInts(m)
	return rule{binary: m}
}

// hlsMul is the pairwise HLS mul rule (spec "HLS Integer Mul": full-width
// product, signed if any operand is signed). Allo writes it as a commutative
// rule without the (unsigned, signed) and (float, integer) pairs.
func hlsMul() rule {
	m := map[pair]binaryFn{
		{sI, sI}: func(l, r ir.Type) ir.Type { return ir.Int(w(l)+w(r), true) },
		{sI, uI}: func(l, r ir.Type) ir.Type { return ir.Int(w(l)+w(r), true) },
		{uI, uI}: func(l, r ir.Type) ir.Type { return ir.Int(w(l)+w(r), false) },
		{sI, fP}: pickRight, {uI, fP}: pickRight,
		{fP, fP}: widerFloat,
	}
	indexWithInts(m)
	return rule{binary: m, commutative: true}
}

// shift is "Shift operators keep the left-hand type" (spec "HLS Shift
// Operators", and "Same as HLS" for cpp): an integer shifted by an integer or
// index. The left operand must be an integer: index or a float on the left
// has no rule (ERRATA, checked against Allo's table: "the left operand must be
// an integer (index or float on the left has no rule)"), which overrides the
// spec table's row "index shifted by index".
func shift() rule {
	return rule{binary: map[pair]binaryFn{
		{sI, sI}: pickLeft, {sI, uI}: pickLeft, {sI, iX}: pickLeft,
		{uI, uI}: pickLeft, {uI, sI}: pickLeft, {uI, iX}: pickLeft,
	}}
}

// bitwise is "Common integer type for integer pairs; index only with index".
func bitwise() rule {
	return rule{binary: map[pair]binaryFn{
		{sI, sI}: commonInt, {sI, uI}: commonInt,
		{uI, uI}: commonInt, {uI, sI}: commonInt,
		{iX, iX}: toIndex,
	}, commutative: true}
}

// invert is unary ~: "same signed/unsigned/index type" (spec tables of both
// styles; the coverage summary: "Type unchanged for integer/index").
func invert() rule {
	return rule{unary: map[Kind]unaryFn{sI: same, uI: same, iX: same}}
}

// hlsNeg is HLS unary minus: "signed integer with width + 1" for any integer
// (ERRATA: -u8 -> i9), "same float type"; index has no rule.
func hlsNeg() rule {
	return rule{unary: map[Kind]unaryFn{sI: growSigned, uI: growSigned, fP: same}}
}

// cppNeg is cpp unary minus: "same signed/unsigned/index/float type".
func cppNeg() rule {
	return rule{unary: map[Kind]unaryFn{sI: same, uI: same, iX: same, fP: same}}
}

// logicalBinary is logical_and / logical_or: "accepts integer/float numeric
// pairs and index/index; result is bool/u1".
func logicalBinary() rule {
	m := map[pair]binaryFn{{iX, iX}: toBool2}
	for _, a := range []Kind{sI, uI, fP} {
		for _, b := range []Kind{sI, uI, fP} {
			m[pair{a, b}] = toBool2
		}
	}
	return rule{binary: m, commutative: true}
}

// logicalNot "accepts integer, float, and index; result is bool/u1".
func logicalNot() rule {
	return rule{unary: map[Kind]unaryFn{sI: toBool1, uI: toBool1, iX: toBool1, fP: toBool1}}
}

// special is the special math functions' rule: integers convert to f32 or f64
// by width, floats keep their type; index only in cpp (where it gives f64).
func special(withIndex bool) rule {
	m := map[Kind]unaryFn{sI: selectFloat, uI: selectFloat, fP: same}
	if withIndex {
		m[iX] = selectFloat
	}
	return rule{unary: m}
}

// abs is "same signed/unsigned/float type; index is not accepted".
func abs() rule {
	return rule{unary: map[Kind]unaryFn{sI: same, uI: same, fP: same}}
}

// SpecialFunctions are Allo's 17 special math functions (the spec's "Special
// math functions"; ERRATA: "exp, log, sqrt, sin, ... 17 in all").
var SpecialFunctions = []string{
	"sin", "cos", "tan", "sinh", "cosh", "tanh", "exp", "exp2", "log", "log2",
	"sqrt", "rsqrt", "reciprocal", "square", "floor", "ceil", "erf",
}

// ComparisonKeys are the comparison operators: operands take the common
// numeric type, the value is bool.
var ComparisonKeys = []string{"eq", "ne", "lt", "le", "gt", "ge"}

// tables holds one rule table per style, built once.
var tables = map[Style]map[string]rule{HLS: hlsTable(), CPP: cppTable()}

// hlsTable is the spec's "HLS Rules" (and the HLS column of "Operator Coverage
// Summary"). Integer add, sub and mul are first offered to the n-ary rule
// (nary.go); the entries below are the pairwise fallback.
func hlsTable() map[string]rule {
	t := map[string]rule{}
	reg(t, hlsAddSub(), "add", "sub")
	reg(t, hlsMul(), "mul")
	reg(t, commonNumeric(true, false), "div", "floordiv", "mod") // "Common numeric type, including index rules"
	reg(t, commonNumeric(false, false), "pow")                   // "but index is not accepted"
	reg(t, commonNumeric(true, false), ComparisonKeys...)
	reg(t, shift(), "lshift", "rshift")
	reg(t, bitwise(), "bitwise_and", "bitwise_or", "bitwise_xor")
	reg(t, hlsNeg(), "neg")
	reg(t, invert(), "invert")
	reg(t, logicalBinary(), "logical_and", "logical_or")
	reg(t, logicalNot(), "logical_not")
	reg(t, special(false), SpecialFunctions...) // "They do not accept index"
	reg(t, abs(), "abs")
	reg(t, commonNumeric(true, true), "max", "min")
	return t
}

// cppTable is the spec's "C++ Rules": common numeric types throughout, no bit
// growth, pairwise folding of longer expressions.
func cppTable() map[string]rule {
	t := map[string]rule{}
	reg(t, commonNumeric(true, true), "add", "sub", "mul", "div", "floordiv", "mod")
	reg(t, commonNumeric(true, false), "pow") // "including index rules"
	reg(t, commonNumeric(true, true), ComparisonKeys...)
	reg(t, shift(), "lshift", "rshift")
	reg(t, bitwise(), "bitwise_and", "bitwise_or", "bitwise_xor")
	reg(t, cppNeg(), "neg")
	reg(t, invert(), "invert")
	reg(t, logicalBinary(), "logical_and", "logical_or")
	reg(t, logicalNot(), "logical_not")
	reg(t, special(true), SpecialFunctions...) // "integer/index inputs convert to f32 or f64"
	reg(t, abs(), "abs")
	reg(t, commonNumeric(true, true), "max", "min")
	return t
}

func reg(t map[string]rule, r rule, keys ...string) {
	for _, k := range keys {
		t[k] = r
	}
}

// w is the width of an integer type.
func w(t ir.Type) int { return PrimitiveWidth(t) }

// lookup applies one rule to one or two element types (Allo's
// TypeRuleTable.lookup). ok is false when no rule covers the combination.
func lookup(style Style, key string, ts ...ir.Type) (ir.Type, bool) {
	r, found := tables[style][key]
	if !found {
		return nil, false
	}
	switch len(ts) {
	case 1:
		if fn := r.unary[KindOf(ts[0])]; fn != nil && KindOf(ts[0]) != KindNone {
			return fn(ts[0]), true
		}
	case 2:
		l, rt := ts[0], ts[1]
		if fn := r.binary[pair{KindOf(l), KindOf(rt)}]; fn != nil {
			return fn(l, rt), true
		}
		if fn := r.binary[pair{KindOf(rt), KindOf(l)}]; fn != nil && r.commutative {
			return fn(rt, l), true
		}
	}
	return nil, false
}

// IsUnaryKey reports whether an Allo operator key names a unary operator.
func IsUnaryKey(key string) bool {
	r, ok := tables[HLS][key]
	return ok && r.unary != nil
}

// IsKey reports whether key is one of Allo's operator keys.
func IsKey(key string) bool {
	_, ok := tables[HLS][key]
	return ok
}
