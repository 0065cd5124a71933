package scf

import (
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// verifiers holds each op's Verify hook, by name: the op's own semantic rules,
// run by the verifier once the generic checks of its record passed (operand,
// result and region counts; scf.yield's parents and its place at the end of
// its block: Parents and the Terminator trait).
var verifiers = map[string]func(*ir.Operation, *ir.VerifyContext) error{
	OpFor:   hook(checkFor),
	OpIf:    hook(checkIf),
	OpYield: hook(checkYield),
}

// hook makes a Verify hook of a rule: a nil *diag.Diagnostic must become a
// nil error, not an error holding a nil pointer.
func hook(rule func(*ir.Operation, *ir.VerifyContext) *diag.Diagnostic) func(*ir.Operation, *ir.VerifyContext) error {
	return func(op *ir.Operation, ctx *ir.VerifyContext) error {
		if d := rule(op, ctx); d != nil {
			return d
		}
		return nil
	}
}

// checkTerminator requires block b of op's region to end with the op named term.
func checkTerminator(op *ir.Operation, b *ir.Block, term string) *diag.Diagnostic {
	last := b.Terminator()
	if last == nil {
		return diag.OpErrorf(op, "expects regions to end with '%s', but the block is empty", term)
	}
	if last.Name != term {
		return diag.OpErrorf(op, "expects regions to end with '%s', found '%s'", term, last.Name)
	}
	return nil
}

// isIndex reports whether t is the index type.
func isIndex(t ir.Type) bool {
	x, ok := t.(*ir.IndexType)
	return ok && x != nil
}

// isBool reports whether t is i1.
func isBool(t ir.Type) bool { return t == ir.Type(ir.Bool()) }
