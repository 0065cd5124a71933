package tiles

import (
	"github.com/otir-dev/otir/ir"
)

// elementwise lowers binary, unary, cmp, select and cast operations: the
// operands broadcast NumPy-style to the result's shape, and each element is
// computed on its own.
func (l *lowerer) elementwise(op *ir.Operation) error {
	rt, ok := intTypeOf(ir.ElementType(op.Results[0].Type))
	if !ok {
		return l.cannot("result type %s is not an integer", op.Results[0].Type)
	}
	shape := shapeOf(op.Results[0].Type)
	n := numElems(shape)
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
		r, err := l.scalarOp(op, args, types, rt)
		if err != nil {
			if len(shape) > 0 {
				err = addElement(err, shape, e)
			}
			return err
		}
		out[e] = r
	}
	l.setResult(op, out)
	return nil
}

// scalarOp computes one element of an element-wise operation.
func (l *lowerer) scalarOp(op *ir.Operation, a []num, t []intT, rt intT) (num, error) {
	switch op.Name {
	case ir.OpCast:
		return l.convert(a[0], rt)
	case ir.OpSelect:
		x, err := l.convert(a[1], rt)
		if err != nil {
			return num{}, err
		}
		y, err := l.convert(a[2], rt)
		if err != nil {
			return num{}, err
		}
		return l.mux(a[0], x, y, rt)
	case ir.OpCmp:
		pred, _ := op.StringAttr("kind")
		return l.compare(pred, a[0], a[1], t[0], t[1])
	case ir.OpNeg, ir.OpAbs, ir.OpNot:
		return l.unary(op.Name, a[0], rt)
	}
	if len(a) != 2 {
		return num{}, l.errf("internal error: expected two operands")
	}
	return l.binary(op.Name, a[0], a[1], t[0], t[1], rt)
}

// broadcast returns, for each element of shape (row-major), the index of
// the element of an operand of shape in that broadcasts to it.
func (l *lowerer) broadcast(in, shape []int64) ([]int, error) {
	if len(in) > len(shape) {
		return nil, l.errf("internal error: operand of rank %d does not broadcast to rank %d", len(in), len(shape))
	}
	strides := make([]int64, len(shape))
	stride := int64(1)
	for d := len(in) - 1; d >= 0; d-- {
		rd := d + len(shape) - len(in)
		switch in[d] {
		case shape[rd]:
			if in[d] != 1 {
				strides[rd] = stride
			}
		case 1:
		default:
			return nil, l.errf("internal error: operand shape %v does not broadcast to %v", in, shape)
		}
		stride *= in[d]
	}
	n := numElems(shape)
	out := make([]int, n)
	coord := make([]int64, len(shape))
	for i := 0; i < n; i++ {
		k := int64(0)
		for d, c := range coord {
			k += c * strides[d]
		}
		out[i] = int(k)
		for d := len(coord) - 1; d >= 0; d-- {
			if coord[d]++; coord[d] < shape[d] {
				break
			}
			coord[d] = 0
		}
	}
	return out, nil
}
