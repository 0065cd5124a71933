package passes

import (
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// ReplaceTopLevel replaces, in place, every operation of the module's body
// that match accepts by the operation lower builds from it (a lowering of
// whole kernels or graphs: lower-tiles, nn-to-otir). Diagnostics of every
// operation that cannot be lowered are collected and returned together; any
// other error stops at once.
func ReplaceTopLevel(m *ir.Module, match func(*ir.Operation) bool, lower func(*ir.Operation) (*ir.Operation, error)) error {
	var errs diag.List
	body := m.Body()
	for i, op := range body.Ops {
		if !match(op) {
			continue
		}
		repl, err := lower(op)
		if err != nil {
			if d, ok := err.(*diag.Diagnostic); ok {
				errs = append(errs, d)
				continue
			}
			return err
		}
		repl.Block = body
		body.Ops[i] = repl
		op.Block = nil
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}
