package otir

import (
	"github.com/otir-dev/otir/internal/satint"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// checkReshape: tile to tile with the same element count, element type and
// memory space.
func checkReshape(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	in, res, d := unaryTiles(op)
	if d != nil {
		return d
	}
	if in.NumElements() != res.NumElements() {
		return diag.OpErrorf(op, "element count mismatch: the operand has %d elements but the result has %d", in.NumElements(), res.NumElements())
	}
	return sameElemAndSpace(op, in, res, "operand")
}

// checkTranspose: permutation is a permutation of 0..rank-1 and the result is
// the operand with its dimensions permuted.
func checkTranspose(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	in, res, d := unaryTiles(op)
	if d != nil {
		return d
	}
	perm := op.Attr("permutation").(*ir.DenseI64Attr).Values
	if !isPermutation(perm, len(in.Shape)) {
		return diag.OpErrorf(op, "permutation %s is not a permutation of 0..%d", intsStr(perm), len(in.Shape)-1)
	}
	ok := len(res.Shape) == len(perm)
	for i := 0; ok && i < len(perm); i++ {
		ok = res.Shape[i] == in.Shape[perm[i]]
	}
	if !ok {
		want := make([]int64, len(perm))
		for i, p := range perm {
			want[i] = in.Shape[p]
		}
		return diag.OpErrorf(op, "result shape %s does not match the permuted operand shape %s", diag.ShapeStr(res.Shape), diag.ShapeStr(want))
	}
	return sameElemAndSpace(op, in, res, "operand")
}

// isPermutation reports whether perm holds each of 0..n-1 exactly once.
func isPermutation(perm []int64, n int) bool {
	if len(perm) != n {
		return false
	}
	var small [8]bool
	var seen []bool
	if n <= len(small) {
		seen = small[:n]
	} else {
		seen = make([]bool, n)
	}
	for _, p := range perm {
		if p < 0 || p >= int64(n) || seen[p] {
			return false
		}
		seen[p] = true
	}
	return true
}

// unaryTiles requires a tile operand and a tile result.
func unaryTiles(op *ir.Operation) (in, res *ir.TileType, d *diag.Diagnostic) {
	in, res = asTile(op.Operands[0].Type), asTile(op.Results[0].Type)
	if in == nil {
		return nil, nil, diag.OpErrorf(op, "operand must be a tile, but got '%s'", diag.TypeStr(op.Operands[0].Type))
	}
	if res == nil {
		return nil, nil, diag.OpErrorf(op, "result must be a tile, but got '%s'", diag.TypeStr(op.Results[0].Type))
	}
	return in, res, nil
}

// sameElemAndSpace requires res to keep from's element type and memory space.
func sameElemAndSpace(op *ir.Operation, from, res *ir.TileType, what string) *diag.Diagnostic {
	if res.Elem != from.Elem {
		return diag.OpErrorf(op, "result element type '%s' does not match the %s element type '%s'", diag.TypeStr(res.Elem), what, diag.TypeStr(from.Elem))
	}
	if res.Space != from.Space {
		return diag.OpErrorf(op, "result memory space %s does not match the %s memory space %s", res.Space, what, from.Space)
	}
	return nil
}

// checkExtractSlice: slice bounds within the source; the result has the
// sizes as its shape and the source's element type and space.
func checkExtractSlice(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	src := asTile(op.Operands[0].Type)
	if src == nil {
		return diag.OpErrorf(op, "source must be a tile, but got '%s'", diag.TypeStr(op.Operands[0].Type))
	}
	if d := checkSliceBounds(op, src, op.Operands[1:], "source"); d != nil {
		return d
	}
	sizes := op.Attr("static_sizes").(*ir.DenseI64Attr).Values
	res := asTile(op.Results[0].Type)
	if res == nil || !sameShape(res.Shape, sizes) {
		return diag.OpErrorf(op, "result must be a tile of shape %s (the slice sizes), but got '%s'", diag.ShapeStr(sizes), diag.TypeStr(op.Results[0].Type))
	}
	return sameElemAndSpace(op, src, res, "source")
}

// checkInsertSlice: a #private source of the slice's shape inserted within the
// bounds of a #private destination of the same element type; the result has
// the destination's type.
func checkInsertSlice(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	st, dt := op.Operands[0].Type, op.Operands[1].Type
	src, dst := asTile(st), asTile(dt)
	if src == nil || src.Space != ir.Private {
		return diag.OpErrorf(op, "source must be a #private tile, but got '%s'", diag.TypeStr(st))
	}
	if dst == nil || dst.Space != ir.Private {
		return diag.OpErrorf(op, "destination must be a #private tile, but got '%s'", diag.TypeStr(dt))
	}
	if d := checkSliceBounds(op, dst, op.Operands[2:], "destination"); d != nil {
		return d
	}
	if sizes := op.Attr("static_sizes").(*ir.DenseI64Attr).Values; !sameShape(src.Shape, sizes) {
		return diag.OpErrorf(op, "source shape %s does not match the slice sizes %s", diag.ShapeStr(src.Shape), diag.ShapeStr(sizes))
	}
	if src.Elem != dst.Elem {
		return diag.OpErrorf(op, "source element type '%s' does not match the destination element type '%s'", diag.TypeStr(src.Elem), diag.TypeStr(dst.Elem))
	}
	if r := op.Results[0].Type; r != dt {
		return diag.OpErrorf(op, "result type '%s' must equal the destination type '%s'", diag.TypeStr(r), diag.TypeStr(dt))
	}
	return nil
}

// checkSliceBounds checks the static_offsets/sizes/strides of a slice of tile
// t: one entry per dimension, one index operand per DynamicOffset marker,
// positive sizes and strides, and 0 <= off, off + (size-1)*stride < dim (for a
// dynamic offset, (size-1)*stride < dim).
func checkSliceBounds(op *ir.Operation, t *ir.TileType, dyn []*ir.Value, what string) *diag.Diagnostic {
	offs := op.Attr("static_offsets").(*ir.DenseI64Attr).Values
	sizes := op.Attr("static_sizes").(*ir.DenseI64Attr).Values
	strides := op.Attr("static_strides").(*ir.DenseI64Attr).Values
	rank := len(t.Shape)
	for _, l := range [...]struct {
		n    int
		name string
	}{{len(offs), "offset"}, {len(sizes), "size"}, {len(strides), "stride"}} {
		if l.n != rank {
			return diag.OpErrorf(op, "expected %d %s values (the %s rank), but got %d", rank, l.name, what, l.n)
		}
	}
	nDyn := 0
	for _, o := range offs {
		if o == DynamicOffset {
			nDyn++
		}
	}
	if nDyn != len(dyn) {
		return diag.OpErrorf(op, "expected %s (one per dynamic entry of static_offsets), but got %d", diag.Plural(nDyn, "dynamic offset operand"), len(dyn))
	}
	for i, x := range dyn {
		if !isIndex(x.Type) {
			return diag.OpErrorf(op, "dynamic offset operand #%d must be 'index', but got '%s'", i, diag.TypeStr(x.Type))
		}
	}
	for i := 0; i < rank; i++ {
		off, size, stride, dim := offs[i], sizes[i], strides[i], t.Shape[i]
		if size < 1 {
			return diag.OpErrorf(op, "size %d along dim %d must be positive", size, i)
		}
		if stride < 1 {
			return diag.OpErrorf(op, "stride %d along dim %d must be positive", stride, i)
		}
		extent := satint.Add(satint.Mul(size-1, stride), 1) // elements spanned from the offset
		if off == DynamicOffset {
			if extent > dim {
				return diag.OpErrorf(op, "slice of extent %d along dim %d exceeds the %s dimension %d", extent, i, what, dim)
			}
			continue
		}
		if off < 0 {
			return diag.OpErrorf(op, "offset %d along dim %d must be non-negative", off, i)
		}
		if end := satint.Add(off, extent); end > dim {
			return diag.OpErrorf(op, "slice [%d, %d) along dim %d exceeds the %s dimension %d", off, end, i, what, dim)
		}
	}
	return nil
}
