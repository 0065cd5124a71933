package tiles

import (
	"github.com/otir-dev/otir/ir"
)

// Shape operations gather elements: element i of the result is element
// src[i] of the operand. A #private tile gives a new tile, a memory tile a
// view of the same memory (as in the executor).

func gather(x any, shape []int64, src []int64) any {
	switch t := x.(type) {
	case *tile:
		ns := make([]num, len(src))
		for i, s := range src {
			ns[i] = t.elems[s]
		}
		return &tile{shape: shape, elems: ns}
	case *view:
		idx := make([]int, len(src))
		for i, s := range src {
			idx[i] = t.idx[s]
		}
		return &view{mem: t.mem, shape: shape, idx: idx}
	case num:
		return &tile{shape: shape, elems: []num{t}}
	}
	return nil
}

func tileShape(x any) []int64 {
	switch t := x.(type) {
	case *tile:
		return t.shape
	case *view:
		return t.shape
	}
	return nil
}

// shapeOp lowers reshape, transpose and extract_slice.
func (l *lowerer) shapeOp(op *ir.Operation) error {
	x, err := l.get(op.Operands[0])
	if err != nil {
		return err
	}
	if _, ok := x.(*dmaCopy); ok {
		return l.errf("operand #0 is a token, not a tile")
	}
	rt, ok := op.Results[0].Type.(*ir.TileType)
	if !ok {
		return l.errf("internal error: result is not a tile")
	}
	in := tileShape(x)
	var src []int64
	switch op.Name {
	case ir.OpReshape:
		src = make([]int64, rt.NumElements())
		for i := range src {
			src[i] = int64(i)
		}
	case ir.OpTranspose:
		perm, ok := op.Attr("permutation").(*ir.DenseI64Attr)
		if !ok || len(perm.Values) != len(in) {
			return l.errf("internal error: bad permutation")
		}
		strides := rowMajorStrides(in)
		src = make([]int64, numElems(rt.Shape))
		for i := range src {
			c := unflatten(int64(i), rt.Shape)
			for d, p := range perm.Values {
				src[i] += c[d] * strides[p]
			}
		}
	case ir.OpExtractSlice:
		s, err := l.sliceBox(op, 1, in)
		if err != nil {
			return err
		}
		src = s.sources(in)
	}
	l.env[op.Results[0]] = gather(x, rt.Shape, src)
	return nil
}

// insertSlice returns a copy of a #private tile with a box replaced.
func (l *lowerer) insertSlice(op *ir.Operation) error {
	ns, _, err := l.elems(op.Operands[0])
	if err != nil {
		return err
	}
	dst, shape, err := l.elems(op.Operands[1])
	if err != nil {
		return err
	}
	s, err := l.sliceBox(op, 2, shape)
	if err != nil {
		return err
	}
	out := append([]num(nil), dst...)
	for i, k := range s.sources(shape) {
		out[k] = ns[i]
	}
	l.env[op.Results[0]] = &tile{shape: shape, elems: out}
	return nil
}

// box is the part of a tile a slice selects.
type box struct{ offsets, sizes, strides []int64 }

// sliceBox reads a slice's offsets (static, or dynamic operands from
// operand firstDyn on, which must be compile-time constants), sizes and
// strides, and checks the box lies within shape.
func (l *lowerer) sliceBox(op *ir.Operation, firstDyn int, shape []int64) (box, error) {
	offs, ok1 := op.Attr("static_offsets").(*ir.DenseI64Attr)
	sizes, ok2 := op.Attr("static_sizes").(*ir.DenseI64Attr)
	strides, ok3 := op.Attr("static_strides").(*ir.DenseI64Attr)
	if !ok1 || !ok2 || !ok3 || len(offs.Values) != len(shape) || len(sizes.Values) != len(shape) || len(strides.Values) != len(shape) {
		return box{}, l.errf("internal error: malformed slice")
	}
	b := box{offsets: make([]int64, len(shape)), sizes: sizes.Values, strides: strides.Values}
	dyn := firstDyn
	for d, o := range offs.Values {
		if o == ir.DynamicOffset {
			if dyn >= len(op.Operands) {
				return box{}, l.errf("internal error: missing dynamic offset")
			}
			n, err := l.scalar(op.Operands[dyn])
			if err != nil {
				return box{}, err
			}
			if n.c == nil {
				return box{}, l.cannot("offset #%d depends on data (addresses must be static)", d)
			}
			if !n.c.IsInt64() {
				return box{}, l.errf("offset %v along dimension %d is out of bounds", n.c, d)
			}
			o = n.c.Int64()
			dyn++
		}
		b.offsets[d] = o
		size, stride := b.sizes[d], b.strides[d]
		if size < 1 || stride < 1 || o < 0 || o >= shape[d] || (size-1) > (shape[d]-1-o)/stride {
			return box{}, l.errf("slice is out of bounds: offset %d, size %d, stride %d along dimension %d of size %d", o, size, stride, d, shape[d])
		}
	}
	return b, nil
}

// sources lists the flat index, in a tile of shape, of each element of the
// box in row-major order.
func (b box) sources(shape []int64) []int64 {
	strides := rowMajorStrides(shape)
	src := make([]int64, numElems(b.sizes))
	for i := range src {
		c := unflatten(int64(i), b.sizes)
		for d := range c {
			src[i] += (b.offsets[d] + c[d]*b.strides[d]) * strides[d]
		}
	}
	return src
}
