package ir

import "math/big"

// Builder creates operations at the end of a block (or before a given index),
// so passes can build IR without going through text.
type Builder struct {
	Block *Block
	// Loc is given to every operation the builder creates.
	Loc Location
	// insert is the index before which new ops go; -1 means at the end.
	insert int
}

// NewBuilder appends to the end of b.
func NewBuilder(b *Block) *Builder { return &Builder{Block: b, insert: -1} }

// SetInsertionPoint makes new operations go before the op at index i of the block.
func (b *Builder) SetInsertionPoint(i int) { b.insert = i }

// SetInsertionPointToEnd makes new operations go at the end of the block.
func (b *Builder) SetInsertionPointToEnd() { b.insert = -1 }

// Insert places a detached op at the insertion point.
func (b *Builder) Insert(op *Operation) *Operation {
	op.Block = b.Block
	if b.insert < 0 || b.insert >= len(b.Block.Ops) {
		b.Block.Ops = append(b.Block.Ops, op)
		return op
	}
	b.Block.Ops = append(b.Block.Ops, nil)
	copy(b.Block.Ops[b.insert+1:], b.Block.Ops[b.insert:])
	b.Block.Ops[b.insert] = op
	b.insert++
	return op
}

// Create builds and inserts an operation.
func (b *Builder) Create(name string, operands []*Value, resultTypes []Type, attrs Attrs) *Operation {
	return b.Insert(NewOp(name, b.Loc, operands, resultTypes, attrs))
}

// Binary creates an element-wise binary operation with the given result type.
func (b *Builder) Binary(name string, lhs, rhs *Value, result Type) *Value {
	return b.Create(name, []*Value{lhs, rhs}, []Type{result}, nil).Results[0]
}

// Unary creates an element-wise unary operation (or cast, load, reshape).
func (b *Builder) Unary(name string, x *Value, result Type) *Value {
	return b.Create(name, []*Value{x}, []Type{result}, nil).Results[0]
}

// Cast converts x to type t (no-op if it already has it).
func (b *Builder) Cast(x *Value, t Type) *Value {
	if x.Type == t {
		return x
	}
	return b.Unary(OpCast, x, t)
}

// Cmp creates otir.cmp kind(pred).
func (b *Builder) Cmp(pred string, lhs, rhs *Value, result Type) *Value {
	return b.Create(OpCmp, []*Value{lhs, rhs}, []Type{result}, Attrs{{"kind", &StringAttr{pred}}}).Results[0]
}

// ConstInt creates an integer or index constant.
func (b *Builder) ConstInt(v int64, t Type) *Value {
	return b.ConstBig(big.NewInt(v), t)
}

// ConstBig creates an integer constant of any width.
func (b *Builder) ConstBig(v *big.Int, t Type) *Value {
	return b.Create(OpConstant, nil, []Type{t}, Attrs{{"value", &IntAttr{Value: v, Type: t}}}).Results[0]
}

// ConstFloat creates a float constant.
func (b *Builder) ConstFloat(v float64, t *FloatType) *Value {
	return b.Create(OpConstant, nil, []Type{t}, Attrs{{"value", &FloatAttr{Value: v, Type: t}}}).Results[0]
}

// ConstDense creates a dense tile constant.
func (b *Builder) ConstDense(a *DenseAttr) *Value {
	return b.Create(OpConstant, nil, []Type{a.Type}, Attrs{{"value", a}}).Results[0]
}

// ProgramID creates otir.program_id axis(n).
func (b *Builder) ProgramID(axis int64) *Value {
	return b.Create(OpProgramID, nil, []Type{Index()}, Attrs{{"axis", I64(axis)}}).Results[0]
}

// Yield creates scf.yield.
func (b *Builder) Yield(vals ...*Value) *Operation { return b.Create(OpYield, vals, nil, nil) }

// Return creates otir.return.
func (b *Builder) Return() *Operation { return b.Create(OpReturn, nil, nil, nil) }

// Kernel creates an otir.kernel in a module body and returns it and its entry
// block (whose arguments are the kernel's arguments).
func (b *Builder) Kernel(name string, argTypes []Type, grid []int64) (*Operation, *Block) {
	attrs := Attrs{{"function_type", &FunctionType{Inputs: argTypes}}, {"sym_name", &StringAttr{name}}}
	if grid != nil {
		g := &ArrayAttr{}
		for _, n := range grid {
			g.Elems = append(g.Elems, I64(n))
		}
		attrs.Set("grid", g)
	}
	op := b.Create(OpKernel, nil, nil, attrs)
	body := op.NewRegion(argTypes...)
	for _, a := range body.Args {
		a.Loc = b.Loc
	}
	return op, body
}

// For creates scf.for with iteration arguments; it returns the op and its body
// block (argument 0 is the induction variable). The caller fills the body and
// ends it with scf.yield.
func (b *Builder) For(lb, ub, step *Value, inits ...*Value) (*Operation, *Block) {
	types := make([]Type, len(inits))
	for i, v := range inits {
		types[i] = v.Type
	}
	operands := append([]*Value{lb, ub, step}, inits...)
	op := b.Create(OpFor, operands, types, nil)
	body := op.NewRegion(append([]Type{Index()}, types...)...)
	return op, body
}

// If creates scf.if with result types; it returns the op and its then and else
// blocks (else is nil when withElse is false).
func (b *Builder) If(cond *Value, resultTypes []Type, withElse bool) (*Operation, *Block, *Block) {
	op := b.Create(OpIf, []*Value{cond}, resultTypes, nil)
	then := op.NewRegion()
	var els *Block
	if withElse {
		els = op.NewRegion()
	} else {
		op.Regions = append(op.Regions, &Region{Parent: op})
	}
	return op, then, els
}

// SliceAttrs builds the static_offsets / static_sizes / static_strides
// attributes of a slice op; offsets equal to DynamicOffset take dynamic operands.
func SliceAttrs(offsets, sizes, strides []int64) Attrs {
	return Attrs{
		{"static_offsets", &DenseI64Attr{offsets}},
		{"static_sizes", &DenseI64Attr{sizes}},
		{"static_strides", &DenseI64Attr{strides}},
	}
}
