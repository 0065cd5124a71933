package tiles

import (
	"math/big"
	"slices"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
)

// addElement appends the element's coordinates to a diagnostic.
func addElement(err error, shape []int64, e int) error {
	if d, ok := err.(*diag.Diagnostic); ok {
		d.Msg += " (element " + coordString(shape, e) + ")"
	}
	return err
}

// constant binds an otir.constant: integers, booleans, dense tiles.
func (l *lowerer) constant(op *ir.Operation) error {
	r := op.Results[0]
	elem, ok := intTypeOf(ir.ElementType(r.Type))
	if !ok {
		return l.cannot("constant of type %s", r.Type)
	}
	var vals []*big.Int
	switch a := op.Attr("value").(type) {
	case *ir.IntAttr:
		vals = []*big.Int{a.Value}
	case *ir.BoolAttr:
		vals = []*big.Int{big.NewInt(0)}
		if a.Value {
			vals[0] = big.NewInt(1)
		}
	case *ir.DenseAttr:
		if a.Ints == nil {
			return l.cannot("constant is not an integer tile")
		}
		vals = a.Ints
	default:
		return l.errf("internal error: unsupported constant attribute")
	}
	n := tileview.Len(shapeOf(r.Type))
	ns := make([]num, n)
	for i := range ns {
		v := vals[0]
		if len(vals) == n {
			v = vals[i]
		} else if len(vals) != 1 {
			return l.errf("internal error: %d constant values for %d elements", len(vals), n)
		}
		if v == nil {
			return l.errf("internal error: missing constant value")
		}
		ns[i] = constNum(elem.wrap(v))
	}
	l.setResult(op, ns)
	return nil
}

// alloc makes a #private tile of zeros (as the executor defines it) or a
// fresh #workgroup memory whose elements are uninitialised.
func (l *lowerer) alloc(op *ir.Operation) error {
	tt, ok := op.Results[0].Type.(*ir.TileType)
	if !ok {
		return l.errf("internal error: alloc of a non-tile")
	}
	n := int(tt.NumElements())
	if tt.Space == ir.Private {
		ns := make([]num, n)
		for i := range ns {
			ns[i] = intNum(0)
		}
		l.env[op.Results[0]] = &tile{shape: tt.Shape, elems: ns}
		return nil
	}
	mem := &memory{cells: make([]cell, n), shape: tt.Shape, elem: tt.Elem, space: tt.Space, arg: -1, def: op.Loc, name: valueName(op.Results[0], "the #workgroup tile")}
	for i := range mem.cells {
		mem.cells[i].state = cellUninit
	}
	l.env[op.Results[0]] = identityView(mem)
	return nil
}

func identityView(mem *memory) *view {
	idx := make([]int, len(mem.cells))
	for i := range idx {
		idx[i] = i
	}
	return &view{mem: mem, shape: mem.shape, idx: idx}
}

func valueName(v *ir.Value, fallback string) string {
	if v.Name != "" {
		return "%" + v.Name
	}
	return fallback
}

// dest returns operand i as a memory tile to write; pending checks that
// no pending copy touches it (a copy checks only the elements its mask
// selects, itself).
func (l *lowerer) dest(op *ir.Operation, i int, pending bool) (*view, error) {
	x, err := l.get(op.Operands[i])
	if err != nil {
		return nil, err
	}
	v, ok := x.(*view)
	if !ok {
		return nil, l.errf("operand #%d is not a memory tile", i)
	}
	if pending {
		if err := l.checkPending(v, true, nil); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// broadcastTo returns a value's elements broadcast to shape.
func (l *lowerer) broadcastTo(ns []num, in, shape []int64) ([]num, error) {
	idx, err := l.broadcast(in, shape)
	if err != nil {
		return nil, err
	}
	out := make([]num, len(idx))
	for i, k := range idx {
		out[i] = ns[k]
	}
	return out, nil
}

// store writes a value into a memory tile.
func (l *lowerer) store(op *ir.Operation) error {
	dst, err := l.dest(op, 1, true)
	if err != nil {
		return err
	}
	ns, shape, err := l.elems(op.Operands[0])
	if err != nil {
		return err
	}
	vals, err := l.broadcastTo(ns, shape, dst.shape)
	if err != nil {
		return err
	}
	for i, k := range dst.idx {
		l.write(dst.mem, k, vals[i])
	}
	return nil
}

// dma starts a copy: its source is read now, its destination written at the
// wait on its token.
func (l *lowerer) dma(op *ir.Operation) error {
	x, err := l.get(op.Operands[0])
	if err != nil {
		return err
	}
	src, ok := x.(*view)
	if !ok {
		return l.errf("the source is not a memory tile")
	}
	dst, err := l.dest(op, 1, false)
	if err != nil {
		return err
	}
	c := &dmaCopy{op: op, dst: dst, depth: len(l.frames), srcView: src}
	if len(op.Operands) == 3 {
		ms, shape, err := l.elems(op.Operands[2])
		if err != nil {
			return err
		}
		if c.mask, err = l.broadcastTo(ms, shape, dst.shape); err != nil {
			return err
		}
	}
	selected := func(j int) bool {
		if c.mask == nil {
			return true
		}
		_, _, sel := l.condition(c.mask[j])
		return sel == 1
	}
	if err := l.checkPending(src, false, selected); err != nil {
		return err
	}
	if err := l.checkPending(dst, true, selected); err != nil {
		return err
	}
	// Only the selected elements are read (an unselected one may be
	// uninitialised); unknown mask elements read as 0 when uninitialised.
	c.src = make([]num, len(src.idx))
	for i, k := range src.idx {
		sel := 1
		if c.mask != nil {
			_, _, sel = l.condition(c.mask[i])
		}
		if sel == 0 {
			continue
		}
		if c.src[i], err = l.read(src.mem, k, sel < 0); err != nil {
			return err
		}
	}
	l.pending = append(l.pending, c)
	l.env[op.Results[0]] = c
	return nil
}

// wait performs the copies of its tokens (a copy waited twice is done once).
func (l *lowerer) wait(op *ir.Operation) error {
	for i := range op.Operands {
		x, err := l.get(op.Operands[i])
		if err != nil {
			return err
		}
		c, ok := x.(*dmaCopy)
		if !ok {
			return l.errf("operand #%d is not a token", i)
		}
		if c.done {
			continue
		}
		if c.depth != len(l.frames) {
			return l.cannot("waiting inside a data-dependent branch for a copy started outside it").
				Note(c.op.Loc, "the copy starts here")
		}
		if err := l.performCopy(c); err != nil {
			return err
		}
		c.done = true
		l.pending = slices.DeleteFunc(l.pending, func(p *dmaCopy) bool { return p == c })
	}
	return nil
}

// performCopy writes a copy's source values into its destination: a
// data-dependent mask element chooses between the new and the old value.
func (l *lowerer) performCopy(c *dmaCopy) error {
	et, _ := intTypeOf(c.dst.mem.elem)
	for j, k := range c.dst.idx {
		v := c.src[j]
		if c.mask != nil {
			_, _, known := l.condition(c.mask[j])
			switch known {
			case 0:
				continue
			case -1:
				old, err := l.read(c.dst.mem, k, true)
				if err != nil {
					return err
				}
				if v, err = l.mux(c.mask[j], v, old, et); err != nil {
					return err
				}
			}
		}
		l.write(c.dst.mem, k, v)
	}
	return nil
}

// atomic lowers otir.atomic_rmw: each element's old value is read, combined
// with the operand, converted to the element type and written, in order.
func (l *lowerer) atomic(op *ir.Operation) error {
	dst, err := l.dest(op, 0, true)
	if err != nil {
		return err
	}
	ns, shape, err := l.elems(op.Operands[1])
	if err != nil {
		return err
	}
	vals, err := l.broadcastTo(ns, shape, dst.shape)
	if err != nil {
		return err
	}
	et, _ := intTypeOf(dst.mem.elem)
	vt, _ := intTypeOf(ir.ElementType(op.Operands[1].Type))
	kind, _ := op.StringAttr("kind")
	olds := make([]num, len(dst.idx))
	for i, k := range dst.idx {
		old, err := l.read(dst.mem, k, false)
		if err != nil {
			return err
		}
		olds[i] = old
		v := vals[i]
		var r num
		switch kind {
		case "xchg":
			r, err = l.convert(v, et)
		case "add":
			r, err = l.add(old, v, et)
		case "and", "or", "xor":
			r, err = l.bitwise(kind, old, v, et)
		case "max", "min":
			r, err = l.maxMin(kind == "max", old, v, et)
		case "umax", "umin":
			var uo, uv, lt num
			if uo, err = l.reading(old, et, false); err == nil {
				if uv, err = l.reading(v, vt, false); err == nil {
					if lt, err = l.lessThan(uo, uv); err == nil {
						if kind == "umax" {
							uo, uv = uv, uo
						}
						// umax: uo < uv ? uv : uo; umin: uo < uv ? uo : uv.
						if uo, err = l.convert(uo, et); err == nil {
							if uv, err = l.convert(uv, et); err == nil {
								r, err = l.mux(lt, uo, uv, et)
							}
						}
					}
				}
			}
		default:
			return l.errf("unknown atomic kind '%s'", kind)
		}
		if err != nil {
			return addElement(err, dst.shape, i)
		}
		l.write(dst.mem, k, r)
	}
	if ir.IsScalar(op.Results[0].Type) {
		l.env[op.Results[0]] = olds[0]
	} else {
		l.setResult(op, olds)
	}
	return nil
}
