package promote

import (
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/typing"
)

// opInfo is what the check phase learnt about an element-wise operation.
type opInfo struct {
	sem   opSem
	elems []ir.Type // operand element types
	p     ir.Type   // the promoted type the rule prescribes
}

// rewriter is one run of the promote-types pass over a module.
type rewriter struct {
	style typing.Style
	uses  map[*ir.Value]int
	info  map[*ir.Operation]*opInfo
}

// Run makes type promotion explicit in m under a style (see the package
// comment and docs/type-promotion.md). It first checks every element-wise
// operation against the style's rules and, if any has none, returns the
// diagnostics (a diag.List, each with Allo's text at the operation) without
// changing m; otherwise it rewrites m in place.
func Run(m *ir.Module, style typing.Style) error {
	if m == nil || m.Op == nil || m.Body() == nil {
		return nil // nothing to rewrite
	}
	if !typing.KnownStyle(style) {
		return diag.Errorf(m.Op.Loc, "unknown typing style '%s' (expected \"hls\" or \"cpp\")", style)
	}
	rw := &rewriter{style: style, uses: map[*ir.Value]int{}, info: map[*ir.Operation]*opInfo{}}
	var errs diag.List
	m.Walk(func(op *ir.Operation) bool {
		for _, v := range op.Operands {
			rw.uses[v]++
		}
		if err := rw.check(op); err != nil {
			errs = append(errs, diag.Errorf(op.Loc, "%s", err.Error()))
		}
		return true
	})
	if len(errs) > 0 {
		return errs
	}
	rw.regions(m.Op)
	return nil
}

// regions rewrites every block nested in op, each before the ops in it.
func (rw *rewriter) regions(op *ir.Operation) {
	op.Walk(func(o *ir.Operation) bool {
		for b := range o.Blocks() {
			rw.block(b)
		}
		return true
	})
}

// check finds an element-wise operation's Allo key and promoted type. It
// returns the rule's error (Allo's text) when the style has no rule; it
// ignores operations that are not element-wise with a rule, or malformed
// ones (the verifier reports those).
func (rw *rewriter) check(op *ir.Operation) error {
	key, ok := typing.KeyOf(op)
	if !ok || len(op.Results) != 1 {
		return nil
	}
	want := 2
	if typing.IsUnaryKey(key) {
		want = 1
	}
	if len(op.Operands) != want {
		return nil
	}
	operands := make([]ir.Type, len(op.Operands))
	elems := make([]ir.Type, len(op.Operands))
	for i, v := range op.Operands {
		if v == nil || !ir.IsScalar(ir.ElementType(v.Type)) {
			return nil
		}
		operands[i], elems[i] = v.Type, ir.ElementType(v.Type)
	}
	var signs []int
	if key == "sub" {
		signs = []int{1, -1}
	}
	p, err := typing.Promote(rw.style, key, elems, signs)
	if err != nil {
		return err
	}
	// Rewrite only well-formed operations; the verifier reports the others.
	if _, shape, tiled, err := typing.SplitOperands(op.Name, operands); err != nil || !wellShaped(op.Results[0].Type, shape, tiled) {
		return nil
	}
	pred, _ := op.StringAttr("kind")
	rw.info[op] = &opInfo{sem: semOf(op.Name, pred, key), elems: elems, p: p}
	return nil
}

// wellShaped reports whether a result type has a scalar element type and the
// operands' broadcast shape (a #private tile, or a scalar for scalars).
func wellShaped(result ir.Type, shape []int64, tiled bool) bool {
	if !ir.IsScalar(ir.ElementType(result)) {
		return false
	}
	rt, isTile := result.(*ir.TileType)
	if !isTile || !tiled {
		return isTile == tiled
	}
	return rt.Space == ir.Private && typing.ShapeString(rt.Shape) == typing.ShapeString(shape)
}

// block rewrites one block: it plans the HLS expression trees (walking back
// from the end, so each tree is maximal), deletes the nodes the trees absorb,
// then rewrites each remaining operation in order.
func (rw *rewriter) block(b *ir.Block) {
	trees := map[*ir.Operation]*tree{}
	claimed := map[*ir.Operation]bool{}
	inUniform := map[*ir.Operation]bool{} // inner nodes of uniform trees: no tree of their own
	if rw.style == typing.HLS {
		for i := len(b.Ops) - 1; i >= 0; i-- {
			op := b.Ops[i]
			if op == nil || claimed[op] || inUniform[op] || rw.info[op] == nil {
				continue
			}
			if t := planTree(op, rw.uses, func(d *ir.Operation) bool { return rw.info[d] != nil }); t != nil {
				if t.uniform {
					for _, in := range t.inner {
						inUniform[in] = true
					}
					continue
				}
				trees[op] = t
				for _, in := range t.inner {
					claimed[in] = true
				}
			}
		}
	}
	if len(claimed) > 0 {
		kept := b.Ops[:0]
		for _, op := range b.Ops {
			if !claimed[op] {
				kept = append(kept, op)
			}
		}
		for i := len(kept); i < len(b.Ops); i++ {
			b.Ops[i] = nil
		}
		b.Ops = kept
	}
	bld := ir.NewBuilder(b)
	for i := 0; i < len(b.Ops); i++ {
		op := b.Ops[i]
		if op == nil {
			continue
		}
		before := len(b.Ops)
		bld.SetInsertionPoint(i)
		bld.Loc = op.Loc
		if t := trees[op]; t != nil {
			t.emit(bld)
		} else if in := rw.info[op]; in != nil {
			rw.rewriteOp(bld, op, in)
		}
		i += len(b.Ops) - before // skip the operations inserted before op
	}
}

// rewriteOp makes one operation's promotion explicit (see compute.go): its
// operands are cast to the compute type Q and, when Q is not its result's
// element type, it computes in Q and the original operation becomes the cast
// to its result type. An operation whose operand element types already equal
// its result's (for a comparison: each other) is already explicit.
func (rw *rewriter) rewriteOp(b *ir.Builder, op *ir.Operation, in *opInfo) {
	r := ir.ElementType(op.Results[0].Type)
	key := in.sem.key
	if explicit(key, in.elems, r) {
		return
	}
	q, ok := computeType(in.sem, in.elems, in.p, r)
	if !ok {
		return
	}
	operands := append([]*ir.Value(nil), op.Operands...)
	cast := castOnce(b)
	for i, v := range operands {
		if typing.IsShift(key) && i == 1 {
			continue
		}
		operands[i] = cast(v, q)
	}
	if typing.IsComparison(key) || q == r {
		op.Operands = operands
		return
	}
	inner := b.Create(op.Name, operands, []ir.Type{ir.WithElement(op.Results[0].Type, q)}, op.Attrs)
	op.Name, op.Operands, op.Attrs = otir.OpCast, []*ir.Value{inner.Results[0]}, nil
}

// explicit reports whether an operation's converted operands already have
// the type it computes in.
func explicit(key string, elems []ir.Type, r ir.Type) bool {
	want := r
	if typing.IsComparison(key) {
		want = elems[0]
	}
	for _, e := range castOperands(key, elems) {
		if e != want {
			return false
		}
	}
	return true
}
