package exec

import "github.com/otir-dev/otir/ir"

// Written reports, for each argument of kernel k, whether the kernel may
// write it: whether a view of the argument (through reshape, transpose,
// extract_slice, scf.for iteration arguments and scf.if results) is the
// destination of an otir.store, otir.atomic_rmw or otir.dma_copy_async. It
// is a static, conservative property: a write in a branch never taken counts.
// The ops' effects are declared in their entries of the semantics table.
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
	for changed {
		changed = false
		k.Walk(func(op *ir.Operation) bool {
			sem, _ := semOf(op.Name)
			if sem.viewOf && len(op.Operands) > 0 && len(op.Results) > 0 {
				flow(op.Operands[0], op.Results[0])
			}
			if sem.flow != nil {
				sem.flow(op, flow)
			}
			return true
		})
	}
	written := make([]bool, len(body.Args))
	k.Walk(func(op *ir.Operation) bool {
		sem, _ := semOf(op.Name)
		if dst := sem.writes - 1; dst >= 0 && dst < len(op.Operands) {
			for i := range roots[op.Operands[dst]] {
				written[i] = true
			}
		}
		return true
	})
	return written
}
