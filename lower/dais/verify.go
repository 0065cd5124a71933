package dais

import (
	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// verifyOp is the Verify hook of every dais op (set in ops.go's init). The
// records declare variadic operands, results and regions, as ToALIR is the
// dialect's form check: a dais.program must sit in the module body and
// convert to a valid, portable ALIR program (ToALIR checks every op of it,
// with the failing op's location; see checkPortable; a program in dense
// form is checked without making its ops); every other dais op
// must sit directly in a dais.program, and dais.output must end it.
func verifyOp(op *ir.Operation, ctx *ir.VerifyContext) error {
	if d := checkOp(op, ctx.Parent(op)); d != nil {
		return d
	}
	return nil
}

// checkOp checks op, held by a region of parent.
func checkOp(op *ir.Operation, parent *ir.Operation) *diag.Diagnostic {
	if op.Name == OpProgram {
		if parent != nil && parent.Name != ir.OpModule {
			return diag.OpErrorf(op, "expects parent op '%s'", ir.OpModule)
		}
		if len(op.Operands) != 0 || len(op.Results) != 0 || len(op.Regions) != 1 {
			return diag.OpErrorf(op, "expects no operands, no results and one region")
		}
		if b := op.Body(0); b != nil && len(b.Args) != 0 {
			return diag.OpErrorf(op, "body must have no arguments")
		}
		if _, ok := op.StringAttr("sym_name"); !ok {
			return diag.OpErrorf(op, "requires string attribute 'sym_name'")
		}
		if d := DenseOf(op); d != nil {
			if b := op.Body(0); b != nil && len(b.Ops) != 0 {
				return diag.OpErrorf(op, "in dense form, must have an empty body")
			}
			if d.verified != nil && d.verified.same(d.P) {
				return nil // as proved before (verified.go)
			}
			// Portability validates d.P first: one analysis for both.
			bad, err := d.P.Portability()
			if err != nil {
				return d.ErrorAt(op, err)
			}
			if e := portabilityError(op, d, d.P, bad); e != nil {
				return e
			}
			d.verified = verifiedCopy(d.P)
			return nil
		}
		p, err := ToALIR(op)
		if err != nil {
			if d, ok := err.(*diag.Diagnostic); ok {
				return d
			}
			return diag.OpErrorf(op, "%v", err)
		}
		return checkPortable(op, nil, p)
	}
	if parent == nil || parent.Name != OpProgram {
		return diag.OpErrorf(op, "expects parent op '%s'", OpProgram)
	}
	if len(op.Regions) != 0 {
		return diag.OpErrorf(op, "expects no regions")
	}
	if op.Name == OpOutput && op.Block.Terminator() != op {
		return diag.OpErrorf(op, "must be the last operation in its block")
	}
	return nil
}

// checkPortable rejects a program whose non-wrapping op has a type that
// cannot hold its exact result (alir.Program.Portability): ALIR adders,
// negations, products and constants never wrap, so such a program means
// one thing here and another in any tool that sizes wires from the types.
// The diagnostic is located at the first such op.
func checkPortable(prog *ir.Operation, d *Dense, p *alir.Program) *diag.Diagnostic {
	bad, err := p.Portability()
	if err != nil {
		return nil
	}
	return portabilityError(prog, d, p, bad)
}

// portabilityError is checkPortable's diagnostic for the ops bad that
// alir.Program.Portability found not portable (nil when there are none).
func portabilityError(prog *ir.Operation, d *Dense, p *alir.Program, bad []alir.NonPortable) *diag.Diagnostic {
	if len(bad) == 0 {
		return nil
	}
	if d != nil {
		if i := bad[0].Index; i >= 0 && i < len(p.Ops) {
			return diag.Errorf(d.Loc(prog, i), "'%s' op %s; only dais.input, dais.relu, dais.quantize and dais.mux wrap: quantize explicitly", byOpcode[p.Ops[i].Opcode].nameOr(), bad[0].Reason)
		}
		return diag.OpErrorf(prog, "%v", bad[0])
	}
	k := 0
	for _, op := range prog.Body(0).Ops {
		if op.Name == OpTable || op.Name == OpOutput {
			continue
		}
		if k == bad[0].Index {
			return diag.OpErrorf(op, "%s; only dais.input, dais.relu, dais.quantize and dais.mux wrap: quantize explicitly", bad[0].Reason)
		}
		k++
	}
	return diag.OpErrorf(prog, "%v", bad[0])
}
