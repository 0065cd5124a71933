package ir

import "strings"

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
	AttrFloat                    // a float (FloatAttr): 1.0e-05
)

// AttrDef declares one attribute of an operation.
type AttrDef struct {
	Name string
	Kind AttrKind
	Enum []string // the words an AttrString may hold (nil: any)
	// EnumName names the words in diagnostics ("comparison kind"); empty:
	// the attribute's name.
	EnumName string
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
	// Symbol: the op defines a symbol, named by its sym_name attribute, in
	// the symbol table of the module that holds it (MLIR's Symbol); the
	// verifier reports a redefinition.
	Symbol
	// VariadicRegions: the op takes any number of regions (MLIR's
	// VariadicRegion); Regions names them for the docs and the Verify hook
	// checks them.
	VariadicRegions
	// SignedOperands: the op reads its integer operands' bits in their own
	// width as two's complement (div_s, rem_s; shr_s's shifted value), not
	// their values.
	SignedOperands
	// UnsignedOperands: the op reads its integer operands' bits in their own
	// width as unsigned (div_u, rem_u; shr_u's shifted value).
	UnsignedOperands
)

// OpDef is the record of one operation.
type OpDef struct {
	Name    string
	Summary string // one line, for --list-ops and the docs

	Operands []ArgDef
	Results  []ArgDef
	Attrs    []AttrDef
	// Regions names the op's regions, in order. Each holds exactly one
	// block, except those named in EmptyRegions, which may hold none (scf.if's
	// else region: MLIR's MaxSizedRegion<1>).
	Regions      []string
	EmptyRegions []string
	Traits       Trait
	// Parents, when set, lists the ops whose regions may hold this op (MLIR's
	// HasParent and ParentOneOf).
	Parents []string

	// Effect is the op's own effect (not counting nested ops) when it does
	// not depend on the operands; EffectOf, when set, decides instead.
	Effect   Effect
	EffectOf func(op *Operation) Effect

	// Format is the op's assembly format: one declarative description that
	// both the parser and the printer read (docs/assembly-format.md). Empty:
	// the op has no pretty form and always prints generically.
	Format string

	// Verify checks the op's own semantic rules once the generic checks
	// (registration, operand/result/region counts and required attribute
	// kinds from the declarations above, placement, dominance) passed, so it
	// may index the declared operands, results, regions and attributes
	// freely. It returns the first rule broken (a *diag.Diagnostic; any other
	// error is reported as "'name' op <error>" at the op), or nil. It may run
	// concurrently on the ops of a block, so it only reads the IR. ctx tells
	// it where the op sits; it is nil when the caller has no walk of its own
	// (ctx's methods then follow the op's links).
	Verify func(op *Operation, ctx *VerifyContext) error

	// ResultName, when set, gives the op's single result a readable SSA
	// name (%c16, %true, %pid: MLIR's OpAsmOpInterface).
	ResultName func(op *Operation) string

	// Infer, when set, computes the op's result types when its text does
	// not write them (MLIR's InferTypeOpInterface): the parser calls it, and
	// the printer omits a result type it gives back.
	Infer InferFunc

	// ImplicitTerminator, when set, names the op that ends each of the op's
	// regions implicitly (MLIR's SingleBlockImplicitTerminator): the printer
	// elides an operand-less one and the parser adds it back.
	ImplicitTerminator string

	// Typing names the op's rule in the typing package (result type
	// inference and promotion); empty when the op has no typing rule.
	Typing string

	// EndsBlock marks an op that ends its block (IsTerminator) but checks its
	// own place: the dais dialect's dais.output, whose hook reports a
	// misplaced output in its own words and order. Other terminators have
	// the Terminator trait, which the verifier checks generically.
	EndsBlock bool

	// asm is Format compiled (RegisterOp).
	asm *Format
	// index is the op's dense number, in order of registration (Index).
	index int
}

// Index is the op's dense number, 0 to NumOps()-1, given at registration:
// tables keyed by operation (ir/optable) index a slice with it instead of
// hashing the name.
func (d *OpDef) Index() int { return d.index }

// implicitTerminator is the implicit terminator of op's regions, from its
// record ("" for none, or for a nil or unregistered op).
func implicitTerminator(op *Operation) string {
	if op == nil {
		return ""
	}
	if d := LookupOp(op.Name); d != nil {
		return d.ImplicitTerminator
	}
	return ""
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

// OperandCounts is the fewest and the most operands the op takes, from its
// operand groups' arities (max < 0: no bound).
func (d *OpDef) OperandCounts() (min, max int) {
	return counts(d.Operands)
}

// ResultCounts is the fewest and the most results the op has (max < 0: no
// bound).
func (d *OpDef) ResultCounts() (min, max int) {
	return counts(d.Results)
}

func counts(groups []ArgDef) (min, max int) {
	for _, g := range groups {
		switch g.Arity {
		case One:
			min++
			if max >= 0 {
				max++
			}
		case Optional:
			if max >= 0 {
				max++
			}
		case Variadic:
			max = -1
		}
	}
	return min, max
}

// MayBeEmpty reports whether region #i may hold no block.
func (d *OpDef) MayBeEmpty(i int) bool {
	if i < 0 || i >= len(d.Regions) {
		return false
	}
	for _, n := range d.EmptyRegions {
		if n == d.Regions[i] {
			return true
		}
	}
	return false
}

// VerifyContext is what the verifier tells a Verify hook about where the op
// sits: the ops enclosing it as the verifier's walk reached it. On IR whose
// links are sound these are the op's ParentOp chain; keeping the walk's view
// makes diagnostics independent of stale links. It is read-only and owned by
// the verifier's walk (hooks of one block may run concurrently, each with its
// own context).
type VerifyContext struct {
	// Ancestors are the ops enclosing the op, outermost first: the last one
	// is the op whose region holds it.
	Ancestors []*Operation
}

// maxAncestors bounds the walk up the links of a nil context (cyclic IR).
const maxAncestors = 1000

// Parent is the op whose region holds op (nil at the top).
func (c *VerifyContext) Parent(op *Operation) *Operation {
	if c == nil {
		return op.ParentOp()
	}
	if n := len(c.Ancestors); n > 0 {
		return c.Ancestors[n-1]
	}
	return nil
}

// Enclosing is the innermost op named name that encloses op, or nil.
func (c *VerifyContext) Enclosing(op *Operation, name string) *Operation {
	if c == nil {
		p := op.ParentOp()
		for n := 0; p != nil && n < maxAncestors; n++ {
			if p.Name == name {
				return p
			}
			p = p.ParentOp()
		}
		return nil
	}
	for i := len(c.Ancestors) - 1; i >= 0; i-- {
		if c.Ancestors[i].Name == name {
			return c.Ancestors[i]
		}
	}
	return nil
}

// OpCheck is a dialect's rule on every operation, whatever its dialect (the
// otir dialect's: only otir.dma_copy_async produces !otir.token). The
// verifier runs the registered checks on each op once its form holds, before
// placement, in the order they were registered; like Verify hooks they only
// read the IR and return a *diag.Diagnostic or nil.
type OpCheck func(op *Operation) error

var opChecks []OpCheck

// RegisterOpCheck adds a dialect-wide rule (call it from the dialect's init).
func RegisterOpCheck(check OpCheck) { opChecks = append(opChecks, check) }

// OpChecks lists the registered dialect-wide rules.
func OpChecks() []OpCheck { return opChecks }

// OpDoc is the --list-ops style documentation of an operation, read from its
// record: the name and summary, then one line each for the operands, results,
// attributes and regions it declares ("?" marks an optional group or
// attribute, "..." a variadic group), then its assembly format.
func OpDoc(d *OpDef) string {
	var sb strings.Builder
	sb.WriteString(d.Name)
	if d.Summary != "" {
		sb.WriteString(": ")
		sb.WriteString(d.Summary)
	}
	sb.WriteByte('\n')
	args := func(what string, gs []ArgDef) {
		if len(gs) == 0 {
			return
		}
		sb.WriteString("  " + what + ":")
		for i, g := range gs {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(" " + g.Name)
			switch g.Arity {
			case Optional:
				sb.WriteByte('?')
			case Variadic:
				sb.WriteString("...")
			}
			if g.Doc != "" {
				sb.WriteString(" (" + g.Doc + ")")
			}
		}
		sb.WriteByte('\n')
	}
	args("operands", d.Operands)
	args("results", d.Results)
	if len(d.Attrs) > 0 {
		sb.WriteString("  attributes:")
		for i, a := range d.Attrs {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(" " + a.Name)
			if a.Optional {
				sb.WriteByte('?')
			}
			sb.WriteString(" (" + attrKindNames[a.Kind])
			if len(a.Enum) > 0 {
				sb.WriteString(": " + strings.Join(a.Enum, "|"))
			}
			if a.Doc != "" {
				sb.WriteString("; " + a.Doc)
			}
			sb.WriteByte(')')
		}
		sb.WriteByte('\n')
	}
	if len(d.Regions) > 0 {
		sb.WriteString("  regions: " + strings.Join(d.Regions, ", "))
		if d.Has(VariadicRegions) {
			sb.WriteString("...")
		}
		sb.WriteByte('\n')
	}
	if d.Format != "" {
		sb.WriteString("  format: " + d.Format + "\n")
	}
	return sb.String()
}

var attrKindNames = [...]string{
	AttrAny: "any", AttrInt: "integer", AttrString: "string", AttrDenseI64: "array<i64>",
	AttrConstant: "constant", AttrFuncType: "function type", AttrArray: "array",
	AttrFloat: "float",
}

// RecordProblems lists what is missing or inconsistent in an operation's
// record, for the dialects' completeness tests: a summary; every `$name` of
// the assembly format declared as an operand or result group, an attribute or
// a region; every operand group and region named in the format (unless it
// says `operands`); and the names of the groups, attributes and regions
// distinct; an assembly format; and a Verify hook, unless noVerify says why
// the op needs none (a reason listed for an op with a hook is a problem too).
// Only names are compared: the format's grammar is the parser's.
func RecordProblems(d *OpDef, noVerify map[string]string) []string {
	var ps []string
	if d.Format == "" {
		ps = append(ps, "no assembly format")
	}
	if why := noVerify[d.Name]; d.Verify == nil && why == "" {
		ps = append(ps, "no Verify hook (add one, or say in NoVerify why none is needed)")
	} else if d.Verify != nil && why != "" {
		ps = append(ps, "has a Verify hook but is listed in NoVerify")
	}
	if strings.TrimSpace(d.Summary) == "" {
		ps = append(ps, "no summary")
	}
	declared := map[string]bool{}
	declare := func(n string) {
		if declared[n] {
			ps = append(ps, "name $"+n+" declared twice")
		}
		declared[n] = true
	}
	for _, g := range d.Operands {
		declare(g.Name)
	}
	for _, g := range d.Results {
		declare(g.Name)
	}
	for _, a := range d.Attrs {
		declare(a.Name)
	}
	for _, r := range d.Regions {
		declare(r)
	}
	for _, r := range d.EmptyRegions {
		if !declared[r] {
			ps = append(ps, "empty region "+r+" is not declared")
		}
	}
	refs := FormatRefs(d.Format)
	used := map[string]bool{}
	for _, n := range refs {
		used[n] = true
		if !declared[n] {
			ps = append(ps, "format refers to $"+n+", which the record does not declare")
		}
	}
	if d.Format != "" {
		allOperands := strings.Contains(d.Format, "operands")
		for _, g := range d.Operands {
			if !used[g.Name] && !allOperands {
				ps = append(ps, "operand group "+g.Name+" is not in the format")
			}
		}
		for _, r := range d.Regions {
			if !used[r] {
				ps = append(ps, "region "+r+" is not in the format")
			}
		}
	}
	return ps
}

// FormatRefs lists the `$name` references of an assembly format, in order.
func FormatRefs(format string) []string {
	var refs []string
	for i := 0; i < len(format); i++ {
		if format[i] != '$' {
			continue
		}
		j := i + 1
		for j < len(format) && (format[j] == '_' || format[j] >= 'a' && format[j] <= 'z' || format[j] >= 'A' && format[j] <= 'Z' || j > i+1 && format[j] >= '0' && format[j] <= '9') {
			j++
		}
		if j > i+1 {
			refs = append(refs, format[i+1:j])
		}
		i = j - 1
	}
	return refs
}
