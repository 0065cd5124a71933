package otir

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// What the families of operations share: the family record, the Verify hook
// adapter, and helpers that name no operation.

// A family is one file's operations, in the spirit of an ODS .td file: their
// records and what the dialect registers with them.
type family struct {
	ops []ir.OpDef
	// register, when set, registers what the records need before them (the
	// custom directives of their formats) and the family's dialect-wide
	// rules (ir.RegisterOpCheck, the module's hook).
	register func()
	// noVerify and noTyping are the family's entries of NoVerify and
	// NoTyping.
	noVerify, noTyping map[string]string
}

// Exemptions from the completeness test of the records (records_test.go),
// each with its reason, gathered from the families.

// NoVerify lists the ops whose record is all there is to check, so that
// they have no Verify hook (the completeness test holds every other op to
// one).
var NoVerify = map[string]string{}

// NoTyping lists the Elementwise ops without a typing rule (Typing key).
var NoTyping = map[string]string{}

// hook makes a Verify hook of a rule: a nil *diag.Diagnostic must become a
// nil error, not an error holding a nil pointer.
func hook(rule func(*ir.Operation, *ir.VerifyContext) *diag.Diagnostic) func(*ir.Operation, *ir.VerifyContext) error {
	return func(op *ir.Operation, ctx *ir.VerifyContext) error {
		if d := rule(op, ctx); d != nil {
			return d
		}
		return nil
	}
}

// enumOf is the words the named string attribute of the named op may hold,
// from its record.
func enumOf(opName, attr string) []string {
	if d := ir.LookupOp(opName); d != nil {
		if a := d.Attr(attr); a != nil {
			return a.Enum
		}
	}
	return nil
}

// privateOperandIsPure is the effect of an op that only makes a new value
// when operand i is a #private tile (or a scalar), and has effect e otherwise.
func privateOperandIsPure(i int, e ir.Effect) func(*ir.Operation) ir.Effect {
	return func(op *ir.Operation) ir.Effect {
		if len(op.Operands) > i && isPrivate(op.Operands[i]) {
			return ir.NoEffect
		}
		return e
	}
}

func isPrivate(v *ir.Value) bool {
	if v == nil {
		return false
	}
	t, ok := v.Type.(*ir.TileType)
	return !ok || t.Space == ir.Private
}

// setOperandTypes gives ts to the operand groups in order (for the custom
// directives that read the operands' types).
func setOperandTypes(st *ir.OpState, ts []ir.Type) {
	k := 0
	for g := range st.Operands {
		m := len(st.Operands[g])
		st.OperandTypes[g] = ts[k : k+m : k+m]
		k += m
	}
}

// Safe accessors. The verifier checked the op's form (counts, nil-ness,
// well-formed types, required attribute kinds) before its hook runs, but
// types may still be of any kind.

// asTile returns t as a tile type, or nil.
func asTile(t ir.Type) *ir.TileType {
	tt, _ := t.(*ir.TileType)
	return tt
}

// asInt returns t as an integer type, or nil.
func asInt(t ir.Type) *ir.IntType {
	it, _ := t.(*ir.IntType)
	return it
}

// asFloat returns t as a float type, or nil.
func asFloat(t ir.Type) *ir.FloatType {
	ft, _ := t.(*ir.FloatType)
	return ft
}

// isIndex reports whether t is the index type.
func isIndex(t ir.Type) bool {
	x, ok := t.(*ir.IndexType)
	return ok && x != nil
}

// isToken reports whether t is !otir.token.
func isToken(t ir.Type) bool {
	x, ok := t.(*ir.TokenType)
	return ok && x != nil
}

// isBool reports whether t is i1.
func isBool(t ir.Type) bool { return t == ir.Type(ir.Bool()) }

// isIntOrIndex reports whether t is an integer or index type.
func isIntOrIndex(t ir.Type) bool { return asInt(t) != nil || isIndex(t) }

// elemOf is the element type of a tile, or t itself for anything else.
func elemOf(t ir.Type) ir.Type {
	if tt := asTile(t); tt != nil {
		return tt.Elem
	}
	return t
}

// intsStr prints [a, b, c].
func intsStr(vs []int64) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for i, v := range vs {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.FormatInt(v, 10))
	}
	sb.WriteByte(']')
	return sb.String()
}

// intValue returns an IntAttr's value, or nil if the attribute is malformed.
func intValue(a *ir.IntAttr) *big.Int {
	if a == nil {
		return nil
	}
	return a.Value
}

// int64Value returns an IntAttr's value when it fits in an int64.
func int64Value(a *ir.IntAttr) (int64, bool) {
	v := intValue(a)
	if v == nil || !v.IsInt64() {
		return 0, false
	}
	return v.Int64(), true
}
