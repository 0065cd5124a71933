package verify

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// opError makes the MLIR-style diagnostic "'name' op <message>" at op's
// location. It is only called on the failure path, so fmt is fine here.
func opError(op *ir.Operation, format string, args ...any) *diag.Diagnostic {
	return &diag.Diagnostic{
		Severity: diag.Error,
		Loc:      op.Loc,
		Msg:      "'" + op.Name + "' op " + fmt.Sprintf(format, args...),
	}
}

// Safe accessors. Malformed IR may hold nil types, typed-nil pointers inside
// interfaces, or attributes with nil fields; every check goes through these so
// no IR can make the verifier panic.

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

// isNilType reports whether t is nil or a typed nil pointer.
func isNilType(t ir.Type) bool {
	switch x := t.(type) {
	case nil:
		return true
	case *ir.IntType:
		return x == nil
	case *ir.FloatType:
		return x == nil
	case *ir.IndexType:
		return x == nil
	case *ir.TokenType:
		return x == nil
	case *ir.TileType:
		return x == nil
	}
	return false
}

// isScalar reports whether t is a (non-nil) integer, float or index type.
func isScalar(t ir.Type) bool {
	switch x := t.(type) {
	case *ir.IntType:
		return x != nil
	case *ir.FloatType:
		return x != nil
	case *ir.IndexType:
		return x != nil
	}
	return false
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

// typeStr prints a type for a message; it never panics.
func typeStr(t ir.Type) string {
	if isNilType(t) {
		return "<<NULL TYPE>>"
	}
	if tt := asTile(t); tt != nil {
		// A TileType not made by ir.Tile has no cached text.
		if s := tt.String(); s != "" {
			return s
		}
		return "!otir.tile<" + shapeStr(tt.Shape) + "x" + typeStr(tt.Elem) + ", " + tt.Space.String() + ">"
	}
	if it := asInt(t); it != nil && it.Width < 1 {
		return "i" + strconv.Itoa(it.Width)
	}
	return t.String()
}

// shapeStr prints a shape as 4x8 (rank 0 prints as "rank-0").
func shapeStr(shape []int64) string {
	if len(shape) == 0 {
		return "rank-0"
	}
	var sb strings.Builder
	for i, d := range shape {
		if i > 0 {
			sb.WriteByte('x')
		}
		sb.WriteString(strconv.FormatInt(d, 10))
	}
	return sb.String()
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

// sameShape reports whether two shapes are equal.
func sameShape(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// invalidType explains why a type is not well formed, or returns "".
func invalidType(t ir.Type) string {
	if isNilType(t) {
		return "has no type"
	}
	switch x := t.(type) {
	case *ir.IntType:
		if x.Width < 1 || x.Width > ir.MaxIntWidth {
			return fmt.Sprintf("has an invalid type: integer width %d is out of range [1, %d]", x.Width, ir.MaxIntWidth)
		}
	case *ir.TileType:
		if !isScalar(x.Elem) {
			return fmt.Sprintf("has an invalid type: tile element type must be an integer, float or index type, but got '%s'", typeStr(x.Elem))
		}
		if why := invalidType(x.Elem); why != "" {
			return why
		}
		for i, d := range x.Shape {
			if d < 1 {
				return fmt.Sprintf("has an invalid type: tile dimension #%d must be positive, but got %d", i, d)
			}
		}
		if x.Space > ir.Private {
			return "has an invalid type: unknown memory space"
		}
	}
	return ""
}

// validType reports whether t is well formed (fast path of invalidType).
func validType(t ir.Type) bool {
	switch x := t.(type) {
	case *ir.IntType:
		return x != nil && x.Width >= 1 && x.Width <= ir.MaxIntWidth
	case *ir.FloatType:
		return x != nil
	case *ir.IndexType:
		return x != nil
	case *ir.TokenType:
		return x != nil
	case *ir.FixedType: // the dais dialect's values
		return x != nil
	case *ir.TileType:
		if x == nil || !isScalar(x.Elem) || !validType(x.Elem) || x.Space > ir.Private {
			return false
		}
		for _, d := range x.Shape {
			if d < 1 {
				return false
			}
		}
		return true
	}
	return false
}

// attrKind names the kind of an attribute for messages.
func attrKind(a ir.Attr) string {
	switch a.(type) {
	case nil:
		return "nothing"
	case *ir.IntAttr:
		return "an integer attribute"
	case *ir.FloatAttr:
		return "a float attribute"
	case *ir.StringAttr:
		return "a string attribute"
	case *ir.ArrayAttr:
		return "an array attribute"
	case *ir.DenseI64Attr:
		return "an array<i64> attribute"
	case *ir.DenseAttr:
		return "a dense attribute"
	case *ir.TypeAttr:
		return "a type attribute"
	case *ir.FunctionType:
		return "a function type"
	case *ir.UnitAttr:
		return "a unit attribute"
	case *ir.BoolAttr:
		return "a boolean attribute"
	}
	return "an unknown attribute"
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

// contains reports whether s is one of list.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// plural prints "1 operand", "2 operands" or "no operands".
func plural(n int, noun string) string {
	switch n {
	case 0:
		return "no " + noun + "s"
	case 1:
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
