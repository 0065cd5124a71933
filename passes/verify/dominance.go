package verify

import (
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// checkDominance requires each operand to be defined earlier in the same block
// or in an enclosing block; a value defined inside a region is not visible
// outside it, and an op's results are not visible inside its own regions.
func (v *verifier) checkDominance(op *ir.Operation, parent *ir.Block) *diag.Diagnostic {
	for i, x := range op.Operands {
		if v.dominates(x, parent) {
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

// dominates reports whether x is visible at the op being checked, held by
// block parent: x is an argument of an enclosing block, or the result of an op
// that comes before it, or before its ancestor, in an enclosing block. As in
// MLIR, positions are the ops' orders in their blocks (see number).
func (v *verifier) dominates(x *ir.Value, parent *ir.Block) bool {
	def := x.Def
	if def == nil {
		return v.scope(x.Block) >= 0
	}
	if v.defined != nil { // irregular IR
		return def.Block == parent && v.recent(parent, def) || v.scope(def.Block) >= 0 && v.defined.has(def)
	}
	i := v.scope(def.Block)
	order, ok := def.Order(v.stamp)
	return i >= 0 && ok && order < v.anc[i]
}

// window is how many ops before the current one recent looks at.
const window = 8

// recent reports whether def is one of the few ops just before the current
// one in block b. On irregular IR it comes before the lookup in v.defined,
// keeping that walk's answers (an op reached twice may be in the window but
// not yet in the set).
func (v *verifier) recent(b *ir.Block, def *ir.Operation) bool {
	if b == nil || len(v.anc) == 0 {
		return false
	}
	pos := v.anc[len(v.anc)-1]
	for i := min(pos, len(b.Ops)) - 1; i >= 0 && i >= pos-window; i-- {
		if b.Ops[i] == def {
			return true
		}
	}
	return false
}

// scope returns the index of b in v.scopes, or -1 if b does not enclose the
// current op.
func (v *verifier) scope(b *ir.Block) int {
	if b == nil {
		return -1
	}
	for i := len(v.scopes) - 1; i >= 0; i-- {
		if v.scopes[i] == b {
			return i
		}
	}
	return -1
}

// relation describes where def is relative to the use at op, as MLIR's
// dominance note does. Only called on the failure path.
func (v *verifier) relation(op, def *ir.Operation, parent *ir.Block) string {
	switch {
	case def == op:
		return "the operation uses its own result"
	case parent != nil && def.Block == parent:
		return "op in the same block"
	case v.scope(def.Block) >= 0:
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
