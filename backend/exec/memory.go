package exec

import (
	"fmt"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
)

// rvalue is a runtime value: a *Buffer (a scalar or #private tile), a *view
// (a #global or #workgroup tile) or a *token (a DMA's completion token).
type rvalue interface{ isRValue() }

func (*Buffer) isRValue() {}
func (*view) isRValue()   {}
func (*token) isRValue()  {}

// memory is one block of addressable memory: a #global kernel argument or a
// #workgroup allocation.
type memory struct {
	buf   *Buffer
	space ir.MemSpace
	// desc names the memory in diagnostics ("%a", "the #workgroup tile").
	desc string
	// loc is where the memory is declared (kernel argument) or allocated.
	loc ir.Location
	// init marks the elements written so far; nil means all are initialised.
	init []bool
	// lastStore and lastWG record, per element, the last non-atomic write
	// (operation and workgroup) for race checking; nil when not tracking.
	lastStore []*ir.Operation
	lastWG    []int
}

func newMemory(buf *Buffer, space ir.MemSpace, desc string, loc ir.Location) *memory {
	return &memory{buf: buf, space: space, desc: desc, loc: loc}
}

// view is a tile of memory: the flat buffer index of each of its elements, in
// row-major order of its shape. Slices, reshapes and transposes of memory
// tiles are views of the same memory.
type view struct {
	mem   *memory
	shape []int64
	idx   []int64 // nil: the whole buffer in its own order
}

func (v *view) len() int { return tileview.Len(v.shape) }

// at is the flat buffer index of element i.
func (v *view) at(i int) int64 {
	if v.idx == nil {
		return int64(i)
	}
	return v.idx[i]
}

// indices returns the flat buffer index of every element (a fresh slice).
func (v *view) indices() []int64 {
	out := make([]int64, v.len())
	for i := range out {
		out[i] = v.at(i)
	}
	return out
}

// describe names element i of the view for diagnostics, as buffer coordinates.
func (v *view) describe(i int) string {
	return fmt.Sprintf("element %s of %s", coordString(tileview.Coord(v.at(i), v.mem.buf.Shape)), v.mem.desc)
}

// token is the completion token of one asynchronous copy.
type token struct{ copy *dmaCopy }

// dmaCopy is an asynchronous copy started by otir.dma_copy_async. It
// completes, copying the source to the destination, at the otir.wait on its
// token; until then its destination may not be touched nor its source written.
type dmaCopy struct {
	op       *ir.Operation
	src, dst *view
	// mask[i] tells whether element i is copied; nil copies every element.
	mask []bool
	done bool
	// srcSet and dstSet mark the flat buffer indices the copy reads and writes.
	srcSet, dstSet bitset
	// token is the copy's completion token (allocated with it).
	token token
}

func (w *workgroup) newDMA(op *ir.Operation, src, dst *view, mask []bool) *dmaCopy {
	c := &dmaCopy{op: op, src: src, dst: dst, mask: mask,
		srcSet: w.elemSet(src, mask), dstSet: w.elemSet(dst, mask)}
	c.token.copy = c
	return c
}

// elemSet is the set of the flat buffer indices of the elements of v that
// mask selects (nil: all), in a set of a completed copy when one is free.
func (w *workgroup) elemSet(v *view, mask []bool) bitset {
	n := v.mem.buf.Len()
	var b bitset
	if k := len(w.freeSets) - 1; k >= 0 && len(w.freeSets[k]) == (n+63)/64 {
		b, w.freeSets = w.freeSets[k], w.freeSets[:k]
		clear(b)
	} else {
		b = newBitset(n)
	}
	if v.idx == nil && mask == nil { // the whole memory
		for i := range b {
			b[i] = ^uint64(0)
		}
		if n%64 != 0 {
			b[len(b)-1] = 1<<uint(n%64) - 1
		}
		return b
	}
	for i, n := 0, v.len(); i < n; i++ {
		if mask == nil || mask[i] {
			b.set(v.at(i))
		}
	}
	return b
}

// bitset is a set of flat element indices.
type bitset []uint64

func newBitset(n int) bitset      { return make(bitset, (n+63)/64) }
func (b bitset) set(i int64)      { b[i/64] |= 1 << uint(i%64) }
func (b bitset) has(i int64) bool { return b[i/64]&(1<<uint(i%64)) != 0 }

// access is one use of memory elements by an operation, checked against the
// workgroup's pending copies.
type access struct {
	v     *view
	elems []int // elements of v touched (nil: all)
	write bool
}

// checkPending reports the first conflict of an access with a pending copy:
// touching a copy's destination, or writing its source, before its wait.
func (w *workgroup) checkPending(op *ir.Operation, a access) error {
	// Only the copies into or (for a write) out of this memory can conflict;
	// filtering them keeps the order of the checks below.
	var pending []*dmaCopy
	for _, c := range w.pending {
		if c.dst.mem == a.v.mem || a.write && c.src.mem == a.v.mem {
			pending = append(pending, c)
		}
	}
	if len(pending) == 0 {
		return nil
	}
	n := a.v.len()
	if a.elems != nil {
		n = len(a.elems)
	}
	for j := 0; j < n; j++ {
		i := j
		if a.elems != nil {
			i = a.elems[j]
		}
		flat := a.v.at(i)
		for _, c := range pending {
			verb := "reads"
			if a.write {
				verb = "writes"
			}
			if c.dst.mem == a.v.mem && c.dstSet.has(flat) {
				return opErr(op, "%s %s, the destination of an asynchronous copy that is not complete; wait on its token first", verb, a.v.describe(i)).
					Note(c.op.Loc, "the copy is started here")
			}
			if a.write && c.src.mem == a.v.mem && c.srcSet.has(flat) {
				return opErr(op, "writes %s, the source of an asynchronous copy that is not complete; wait on its token first", a.v.describe(i)).
					Note(c.op.Loc, "the copy is started here")
			}
		}
	}
	return nil
}

// readElems reads the elements of a view into out (a buffer of its element
// type and length), after checking pending copies and initialisation.
func (w *workgroup) readElems(op *ir.Operation, v *view, out *Buffer) (*Buffer, error) {
	if err := w.checkPending(op, access{v: v}); err != nil {
		return nil, err
	}
	if err := checkInit(op, v, nil); err != nil {
		return nil, err
	}
	if from := v.mem.buf.Ints; from != nil {
		if v.idx == nil {
			copy(out.Ints, from)
		} else {
			for i, k := range v.idx {
				out.Ints[i] = from[k]
			}
		}
		return out, nil
	}
	for i, n := 0, v.len(); i < n; i++ {
		out.setNum(i, v.mem.buf.num(int(v.at(i))))
	}
	return out, nil
}

// checkInit reports a read of a #workgroup element nothing has written yet.
func checkInit(op *ir.Operation, v *view, mask []bool) *diag.Diagnostic {
	if v.mem.init == nil {
		return nil
	}
	for i, n := 0, v.len(); i < n; i++ {
		if (mask == nil || mask[i]) && !v.mem.init[v.at(i)] {
			return opErr(op, "reads %s before anything is written to it", v.describe(i)).
				Note(v.mem.loc, "the tile is allocated here")
		}
	}
	return nil
}

// writeElem stores element i of a view (n already of the element type) and
// records the write for initialisation and race tracking.
func (w *workgroup) writeElem(op *ir.Operation, v *view, i int, n num, atomic bool) {
	v.mem.buf.setNum(int(v.at(i)), n)
	w.wrote(op, v, i, atomic)
}

// wrote records the write of element i of a view for initialisation and race
// tracking.
func (w *workgroup) wrote(op *ir.Operation, v *view, i int, atomic bool) {
	flat := int(v.at(i))
	m := v.mem
	if m.init != nil {
		m.init[flat] = true
	}
	if m.lastStore != nil && !atomic {
		m.lastStore[flat] = op
		m.lastWG[flat] = w.linear
	}
}

// writeInts stores vals[i*step] (step 1: the element itself, 0: one value
// for all) into each element i of an int64-held view that mask selects (nil:
// all), and records the writes: writeElem for a whole tile, without a num
// per element. vals hold values of the view's element type.
func (w *workgroup) writeInts(op *ir.Operation, v *view, vals []int64, step int, mask []bool) {
	to := v.mem.buf.Ints
	switch {
	case v.idx == nil && step == 1 && mask == nil:
		copy(to, vals)
	case v.idx == nil && mask == nil:
		for i := range to {
			to[i] = vals[0]
		}
	default:
		for i, n := 0, v.len(); i < n; i++ {
			if mask == nil || mask[i] {
				to[v.at(i)] = vals[i*step]
			}
		}
	}
	m := v.mem
	switch {
	case m.init == nil && m.lastStore == nil:
	case v.idx == nil && mask == nil: // the whole memory
		m.init = nil // every element is written now
		if m.lastStore != nil {
			fill(m.lastStore, op)
			fill(m.lastWG, w.linear)
		}
	default:
		for i, n := 0, v.len(); i < n; i++ {
			if mask == nil || mask[i] {
				w.wrote(op, v, i, false)
			}
		}
	}
}

// fill sets every element of s to x: one element, then copies doubling the
// filled prefix (memmove speed for any element type).
func fill[T any](s []T, x T) {
	if len(s) == 0 {
		return
	}
	s[0] = x
	for k := 1; k < len(s); k *= 2 {
		copy(s[k:], s[:k])
	}
}
