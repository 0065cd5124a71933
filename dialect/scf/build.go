package scf

import "github.com/otir-dev/otir/ir"

// Builders of the scf operations, at a builder's insertion point.

// Yield creates scf.yield.
func Yield(b *ir.Builder, vals ...*ir.Value) *ir.Operation { return b.Create(OpYield, vals, nil, nil) }

// For creates scf.for with iteration arguments; it returns the op and its body
// block (argument 0 is the induction variable). The caller fills the body and
// ends it with scf.yield.
func For(b *ir.Builder, lb, ub, step *ir.Value, inits ...*ir.Value) (*ir.Operation, *ir.Block) {
	types := make([]ir.Type, len(inits))
	for i, v := range inits {
		types[i] = v.Type
	}
	operands := append([]*ir.Value{lb, ub, step}, inits...)
	op := b.Create(OpFor, operands, types, nil)
	body := op.NewRegion(append([]ir.Type{ir.Index()}, types...)...)
	return op, body
}

// If creates scf.if with result types; it returns the op and its then and else
// blocks (else is nil when withElse is false).
func If(b *ir.Builder, cond *ir.Value, resultTypes []ir.Type, withElse bool) (*ir.Operation, *ir.Block, *ir.Block) {
	op := b.Create(OpIf, []*ir.Value{cond}, resultTypes, nil)
	then := op.NewRegion()
	var els *ir.Block
	if withElse {
		els = op.NewRegion()
	} else {
		op.Regions = append(op.Regions, &ir.Region{Parent: op})
	}
	return op, then, els
}
