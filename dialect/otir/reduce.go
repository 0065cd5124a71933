package otir

import (
	"slices"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// ReduceKinds are the folds of otir.reduce: each is the element-wise
// operation of the same name (otir.add, otir.max, otir.min) applied in
// ascending index order along the axis.
var ReduceKinds = []string{"add", "max", "min"}

// checkReduce: kind is one of ReduceKinds; the input is a #private tile of
// integers or floats and axis one of its dimensions; the result is the input
// without that dimension, with the same element type (a scalar of it when
// the input has rank 1).
func checkReduce(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	kind, _ := op.StringAttr("kind")
	if !slices.Contains(ReduceKinds, kind) {
		return diag.OpErrorf(op, "kind must be one of add, max, min, but got '%s'", kind)
	}
	in := asTile(op.Operands[0].Type)
	if in == nil || in.Space != ir.Private || len(in.Shape) == 0 {
		return diag.OpErrorf(op, "input must be a #private tile, but got '%s'", diag.TypeStr(op.Operands[0].Type))
	}
	if asInt(in.Elem) == nil && asFloat(in.Elem) == nil {
		return diag.OpErrorf(op, "input elements must be integers or floats, but got '%s'", diag.TypeStr(in.Elem))
	}
	axis, ok := op.IntAttr("axis")
	if !ok || axis < 0 || axis >= int64(len(in.Shape)) {
		return diag.OpErrorf(op, "axis %d is not a dimension of the input (rank %d)", axis, len(in.Shape))
	}
	rt := op.Results[0].Type
	if len(in.Shape) == 1 {
		if rt != in.Elem {
			return diag.OpErrorf(op, "result must be the input's element type '%s', but got '%s'", diag.TypeStr(in.Elem), diag.TypeStr(rt))
		}
		return nil
	}
	want := slices.Delete(slices.Clone(in.Shape), int(axis), int(axis)+1)
	res := asTile(rt)
	if res == nil || res.Space != ir.Private || !sameShape(res.Shape, want) || res.Elem != in.Elem {
		return diag.OpErrorf(op, "result must be '%s', but got '%s'", diag.TypeStr(ir.Tile(want, in.Elem, ir.Private)), diag.TypeStr(rt))
	}
	return nil
}
