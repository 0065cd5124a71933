package exec

import "github.com/otir-dev/otir/ir"

// Written reports, for each argument of kernel k, whether the kernel may
// write it: whether a view of the argument (through reshape, transpose,
// extract_slice, scf.for iteration arguments and scf.if results) is the
// destination of an otir.store, otir.atomic_rmw or otir.dma_copy_async. It
// is a static, conservative property: a write in a branch never taken counts.
func Written(k *ir.Operation) []bool {
	body := k.Body(0)
	if body == nil {
		return nil
	}
	// roots[v] is the set of arguments v may be a view of.
	roots := map[*ir.Value]map[int]bool{}
	for i, a := range body.Args {
		if _, ok := a.Type.(*ir.TileType); ok {
			roots[a] = map[int]bool{i: true}
		}
	}
	changed := true
	flow := func(from, to *ir.Value) {
		for i := range roots[from] {
			if roots[to] == nil {
				roots[to] = map[int]bool{}
			}
			if !roots[to][i] {
				roots[to][i] = true
				changed = true
			}
		}
	}
	yielded := func(b *ir.Block) []*ir.Value {
		if b == nil || b.Terminator() == nil || b.Terminator().Name != ir.OpYield {
			return nil
		}
		return b.Terminator().Operands
	}
	for changed {
		changed = false
		k.Walk(func(op *ir.Operation) bool {
			switch op.Name {
			case ir.OpReshape, ir.OpTranspose, ir.OpExtractSlice:
				if len(op.Operands) > 0 && len(op.Results) > 0 {
					flow(op.Operands[0], op.Results[0])
				}
			case ir.OpFor:
				b := op.Body(0)
				if b == nil {
					break
				}
				carried := func(j int, v *ir.Value) {
					if 1+j < len(b.Args) {
						flow(v, b.Args[1+j])
					}
					if j < len(op.Results) {
						flow(v, op.Results[j])
					}
				}
				for j := 3; j < len(op.Operands); j++ {
					carried(j-3, op.Operands[j])
				}
				for j, y := range yielded(b) {
					carried(j, y)
				}
			case ir.OpIf:
				for r := range op.Regions {
					for j, y := range yielded(op.Body(r)) {
						if j < len(op.Results) {
							flow(y, op.Results[j])
						}
					}
				}
			}
			return true
		})
	}
	written := make([]bool, len(body.Args))
	k.Walk(func(op *ir.Operation) bool {
		dst := -1
		switch op.Name {
		case ir.OpStore, ir.OpDMA:
			dst = 1
		case ir.OpAtomic:
			dst = 0
		}
		if dst >= 0 && dst < len(op.Operands) {
			for i := range roots[op.Operands[dst]] {
				written[i] = true
			}
		}
		return true
	})
	return written
}
