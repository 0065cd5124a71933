package exec

import (
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// execFor runs scf.for: the induction variable goes from the lower bound
// while it is below the upper bound, by a positive step; the iteration
// arguments start as the init operands and take each iteration's yielded
// values; the results are the final ones.
func execFor(w *workgroup, op *ir.Operation) ([]rvalue, error) {
	in := w.instrOf(op)
	if len(op.Operands) < 3 {
		return nil, opErr(op, "needs a lower bound, an upper bound and a step")
	}
	body := op.Body(0)
	if body == nil || len(body.Args) != len(op.Operands)-2 || len(op.Results) != len(op.Operands)-3 {
		return nil, opErr(op, "needs one body block with the induction variable and one argument per init value")
	}
	var bounds [3]num
	for i := range bounds {
		n, t, _, err := w.scalarOperand(in, i)
		if err != nil {
			return nil, err
		}
		if _, _, ok := intInfo(t); !ok {
			return nil, opErr(op, "loop bounds and step must be integer or index scalars")
		}
		bounds[i] = n
	}
	ivType := body.Args[0].Type
	if _, _, ok := intInfo(ivType); !ok {
		return nil, opErr(op, "the induction variable must be an integer or index, not %s", ivType)
	}
	lb, ub, step := bounds[0], bounds[1], bounds[2]
	if step.sign() <= 0 {
		return nil, opErr(op, "step %s must be positive", step)
	}
	// args are the body's arguments: the induction variable, then the
	// iteration arguments, which start as the init operands and take each
	// iteration's yielded values.
	args := in.scratch
	for i := range args[1:] {
		s, err := w.operandSlot(in, 3+i)
		if err != nil {
			return nil, err
		}
		args[1+i] = *s
	}
	blk := w.m.prog.region(in, 0)
	for iv := lb; cmpInt(iv, ub) < 0; iv = addInt(iv, step) {
		if err := w.tick(op); err != nil {
			return nil, err
		}
		c, err := convert(iv, ivType)
		if err != nil || cmpInt(c, iv) != 0 {
			return nil, opErr(op, "induction variable value %s is not a value of %s", iv, ivType)
		}
		args[0] = scalarSlot(ivType, c)
		yield, err := w.runBlock(blk, args)
		if err != nil {
			if d, ok := err.(*diag.Diagnostic); ok {
				return nil, d.Note(op.Loc, "in the iteration where %s = %s", memName(body.Args[0], "the induction variable"), iv)
			}
			return nil, err
		}
		var out []int
		if yield != nil {
			out = yield.args
		}
		if len(out) != len(args)-1 {
			return nil, opErr(op, "body yields %d values, but the loop carries %d", len(out), len(args)-1)
		}
		for i, s := range out {
			if err := w.slots[s].conforms(body.Args[1+i].Type); err != nil {
				return nil, opErr(op, "yielded value #%d %v", i, err)
			}
		}
		for i, s := range out {
			args[1+i] = w.slots[s]
		}
	}
	w.outSlots = args[1:]
	return nil, nil
}

// execIf runs scf.if: the then region when the i1 condition is true, else
// the else region (absent: no results); the results are the yielded values.
func execIf(w *workgroup, op *ir.Operation) ([]rvalue, error) {
	in := w.instrOf(op)
	cond, t, tile, err := w.scalarOperand(in, 0)
	if err != nil {
		return nil, err
	}
	if tile != nil && tile.Len() == 1 {
		cond, t = tile.num(0), tile.Elem
	}
	if t != ir.Bool() {
		return nil, opErr(op, "condition must be an i1 scalar")
	}
	region := 1
	if cond.sign() != 0 {
		region = 0
	}
	if len(op.Regions) <= region {
		return nil, opErr(op, "is missing its region #%d", region)
	}
	blk := w.m.prog.region(in, region)
	if blk == nil {
		if len(op.Results) > 0 {
			return nil, opErr(op, "has results but no else region")
		}
		return nil, nil
	}
	yield, err := w.runBlock(blk, nil)
	if err != nil {
		return nil, err
	}
	var out []int
	if yield != nil {
		out = yield.args
	}
	if len(out) != len(op.Results) {
		return nil, opErr(op, "region yields %d values for %d results", len(out), len(op.Results))
	}
	if len(in.scratch) < len(out) {
		in.scratch = make([]slot, len(out))
	}
	vals := in.scratch[:len(out)]
	for i, s := range out {
		vals[i] = w.slots[s]
	}
	w.outSlots = vals
	return nil, nil
}

// scalarOperand returns operand i, which must be a scalar or #private
// tile: a scalar's value and type, else (t nil) the tile.
func (w *workgroup) scalarOperand(in *instr, i int) (n num, t ir.Type, tile *Buffer, err error) {
	s, err := w.operandSlot(in, i)
	if err != nil {
		return num{}, nil, nil, err
	}
	if s.t != nil {
		return s.n, s.t, nil, nil
	}
	tile, err = w.valueOperand(in.op, i)
	return num{}, nil, tile, err
}
