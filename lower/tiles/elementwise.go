package tiles

import (
	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
)

// elementwise lowers binary, unary, cmp, select and cast operations: the
// operands broadcast NumPy-style to the result's shape, and each element is
// computed on its own.
func (l *lowerer) elementwise(op *ir.Operation, scalar func(l *lowerer, op *ir.Operation, a []num, t []intT, rt intT) (num, error)) error {
	rt, ok := intTypeOf(ir.ElementType(op.Results[0].Type))
	if !ok {
		return l.cannot("result type %s is not an integer", op.Results[0].Type)
	}
	shape := shapeOf(op.Results[0].Type)
	n := tileview.Len(shape)
	ins := make([][]num, len(op.Operands))
	idx := make([][]int, len(op.Operands))
	types := make([]intT, len(op.Operands))
	for i, v := range op.Operands {
		ns, s, err := l.elems(v)
		if err != nil {
			return err
		}
		if types[i], ok = intTypeOf(ir.ElementType(v.Type)); !ok {
			return l.cannot("operand type %s is not an integer", v.Type)
		}
		if idx[i], err = l.broadcast(s, shape); err != nil {
			return err
		}
		ins[i] = ns
	}
	out := make([]num, n)
	args := make([]num, len(ins))
	for e := 0; e < n; e++ {
		for j := range ins {
			args[j] = ins[j][idx[j][e]]
		}
		r, err := scalar(l, op, args, types, rt)
		if err != nil {
			if len(shape) > 0 {
				err = addElement(err, shape, e)
			}
			return err
		}
		if r.c != nil && l.deadAt != nil {
			r = l.tagDead(r, op, args)
		}
		out[e] = r
	}
	l.setResult(op, out)
	return nil
}

// broadcast returns, for each element of shape (row-major), the index of
// the element of an operand of shape in that broadcasts to it.
func (l *lowerer) broadcast(in, shape []int64) ([]int, error) {
	if len(in) > len(shape) {
		return nil, l.errf("internal error: operand of rank %d does not broadcast to rank %d", len(in), len(shape))
	}
	if !tileview.Fits(in, shape) {
		return nil, l.errf("internal error: operand shape %v does not broadcast to %v", in, shape)
	}
	return tileview.Map[int](shape, tileview.BroadcastStrides(in, shape)), nil
}
