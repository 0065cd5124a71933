package exec

import (
	"fmt"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
)

// A shape operation on a #private tile makes a new value; on a #global or
// #workgroup tile it makes a view of the same memory. Both are expressed by a
// gather: element i of the result is element src[i] of the operand.

// gather applies an index map to an operand: a value is copied, a memory
// tile becomes a view.
func gather(v rvalue, shape []int64, src []int64) rvalue {
	switch x := v.(type) {
	case *Buffer:
		out := NewBuffer(x.Elem, shape...)
		if x.Ints != nil {
			for i, s := range src {
				out.Ints[i] = x.Ints[s]
			}
			return out
		}
		for i, s := range src {
			out.setNum(i, x.num(int(s)))
		}
		return out
	case *view:
		return &view{mem: x.mem, shape: shape, idx: tileview.Compose(x.idx, src)}
	}
	return nil
}

// tileOperand returns operand 0 and its shape and element type, for shape
// operations, which take a tile of any memory space.
func (w *workgroup) tileOperand(op *ir.Operation, i int) (rvalue, []int64, ir.Type, error) {
	v, err := w.operand(op, i)
	if err != nil {
		return nil, nil, nil, err
	}
	switch x := v.(type) {
	case *Buffer:
		return x, x.Shape, x.Elem, nil
	case *view:
		return x, x.shape, x.mem.buf.Elem, nil
	}
	return nil, nil, nil, opErr(op, "operand #%d is a token, not a tile", i)
}

// shapeOperands returns operand 0 of a shape operation (tileOperand) and its
// tile result type (resultTile).
func (w *workgroup) shapeOperands(op *ir.Operation) (rvalue, []int64, ir.Type, *ir.TileType, error) {
	v, shape, elem, err := w.tileOperand(op, 0)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	rt, err := resultTile(op)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return v, shape, elem, rt, nil
}

// resultTile returns the single tile result type of a shape operation.
func resultTile(op *ir.Operation) (*ir.TileType, error) {
	if len(op.Results) != 1 {
		return nil, opErr(op, "must have exactly one result")
	}
	tt, ok := op.Results[0].Type.(*ir.TileType)
	if !ok {
		return nil, opErr(op, "result must be a tile, not %s", op.Results[0].Type)
	}
	return tt, nil
}

// execReshape gives a tile a new shape with the same elements in row-major
// order.
func execReshape(w *workgroup, op *ir.Operation) ([]rvalue, error) {
	v, shape, elem, rt, err := w.shapeOperands(op)
	if err != nil {
		return nil, err
	}
	if rt.Elem != elem || rt.NumElements() != int64(tileview.Len(shape)) {
		return nil, opErr(op, "cannot reshape a %s tile of %s into %s", shapeString(shape), elem, rt)
	}
	switch x := v.(type) {
	case *Buffer:
		return []rvalue{&Buffer{Shape: rt.Shape, Elem: x.Elem, Ints: x.Ints, Bigs: x.Bigs, Floats: x.Floats}}, nil
	case *view:
		return []rvalue{&view{mem: x.mem, shape: rt.Shape, idx: x.idx}}, nil
	}
	return nil, nil
}

// execTranspose permutes dimensions: result dimension i is operand dimension
// permutation[i].
func execTranspose(w *workgroup, op *ir.Operation) ([]rvalue, error) {
	v, shape, _, err := w.tileOperand(op, 0)
	if err != nil {
		return nil, err
	}
	perm, ok := op.Attr("permutation").(*ir.DenseI64Attr)
	if !ok || !tileview.IsPermutation(perm.Values, len(shape)) {
		return nil, opErr(op, "needs a 'permutation' of the %d dimensions", len(shape))
	}
	out, src := tileview.Transpose(shape, perm.Values)
	return []rvalue{gather(v, out, src)}, nil
}

// sliceBounds reads a slice's offsets (static, or dynamic operands from
// operand firstDyn on), sizes and strides, and checks that the box lies
// within a tile of the given shape: an out-of-bounds slice is an error.
func (w *workgroup) sliceBounds(op *ir.Operation, firstDyn int, shape []int64) (tileview.Box, error) {
	offs, ok1 := op.Attr("static_offsets").(*ir.DenseI64Attr)
	sizes, ok2 := op.Attr("static_sizes").(*ir.DenseI64Attr)
	strides, ok3 := op.Attr("static_strides").(*ir.DenseI64Attr)
	if !ok1 || !ok2 || !ok3 || len(offs.Values) != len(shape) || len(sizes.Values) != len(shape) || len(strides.Values) != len(shape) {
		return tileview.Box{}, opErr(op, "needs static_offsets, static_sizes and static_strides with one entry per dimension (%d)", len(shape))
	}
	s := tileview.Box{Offsets: make([]int64, len(shape)), Sizes: sizes.Values, Strides: strides.Values}
	dyn := firstDyn
	for d, o := range offs.Values {
		what := "offset"
		if o == otir.DynamicOffset {
			v, err := w.intOperand(op, dyn)
			if err != nil {
				return tileview.Box{}, err
			}
			what = fmt.Sprintf("dynamic offset %s", valueName(op.Operands[dyn]))
			dyn++
			o = v
		}
		s.Offsets[d] = o
		size, stride := s.Sizes[d], s.Strides[d]
		if size < 1 || stride < 1 {
			return tileview.Box{}, opErr(op, "size %d and stride %d along dimension %d must be positive", size, stride, d)
		}
		if !s.Within(d, shape[d]) {
			return tileview.Box{}, opErr(op, "slice is out of bounds: %s %d, size %d, stride %d along dimension %d of size %d", what, o, size, stride, d, shape[d])
		}
	}
	if dyn != len(op.Operands) {
		return tileview.Box{}, opErr(op, "has %d dynamic offset operands but %d dynamic offsets", len(op.Operands)-firstDyn, dyn-firstDyn)
	}
	return s, nil
}

// execExtractSlice selects a box of a tile.
func execExtractSlice(w *workgroup, op *ir.Operation) ([]rvalue, error) {
	v, shape, elem, rt, err := w.shapeOperands(op)
	if err != nil {
		return nil, err
	}
	s, err := w.sliceBounds(op, 1, shape)
	if err != nil {
		return nil, err
	}
	if rt.Elem != elem || !tileview.SameDropOnes(rt.Shape, s.Sizes) {
		return nil, opErr(op, "a %s slice of %s elements cannot have type %s", shapeString(s.Sizes), elem, rt)
	}
	return []rvalue{gather(v, rt.Shape, s.Sources(shape))}, nil
}

// execInsertSlice returns a copy of a #private tile with a box replaced by
// the source tile.
func execInsertSlice(w *workgroup, op *ir.Operation) ([]rvalue, error) {
	src, err := w.valueOperand(op, 0)
	if err != nil {
		return nil, err
	}
	dst, err := w.valueOperand(op, 1)
	if err != nil {
		return nil, err
	}
	s, err := w.sliceBounds(op, 2, dst.Shape)
	if err != nil {
		return nil, err
	}
	if src.Elem != dst.Elem || !tileview.SameDropOnes(src.Shape, s.Sizes) {
		return nil, opErr(op, "cannot insert a %s tile of %s into a %s slice of %s", shapeString(src.Shape), src.Elem, shapeString(s.Sizes), dst.Elem)
	}
	out := dst.Clone()
	for i, k := range s.Sources(dst.Shape) {
		if out.Ints != nil {
			out.Ints[k] = src.Ints[i]
		} else {
			out.setNum(int(k), src.num(i))
		}
	}
	return []rvalue{out}, nil
}
