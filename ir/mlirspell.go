package ir

import (
	"strconv"
	"strings"
	"sync"
)

// MLIR spellings for the generic form. OTIR's pretty form writes unsigned
// integers uN and types dense constants with their tile type; MLIR spells
// the former uiN and wants a builtin shaped type after dense<...>. The
// generic form uses MLIR's spellings so that mlir-opt
// --allow-unregistered-dialect reads it; the parser reads both.

var mlirTypes sync.Map // Type -> string

// MLIRTypeString prints t as TypeString does, with MLIR's spelling of the
// unsigned integer types: ui8 for u8, also inside tile and dais types.
func MLIRTypeString(t Type) string {
	if t == nil {
		return TypeString(nil)
	}
	if s, ok := mlirTypes.Load(t); ok {
		return s.(string)
	}
	s := mlirSpelling(t.String())
	mlirTypes.Store(t, s)
	return s
}

// mlirSpelling rewrites every unsigned integer type uN of a printed type as
// uiN, except the storage of !quant.uniform (MLIR's quant dialect spells it
// uN). A type's text holds no user strings, so a "u" that starts a word (or
// follows a dimension's "x") and is followed by digits only is such a type.
func mlirSpelling(s string) string {
	var sb strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != 'u' || !startsType(s, i) || strings.HasSuffix(s[:i], quantStoragePrefix) {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i+1 || j < len(s) && isIdentChar(s[j]) {
			continue
		}
		sb.WriteString(s[last : i+1])
		sb.WriteByte('i')
		last = i + 1
	}
	if last == 0 {
		return s
	}
	sb.WriteString(s[last:])
	return sb.String()
}

// quantStoragePrefix precedes the storage type of a quantized type, which
// MLIR's quant dialect spells uN, not uiN (!quant.uniform<u8:f32, 0.5>).
const quantStoragePrefix = "!quant.uniform<"

// startsType reports whether a type may start at s[i]: at the start, after
// punctuation or a blank, or after the "x" that ends a dimension ("16xu8").
func startsType(s string, i int) bool {
	if i == 0 {
		return true
	}
	c := s[i-1]
	if c == 'x' {
		return i >= 2 && (s[i-2] >= '0' && s[i-2] <= '9' || s[i-2] == '?')
	}
	return !isIdentChar(c)
}

func isIdentChar(c byte) bool {
	return c == '_' || c == '.' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// TensorString is the builtin tensor type of a tile's shape and element
// type, tensor<4x4xi32>, as the generic form types a dense constant.
func (t *TileType) TensorString() string {
	var sb strings.Builder
	sb.WriteString("tensor<")
	for _, d := range t.Shape {
		sb.WriteString(strconv.FormatInt(d, 10))
		sb.WriteByte('x')
	}
	sb.WriteString(MLIRTypeString(t.Elem))
	sb.WriteByte('>')
	return sb.String()
}

// GenericString prints the dictionary as String does, in MLIR's spellings:
// dense constants typed tensor<...>, unsigned integers uiN.
func (as Attrs) GenericString() string { return as.dict(genericAttrText) }

// genericAttrText is attrText in MLIR's spellings.
func genericAttrText(a Attr) string {
	switch a := a.(type) {
	case *IntAttr:
		if a == nil || a.Type == Bool() || a.Type == Int(64, true) {
			break
		}
		return a.Value.String() + " : " + MLIRTypeString(a.Type)
	case *FloatAttr:
		if a == nil {
			break
		}
		return FormatFloatOf(a.Value, a.Type) + " : " + MLIRTypeString(a.Type)
	case *DenseAttr:
		if a == nil || a.Type == nil {
			break
		}
		return a.Literal() + " : " + a.Type.TensorString()
	case *TypeAttr:
		if a == nil {
			break
		}
		return MLIRTypeString(a.Type)
	case *FunctionType:
		if a == nil {
			break
		}
		if len(a.Results) == 1 {
			return "(" + mlirTypeList(a.Inputs) + ") -> " + MLIRTypeString(a.Results[0])
		}
		return "(" + mlirTypeList(a.Inputs) + ") -> (" + mlirTypeList(a.Results) + ")"
	case *ArrayAttr:
		if a == nil {
			break
		}
		return a.text(genericAttrText)
	}
	return attrText(a)
}

// mlirTypeList prints types separated by ", " in MLIR's spellings.
func mlirTypeList(ts []Type) string {
	var sb strings.Builder
	for i, t := range ts {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(MLIRTypeString(t))
	}
	return sb.String()
}
