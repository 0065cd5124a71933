package verify

import (
	"math/big"
	"strconv"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// checkAxis: otir.program_id and otir.num_programs take a non-negative axis
// below the enclosing kernel's grid rank and return index.
func checkAxis(v *verifier, op *ir.Operation) *diag.Diagnostic {
	ia := op.Attr("axis").(*ir.IntAttr)
	axis, ok := int64Value(ia)
	if ia.Value.Sign() < 0 {
		return opError(op, "axis must be a non-negative integer, but got %s", ia.Value.String())
	}
	if v.kernel != nil && (!ok || axis >= int64(v.gridRank)) {
		return opError(op, "axis %s is out of range: the kernel's grid has rank %d", ia.Value.String(), v.gridRank)
	}
	if r := op.Results[0].Type; !isIndex(r) {
		return opError(op, "result must be 'index', but got '%s'", typeStr(r))
	}
	return nil
}

// checkConstant: the value's type is the result type, integers fit their type,
// and a dense constant is a #private tile with 1 (splat) or NumElements values
// of the element type's kind.
func checkConstant(_ *verifier, op *ir.Operation) *diag.Diagnostic {
	r := op.Results[0].Type
	switch a := op.Attr("value").(type) {
	case *ir.IntAttr:
		if a.Type != r {
			return opError(op, "value type '%s' does not match the result type '%s'", typeStr(a.Type), typeStr(r))
		}
		if !isIntOrIndex(r) {
			return opError(op, "integer value needs an integer or index type, but got '%s'", typeStr(r))
		}
		return checkFits(op, a.Value, r, "value")
	case *ir.FloatAttr:
		if a.Type == nil || ir.Type(a.Type) != r {
			return opError(op, "value type '%s' does not match the result type '%s'", typeStr(floatOrNil(a.Type)), typeStr(r))
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
		return opError(op, "value type '%s' does not match the result type '%s'", typeStr(at), typeStr(r))
	}
	t := a.Type
	if t.Space != ir.Private {
		return opError(op, "dense constant must be a #private tile, but got '%s'", typeStr(t))
	}
	isFloat := asFloat(t.Elem) != nil
	if (a.Ints != nil) == (a.Floats != nil) || isFloat != (a.Floats != nil) {
		kind := "integer"
		if isFloat {
			kind = "float"
		}
		return opError(op, "dense constant of '%s' must hold %s values", typeStr(t), kind)
	}
	n := int64(a.Len())
	if total := t.NumElements(); n != 1 && n != total {
		return opError(op, "dense constant has %d values, but its type '%s' needs 1 (a splat) or %d", n, typeStr(t), total)
	}
	for i, x := range a.Ints {
		if x == nil {
			return opError(op, "dense value #%d is null", i)
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
		return opError(op, "%s is not a boolean: i1 values are 0 or 1", what)
	}
	lo, hi := intRange(t)
	return opError(op, "%s does not fit in '%s' (range [%s, %s])", what, typeStr(t), lo.String(), hi.String())
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
	one := big.NewInt(1)
	if it.Signed {
		hi = new(big.Int).Lsh(one, uint(it.Width-1))
		lo = new(big.Int).Neg(hi)
		return lo, hi.Sub(hi, one)
	}
	hi = new(big.Int).Lsh(one, uint(it.Width))
	return big.NewInt(0), hi.Sub(hi, one)
}
