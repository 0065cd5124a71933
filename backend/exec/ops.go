package exec

import (
	"strconv"

	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
)

// execConstant makes the value of otir.constant: an integer, float or bool
// scalar, or a dense tile (one value fills the tile). Integer constants must
// be values of the element type; float constants are rounded to it.
func execConstant(w *workgroup, op *ir.Operation) ([]rvalue, error) {
	in := w.instrOf(op)
	if in.konst != nil {
		return in.konst, nil
	}
	shape, elem, err := resultValueType(op)
	if err != nil {
		return nil, err
	}
	var vals []num
	switch a := op.Attr("value").(type) {
	case *ir.IntAttr:
		vals = []num{bigNum(a.Value)}
	case *ir.BoolAttr:
		vals = []num{intNum(0)}
		if a.Value {
			vals[0] = intNum(1)
		}
	case *ir.FloatAttr:
		vals = []num{floatNum(a.Value)}
	case *ir.DenseAttr:
		if ir.Type(a.Type) != op.Results[0].Type {
			return nil, opErr(op, "value of type %s does not match the result type %s", a.Type, op.Results[0].Type)
		}
		for _, v := range a.Ints {
			if v == nil {
				return nil, opErr(op, "has a missing dense element")
			}
			vals = append(vals, bigNum(v))
		}
		for _, f := range a.Floats {
			vals = append(vals, floatNum(f))
		}
	default:
		return nil, opErr(op, "needs an integer, float or dense 'value' attribute")
	}
	out := NewBuffer(elem, shape...)
	if len(vals) != 1 && len(vals) != out.Len() {
		return nil, opErr(op, "has %d values for %d elements", len(vals), out.Len())
	}
	for i, n := 0, out.Len(); i < n; i++ {
		v := vals[0]
		if len(vals) > 1 {
			v = vals[i]
		}
		switch {
		case v.k == kFloat && !isFloatType(elem):
			return nil, opErr(op, "float value %s is not a value of %s", v, elem)
		case v.k != kFloat && !isFloatType(elem) && !inRange(v, elem):
			return nil, opErr(op, "value %s is not a value of %s", v, elem)
		}
		c, err := convert(v, elem)
		if err != nil {
			return nil, opErr(op, "%v", err)
		}
		out.setNum(i, c)
	}
	in.konst = []rvalue{out}
	return in.konst, nil
}

// execAxis returns the workgroup's coordinate along an axis
// (otir.program_id) or, with grid, the grid's size along it
// (otir.num_programs).
func execAxis(grid bool) handler {
	return func(w *workgroup, op *ir.Operation) ([]rvalue, error) {
		axis, ok := op.IntAttr("axis")
		if !ok {
			return nil, opErr(op, "needs an integer 'axis' attribute")
		}
		if axis < 0 || axis >= int64(len(w.m.grid)) {
			return nil, opErr(op, "axis %d is not an axis of the grid %s (rank %d)", axis, gridString(w.m.grid), len(w.m.grid))
		}
		v := w.pid[axis]
		if grid {
			v = w.m.grid[axis]
		}
		b := NewBuffer(ir.Index())
		b.Ints[0] = v
		return []rvalue{b}, nil
	}
}

// execAlloc allocates a tile: #workgroup memory starts uninitialised (reading
// an element before it is written is an error); a #private allocation is an
// immutable value, defined here as all zeros.
func execAlloc(w *workgroup, op *ir.Operation) ([]rvalue, error) {
	if len(op.Results) != 1 {
		return nil, opErr(op, "must have exactly one result")
	}
	tt, ok := op.Results[0].Type.(*ir.TileType)
	if !ok || !ir.IsScalar(tt.Elem) {
		return nil, opErr(op, "result must be a tile type, not %s", op.Results[0].Type)
	}
	switch tt.Space {
	case ir.Private:
		return []rvalue{NewBuffer(tt.Elem, tt.Shape...)}, nil
	case ir.Workgroup:
		var buf *Buffer
		if fitsInt64(tt.Elem) && len(tt.Shape) > 0 {
			buf = &Buffer{Shape: tt.Shape, Elem: tt.Elem, Ints: takeInts(tileview.Len(tt.Shape))}
			in := w.instrOf(op)
			if in.wg == nil {
				w.m.wgTiles = append(w.m.wgTiles, in)
			}
			in.wg = buf // an earlier tile of in is left to the collector
		} else {
			buf = NewBuffer(tt.Elem, tt.Shape...)
		}
		mem := newMemory(buf, ir.Workgroup, memName(op.Results[0], "the #workgroup tile"), op.Loc)
		mem.init = make([]bool, mem.buf.Len())
		return []rvalue{&view{mem: mem, shape: tt.Shape}}, nil
	}
	return nil, opErr(op, "cannot allocate in #global memory")
}

// memName names memory in diagnostics by its source name, else by fallback.
func memName(v *ir.Value, fallback string) string {
	if v != nil && v.Name != "" {
		return "%" + v.Name
	}
	return fallback
}

func gridString(g []int64) string {
	s := "["
	for i, d := range g {
		if i > 0 {
			s += ", "
		}
		s += strconv.FormatInt(d, 10)
	}
	return s + "]"
}
