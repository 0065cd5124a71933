package verify

import (
	"otir/diag"
	"otir/ir"
)

// checkDominance requires each operand to be defined earlier in the same block
// or in an enclosing block; a value defined inside a region is not visible
// outside it, and an op's results are not visible inside its own regions.
func (v *verifier) checkDominance(op *ir.Operation, parent *ir.Block) *diag.Diagnostic {
	for i, x := range op.Operands {
		blk := x.Block
		if x.Def != nil {
			blk = x.Def.Block
		}
		if x.Def != nil && blk == parent && v.recent(parent, x.Def) {
			continue
		}
		if v.inScope(blk) && (x.Def == nil || v.defined.has(x.Def)) {
			continue
		}
		d := opError(op, "operand #%d does not dominate this use", i)
		if x.Def == nil {
			return d.Note(x.Loc, "operand defined as a block argument (of a region that does not enclose this use)")
		}
		return d.Note(x.Def.Loc, "operand defined here (%s)", v.relation(op, x.Def, parent))
	}
	return nil
}

// window is how many ops before the current one recent looks at.
const window = 8

// recent reports whether def is one of the few ops just before the current
// one in block b: most operands are, and this avoids a hash lookup for them.
func (v *verifier) recent(b *ir.Block, def *ir.Operation) bool {
	if v.pos > len(b.Ops) {
		return false
	}
	for i := v.pos - 1; i >= 0 && i >= v.pos-window; i-- {
		if b.Ops[i] == def {
			return true
		}
	}
	return false
}

// inScope reports whether b is one of the blocks enclosing the current op.
func (v *verifier) inScope(b *ir.Block) bool {
	if b == nil {
		return false
	}
	for i := len(v.scopes) - 1; i >= 0; i-- {
		if v.scopes[i] == b {
			return true
		}
	}
	return false
}

// relation describes where def is relative to the use at op, as MLIR's
// dominance note does. Only called on the failure path.
func (v *verifier) relation(op, def *ir.Operation, parent *ir.Block) string {
	switch {
	case def == op:
		return "the operation uses its own result"
	case parent != nil && def.Block == parent:
		return "op in the same block"
	case v.inScope(def.Block):
		return "op in a parent region"
	}
	for b, n := def.Block, 0; b != nil && n < maxDepth; n++ {
		p := b.ParentOp()
		if p == op {
			return "op in a child region"
		}
		if p == nil {
			break
		}
		b = p.Block
	}
	return "op is neither in a parent nor in a child region"
}
