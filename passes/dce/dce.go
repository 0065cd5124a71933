// Package dce implements the `dce` pass: dead-code elimination.
//
// An operation is dead when none of its results is used and removing it
// changes nothing else: it and every operation nested in it are pure or mere
// allocations (ir.IsRemovableWhenUnused). Stores, copies, atomics, waits,
// barriers and loads from memory are never removed, nor are terminators; an
// scf.for or scf.if whose results are unused goes away when its bodies have no
// such effect.
//
// Uses are counted once; then each block is walked backwards, so an
// operation's users are visited (and possibly removed, releasing their
// operands) before the operation itself: one backward walk reaches the fixed
// point.
package dce

import (
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"
)

func init() {
	passes.Register(passes.Info{
		Name:    "dce",
		Title:   "DCE",
		Summary: "Remove operations whose results are unused and that have no side effects",
	}, func(*passes.NoOptions, *passes.Context) (passes.Pass, error) {
		return passes.PassFunc(func(m *ir.Module) error { Run(m); return nil }), nil
	})
}

// Run removes dead operations from every kernel of m and returns the number
// of operations removed (nested ones included).
func Run(m *ir.Module) int {
	d := &dce{uses: map[*ir.Value]int{}}
	m.Walk(func(op *ir.Operation) bool {
		for _, v := range op.Operands {
			d.uses[v]++
		}
		return true
	})
	for _, op := range m.Body().Ops {
		d.regions(op)
	}
	return d.removed
}

type dce struct {
	uses    map[*ir.Value]int
	removed int
}

// regions cleans every block nested directly in op.
func (d *dce) regions(op *ir.Operation) {
	for b := range op.Blocks() {
		d.block(b)
	}
}

// block walks b backwards, removing dead operations.
func (d *dce) block(b *ir.Block) {
	dead := false
	for i := len(b.Ops) - 1; i >= 0; i-- {
		op := b.Ops[i]
		if d.unused(op) && ir.IsRemovableWhenUnused(op) {
			d.release(op)
			b.Ops[i] = nil
			dead = true
			continue
		}
		d.regions(op)
	}
	if !dead {
		return
	}
	kept := b.Ops[:0]
	for _, op := range b.Ops {
		if op != nil {
			kept = append(kept, op)
		}
	}
	for i := len(kept); i < len(b.Ops); i++ {
		b.Ops[i] = nil
	}
	b.Ops = kept
}

func (d *dce) unused(op *ir.Operation) bool {
	for _, r := range op.Results {
		if d.uses[r] > 0 {
			return false
		}
	}
	return true
}

// release deletes op and everything nested in it, dropping their uses.
func (d *dce) release(op *ir.Operation) {
	op.Walk(func(o *ir.Operation) bool {
		for _, v := range o.Operands {
			d.uses[v]--
		}
		d.removed++
		return true
	})
	op.Block = nil
}
