package typing

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/otir-dev/otir/ir"
)

// InferResult gives the result type of an element-wise operation from its
// operand types under a typing style ("hls", "cpp"; "" means hls). opName is
// an OTIR operation name such as "otir.add" (or an Allo operator key, see
// OpKey). Element types are promoted by the style's rules (for otir.sub the
// second term is subtracted, so the hls n-ary rule makes the result signed);
// the result is a #private tile whose shape is the NumPy broadcast of the
// operand shapes (scalars broadcast), or a scalar when every operand is one.
// Comparisons yield i1. The error for a missing rule is a *NoRuleError with
// Allo's text.
func InferResult(style, opName string, operands []ir.Type) (ir.Type, error) {
	key, ok := OpKey(opName)
	if !ok {
		return nil, fmt.Errorf("'%s' is not an element-wise operation with a type promotion rule", opName)
	}
	return infer(style, opName, key, operands)
}

// InferCmp is InferResult for a comparison op (otir.cmp) with a known predicate (slt, ule, oeq,
// ...), so that a missing rule names Allo's comparison key ('lt', 'le', 'eq').
func InferCmp(style, opName, pred string, operands []ir.Type) (ir.Type, error) {
	key, ok := CmpKey(pred)
	if !ok {
		return nil, fmt.Errorf("unknown comparison predicate '%s'", pred)
	}
	return infer(style, opName, key, operands)
}

func infer(styleName, opName, key string, operands []ir.Type) (ir.Type, error) {
	st, err := ParseStyle(styleName)
	if err != nil {
		return nil, err
	}
	want := 2
	if IsUnaryKey(key) {
		want = 1
	}
	if len(operands) != want {
		return nil, fmt.Errorf("'%s' takes %d operand(s), got %d", opName, want, len(operands))
	}
	elems, shape, tiled, err := SplitOperands(opName, operands)
	if err != nil {
		return nil, err
	}
	var signs []int
	if key == "sub" {
		signs = []int{1, -1}
	}
	p, err := Promote(st, key, elems, signs)
	if err != nil {
		return nil, err
	}
	res := resultElem(key, p)
	if tiled {
		return ir.Tile(shape, res, ir.Private), nil
	}
	return res, nil
}

// SplitOperands separates element types from shapes and broadcasts the shapes.
func SplitOperands(opName string, operands []ir.Type) (elems []ir.Type, shape []int64, tiled bool, err error) {
	for i, t := range operands {
		switch tt := t.(type) {
		case *ir.TileType:
			if !tiled {
				shape, tiled = tt.Shape, true
			} else if s, ok := Broadcast(shape, tt.Shape); ok {
				shape = s
			} else {
				return nil, nil, false, fmt.Errorf("operands of '%s' have shapes %s and %s, which do not broadcast",
					opName, ShapeString(shape), ShapeString(tt.Shape))
			}
			elems = append(elems, tt.Elem)
		case *ir.IntType, *ir.FloatType, *ir.IndexType:
			elems = append(elems, t)
		default:
			name := "<none>"
			if t != nil {
				name = t.String()
			}
			return nil, nil, false, fmt.Errorf("operand %d of '%s' has type '%s'; element-wise operations take scalars and tiles",
				i, opName, name)
		}
	}
	return elems, shape, tiled, nil
}

// Broadcast is NumPy's shape broadcast: shapes align at their last dimension,
// and each pair of dimensions must be equal or contain a 1; a missing
// dimension (lower rank) counts as 1.
func Broadcast(a, b []int64) ([]int64, bool) {
	n := max(len(a), len(b))
	out := make([]int64, n)
	for i := 1; i <= n; i++ {
		da, db := int64(1), int64(1)
		if i <= len(a) {
			da = a[len(a)-i]
		}
		if i <= len(b) {
			db = b[len(b)-i]
		}
		switch {
		case da == db || db == 1:
			out[n-i] = da
		case da == 1:
			out[n-i] = db
		default:
			return nil, false
		}
	}
	return out, true
}

// ShapeString prints a shape as in a tile type ("4x8"); a rank-0 shape prints
// as "scalar".
func ShapeString(s []int64) string {
	if len(s) == 0 {
		return "scalar"
	}
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return strings.Join(parts, "x")
}
