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
	if len(op.Operands) < 3 {
		return nil, opErr(op, "needs a lower bound, an upper bound and a step")
	}
	body := op.Body(0)
	if body == nil || len(body.Args) != len(op.Operands)-2 || len(op.Results) != len(op.Operands)-3 {
		return nil, opErr(op, "needs one body block with the induction variable and one argument per init value")
	}
	var bounds [3]*Buffer
	for i := range bounds {
		b, err := w.valueOperand(op, i)
		if err != nil {
			return nil, err
		}
		if _, _, ok := intInfo(b.Elem); !ok || len(b.Shape) != 0 {
			return nil, opErr(op, "loop bounds and step must be integer or index scalars")
		}
		bounds[i] = b
	}
	ivType := body.Args[0].Type
	if _, _, ok := intInfo(ivType); !ok {
		return nil, opErr(op, "the induction variable must be an integer or index, not %s", ivType)
	}
	lb, ub, step := bounds[0].num(0), bounds[1].num(0), bounds[2].num(0)
	if step.sign() <= 0 {
		return nil, opErr(op, "step %s must be positive", step)
	}
	iters := make([]rvalue, len(op.Operands)-3)
	for i := range iters {
		v, err := w.operand(op, 3+i)
		if err != nil {
			return nil, err
		}
		iters[i] = v
	}
	args := make([]rvalue, len(body.Args)) // runBlock copies them into the environment
	for iv := lb; cmpInt(iv, ub) < 0; iv = addInt(iv, step) {
		if err := w.tick(op); err != nil {
			return nil, err
		}
		ivVal := NewBuffer(ivType)
		c, err := convert(iv, ivType)
		if err != nil || cmpInt(c, iv) != 0 {
			return nil, opErr(op, "induction variable value %s is not a value of %s", iv, ivType)
		}
		ivVal.setNum(0, c)
		args[0] = ivVal
		copy(args[1:], iters)
		out, err := w.runBlock(body, args)
		if err != nil {
			if d, ok := err.(*diag.Diagnostic); ok {
				return nil, d.Note(op.Loc, "in the iteration where %s = %s", memName(body.Args[0], "the induction variable"), iv)
			}
			return nil, err
		}
		if len(out) != len(iters) {
			return nil, opErr(op, "body yields %d values, but the loop carries %d", len(out), len(iters))
		}
		for i, v := range out {
			if err := conforms(v, body.Args[1+i].Type); err != nil {
				return nil, opErr(op, "yielded value #%d %v", i, err)
			}
		}
		iters = out
	}
	return iters, nil
}

// execIf runs scf.if: the then region when the i1 condition is true, else
// the else region (absent: no results); the results are the yielded values.
func execIf(w *workgroup, op *ir.Operation) ([]rvalue, error) {
	cond, err := w.valueOperand(op, 0)
	if err != nil {
		return nil, err
	}
	if cond.Elem != ir.Bool() || cond.Len() != 1 {
		return nil, opErr(op, "condition must be an i1 scalar")
	}
	region := 1
	if cond.num(0).sign() != 0 {
		region = 0
	}
	if len(op.Regions) <= region {
		return nil, opErr(op, "is missing its region #%d", region)
	}
	b := op.Body(region)
	if b == nil {
		if len(op.Results) > 0 {
			return nil, opErr(op, "has results but no else region")
		}
		return nil, nil
	}
	out, err := w.runBlock(b, nil)
	if err != nil {
		return nil, err
	}
	if len(out) != len(op.Results) {
		return nil, opErr(op, "region yields %d values for %d results", len(out), len(op.Results))
	}
	return out, nil
}
