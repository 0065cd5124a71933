package tiles

import (
	"fmt"
	"math"
	"math/big"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// Limits checked as the work is planned, before memory is allocated: every
// tile of the kernel holds at most max-ops elements, and the elements of the
// #private or newly allocated tiles that executed operations create (a
// splat constant of a million elements creates a million) are at most
// elemsPerOp * max-ops in all, so that max-ops bounds the memory and time of
// the lowering and not only the size of its output.

// elemsPerOp is how many tile elements the lowering may create per
// operation of max-ops.
const elemsPerOp = 8

// overMaxOps is the one message of every limit that max-ops sets: subject
// (what needs the work, ending in a verb) needs more than limit units, a
// limit of per units for each operation of max-ops.
func overMaxOps(subject string, limit int64, units string, per int64, maxOps int) string {
	perText := ""
	if per != 1 {
		perText = fmt.Sprintf(", %d per operation", per)
	}
	return fmt.Sprintf("%s more than %d %s (max-ops=%d%s; raise it with lower-tiles{max-ops=N})", subject, limit, units, maxOps, perText)
}

// overMaxOps is the diagnostic at the current op for a max-ops limit,
// with a note naming the kernel.
func (l *lowerer) overMaxOps(subject string, limit int64, units string, per int64) *diag.Diagnostic {
	return l.errf("cannot be lowered: %s", overMaxOps(subject, limit, units, per, l.opts.MaxOps)).
		Note(l.kernel.Loc, "while lowering kernel @%s", ir.KernelName(l.kernel))
}

// tileElems is the element count of a tile type, saturating at MaxInt64
// (0 for other types).
func tileElems(t ir.Type) int64 {
	tt, ok := t.(*ir.TileType)
	if !ok {
		return 0
	}
	n := int64(1)
	for _, d := range tt.Shape {
		if d <= 0 {
			return 0
		}
		if n > math.MaxInt64/d {
			return math.MaxInt64
		}
		n *= d
	}
	return n
}

func elemCountText(t ir.Type) string {
	n := big.NewInt(1)
	for _, d := range t.(*ir.TileType).Shape {
		n.Mul(n, big.NewInt(d))
	}
	return n.String()
}

// checkSizes rejects a kernel with a tile of more than elemsPerOp * max-ops
// elements, or arguments of more than that together, before any is
// allocated.
func (l *lowerer) checkSizes(k *ir.Operation) error {
	max := elemsPerOp * int64(l.opts.MaxOps)
	big := func(loc ir.Location, what string, t ir.Type) error {
		if tileElems(t) > max {
			return diag.Errorf(loc, "%s", overMaxOps(fmt.Sprintf("%s %s holds %s elements,", what, t, elemCountText(t)), max, "elements", elemsPerOp, l.opts.MaxOps))
		}
		return nil
	}
	total := int64(0)
	if body := k.Body(0); body != nil {
		for _, a := range body.Args {
			if err := big(a.Loc, "argument of type", a.Type); err != nil {
				return err
			}
			total += tileElems(a.Type) // each at most max: no overflow
			if total > max {
				return diag.Errorf(a.Loc, "%s", overMaxOps("the arguments hold", max, "elements together", elemsPerOp, l.opts.MaxOps))
			}
		}
	}
	var err error
	k.Walk(func(op *ir.Operation) bool {
		for _, r := range op.Results {
			if op != k {
				if err = big(op.Loc, "'"+op.Name+"' op result of type", r.Type); err != nil {
					return false
				}
			}
		}
		return true
	})
	return err
}

// stepOp counts op against max-ops: one step, plus the elements of the
// values it creates (#private tiles, allocations; views of memory cost
// nothing).
func (l *lowerer) stepOp(op *ir.Operation, lw lowering) error {
	if err := l.step(); err != nil {
		return err
	}
	n := int64(0)
	for _, r := range op.Results {
		if tt, ok := r.Type.(*ir.TileType); ok && (tt.Space == ir.Private || lw.allocates) {
			n += tileElems(tt)
		}
	}
	return l.reserve(n, "creates tiles of")
}

// reserve counts n elements the lowering is about to create (what: "creates
// tiles of", or other working sets such as a matmul's addends) against the
// elemsPerOp * max-ops budget, before they are allocated.
func (l *lowerer) reserve(n int64, what string) error {
	if n == 0 {
		return nil
	}
	budget := elemsPerOp * int64(l.opts.MaxOps)
	if n > budget-l.nElems {
		return l.overMaxOps("unrolling the kernel "+what, budget, "elements in all", elemsPerOp)
	}
	l.nElems += n
	return nil
}
