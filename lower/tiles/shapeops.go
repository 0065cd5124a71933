package tiles

import (
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/internal/tileview"
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
		return &view{mem: t.mem, shape: shape, idx: tileview.Compose(t.idx, src)}
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

// shapeOp lowers a shape operation (reshape, transpose, extract_slice)
// whose index map into operand 0, of shape in, sources computes.
func shapeOp(sources func(l *lowerer, op *ir.Operation, in []int64, rt *ir.TileType) ([]int64, error)) func(l *lowerer, op *ir.Operation) error {
	return func(l *lowerer, op *ir.Operation) error {
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
		src, err := sources(l, op, tileShape(x), rt)
		if err != nil {
			return err
		}
		l.env[op.Results[0]] = gather(x, rt.Shape, src)
		return nil
	}
}

// reshapeSources is reshape's index map: the elements in row-major order.
func reshapeSources(_ *lowerer, _ *ir.Operation, _ []int64, rt *ir.TileType) ([]int64, error) {
	src := make([]int64, rt.NumElements())
	for i := range src {
		src[i] = int64(i)
	}
	return src, nil
}

// transposeSources is transpose's index map.
func transposeSources(l *lowerer, op *ir.Operation, in []int64, _ *ir.TileType) ([]int64, error) {
	perm, ok := op.Attr("permutation").(*ir.DenseI64Attr)
	if !ok || len(perm.Values) != len(in) {
		return nil, l.errf("internal error: bad permutation")
	}
	_, src := tileview.Transpose(in, perm.Values)
	return src, nil
}

// sliceSources is extract_slice's index map.
func sliceSources(l *lowerer, op *ir.Operation, in []int64, _ *ir.TileType) ([]int64, error) {
	b, err := l.sliceBox(op, 1, in)
	if err != nil {
		return nil, err
	}
	return b.Sources(in), nil
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
	for i, k := range s.Sources(shape) {
		out[k] = ns[i]
	}
	l.env[op.Results[0]] = &tile{shape: shape, elems: out}
	return nil
}

// sliceBox reads a slice's offsets (static, or dynamic operands from
// operand firstDyn on, which must be compile-time constants), sizes and
// strides, and checks the box lies within shape.
func (l *lowerer) sliceBox(op *ir.Operation, firstDyn int, shape []int64) (tileview.Box, error) {
	offs, ok1 := op.Attr("static_offsets").(*ir.DenseI64Attr)
	sizes, ok2 := op.Attr("static_sizes").(*ir.DenseI64Attr)
	strides, ok3 := op.Attr("static_strides").(*ir.DenseI64Attr)
	if !ok1 || !ok2 || !ok3 || len(offs.Values) != len(shape) || len(sizes.Values) != len(shape) || len(strides.Values) != len(shape) {
		return tileview.Box{}, l.errf("internal error: malformed slice")
	}
	b := tileview.Box{Offsets: make([]int64, len(shape)), Sizes: sizes.Values, Strides: strides.Values}
	dyn := firstDyn
	for d, o := range offs.Values {
		if o == otir.DynamicOffset {
			if dyn >= len(op.Operands) {
				return tileview.Box{}, l.errf("internal error: missing dynamic offset")
			}
			n, err := l.scalar(op.Operands[dyn])
			if err != nil {
				return tileview.Box{}, err
			}
			if n.c == nil {
				return tileview.Box{}, l.cannot("offset #%d depends on data (addresses must be static)", d)
			}
			if !n.c.IsInt64() {
				return tileview.Box{}, l.errf("offset %v along dimension %d is out of bounds", n.c, d)
			}
			o = n.c.Int64()
			dyn++
		}
		b.Offsets[d] = o
		size, stride := b.Sizes[d], b.Strides[d]
		if !b.Within(d, shape[d]) {
			return tileview.Box{}, l.errf("slice is out of bounds: offset %d, size %d, stride %d along dimension %d of size %d", o, size, stride, d, shape[d])
		}
	}
	return b, nil
}
