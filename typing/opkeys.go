package typing

import (
	"strings"

	"github.com/otir-dev/otir/ir"
)

// cmpKeys maps otir.cmp predicates to Allo comparison keys: the s/u/o prefix
// only says how operands are read, the relation is the key.
var cmpKeys = map[string]string{
	"eq": "eq", "ne": "ne", "oeq": "eq", "one": "ne",
	"slt": "lt", "ult": "lt", "olt": "lt",
	"sle": "le", "ule": "le", "ole": "le",
	"sgt": "gt", "ugt": "gt", "ogt": "gt",
	"sge": "ge", "uge": "ge", "oge": "ge",
}

// OpKey gives the Allo operator key of an operation name: the Typing key of
// its record (ir.OpDef; the otir dialect's records name them, division and
// remainder keeping one key for both signednesses, as the operand types
// carry the sign). It also accepts Allo keys themselves ("lt", "pow",
// "logical_and", "exp2", ...) so callers can reach every rule. otir.cmp alone
// maps to "eq", which has the same rule as every comparison; use CmpKey when
// the predicate is known.
func OpKey(opName string) (string, bool) {
	if d := ir.LookupOp(opName); d != nil && d.Typing != "" {
		return d.Typing, true
	}
	if !strings.Contains(opName, ".") && IsKey(opName) {
		return opName, true
	}
	return "", false
}

// CmpKey gives the Allo comparison key of an otir.cmp predicate (slt -> lt).
func CmpKey(pred string) (string, bool) {
	k, ok := cmpKeys[pred]
	return k, ok
}

// IsComparison reports whether key is a comparison: operands are converted to
// the promoted type and the value is bool.
func IsComparison(key string) bool {
	switch key {
	case "eq", "ne", "lt", "le", "gt", "ge":
		return true
	}
	return false
}

// IsShift reports whether key is a shift: the result has the left operand's
// type, and the shift amount keeps its own.
func IsShift(key string) bool { return key == "lshift" || key == "rshift" }

// resultElem is the element type of an operator's value given its promoted
// type: bool for comparisons (the rule gives the operands' common type), the
// promoted type otherwise (logical operators' rules already give bool).
func resultElem(key string, promoted ir.Type) ir.Type {
	if IsComparison(key) {
		return ir.Bool()
	}
	return promoted
}

// KeyOf is the Allo key of an element-wise operation (false for others); otir.cmp's comes from its predicate.
func KeyOf(op *ir.Operation) (string, bool) {
	d := ir.LookupOp(op.Name)
	if d == nil || d.Typing == "" {
		return "", false
	}
	return keyOf(d.Typing, op), true
}

// keyOf is the key of op whose record's key is recordKey: a comparison
// (otir.cmp) takes its key from its predicate.
func keyOf(recordKey string, op *ir.Operation) string {
	if IsComparison(recordKey) {
		if pred, ok := op.StringAttr("kind"); ok {
			if k, ok := CmpKey(pred); ok {
				return k
			}
		}
	}
	return recordKey
}
