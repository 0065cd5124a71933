package tiles

import (
	"fmt"
	"strings"
)

// Progress is how far the lowering of a kernel has come, given to
// Options.Progress at coarse points: at the start of each workgroup, of
// each row of a product of two non-constant matrices, and of each
// constant-matrix product that lower/cmvm solves (one that may take
// seconds), never per scalar operation. It is a copy: the receiver may keep
// it.
type Progress struct {
	// Kernel is the kernel's name.
	Kernel string
	// Workgroup is the number of workgroups lowered so far, of Workgroups.
	Workgroup, Workgroups int
	// Ops is the number of dais operations emitted so far.
	Ops int
	// Row is the number of rows of the current non-constant matmul
	// multiplied so far, of Rows (0 of 0 outside one).
	Row, Rows int
	// Solved is the number of constant-matrix products of the current
	// matmul solved so far, of Products (0 of 0 outside one).
	Solved, Products int
	// SolveOutputs and SolveInputs are the size of the constant matrix of
	// the product being solved now (0 when none).
	SolveOutputs, SolveInputs int
}

// String is the progress as one line:
// "@mm: workgroup 1/4, 5120 dais ops, cmvm 3/16, solving 64x64" (no
// workgroup for a kernel without a grid).
func (p Progress) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "@%s: ", p.Kernel)
	if p.Workgroups > 1 {
		fmt.Fprintf(&sb, "workgroup %d/%d, ", p.Workgroup, p.Workgroups)
	}
	fmt.Fprintf(&sb, "%d dais ops", p.Ops)
	if p.Rows > 0 {
		fmt.Fprintf(&sb, ", matmul row %d/%d", p.Row, p.Rows)
	}
	if p.Products > 0 {
		fmt.Fprintf(&sb, ", cmvm %d/%d", p.Solved, p.Products)
	}
	if p.SolveOutputs > 0 {
		fmt.Fprintf(&sb, ", solving %dx%d", p.SolveOutputs, p.SolveInputs)
	}
	return sb.String()
}

// report gives the progress to Options.Progress, if any.
func (l *lowerer) report() {
	if l.opts.Progress == nil {
		return
	}
	l.progress.Ops = l.nOps
	l.opts.Progress(l.progress)
}
