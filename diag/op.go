package diag

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/otir-dev/otir/ir"
)

// OpErrorf is mlir-opt's operation error: "'name' op <message>" at op's
// location. The verifier, the dialects' Verify hooks and the parser's
// builders all report through it.
func OpErrorf(op *ir.Operation, format string, args ...any) *Diagnostic {
	return OpErrorAt(op.Loc, op.Name, format, args...)
}

// OpErrorAt is OpErrorf for an operation not built yet (the parser's): the
// op's name and where it is written.
func OpErrorAt(loc ir.Location, name, format string, args ...any) *Diagnostic {
	return &Diagnostic{
		Severity: Error,
		Loc:      loc,
		Msg:      "'" + name + "' op " + fmt.Sprintf(format, args...),
	}
}

// Message helpers for diagnostics about IR. They never panic: malformed IR
// may hold nil types, typed-nil pointers inside interfaces, or attributes
// with nil fields.

// TypeStr prints a type for a message ("<<NULL TYPE>>" for a missing one).
func TypeStr(t ir.Type) string {
	if IsNilType(t) {
		return "<<NULL TYPE>>"
	}
	if tt, ok := t.(*ir.TileType); ok {
		// A TileType not made by ir.Tile has no cached text.
		if s := tt.String(); s != "" {
			return s
		}
		return "!otir.tile<" + ShapeStr(tt.Shape) + "x" + TypeStr(tt.Elem) + ", " + tt.Space.String() + ">"
	}
	if tt, ok := t.(*ir.TensorType); ok && tt.String() == "" {
		// A TensorType not made by ir.Tensor has no cached text.
		return "tensor<" + strings.TrimPrefix(ShapeStr(tt.Shape)+"x", "rank-0x") + TypeStr(tt.Elem) + ">"
	}
	if it, ok := t.(*ir.IntType); ok && it.Width < 1 {
		return "i" + strconv.Itoa(it.Width)
	}
	return t.String()
}

// IsNilType reports whether t is nil or a typed nil pointer (malformed IR
// may hold either; the verifier and the messages check with it).
func IsNilType(t ir.Type) bool {
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
	case *ir.TensorType:
		return x == nil
	}
	return false
}

// ShapeStr prints a shape as 4x8 (rank 0 prints as "rank-0").
func ShapeStr(shape []int64) string {
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

// Plural prints "1 operand", "2 operands" or "no operands".
func Plural(n int, noun string) string {
	switch n {
	case 0:
		return "no " + noun + "s"
	case 1:
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// AttrKind names the kind of an attribute for messages ("an integer
// attribute").
func AttrKind(a ir.Attr) string {
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

// CheckTerminator requires block b of op's region to end with the op named
// term (mlir-opt's "expects regions to end with ..."), or returns the
// diagnostic; the dialects' hooks of ops with a fixed terminator use it.
func CheckTerminator(op *ir.Operation, b *ir.Block, term string) *Diagnostic {
	last := b.Terminator()
	if last == nil {
		return OpErrorf(op, "expects regions to end with '%s', but the block is empty", term)
	}
	if last.Name != term {
		return OpErrorf(op, "expects regions to end with '%s', found '%s'", term, last.Name)
	}
	return nil
}
