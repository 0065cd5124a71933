package scf

import (
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// forBoundNames name scf.for's first three operands in messages.
var forBoundNames = [3]string{"lower bound", "upper bound", "step"}

// checkFor: index bounds and step; one result and one body argument (after the
// index induction variable) per iter_args operand, all of the same types; the
// body ends with scf.yield (whose operands checkYield matches to the results).
func checkFor(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	inits := op.Operands[3:]
	if len(op.Results) != len(inits) {
		return diag.OpErrorf(op, "mismatch in number of loop-carried values (%d) and defined values (%d)", len(inits), len(op.Results))
	}
	for i, x := range op.Operands[:3] {
		if !isIndex(x.Type) {
			return diag.OpErrorf(op, "%s must be 'index', but got '%s'", forBoundNames[i], diag.TypeStr(x.Type))
		}
	}
	body := op.Body(0)
	if len(body.Args) != len(inits)+1 {
		return diag.OpErrorf(op, "expects the body to have %s (the induction variable and one per iter_args operand), but it has %d", diag.Plural(len(inits)+1, "argument"), len(body.Args))
	}
	if !isIndex(body.Args[0].Type) {
		return diag.OpErrorf(op, "induction variable must be 'index', but got '%s'", diag.TypeStr(body.Args[0].Type))
	}
	for i, x := range inits {
		if a := body.Args[i+1].Type; a != x.Type {
			return diag.OpErrorf(op, "types mismatch between iter_args operand #%d ('%s') and its region argument ('%s')", i, diag.TypeStr(x.Type), diag.TypeStr(a))
		}
		if r := op.Results[i].Type; r != x.Type {
			return diag.OpErrorf(op, "types mismatch between iter_args operand #%d ('%s') and result #%d ('%s')", i, diag.TypeStr(x.Type), i, diag.TypeStr(r))
		}
	}
	return checkTerminator(op, body, OpYield)
}

// checkIf: a scalar i1 condition; regions without arguments; an else region
// when there are results; each region ends with scf.yield.
func checkIf(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	if c := op.Operands[0].Type; !isBool(c) {
		return diag.OpErrorf(op, "condition must be a scalar i1, but got '%s'", diag.TypeStr(c))
	}
	if len(op.Results) > 0 && len(op.Regions[1].Blocks) == 0 {
		return diag.OpErrorf(op, "must have an else region when it has results")
	}
	for i, r := range op.Regions {
		for _, b := range r.Blocks {
			if len(b.Args) != 0 {
				return diag.OpErrorf(op, "region #%d must have no arguments, but has %d", i, len(b.Args))
			}
			if d := checkTerminator(op, b, OpYield); d != nil {
				return d
			}
		}
	}
	return nil
}

// checkYield: the operands match the parent scf.for's or scf.if's results in
// number and type. (Placement is the verifier's, from the record's Parents and Terminator.) Under an scf.for
// whose iter_args and results disagree the loop is reported instead, so that
// the yield does not repeat its error.
func checkYield(op *ir.Operation, ctx *ir.VerifyContext) *diag.Diagnostic {
	p := ctx.Parent(op)
	if p == nil || (p.Name == OpFor && !loopCarriedAgree(p)) {
		return nil
	}
	if len(op.Operands) != len(p.Results) {
		return diag.OpErrorf(op, "number of operands (%d) does not match the number of results of its parent '%s' (%d)", len(op.Operands), p.Name, len(p.Results))
	}
	for i, x := range op.Operands {
		if r := p.Results[i]; r == nil || x.Type != r.Type {
			var rt ir.Type
			if r != nil {
				rt = r.Type
			}
			return diag.OpErrorf(op, "types mismatch between yield op and its parent: operand #%d has type '%s' but the parent '%s' result #%d has type '%s'", i, diag.TypeStr(x.Type), p.Name, i, diag.TypeStr(rt))
		}
	}
	return nil
}

// loopCarriedAgree reports whether an scf.for has one result per iter_args
// operand, of the same type.
func loopCarriedAgree(op *ir.Operation) bool {
	if len(op.Operands) < 3 || len(op.Results) != len(op.Operands)-3 {
		return false
	}
	for i, r := range op.Results {
		x := op.Operands[i+3]
		if r == nil || x == nil || r.Type != x.Type {
			return false
		}
	}
	return true
}
