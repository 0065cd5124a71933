package tiles

import (
	"math/big"

	"github.com/otir-dev/otir/ir"
)

// forOp unrolls an scf.for whose bounds and step are compile-time
// constants: the body is lowered once per iteration with the induction
// variable a constant.
func (l *lowerer) forOp(op *ir.Operation) error {
	var bounds [3]*big.Int
	for i, what := range []string{"lower bound", "upper bound", "step"} {
		n, err := l.scalar(op.Operands[i])
		if err != nil {
			return err
		}
		if n.c == nil {
			return l.cannot("its %s depends on data (trip counts must be static)", what)
		}
		bounds[i] = n.c
	}
	if bounds[2].Sign() <= 0 {
		return l.errf("step %v must be positive", bounds[2])
	}
	iters, err := l.operands(op.Operands[3:])
	if err != nil {
		return err
	}
	body := op.Body(0)
	for iv := bounds[0]; iv.Cmp(bounds[1]) < 0; iv = add(iv, bounds[2]) {
		l.cur = op
		if err := l.step(); err != nil {
			return err
		}
		l.env[body.Args[0]] = constNum(iv)
		for i, x := range iters {
			l.env[body.Args[1+i]] = x
		}
		out, err := l.block(body)
		if err != nil {
			return err
		}
		iters = out
	}
	for i, r := range op.Results {
		l.env[r] = iters[i]
	}
	return nil
}

// ifOp lowers scf.if: with a constant condition only the region taken;
// with a data-dependent one both regions, each writing memory into its own
// overlay, then every value and memory element that differs between them
// becomes a dais.mux on the condition.
func (l *lowerer) ifOp(op *ir.Operation) error {
	cond, err := l.scalar(op.Operands[0])
	if err != nil {
		return err
	}
	if _, _, known := l.condition(cond); known >= 0 {
		region := 1 - known
		b := op.Body(region)
		if b == nil {
			return nil
		}
		out, err := l.block(b)
		if err != nil {
			return err
		}
		for i, r := range op.Results {
			l.env[r] = out[i]
		}
		return nil
	}
	outs := [2][]any{}
	frames := [2]*overlay{}
	for region := 0; region < 2; region++ {
		b := op.Body(region)
		frames[region] = newOverlay()
		if b == nil {
			continue
		}
		l.frames = append(l.frames, frames[region])
		out, err := l.block(b)
		if err == nil {
			err = l.checkBranchCopies(op)
		}
		l.frames = l.frames[:len(l.frames)-1]
		if err != nil {
			return err
		}
		outs[region] = out
	}
	l.cur = op
	if err := l.mergeMemory(cond, frames[0], frames[1]); err != nil {
		return err
	}
	for i, r := range op.Results {
		v, err := l.mergeValue(cond, outs[0][i], outs[1][i], r.Type)
		if err != nil {
			return err
		}
		l.env[r] = v
	}
	return nil
}

// checkBranchCopies requires the copies started in a data-dependent branch
// to be waited on in it.
func (l *lowerer) checkBranchCopies(ifOp *ir.Operation) error {
	for _, c := range l.pending {
		if c.depth == len(l.frames) && !c.done {
			l.cur = c.op
			return l.cannot("a copy started in a branch of a data-dependent scf.if must be waited on in that branch").
				Note(ifOp.Loc, "the scf.if is here")
		}
	}
	return nil
}

// mergeMemory writes, for every element either branch wrote, cond ? then
// value : else value into the enclosing memory state.
func (l *lowerer) mergeMemory(cond num, then, els *overlay) error {
	keys := append([]cellKey(nil), then.keys...)
	for _, k := range els.keys {
		if _, dup := then.vals[k]; !dup {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		tv, ok := then.vals[k]
		var err error
		if !ok {
			if tv, err = l.read(k.mem, k.i, true); err != nil {
				return err
			}
		}
		ev, ok := els.vals[k]
		if !ok {
			if ev, err = l.read(k.mem, k.i, true); err != nil {
				return err
			}
		}
		et, _ := intTypeOf(k.mem.elem)
		v, err := l.mux(cond, tv, ev, et)
		if err != nil {
			return err
		}
		l.write(k.mem, k.i, v)
	}
	return nil
}

// mergeValue returns cond ? a : b for a result of type t.
func (l *lowerer) mergeValue(cond num, a, b any, t ir.Type) (any, error) {
	et, ok := intTypeOf(ir.ElementType(t))
	switch x := a.(type) {
	case num:
		y, isNum := b.(num)
		if !isNum || !ok {
			break
		}
		return l.mux(cond, x, y, et)
	case *tile:
		y, isTile := b.(*tile)
		if !isTile || !ok || len(y.elems) != len(x.elems) {
			break
		}
		out := &tile{shape: x.shape, elems: make([]num, len(x.elems))}
		for i := range x.elems {
			v, err := l.mux(cond, x.elems[i], y.elems[i], et)
			if err != nil {
				return nil, err
			}
			out.elems[i] = v
		}
		return out, nil
	case *view:
		if y, isView := b.(*view); isView && sameView(x, y) {
			return x, nil
		}
		return nil, l.cannot("a data-dependent scf.if chooses between memory tiles")
	}
	return nil, l.cannot("a data-dependent scf.if cannot yield a %s", ir.TypeString(t))
}

func sameView(a, b *view) bool {
	if a.mem != b.mem || len(a.idx) != len(b.idx) {
		return false
	}
	for i := range a.idx {
		if a.idx[i] != b.idx[i] {
			return false
		}
	}
	return true
}
