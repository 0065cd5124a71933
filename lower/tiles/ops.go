package tiles

import (
	"github.com/otir-dev/otir/ir"
)

// block runs the operations of b in order and returns the values its
// terminator yields (nil for otir.return).
func (l *lowerer) block(b *ir.Block) ([]any, error) {
	for _, op := range b.Ops {
		lw, known := loweringOf(op.Name)
		if lw.yields {
			l.cur = op
			return l.operands(op.Operands)
		}
		if lw.ends {
			return nil, nil
		}
		if err := l.op(op, lw, known); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// operands returns the values of vs.
func (l *lowerer) operands(vs []*ir.Value) ([]any, error) {
	out := make([]any, len(vs))
	for i, v := range vs {
		x, err := l.get(v)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

// get returns the lowered value of v: a num (scalar), *tile (#private),
// *view (#global, #workgroup) or *dmaCopy (token). A scalar kernel argument
// becomes an input when first used.
func (l *lowerer) get(v *ir.Value) (any, error) {
	x, ok := l.env[v]
	if !ok || x == nil {
		return nil, l.errf("internal error: operand has no value")
	}
	if a, ok := x.(*argInfo); ok {
		if a.scalar == nil {
			t, _ := intTypeOf(a.val.Type)
			n, err := l.input(a, 0, t)
			if err != nil {
				return nil, err
			}
			a.scalar = &n
		}
		l.env[v] = *a.scalar
		return *a.scalar, nil
	}
	return x, nil
}

// scalar returns v as a scalar num.
func (l *lowerer) scalar(v *ir.Value) (num, error) {
	x, err := l.get(v)
	if err != nil {
		return num{}, err
	}
	switch n := x.(type) {
	case num:
		return n, nil
	case *tile:
		if len(n.elems) == 1 {
			return n.elems[0], nil
		}
	}
	return num{}, l.errf("internal error: expected a scalar operand")
}

// elems returns v's elements and shape as a value: a scalar, a #private
// tile, or (read now) a memory tile.
func (l *lowerer) elems(v *ir.Value) ([]num, []int64, error) {
	x, err := l.get(v)
	if err != nil {
		return nil, nil, err
	}
	switch t := x.(type) {
	case num:
		return []num{t}, nil, nil
	case *tile:
		return t.elems, t.shape, nil
	case *view:
		ns, err := l.readView(t)
		return ns, t.shape, err
	}
	return nil, nil, l.errf("internal error: a token is not a value")
}

// setResult binds op's only result to elements of the result type: a
// scalar num or a #private tile.
func (l *lowerer) setResult(op *ir.Operation, ns []num) {
	r := op.Results[0]
	if tt, ok := r.Type.(*ir.TileType); ok {
		l.env[r] = &tile{shape: tt.Shape, elems: ns}
		return
	}
	l.env[r] = ns[0]
}

// checkTypes rejects floats, which have no combinational lowering. Integers
// of any width lower as long as each value the program computes fits 64
// bits, ALIR's limit (emit reports the others). Every value type must be
// known (promote-types infers the omitted ones).
func (l *lowerer) checkTypes(op *ir.Operation) error {
	check := func(t ir.Type) error {
		if t == nil {
			return l.errf("has a value without a type (run promote-types first)")
		}
		if e, ok := ir.ElementType(t).(*ir.FloatType); ok {
			return l.cannot("floating-point values (%s) are not supported", e)
		}
		return nil
	}
	for _, v := range op.Operands {
		if v == nil {
			return l.errf("internal error: null operand")
		}
		if err := check(v.Type); err != nil {
			return err
		}
	}
	for _, r := range op.Results {
		if err := check(r.Type); err != nil {
			return err
		}
	}
	return nil
}

// op lowers one operation by its entry lw of the lowering table (known:
// the table has one).
func (l *lowerer) op(op *ir.Operation, lw lowering, known bool) error {
	l.cur = op
	if err := l.stepOp(op, lw); err != nil {
		return err
	}
	if err := l.checkTypes(op); err != nil {
		return err
	}
	switch {
	case lw.lower != nil:
		if err := lw.lower(l, op); err != nil {
			return err
		}
		if l.deadAt != nil && lw.tagDead != nil {
			lw.tagDead(l, op)
		}
		return nil
	case lw.scalar != nil:
		return l.elementwise(op, lw.scalar)
	case lw.unsupported != "":
		return l.cannot("'%s' %s", op.Name, lw.unsupported)
	}
	return l.cannot("operation '%s' is not supported", op.Name)
}

// load lowers otir.load: the value of a tile.
func (l *lowerer) load(op *ir.Operation) error {
	ns, _, err := l.elems(op.Operands[0])
	if err != nil {
		return err
	}
	l.setResult(op, ns)
	return nil
}
