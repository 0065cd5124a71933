package otir

import (
	"slices"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/typing"
)

// checkElementwise covers the binary, unary, cmp, select and cast ops:
// operands are scalars or #private tiles whose shapes broadcast NumPy-style,
// the result has the broadcast shape in #private (or is a scalar when every
// operand is), the op's element kinds hold, no tile of index is produced, and
// the operand element types have a typing rule in the module's style (Allo's
// rules, package typing), whether the result type was written or inferred.
func checkElementwise(op *ir.Operation, ctx *ir.VerifyContext) *diag.Diagnostic {
	for i, x := range op.Operands {
		if t := asTile(x.Type); t != nil {
			if t.Space != ir.Private {
				return diag.OpErrorf(op, "operand #%d is a %s tile; element-wise operations take #private tiles or scalars (load it into #private first)", i, t.Space)
			}
		} else if !isScalar(x.Type) {
			return diag.OpErrorf(op, "operand #%d must be a scalar or a #private tile, but got '%s'", i, diag.TypeStr(x.Type))
		}
	}
	if d := checkBroadcast(op); d != nil {
		return d
	}
	if d := checkElementKinds(op); d != nil {
		return d
	}
	if rt := asTile(op.Results[0].Type); rt != nil && isIndex(rt.Elem) {
		return diag.OpErrorf(op, "cannot produce a tile of index elements ('%s'): index is a scalar type", diag.TypeStr(rt))
	}
	if err := typing.CheckOp(typingStyle(op, ctx), op); err != nil {
		return diag.OpErrorf(op, "%s", err.Error())
	}
	return nil
}

// checkBroadcast checks that the operand shapes broadcast (aligned at the
// right, each dimension equal or 1) and that the result is the broadcast type.
// It allocates nothing unless it fails.
func checkBroadcast(op *ir.Operation) *diag.Diagnostic {
	rank, anyTile := 0, false
	for _, x := range op.Operands {
		if t := asTile(x.Type); t != nil {
			anyTile = true
			rank = max(rank, len(t.Shape))
		}
	}
	for k := 1; k <= rank; k++ {
		want, from := int64(1), -1
		for i, x := range op.Operands {
			t := asTile(x.Type)
			if t == nil || len(t.Shape) < k {
				continue
			}
			d := t.Shape[len(t.Shape)-k]
			switch {
			case d == 1 || d == want:
			case want == 1:
				want, from = d, i
			default:
				return diag.OpErrorf(op, "operand #%d ('%s') and operand #%d ('%s') are not broadcast-compatible: dimension %d is %d vs %d",
					from, diag.TypeStr(op.Operands[from].Type), i, diag.TypeStr(x.Type), rank-k, want, d)
			}
		}
	}
	r := op.Results[0].Type
	if !anyTile {
		if !isScalar(r) {
			return diag.OpErrorf(op, "result must be a scalar when all operands are scalars, but got '%s'", diag.TypeStr(r))
		}
		return nil
	}
	rt := asTile(r)
	ok := rt != nil && rt.Space == ir.Private && len(rt.Shape) == rank
	for k := 1; ok && k <= rank; k++ {
		ok = rt.Shape[rank-k] == broadcastDim(op.Operands, k)
	}
	if !ok {
		shape := make([]int64, rank)
		for k := 1; k <= rank; k++ {
			shape[rank-k] = broadcastDim(op.Operands, k)
		}
		return diag.OpErrorf(op, "result must be a #private tile of shape %s (the broadcast of the operand shapes), but got '%s'", diag.ShapeStr(shape), diag.TypeStr(r))
	}
	return nil
}

// broadcastDim is the k-th dimension from the right of the broadcast shape of
// compatible operands.
func broadcastDim(operands []*ir.Value, k int) int64 {
	for _, x := range operands {
		if t := asTile(x.Type); t != nil && len(t.Shape) >= k && t.Shape[len(t.Shape)-k] != 1 {
			return t.Shape[len(t.Shape)-k]
		}
	}
	return 1
}

// checkElementKinds checks the per-op element types: bitwise ops, shifts and
// integer division need integer or index operands; sqrt, exp and log give
// floats; cmp's predicate suits its operands and it gives i1; select's
// condition is i1.
func checkElementKinds(op *ir.Operation) *diag.Diagnostic {
	switch op.Name {
	case OpAnd, OpOr, OpXor, OpNot, OpShl, OpShrS, OpShrU,
		OpDivS, OpDivU, OpRemS, OpRemU:
		for i, x := range op.Operands {
			if e := elemOf(x.Type); !isIntOrIndex(e) {
				return diag.OpErrorf(op, "operand #%d must have integer or index elements, but got element type '%s'", i, diag.TypeStr(e))
			}
		}
	case OpSqrt, OpExp, OpLog:
		if e := elemOf(op.Results[0].Type); asFloat(e) == nil {
			return diag.OpErrorf(op, "result must have float elements, but got element type '%s'", diag.TypeStr(e))
		}
	case OpCmp:
		return checkCmp(op)
	case OpSelect:
		if e := elemOf(op.Operands[0].Type); !isBool(e) {
			return diag.OpErrorf(op, "condition must have i1 elements, but got element type '%s'", diag.TypeStr(e))
		}
	}
	return nil
}

// checkCmp: a known predicate; signed/unsigned predicates compare integers or
// indices, ordered predicates compare floats, eq/ne compare either; the result
// has i1 elements.
func checkCmp(op *ir.Operation) *diag.Diagnostic {
	kind, _ := op.StringAttr("kind")
	if preds := enumOf(OpCmp, "kind"); !slices.Contains(preds, kind) {
		return diag.OpErrorf(op, "unknown predicate '%s' (expected one of %s)", kind, strings.Join(preds, ", "))
	}
	wantFloat := kind[0] == 'o'
	if kind != "eq" && kind != "ne" {
		for i, x := range op.Operands {
			e := elemOf(x.Type)
			if wantFloat && asFloat(e) == nil {
				return diag.OpErrorf(op, "predicate '%s' compares floats, but operand #%d has element type '%s'", kind, i, diag.TypeStr(e))
			}
			if !wantFloat && !isIntOrIndex(e) {
				return diag.OpErrorf(op, "predicate '%s' compares integers or indices, but operand #%d has element type '%s'", kind, i, diag.TypeStr(e))
			}
		}
	}
	if e := elemOf(op.Results[0].Type); !isBool(e) {
		return diag.OpErrorf(op, "result must have i1 elements, but got element type '%s'", diag.TypeStr(e))
	}
	return nil
}

// typingStyle is the typing style of the module that holds op: hls unless its
// otir.typing_style names cpp (an unknown style is the module's own error),
// and hls outside a module.
func typingStyle(op *ir.Operation, ctx *ir.VerifyContext) typing.Style {
	if m := ctx.Enclosing(op, ir.OpModule); m != nil {
		if s, ok := m.Attr("otir.typing_style").(*ir.StringAttr); ok && s != nil && s.Value == string(typing.CPP) {
			return typing.CPP
		}
	}
	return typing.HLS
}
