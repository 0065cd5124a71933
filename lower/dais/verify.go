package dais

import (
	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes/verify"
)

func init() { verify.RegisterDialect("dais.", checkOp, OpProgram) }

// checkOp is the verifier's rule for dais ops: a dais.program must sit in the
// module body and convert to a valid, portable ALIR program (ToALIR checks
// every op of it, with the failing op's location; see checkPortable); every
// other dais op must sit directly in a dais.program, and dais.output must
// end it.
func checkOp(op *ir.Operation) *diag.Diagnostic {
	parent := op.ParentOp()
	if op.Name == OpProgram {
		if parent != nil && parent.Name != ir.OpModule {
			return diag.Errorf(op.Loc, "'%s' op expects parent op '%s'", op.Name, ir.OpModule)
		}
		if len(op.Operands) != 0 || len(op.Results) != 0 || len(op.Regions) != 1 {
			return diag.Errorf(op.Loc, "'%s' op expects no operands, no results and one region", op.Name)
		}
		if b := op.Body(0); b != nil && len(b.Args) != 0 {
			return diag.Errorf(op.Loc, "'%s' op body must have no arguments", op.Name)
		}
		if _, ok := op.StringAttr("sym_name"); !ok {
			return diag.Errorf(op.Loc, "'%s' op requires string attribute 'sym_name'", op.Name)
		}
		p, err := ToALIR(op)
		if err != nil {
			if d, ok := err.(*diag.Diagnostic); ok {
				return d
			}
			return diag.Errorf(op.Loc, "'%s' op %v", op.Name, err)
		}
		return checkPortable(op, p)
	}
	if parent == nil || parent.Name != OpProgram {
		return diag.Errorf(op.Loc, "'%s' op expects parent op '%s'", op.Name, OpProgram)
	}
	if len(op.Regions) != 0 {
		return diag.Errorf(op.Loc, "'%s' op expects no regions", op.Name)
	}
	if op.Name == OpOutput && op.Block.Terminator() != op {
		return diag.Errorf(op.Loc, "'%s' op must be the last operation in its block", op.Name)
	}
	return nil
}

// checkPortable rejects a program whose non-wrapping op has a type that
// cannot hold its exact result (alir.Program.Portability): ALIR adders,
// negations, products and constants never wrap, so such a program means
// one thing here and another in any tool that sizes wires from the types.
// The diagnostic is located at the first such op.
func checkPortable(prog *ir.Operation, p *alir.Program) *diag.Diagnostic {
	bad, err := p.Portability()
	if err != nil || len(bad) == 0 {
		return nil
	}
	k := 0
	for _, op := range prog.Body(0).Ops {
		if op.Name == OpTable || op.Name == OpOutput {
			continue
		}
		if k == bad[0].Index {
			return diag.Errorf(op.Loc, "'%s' op %s; only dais.input, dais.relu, dais.quantize and dais.mux wrap: quantize explicitly", op.Name, bad[0].Reason)
		}
		k++
	}
	return diag.Errorf(prog.Loc, "'%s' op %v", prog.Name, bad[0])
}
