package ir

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
