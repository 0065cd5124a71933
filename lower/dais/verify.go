package dais

import (
	"otir/diag"
	"otir/ir"
	"otir/passes/verify"
)

func init() { verify.RegisterDialect("dais.", checkOp, OpProgram) }

// checkOp is the verifier's rule for dais ops: a dais.program must sit in the
// module body and convert to a valid ALIR program (ToALIR checks every op of
// it, with the failing op's location); every other dais op must sit directly
// in a dais.program, and dais.output must end it.
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
		if _, err := ToALIR(op); err != nil {
			if d, ok := err.(*diag.Diagnostic); ok {
				return d
			}
			return diag.Errorf(op.Loc, "'%s' op %v", op.Name, err)
		}
		return nil
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
