package exec

import (
	"fmt"

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
		for i, s := range src {
			out.setNum(i, x.num(int(s)))
		}
		return out
	case *view:
		idx := make([]int64, len(src))
		for i, s := range src {
			idx[i] = x.at(int(s))
		}
		return &view{mem: x.mem, shape: shape, idx: idx}
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
	v, shape, elem, err := w.tileOperand(op, 0)
	if err != nil {
		return nil, err
	}
	rt, err := resultTile(op)
	if err != nil {
		return nil, err
	}
	if rt.Elem != elem || rt.NumElements() != int64(numElems(shape)) {
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
	if !ok || !isPermutation(perm.Values, len(shape)) {
		return nil, opErr(op, "needs a 'permutation' of the %d dimensions", len(shape))
	}
	out := make([]int64, len(shape))
	for i, p := range perm.Values {
		out[i] = shape[p]
	}
	strides := rowMajorStrides(shape)
	src := make([]int64, numElems(out))
	for i := range src {
		c := unflatten(int64(i), out)
		for d, p := range perm.Values {
			src[i] += c[d] * strides[p]
		}
	}
	return []rvalue{gather(v, out, src)}, nil
}

func isPermutation(p []int64, n int) bool {
	if len(p) != n {
		return false
	}
	seen := make([]bool, n)
	for _, x := range p {
		if x < 0 || x >= int64(n) || seen[x] {
			return false
		}
		seen[x] = true
	}
	return true
}

func rowMajorStrides(shape []int64) []int64 {
	s := make([]int64, len(shape))
	acc := int64(1)
	for d := len(shape) - 1; d >= 0; d-- {
		s[d] = acc
		acc *= shape[d]
	}
	return s
}

// sliceSpec is the box a slice operation selects: offsets, sizes, strides.
type sliceSpec struct{ offsets, sizes, strides []int64 }

// sliceBounds reads a slice's offsets (static, or dynamic operands from
// operand firstDyn on), sizes and strides, and checks that the box lies
// within a tile of the given shape: an out-of-bounds slice is an error.
func (w *workgroup) sliceBounds(op *ir.Operation, firstDyn int, shape []int64) (sliceSpec, error) {
	offs, ok1 := op.Attr("static_offsets").(*ir.DenseI64Attr)
	sizes, ok2 := op.Attr("static_sizes").(*ir.DenseI64Attr)
	strides, ok3 := op.Attr("static_strides").(*ir.DenseI64Attr)
	if !ok1 || !ok2 || !ok3 || len(offs.Values) != len(shape) || len(sizes.Values) != len(shape) || len(strides.Values) != len(shape) {
		return sliceSpec{}, opErr(op, "needs static_offsets, static_sizes and static_strides with one entry per dimension (%d)", len(shape))
	}
	s := sliceSpec{offsets: make([]int64, len(shape)), sizes: sizes.Values, strides: strides.Values}
	dyn := firstDyn
	for d, o := range offs.Values {
		what := "offset"
		if o == ir.DynamicOffset {
			v, err := w.intOperand(op, dyn)
			if err != nil {
				return sliceSpec{}, err
			}
			what = fmt.Sprintf("dynamic offset %s", valueName(op.Operands[dyn]))
			dyn++
			o = v
		}
		s.offsets[d] = o
		size, stride := s.sizes[d], s.strides[d]
		if size < 1 || stride < 1 {
			return sliceSpec{}, opErr(op, "size %d and stride %d along dimension %d must be positive", size, stride, d)
		}
		if o < 0 || o >= shape[d] || (size-1) > (shape[d]-1-o)/stride {
			return sliceSpec{}, opErr(op, "slice is out of bounds: %s %d, size %d, stride %d along dimension %d of size %d", what, o, size, stride, d, shape[d])
		}
	}
	if dyn != len(op.Operands) {
		return sliceSpec{}, opErr(op, "has %d dynamic offset operands but %d dynamic offsets", len(op.Operands)-firstDyn, dyn-firstDyn)
	}
	return s, nil
}

// sources lists, for each element of the box in row-major order, its flat
// index in a tile of the given shape.
func (s sliceSpec) sources(shape []int64) []int64 {
	strides := rowMajorStrides(shape)
	src := make([]int64, numElems(s.sizes))
	for i := range src {
		c := unflatten(int64(i), s.sizes)
		for d := range c {
			src[i] += (s.offsets[d] + c[d]*s.strides[d]) * strides[d]
		}
	}
	return src
}

// sameDropOnes reports whether two shapes agree once their 1s are dropped
// (a slice may drop unit dimensions, as MLIR's rank-reducing slices do).
func sameDropOnes(a, b []int64) bool {
	drop := func(s []int64) []int64 {
		var out []int64
		for _, d := range s {
			if d != 1 {
				out = append(out, d)
			}
		}
		return out
	}
	return sameShape(drop(a), drop(b))
}

// execExtractSlice selects a box of a tile.
func execExtractSlice(w *workgroup, op *ir.Operation) ([]rvalue, error) {
	v, shape, elem, err := w.tileOperand(op, 0)
	if err != nil {
		return nil, err
	}
	rt, err := resultTile(op)
	if err != nil {
		return nil, err
	}
	s, err := w.sliceBounds(op, 1, shape)
	if err != nil {
		return nil, err
	}
	if rt.Elem != elem || !sameDropOnes(rt.Shape, s.sizes) {
		return nil, opErr(op, "a %s slice of %s elements cannot have type %s", shapeString(s.sizes), elem, rt)
	}
	return []rvalue{gather(v, rt.Shape, s.sources(shape))}, nil
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
	if src.Elem != dst.Elem || !sameDropOnes(src.Shape, s.sizes) {
		return nil, opErr(op, "cannot insert a %s tile of %s into a %s slice of %s", shapeString(src.Shape), src.Elem, shapeString(s.sizes), dst.Elem)
	}
	out := dst.Clone()
	for i, k := range s.sources(dst.Shape) {
		out.setNum(int(k), src.num(i))
	}
	return []rvalue{out}, nil
}
