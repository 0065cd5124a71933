package verify

import (
	"fmt"
	"math/big"
	"reflect"
	"slices"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// opError is diag.OpErrorf: "'name' op <message>" at op's location.
var opError = diag.OpErrorf

// Message helpers (diag's), and safe accessors: malformed IR may hold nil
// types, typed-nil pointers inside interfaces, or attributes with nil fields;
// every generic check goes through these so no IR can make the verifier
// panic.
var (
	typeStr  = diag.TypeStr
	attrKind = diag.AttrKind
	plural   = diag.Plural
)

// contains reports whether s is one of list.
func contains(list []string, s string) bool { return slices.Contains(list, s) }

// invalidType explains why a type is not well formed, or returns "".
func invalidType(t ir.Type) string {
	if diag.IsNilType(t) {
		return "has no type"
	}
	switch x := t.(type) {
	case *ir.IntType:
		if x.Width < 1 || x.Width > ir.MaxIntWidth {
			return fmt.Sprintf("has an invalid type: integer width %d is out of range [1, %d]", x.Width, ir.MaxIntWidth)
		}
	case *ir.TileType:
		if !ir.IsScalar(x.Elem) {
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
	case *ir.TensorType:
		if x == nil || !validType(x.Elem) || x.Elem == ir.Type(ir.Token()) {
			return false
		}
		for _, d := range x.Shape {
			if d < 0 {
				return false
			}
		}
		return true
	case *ir.TileType:
		if x == nil || !ir.IsScalar(x.Elem) || !validType(x.Elem) || x.Space > ir.Private {
			return false
		}
		for _, d := range x.Shape {
			if d < 1 {
				return false
			}
		}
		return true
	}
	// A dialect's own type (the dais dialect's !dais.q), when not nil.
	if !ir.IsDialectType(t) {
		return false
	}
	v := reflect.ValueOf(t)
	return v.Kind() != reflect.Pointer || !v.IsNil()
}

// intValue returns an IntAttr's value, or nil if the attribute is malformed.
func intValue(a *ir.IntAttr) *big.Int {
	if a == nil {
		return nil
	}
	return a.Value
}

// asFloat returns t as a float type, or nil.
func asFloat(t ir.Type) *ir.FloatType {
	ft, _ := t.(*ir.FloatType)
	return ft
}
