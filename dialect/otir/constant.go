package otir

import (
	"math/big"
	"strconv"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/internal/intrange"
	"github.com/otir-dev/otir/ir"
)

// Constants: otir.constant, its inference and builders.

// Operation names of the family.
const (
	OpConstant = "otir.constant"
)

var constantFamily = family{
	ops: []ir.OpDef{
		{Name: OpConstant, Summary: "a scalar or dense tile constant",
			Results:    []ir.ArgDef{{Name: "result", Doc: "the value's type"}},
			Attrs:      []ir.AttrDef{{Name: "value", Kind: ir.AttrConstant, Doc: "a typed integer, float or dense constant"}},
			Verify:     hook(checkConstant),
			Infer:      inferConstant,
			ResultName: constantName,
			Format:     "attr-dict $value"},
	},
}

// inferConstant gives otir.constant the type of its value.
func inferConstant(in *ir.InferInput, out []ir.Type) error {
	switch v := in.Attrs.Get("value").(type) {
	case *ir.IntAttr:
		out[0] = v.Type
	case *ir.FloatAttr:
		out[0] = v.Type
	case *ir.DenseAttr:
		out[0] = v.Type
	}
	return nil
}

// constantName gives readable SSA names to constants, as MLIR's
// OpAsmOpInterface does (%c16, %c-1_i8, %true, %cst).
func constantName(op *ir.Operation) string {
	switch a := op.Attr("value").(type) {
	case *ir.IntAttr:
		if a.Type == ir.Bool() {
			if a.Value.Sign() != 0 {
				return "true"
			}
			return "false"
		}
		if a.Type == ir.Index() {
			return "c" + a.Value.String()
		}
		if a.Value.BitLen() <= 64 {
			return "c" + a.Value.String() + "_" + a.Type.String()
		}
	}
	return "cst"
}

// checkConstant: the value's type is the result type, integers fit their type,
// and a dense constant is a #private tile with 1 (splat) or NumElements values
// of the element type's kind.
func checkConstant(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	r := op.Results[0].Type
	switch a := op.Attr("value").(type) {
	case *ir.IntAttr:
		if a.Type != r {
			return diag.OpErrorf(op, "value type '%s' does not match the result type '%s'", diag.TypeStr(a.Type), diag.TypeStr(r))
		}
		if !isIntOrIndex(r) {
			return diag.OpErrorf(op, "integer value needs an integer or index type, but got '%s'", diag.TypeStr(r))
		}
		return checkFits(op, a.Value, r, "value")
	case *ir.FloatAttr:
		if a.Type == nil || ir.Type(a.Type) != r {
			return diag.OpErrorf(op, "value type '%s' does not match the result type '%s'", diag.TypeStr(floatOrNil(a.Type)), diag.TypeStr(r))
		}
	case *ir.DenseAttr:
		return checkDense(op, a, r)
	}
	return nil
}

// floatOrNil turns a nil *FloatType into a nil Type, for typeStr.
func floatOrNil(t *ir.FloatType) ir.Type {
	if t == nil {
		return nil
	}
	return t
}

// checkDense checks a dense tile constant against its result type r.
func checkDense(op *ir.Operation, a *ir.DenseAttr, r ir.Type) *diag.Diagnostic {
	if a.Type == nil || ir.Type(a.Type) != r {
		var at ir.Type
		if a.Type != nil {
			at = a.Type
		}
		return diag.OpErrorf(op, "value type '%s' does not match the result type '%s'", diag.TypeStr(at), diag.TypeStr(r))
	}
	t := a.Type
	if t.Space != ir.Private {
		return diag.OpErrorf(op, "dense constant must be a #private tile, but got '%s'", diag.TypeStr(t))
	}
	isFloat := asFloat(t.Elem) != nil
	if (a.Ints != nil) == (a.Floats != nil) || isFloat != (a.Floats != nil) {
		kind := "integer"
		if isFloat {
			kind = "float"
		}
		return diag.OpErrorf(op, "dense constant of '%s' must hold %s values", diag.TypeStr(t), kind)
	}
	n := int64(a.Len())
	if total := t.NumElements(); n != 1 && n != total {
		return diag.OpErrorf(op, "dense constant has %d values, but its type '%s' needs 1 (a splat) or %d", n, diag.TypeStr(t), total)
	}
	for i, x := range a.Ints {
		if x == nil {
			return diag.OpErrorf(op, "dense value #%d is null", i)
		}
		if !fits(x, t.Elem) {
			return rangeError(op, "dense value #"+strconv.Itoa(i)+" ("+x.String()+")", x, t.Elem)
		}
	}
	return nil
}

// checkFits requires integer x to be representable in integer or index type t.
func checkFits(op *ir.Operation, x *big.Int, t ir.Type, what string) *diag.Diagnostic {
	if fits(x, t) {
		return nil
	}
	return rangeError(op, what+" "+x.String(), x, t)
}

// rangeError explains that x does not fit in t.
func rangeError(op *ir.Operation, what string, x *big.Int, t ir.Type) *diag.Diagnostic {
	if isBool(t) {
		return diag.OpErrorf(op, "%s is not a boolean: i1 values are 0 or 1", what)
	}
	lo, hi := intRange(t)
	return diag.OpErrorf(op, "%s does not fit in '%s' (range [%s, %s])", what, diag.TypeStr(t), lo.String(), hi.String())
}

var (
	minInt64 = big.NewInt(-1 << 63)
	maxInt64 = big.NewInt(1<<63 - 1)
)

// fits reports whether x is a value of integer or index type t (index is
// treated as 64-bit signed).
func fits(x *big.Int, t ir.Type) bool {
	if isIndex(t) {
		return x.IsInt64()
	}
	it := asInt(t)
	if it == nil {
		return false
	}
	if x.Sign() < 0 {
		return it.Signed && (x.BitLen() <= it.Width-1 || isMinSigned(x, it.Width))
	}
	if it.Signed {
		return x.BitLen() <= it.Width-1
	}
	return x.BitLen() <= it.Width
}

// isMinSigned reports whether x is -2^(w-1), whose magnitude needs w bits.
func isMinSigned(x *big.Int, w int) bool {
	if x.BitLen() != w {
		return false
	}
	abs := new(big.Int).Neg(x)
	return abs.TrailingZeroBits() == uint(w-1)
}

// intRange is the inclusive value range of integer or index type t.
func intRange(t ir.Type) (lo, hi *big.Int) {
	if isIndex(t) {
		return minInt64, maxInt64
	}
	it := asInt(t)
	r := intrange.OfBits(it.Width, it.Signed)
	return r.Lo, r.Hi
}

// Builders of constants, at a builder's insertion point.

// ConstInt creates an integer or index constant.
func ConstInt(b *ir.Builder, v int64, t ir.Type) *ir.Value {
	return ConstBig(b, big.NewInt(v), t)
}

// ConstBig creates an integer constant of any width.
func ConstBig(b *ir.Builder, v *big.Int, t ir.Type) *ir.Value {
	return b.Create(OpConstant, nil, []ir.Type{t}, ir.Attrs{{Name: "value", Value: &ir.IntAttr{Value: v, Type: t}}}).Results[0]
}

// ConstFloat creates a float constant.
func ConstFloat(b *ir.Builder, v float64, t *ir.FloatType) *ir.Value {
	return b.Create(OpConstant, nil, []ir.Type{t}, ir.Attrs{{Name: "value", Value: &ir.FloatAttr{Value: v, Type: t}}}).Results[0]
}

// ConstDense creates a dense tile constant.
func ConstDense(b *ir.Builder, a *ir.DenseAttr) *ir.Value {
	return b.Create(OpConstant, nil, []ir.Type{a.Type}, ir.Attrs{{Name: "value", Value: a}}).Results[0]
}
