package exec

import (
	"math/big"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/internal/satint"
	"github.com/otir-dev/otir/ir"
)

// Limits that stop a run before it exhausts memory or time. A normal kernel
// is far below both; otir-run's --max-elements and --max-steps raise them.
const (
	// DefaultMaxElements is the default of Options.MaxElements: 2^26
	// elements (512 MB of int64 values).
	DefaultMaxElements = 1 << 26
	// DefaultMaxSteps is the step limit otir-run applies by default: under
	// a second of an empty scf.for loop, one step per iteration (20 to 30
	// million a second of CPU time on the project's 2-core machine since
	// kernels are compiled to instructions; docs/executor.md). It was 10^8,
	// which let an endless loop run 25 to 45 s before the error at the old
	// speed (2 to 4 million steps a second).
	DefaultMaxSteps = 15_000_000
)

// elemWeight is what one element of t counts against MaxElements: one, or
// one per 64 bits for integers wider than 64 bits (held as big.Int).
func elemWeight(t ir.Type) int64 {
	if w, _, ok := intInfo(t); ok && w > 64 {
		return int64(w+63) / 64
	}
	return 1
}

// tileCost is the weighted element count of a tile type (0 for other types).
func tileCost(t ir.Type) int64 {
	tt, ok := t.(*ir.TileType)
	if !ok {
		return 0
	}
	n := elemWeight(tt.Elem)
	for _, d := range tt.Shape {
		if d < 0 {
			d = 0
		}
		n = satint.Mul(n, d)
	}
	return n
}

// CheckSizes applies opts.MaxElements to kernel k (see checkSizes); Run
// calls it, and otir-run (kernelrun.RunFile) before it allocates the arguments.
func CheckSizes(k *ir.Operation, opts Options) error {
	max := opts.MaxElements
	switch {
	case max == 0:
		max = DefaultMaxElements
	case max < 0:
		return nil
	}
	return checkSizes(k, max)
}

// checkSizes checks, before anything is allocated, that every tile the
// kernel declares (arguments and results) holds at most max elements, and
// that all of them together do: this bounds the memory of a run.
func checkSizes(k *ir.Operation, max int64) error {
	const hint = "(raise it with --max-elements)"
	total := int64(0)
	add := func(loc ir.Location, what string, t ir.Type) error {
		c := tileCost(t)
		if c > max {
			return diag.Errorf(loc, "%s %s holds %s elements, more than the limit of %d %s", what, t, countText(t), max, hint)
		}
		total = satint.Add(total, c)
		return nil
	}
	if body := k.Body(0); body != nil {
		for _, a := range body.Args {
			if err := add(a.Loc, "argument of type", a.Type); err != nil {
				return err
			}
		}
	}
	var err error
	k.Walk(func(op *ir.Operation) bool {
		if op == k {
			return true
		}
		for _, r := range op.Results {
			if err = add(op.Loc, "'"+op.Name+"' op result of type", r.Type); err != nil {
				return false
			}
		}
		return true
	})
	if err != nil {
		return err
	}
	if total > max {
		return diag.Errorf(k.Loc, "the tiles of kernel @%s hold %d elements in all, more than the limit of %d %s", ir.KernelName(k), total, max, hint)
	}
	return nil
}

// countText is a tile type's element count, exact even beyond int64.
func countText(t ir.Type) string {
	tt := t.(*ir.TileType)
	n := big.NewInt(1)
	for _, d := range tt.Shape {
		n.Mul(n, big.NewInt(d))
	}
	return n.String()
}

// stepCost is what executing op once counts against MaxSteps: one, plus
// one per element of its tile results (and, for a matmul, per
// multiply-add), so that the limit bounds the work, not only the number of
// operations.
func stepCost(op *ir.Operation, sem semantics) int64 {
	c := int64(1)
	for _, r := range op.Results {
		c = satint.Add(c, tileCost(r.Type))
	}
	if sem.cost != nil {
		c = satint.Add(c, sem.cost(op))
	}
	return c
}

// matmulCost is a matmul's multiply-adds: one per result element and per
// element of the contracted dimension.
func matmulCost(op *ir.Operation) int64 {
	if len(op.Operands) > 0 {
		if tt, ok := op.Operands[0].Type.(*ir.TileType); ok && len(tt.Shape) > 0 && len(op.Results) > 0 {
			return satint.Mul(tileCost(op.Results[0].Type), tt.Shape[len(tt.Shape)-1])
		}
	}
	return 0
}
