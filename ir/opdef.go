package ir

// The operation record, in the spirit of MLIR's ODS: everything the generic
// parser, printer, verifier, documentation and passes need to know about one
// operation. Dialects fill one table of these and register it (RegisterOp);
// nothing else in the project describes an operation's form.

// Arity says how many values an operand or result group holds.
type Arity uint8

const (
	One      Arity = iota // exactly one value
	Optional              // zero or one value
	Variadic              // any number of values
)

// ArgDef declares one operand or result group of an operation.
type ArgDef struct {
	Name  string
	Arity Arity
	// Doc says what the values must be ("#global or #workgroup tile",
	// "index"); the verifier hook checks it.
	Doc string
}

// AttrKind is the kind of value an attribute holds.
type AttrKind uint8

const (
	AttrAny      AttrKind = iota // any attribute
	AttrInt                      // an integer (IntAttr)
	AttrString                   // a string (StringAttr); with Enum, one of its words
	AttrDenseI64                 // array<i64: ...> (DenseI64Attr)
	AttrConstant                 // a typed scalar or dense constant (IntAttr, FloatAttr, DenseAttr)
	AttrFuncType                 // a function type (FunctionType)
	AttrArray                    // an array [...] (ArrayAttr)
)

// AttrDef declares one attribute of an operation.
type AttrDef struct {
	Name     string
	Kind     AttrKind
	Enum     []string // the words an AttrString may hold (nil: any)
	Optional bool
	Doc      string
}

// Trait is a property of an operation that generic code relies on.
type Trait uint32

const (
	// Terminator: the op ends its block.
	Terminator Trait = 1 << iota
	// Elementwise: the op applies a scalar function to each element of its
	// operands (broadcasting scalars) and yields one value per element.
	Elementwise
	// IsolatedFromAbove: the op's regions use no value defined outside them.
	IsolatedFromAbove
	// SingleBlock: each region has at most one block.
	SingleBlock
	// NoTerminator: the op's blocks need no terminator.
	NoTerminator
	// TopLevel: the op may appear in a module's body.
	TopLevel
	// Extension: the op is the project's, beyond the specification.
	Extension
)

// OpDef is the record of one operation.
type OpDef struct {
	Name    string
	Summary string // one line, for --list-ops and the docs
	Syntax  Syntax // being replaced by Format

	Operands []ArgDef
	Results  []ArgDef
	Attrs    []AttrDef
	// Regions names the op's regions, in order.
	Regions []string
	Traits  Trait

	// Effect is the op's own effect (not counting nested ops) when it does
	// not depend on the operands; EffectOf, when set, decides instead.
	Effect   Effect
	EffectOf func(op *Operation) Effect

	// Format is the op's assembly format: one declarative description that
	// both the parser and the printer read (docs/assembly-format.md). Empty:
	// the op has no pretty form and always prints generically.
	Format string

	// Verify checks the op's own semantic rules once the generic checks
	// (registration, operand/result/region counts and attribute kinds from
	// the declarations above, placement, dominance) passed. It returns the
	// first rule broken (a *diag.Diagnostic), or nil. It may run concurrently
	// on the ops of a block, so it only reads the IR.
	Verify func(op *Operation) error

	// Typing names the op's rule in the typing package (result type
	// inference and promotion); empty when the op has no typing rule.
	Typing string

	// Extension marks operations the project adds beyond the specification
	// (kept while Traits&Extension replaces it).
	Extension bool
	// Terminator marks an op that ends its block (kept while
	// Traits&Terminator replaces it).
	Terminator bool

	// asm is Format compiled (RegisterOp).
	asm *Format
}

// Has reports whether the op has trait t.
func (d *OpDef) Has(t Trait) bool { return d.Traits&t != 0 }

// Operand returns the declaration of the named operand group, or nil.
func (d *OpDef) Operand(name string) *ArgDef {
	for i := range d.Operands {
		if d.Operands[i].Name == name {
			return &d.Operands[i]
		}
	}
	return nil
}

// Attr returns the declaration of the named attribute, or nil.
func (d *OpDef) Attr(name string) *AttrDef {
	for i := range d.Attrs {
		if d.Attrs[i].Name == name {
			return &d.Attrs[i]
		}
	}
	return nil
}
