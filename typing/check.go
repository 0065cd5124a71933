package typing

import "github.com/otir-dev/otir/ir"

// CheckOp reports whether an element-wise operation (binary, unary or
// otir.cmp) has a typing rule in a style for its operand element types,
// whatever its result type: it returns the *NoRuleError (Allo's text, as
// promote-types and inference report it) when it has none, and nil
// otherwise, also for operations without rules (select, cast, memory ops...)
// and for malformed ones (wrong operand count, null or non-scalar operands:
// the verifier reports those). An unknown style counts as hls.
//
// The verifier calls it, so that an operation whose types are written out
// explicitly is held to the same rules as one whose result is inferred. It
// allocates nothing when a rule exists.
func CheckOp(style Style, op *ir.Operation) error {
	if op == nil {
		return nil
	}
	d := ir.LookupOp(op.Name)
	if d == nil {
		return nil
	}
	return CheckOpKey(style, op, d.Typing)
}

// CheckOpKey is CheckOp for an op whose record's Typing key is recordKey
// (the Verify hooks know it without looking the record up); an empty key
// has no rule.
func CheckOpKey(style Style, op *ir.Operation, recordKey string) error {
	if op == nil || recordKey == "" {
		return nil
	}
	key := keyOf(recordKey, op)
	if _, known := tables[style]; !known {
		style = HLS
	}
	want := 2
	if IsUnaryKey(key) {
		want = 1
	}
	if len(op.Operands) != want {
		return nil
	}
	var elems [2]ir.Type
	for i, v := range op.Operands {
		if v == nil {
			return nil
		}
		e := ir.ElementType(v.Type)
		if !ir.IsScalar(e) {
			return nil
		}
		elems[i] = e
	}
	if hasRule(style, key, elems[:want]) {
		return nil
	}
	return &NoRuleError{Style: style, Key: key, Types: append([]ir.Type(nil), elems[:want]...)}
}

// hasRule reports whether Promote would find a rule for one or two element
// types, without building the promoted type: hls's n-ary rule covers every
// all-integer add, sub and mul; otherwise the style's table must hold the
// kind (or the pair, either way round for a commutative rule).
func hasRule(style Style, key string, ts []ir.Type) bool {
	if style == HLS && (key == "add" || key == "sub" || key == "mul") {
		all := true
		for _, t := range ts {
			all = all && IsInt(t)
		}
		if all {
			return true
		}
	}
	r, found := tables[style][key]
	if !found {
		return false
	}
	switch len(ts) {
	case 1:
		k := KindOf(ts[0])
		return k != KindNone && r.unary[k] != nil
	case 2:
		l, rt := KindOf(ts[0]), KindOf(ts[1])
		return r.binary[pair{l, rt}] != nil || (r.commutative && r.binary[pair{rt, l}] != nil)
	}
	return false
}
