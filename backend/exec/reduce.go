package exec

import (
	"github.com/otir-dev/otir/ir"
)

// reduceWith runs otir.reduce: it folds the input along the axis, in
// ascending index order, with the scalar semantics of the element-wise op
// that folds[kind] names (otir.add, otir.max or otir.min: the same table
// entries, so a reduction means exactly a chain of those ops).
func reduceWith(folds map[string]string) handler {
	return func(w *workgroup, op *ir.Operation) ([]rvalue, error) {
		kind, _ := op.StringAttr("kind")
		s, _ := semOf(folds[kind])
		sem := s.elem
		if sem == nil {
			return nil, opErr(op, "unknown kind '%s'", kind)
		}
		x, err := w.valueOperand(op, 0)
		if err != nil {
			return nil, err
		}
		axis, _ := op.IntAttr("axis")
		if axis < 0 || int(axis) >= len(x.Shape) {
			return nil, opErr(op, "axis %d is not a dimension of a %s input", axis, shapeString(x.Shape))
		}
		shape, relem, err := resultValueType(op)
		if err != nil {
			return nil, err
		}
		fn, err := scalarFunc(op, sem, []ir.Type{relem, x.Elem}, relem)
		if err != nil {
			return nil, opErr(op, "%v", err)
		}
		// The input is outer x n x inner around the axis.
		n := x.Shape[axis]
		inner := int64(1)
		for _, d := range x.Shape[axis+1:] {
			inner *= d
		}
		out := NewBuffer(relem, shape...)
		for o, size := 0, out.Len(); o < size; o++ {
			base := int64(o)/inner*n*inner + int64(o)%inner
			acc := x.num(int(base))
			for k := int64(1); k < n; k++ {
				r, err := fn([]num{acc, x.num(int(base + k*inner))})
				if err == nil {
					r, err = convert(r, relem)
				}
				if err != nil {
					return nil, opErr(op, "%v", err)
				}
				acc = r
			}
			out.setNum(o, acc)
		}
		return []rvalue{out}, nil
	}
}

// reduceCost is otir.reduce's step cost: one step per input element folded.
func reduceCost(op *ir.Operation) int64 {
	if len(op.Operands) == 0 {
		return 0
	}
	return tileCost(op.Operands[0].Type)
}
