package exec

import (
	"slices"

	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
)

// execLoad reads a memory tile (or passes a #private value through) into a
// new #private value or scalar of the same shape and element type.
func execLoad(w *workgroup, op *ir.Operation) ([]rvalue, error) {
	shape, elem, err := resultValueType(op)
	if err != nil {
		return nil, err
	}
	v, err := w.operand(op, 0)
	if err != nil {
		return nil, err
	}
	var src *Buffer
	switch x := v.(type) {
	case *view:
		if x.mem.buf.Elem != elem || x.len() != tileview.Len(shape) || !slices.Equal(x.shape, shape) && len(shape) != 0 {
			return nil, opErr(op, "cannot load a %s tile of %s as %s", shapeString(x.shape), x.mem.buf.Elem, op.Results[0].Type)
		}
		if src, err = w.readElems(op, x, w.resultBuffer(op, elem, shape)); err != nil {
			return nil, err
		}
	case *Buffer:
		if x.Elem != elem || x.Len() != tileview.Len(shape) || !slices.Equal(x.Shape, shape) && len(shape) != 0 {
			return nil, opErr(op, "cannot load a %s tile of %s as %s", shapeString(x.Shape), x.Elem, op.Results[0].Type)
		}
		src = &Buffer{Shape: shape, Elem: x.Elem, Ints: x.Ints, Bigs: x.Bigs, Floats: x.Floats}
	default:
		return nil, opErr(op, "cannot load from a token")
	}
	return w.result(src), nil
}

// execStore writes a value (a scalar or #private tile, broadcast to the
// destination's shape, or a memory tile read now) into a memory tile.
func execStore(w *workgroup, op *ir.Operation) ([]rvalue, error) {
	dst, val, err := w.destAndValue(op, 1, 0)
	if err != nil {
		return nil, err
	}
	if val.Elem != dst.mem.buf.Elem {
		return nil, opErr(op, "stores %s elements into a tile of %s", val.Elem, dst.mem.buf.Elem)
	}
	wk, strides := walkSame, []int64(nil) // strides only when needed
	if !slices.Equal(val.Shape, dst.shape) {
		if strides, err = broadcastTo(val, dst.shape); err != nil {
			return nil, opErr(op, "value does not fit the destination: %v", err)
		}
		wk = walkOf(strides, dst.shape)
	}
	if err := w.checkPending(op, access{v: dst, write: true}); err != nil {
		return nil, err
	}
	if val.Ints != nil && dst.mem.buf.Ints != nil && wk != walkCoord {
		step := 0
		if wk == walkSame {
			step = 1
		}
		w.writeInts(op, dst, val.Ints, step, nil)
		return nil, nil
	}
	if strides == nil {
		strides = tileview.Strides(dst.shape)
	}
	forEachBroadcast(dst.shape, strides, func(i int, k int64) {
		w.writeElem(op, dst, i, val.num(int(k)), false)
	})
	return nil, nil
}

// destAndValue returns the operands of an op of two that writes a value
// into memory (a store, an atomic): the memory tile (operand d) and the value
// (operand v; a memory tile is read now).
func (w *workgroup) destAndValue(op *ir.Operation, d, v int) (*view, *Buffer, error) {
	if len(op.Operands) != 2 {
		return nil, nil, opErr(op, "needs 2 operands, has %d", len(op.Operands))
	}
	dst, err := w.destOperand(op, d)
	if err != nil {
		return nil, nil, err
	}
	val, err := w.readOperand(op, v)
	if err != nil {
		return nil, nil, err
	}
	return dst, val, nil
}

// forEachBroadcast calls fn(i, k) for each element i (row-major) of shape with
// k the element of the broadcast operand whose strides are given.
func forEachBroadcast(shape, strides []int64, fn func(i int, k int64)) {
	wk := walkOf(strides, shape)
	var coord []int64
	if wk == walkCoord {
		coord = make([]int64, len(shape))
	}
	for i, n := 0, tileview.Len(shape); i < n; i, _ = i+1, next(coord, shape) {
		fn(i, int64(wk.index(i, coord, strides)))
	}
}

// destOperand returns operand i as a memory tile to write, with a clear
// error for a #private tile (immutable) or a token.
func (w *workgroup) destOperand(op *ir.Operation, i int) (*view, error) {
	v, err := w.operand(op, i)
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case *view:
		return x, nil
	case *Buffer:
		return nil, opErr(op, "cannot write operand #%d: scalars and #private tiles are immutable values", i)
	}
	return nil, opErr(op, "operand #%d is a token, not a memory tile", i)
}

// readOperand returns operand i as a value: a memory tile is read now (after
// the checks against pending copies and uninitialised memory).
func (w *workgroup) readOperand(op *ir.Operation, i int) (*Buffer, error) {
	v, err := w.operand(op, i)
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case *Buffer:
		return x, nil
	case *view:
		return w.readElems(op, x, NewBuffer(x.mem.buf.Elem, x.shape...))
	}
	return nil, opErr(op, "operand #%d is a token, not a tile", i)
}

// execDMA starts an asynchronous copy and returns its token. The copy happens
// at the otir.wait on the token; starting it counts as reading the source
// and writing the destination (the elements the mask selects).
func execDMA(w *workgroup, op *ir.Operation) ([]rvalue, error) {
	if len(op.Operands) != 2 && len(op.Operands) != 3 {
		return nil, opErr(op, "needs a source, a destination and an optional mask, has %d operands", len(op.Operands))
	}
	src, err := w.viewOperand(op, 0)
	if err != nil {
		return nil, err
	}
	dst, err := w.destOperand(op, 1)
	if err != nil {
		return nil, err
	}
	if src.mem.buf.Elem != dst.mem.buf.Elem || !slices.Equal(src.shape, dst.shape) {
		return nil, opErr(op, "copies a %s tile of %s into a %s tile of %s", shapeString(src.shape), src.mem.buf.Elem, shapeString(dst.shape), dst.mem.buf.Elem)
	}
	var mask []bool
	var elems []int
	if len(op.Operands) == 3 {
		mb, err := w.readOperand(op, 2)
		if err != nil {
			return nil, err
		}
		if mb.Elem != ir.Bool() {
			return nil, opErr(op, "mask must have i1 elements, not %s", mb.Elem)
		}
		strides, err := broadcastTo(mb, dst.shape)
		if err != nil {
			return nil, opErr(op, "mask does not fit the destination: %v", err)
		}
		mask = make([]bool, dst.len())
		elems = []int{}
		forEachBroadcast(dst.shape, strides, func(i int, k int64) {
			mask[i] = mb.num(int(k)).sign() != 0
			if mask[i] {
				elems = append(elems, i)
			}
		})
	}
	if err := w.checkPending(op, access{v: src, elems: elems}); err != nil {
		return nil, err
	}
	if err := w.checkPending(op, access{v: dst, elems: elems, write: true}); err != nil {
		return nil, err
	}
	c := w.newDMA(op, src, dst, mask)
	w.pending = append(w.pending, c)
	return w.result(&c.token), nil
}

// execWait completes the copies of its tokens (waiting twice is harmless).
func execWait(w *workgroup, op *ir.Operation) ([]rvalue, error) {
	for i := range op.Operands {
		v, err := w.operand(op, i)
		if err != nil {
			return nil, err
		}
		t, ok := v.(*token)
		if !ok {
			return nil, opErr(op, "operand #%d is not a token", i)
		}
		c := t.copy
		if c.done {
			continue
		}
		if err := checkInit(c.op, c.src, c.mask); err != nil {
			return nil, err.Note(op.Loc, "the copy is performed at this wait")
		}
		w.perform(c)
		c.done = true
		k := slices.Index(w.pending, c)
		w.pending = slices.Delete(w.pending, k, k+1)
		if len(w.freeSets) < maxFreeSets { // no check reads a done copy's sets
			w.freeSets = append(w.freeSets, c.srcSet, c.dstSet)
		}
		c.srcSet, c.dstSet = nil, nil
	}
	return nil, nil
}

// perform copies the elements of c's source its mask selects to its
// destination, reading them all before writing any.
func (w *workgroup) perform(c *dmaCopy) {
	if from := c.src.mem.buf.Ints; from != nil && c.dst.mem.buf.Ints != nil {
		if c.src.idx == nil && c.src.mem != c.dst.mem {
			w.writeInts(c.op, c.dst, from, 1, c.mask) // no overlap: straight from the source
			return
		}
		vals := make([]int64, c.dst.len())
		if c.src.idx == nil && c.mask == nil {
			copy(vals, from)
		} else {
			for j := range vals {
				if c.mask == nil || c.mask[j] {
					vals[j] = from[c.src.at(j)]
				}
			}
		}
		w.writeInts(c.op, c.dst, vals, 1, c.mask)
		return
	}
	vals := make([]num, c.dst.len())
	for j := range vals {
		if c.mask == nil || c.mask[j] {
			vals[j] = c.src.mem.buf.num(int(c.src.at(j)))
		}
	}
	for j, n := range vals {
		if c.mask == nil || c.mask[j] {
			w.writeElem(c.op, c.dst, j, n, false)
		}
	}
}
