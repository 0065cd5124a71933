package ir

import (
	"fmt"
	"iter"
)

// Location is a position in a source file (1-based line and column). The zero
// Location means "unknown". A location the input wrote that is not a plain
// "file":line:col (a range, name, call site, fused or unknown location) has a
// negative Col that numbers it in a table of such locations (see LocationOf),
// so that a Location stays three words.
type Location struct {
	File      string
	Line, Col int
}

func (l Location) String() string {
	if m := l.MLIR(); m != nil {
		if s, ok := m.Shown(); ok {
			return s.String()
		}
		return LocText(l)
	}
	if l.Line == 0 {
		return "loc(unknown)"
	}
	return fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Col)
}

// Value is an SSA value: an operation's result or a block's argument.
type Value struct {
	Type Type
	// Def is the defining operation, or nil for a block argument.
	Def *Operation
	// Block owns the value when it is a block argument.
	Block *Block
	// Index is the result number or the argument number.
	Index int
	// Name is the name the value had in the source ("c16" for %c16), a hint
	// for diagnostics and, where unambiguous, for the printer. May be empty.
	Name string
	// Loc is where the value is defined (for block arguments, where they are declared).
	Loc Location

	// The printer's name for the value, valid while printGen matches the
	// printer's scope (see printer.nameScope): a number, an argument number
	// or an index into the scope's hint names.
	printGen  uint32
	printNum  int32
	printKind uint8
}

// Operation is one OTIR operation, in the style of MLIR: a name, operands,
// results, an attribute dictionary, regions and a source location.
type Operation struct {
	Name     string
	Operands []*Value
	Results  []*Value
	Attrs    Attrs
	Regions  []*Region
	Loc      Location
	// Block is the block that holds the operation (nil for a detached op).
	Block *Block

	// The op's index in Block as of the numbering stamped orderStamp (see
	// NumberBlock); 8 bytes that keep the struct in the same size class.
	order      uint32
	orderStamp uint32
}

// Block is a list of operations with arguments. OTIR regions have one block.
type Block struct {
	Args   []*Value
	Ops    []*Operation
	Parent *Region
}

// Region is a list of blocks owned by an operation.
type Region struct {
	Blocks []*Block
	Parent *Operation
}

// Result returns the i-th result.
func (op *Operation) Result(i int) *Value { return op.Results[i] }

// Attr returns the named attribute or nil.
func (op *Operation) Attr(name string) Attr { return op.Attrs.Get(name) }

// SetAttr adds or replaces an attribute.
func (op *Operation) SetAttr(name string, a Attr) { op.Attrs.Set(name, a) }

// IntAttr returns the named integer attribute as an int64.
func (op *Operation) IntAttr(name string) (int64, bool) {
	if a, ok := op.Attr(name).(*IntAttr); ok {
		return a.Int64()
	}
	return 0, false
}

// StringAttr returns the named string (or keyword) attribute.
func (op *Operation) StringAttr(name string) (string, bool) {
	if a, ok := op.Attr(name).(*StringAttr); ok {
		return a.Value, true
	}
	return "", false
}

// ParentOp is the operation whose region holds this one, or nil.
func (op *Operation) ParentOp() *Operation {
	if op.Block == nil || op.Block.Parent == nil {
		return nil
	}
	return op.Block.Parent.Parent
}

// Body is the single block of region i.
func (op *Operation) Body(i int) *Block {
	if i >= len(op.Regions) || len(op.Regions[i].Blocks) == 0 {
		return nil
	}
	return op.Regions[i].Blocks[0]
}

// OperandTypes lists the operands' types.
func (op *Operation) OperandTypes() []Type {
	ts := make([]Type, len(op.Operands))
	for i, v := range op.Operands {
		if v != nil {
			ts[i] = v.Type
		}
	}
	return ts
}

// ResultTypes lists the results' types.
func (op *Operation) ResultTypes() []Type {
	ts := make([]Type, len(op.Results))
	for i, v := range op.Results {
		if v != nil {
			ts[i] = v.Type
		}
	}
	return ts
}

// Walk calls fn on op and every operation nested in its regions, in order
// (pre-order). Returning false from fn skips the op's regions.
func (op *Operation) Walk(fn func(*Operation) bool) {
	if op == nil || !fn(op) {
		return
	}
	for b := range op.Blocks() {
		for _, o := range b.Ops {
			o.Walk(fn)
		}
	}
}

// Blocks yields the blocks of op's regions in order, passing over a nil
// region or block (which only a faulty pass makes; the verifier reports it).
// It is the one loop over an op's blocks: Walk, the printer and the passes
// that keep their own recursion (the verifier's bounded one) use it.
func (op *Operation) Blocks() iter.Seq[*Block] {
	return func(yield func(*Block) bool) {
		for _, r := range op.Regions {
			if r == nil {
				continue
			}
			for _, b := range r.Blocks {
				if b != nil && !yield(b) {
					return
				}
			}
		}
	}
}

// NewRegion creates a region with one block whose arguments have the given
// types, attaches it to op and returns the block.
func (op *Operation) NewRegion(argTypes ...Type) *Block {
	r := &Region{Parent: op}
	b := &Block{Parent: r}
	for i, t := range argTypes {
		b.Args = append(b.Args, &Value{Type: t, Block: b, Index: i})
	}
	r.Blocks = []*Block{b}
	op.Regions = append(op.Regions, r)
	return b
}

// AddArg appends a block argument.
func (b *Block) AddArg(t Type, loc Location) *Value {
	v := &Value{Type: t, Block: b, Index: len(b.Args), Loc: loc}
	b.Args = append(b.Args, v)
	return v
}

// Append adds op at the end of the block.
func (b *Block) Append(op *Operation) {
	op.Block = b
	b.Ops = append(b.Ops, op)
}

// ParentOp is the operation owning the block's region.
func (b *Block) ParentOp() *Operation {
	if b.Parent == nil {
		return nil
	}
	return b.Parent.Parent
}

// Terminator is the last operation of the block, or nil.
func (b *Block) Terminator() *Operation {
	if len(b.Ops) == 0 {
		return nil
	}
	return b.Ops[len(b.Ops)-1]
}

// NewOp creates a detached operation with results of the given types.
func NewOp(name string, loc Location, operands []*Value, resultTypes []Type, attrs Attrs) *Operation {
	op := &Operation{Name: name, Operands: operands, Attrs: attrs, Loc: loc}
	if len(resultTypes) > 0 {
		vals := make([]Value, len(resultTypes)) // one allocation for all results
		op.Results = make([]*Value, len(resultTypes))
		for i, t := range resultTypes {
			vals[i] = Value{Type: t, Def: op, Index: i, Loc: loc}
			op.Results[i] = &vals[i]
		}
	}
	return op
}

// Module is a parsed OTIR file: a builtin.module whose body holds kernels.
type Module struct {
	Op *Operation
	// AllowUnregistered lets the module hold operations of unregistered
	// names (opaque operations), as MLIR's context option of the same name:
	// the verifier accepts them and checks only their structure.
	AllowUnregistered bool
}

// NewModule creates an empty module.
func NewModule(loc Location) *Module {
	op := NewOp("builtin.module", loc, nil, nil, nil)
	op.NewRegion()
	return &Module{Op: op}
}

// Body is the module's block.
func (m *Module) Body() *Block { return m.Op.Body(0) }

// TopLevel lists the operations named name in the module's body, in order
// (the kernels, graphs or programs a module holds).
func (m *Module) TopLevel(name string) []*Operation {
	var ops []*Operation
	for _, op := range m.Body().Ops {
		if op.Name == name {
			ops = append(ops, op)
		}
	}
	return ops
}

// Walk visits every operation under the module (not the module op itself).
func (m *Module) Walk(fn func(*Operation) bool) {
	m.Op.Walk(func(op *Operation) bool {
		return op == m.Op || fn(op)
	})
}

// KernelName is the symbol name of an otir.kernel.
func KernelName(k *Operation) string {
	s, _ := k.StringAttr("sym_name")
	return s
}

// KernelGrid is the kernel's launch grid ([1] if absent).
func KernelGrid(k *Operation) []int64 {
	arr, ok := k.Attr("grid").(*ArrayAttr)
	if !ok {
		return []int64{1}
	}
	g := make([]int64, 0, len(arr.Elems))
	for _, e := range arr.Elems {
		if ia, ok := e.(*IntAttr); ok {
			v, _ := ia.Int64()
			g = append(g, v)
		}
	}
	return g
}
