package ir

import (
	"fmt"
	"strings"
)

// The assembly-format engine, in the style of MLIR's declarative assembly
// format (docs/assembly-format.md). An OpDef's Format string is compiled once,
// when the op is registered, into a list of elements; the printer
// (asmprint.go) and the parser (asmparse.go, driven by package parse through
// an AsmParser) interpret that list. Custom directives are written once per
// directive against AsmPrinter and AsmParser and registered by name
// (RegisterDirective); they live with their dialect.

// ElemKind is the kind of a format element.
type ElemKind uint8

const (
	ElemLiteral        ElemKind = iota // `kw` or `,` `(` `->` ...
	ElemOperand                        // $operand: a declared operand group
	ElemAttr                           // $attr: a declared attribute
	ElemRegion                         // $region: a declared region
	ElemType                           // type($x), type(operands), type(results)
	ElemFunctionalType                 // functional-type(operands, results)
	ElemAttrDict                       // attr-dict, attr-dict-with-keyword
	ElemCustom                         // custom<Name>(args)
	ElemOptional                       // ( elements )? with one ^ anchor
)

// RefKind says what a reference of a format element names.
type RefKind uint8

const (
	RefNone        RefKind = iota
	RefOperand             // an operand group (Ref.Index into OpDef.Operands)
	RefResult              // a result group (Ref.Index into OpDef.Results)
	RefAttr                // an attribute (Ref.Index into OpDef.Attrs)
	RefRegion              // a region (Ref.Index into OpDef.Regions)
	RefAllOperands         // operands: every operand group
	RefAllResults          // results: every result group
)

// Ref is what a $name (or operands/results) of a format refers to.
type Ref struct {
	Kind  RefKind
	Index int
	Name  string
}

// FormatElem is one element of a compiled format.
type FormatElem struct {
	Kind ElemKind
	// Text is a literal's text, or a custom directive's name.
	Text string
	// Ref is the operand, attribute, region or type reference ($x, type($x)).
	Ref Ref
	// Args are a custom directive's arguments, functional-type's two type
	// references, or an optional group's elements.
	Args []FormatElem
	// Anchor is the index in Args of an optional group's anchor.
	Anchor int
	// WithKeyword: attr-dict-with-keyword.
	WithKeyword bool
	// Dir is a custom directive's registration.
	Dir *Directive
}

// Format is a compiled assembly format.
type Format struct {
	Elems []FormatElem
	def   *OpDef
	// spelledResults[i]: the type of result group i is written by the format
	// (a type reference, functional-type, or a custom directive argument).
	spelledResults []bool
	// regionArgs[i]: a custom directive declares region i's block arguments.
	regionArgs []bool
	// spelledAttrs[i]: attribute i is spelled by an element other than
	// attr-dict (so attr-dict leaves it out).
	spelledAttrs []bool
	// anyAttrs: the format accepts attributes the op does not declare
	// (attr-dict-with-keyword on an op that declares none: builtin.module).
	anyAttrs bool
	// buildable holds each operand and result group's buildable type (from
	// an ArgDef.Doc that is a type spelling), or nil.
	buildOperand, buildResult []Type
	// nInferred is the number of One result groups; customs lists the
	// custom directives with a Fits predicate.
	nInferred int
	customs   []*FormatElem
	// varOperand and varResult are the index of the one operand (result)
	// group that is not One, or -1.
	varOperand, varResult int
}

// Def is the record the format belongs to.
func (f *Format) Def() *OpDef { return f.def }

// Directive is a registered custom directive.
type Directive struct {
	Name  string
	Print DirectivePrinter
	Parse DirectiveParser
	// Fits, when set, reports whether an operation can be printed by the
	// directive (the printer falls back to the generic form otherwise).
	Fits func(op *Operation, f *Format, args []FormatElem) bool
	// Glued directives print right after the previous element, without
	// the space the printer otherwise puts before an element.
	Glued bool
	// SetsTypes: the directive gives the types of the operand groups it
	// takes as $x arguments (so the format need not spell them).
	SetsTypes bool
}

// DirectivePrinter prints a custom directive's part of op.
type DirectivePrinter func(p AsmPrinter, op *Operation, f *Format, args []FormatElem)

// DirectiveParser parses a custom directive's part of an operation into st.
type DirectiveParser func(p AsmParser, st *OpState, args []FormatElem) error

// directives is filled by the dialects' init functions, before any parse or
// print, and only read afterwards (so without locks).
var directives = map[string]*Directive{}

// RegisterDirective registers the custom directive custom<name>. It returns
// the registration, whose Fits, Glued and SetsTypes the caller may set. It
// panics on a duplicate name.
func RegisterDirective(name string, print DirectivePrinter, parse DirectiveParser) *Directive {
	if _, dup := directives[name]; dup {
		panic("ir: duplicate custom directive " + name)
	}
	d := &Directive{Name: name, Print: print, Parse: parse}
	directives[name] = d
	return d
}

// LookupDirective returns a registered custom directive, or nil.
func LookupDirective(name string) *Directive {
	return directives[name]
}

// InferInput is what a result type inference reads (MLIR's
// InferTypeOpInterface): the op's record, the module's typing style, the
// operand types by group and the attributes.
type InferInput struct {
	Def      *OpDef
	Style    string
	Operands [][]Type
	Attrs    Attrs
}

// InferFunc computes an op's result types when its text does not write
// them: one type per One result group, in order, into out (which has that
// length).
type InferFunc func(in *InferInput, out []Type) error

// AsmFormat returns the compiled format of the op, or nil when it has none
// (it prints generically).
func (d *OpDef) AsmFormat() *Format { return d.asm }

// CompileFormat compiles d.Format against d's declarations. An empty format
// compiles to nil.
func CompileFormat(d *OpDef) (*Format, error) {
	if d.Format == "" {
		return nil, nil
	}
	c := &formatCompiler{d: d, src: d.Format}
	if err := c.tokenize(); err != nil {
		return nil, c.errf("%v", err)
	}
	elems, err := c.elems(false)
	if err != nil {
		return nil, err
	}
	if c.pos < len(c.toks) {
		return nil, c.errf("unexpected '%s'", c.toks[c.pos])
	}
	f := &Format{Elems: elems, def: d,
		spelledResults: make([]bool, len(d.Results)),
		regionArgs:     make([]bool, len(d.Regions)),
		spelledAttrs:   make([]bool, len(d.Attrs)),
	}
	if f.buildOperand, f.varOperand, err = c.groups(d.Operands, "operand"); err != nil {
		return nil, err
	}
	if f.buildResult, f.varResult, err = c.groups(d.Results, "result"); err != nil {
		return nil, err
	}
	if err := c.check(f); err != nil {
		return nil, err
	}
	for _, a := range d.Results {
		if a.Arity == One {
			f.nInferred++
		}
	}
	var customs func(es []FormatElem)
	customs = func(es []FormatElem) {
		for i := range es {
			switch e := &es[i]; e.Kind {
			case ElemCustom:
				if e.Dir.Fits != nil {
					f.customs = append(f.customs, e)
				}
			case ElemOptional:
				customs(e.Args)
			}
		}
	}
	customs(f.Elems)
	return f, nil
}

// buildableType is the type a declaration's Doc spells exactly ("index",
// "i1", "!otir.token"), as MLIR's buildable type constraints, or nil.
func buildableType(doc string) Type {
	if doc == "" || strings.ContainsAny(doc, " ,") && !strings.HasPrefix(doc, "!") {
		return nil
	}
	t, err := ParseType(doc)
	if err != nil {
		return nil
	}
	return t
}

type formatCompiler struct {
	d    *OpDef
	src  string
	toks []string
	pos  int
}

func (c *formatCompiler) errf(format string, args ...any) error {
	return fmt.Errorf("ir: format of '%s': %s", c.d.Name, fmt.Sprintf(format, args...))
}

// tokenize splits the format into `literal`, $name, identifiers
// (type, attr-dict, custom, ...) and the punctuation ( ) < > , ? ^.
func (c *formatCompiler) tokenize() error {
	s := c.src
	for i := 0; i < len(s); {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n':
			i++
		case ch == '`':
			j := strings.IndexByte(s[i+1:], '`')
			if j < 0 {
				return fmt.Errorf("unterminated literal")
			}
			if j == 0 {
				return fmt.Errorf("empty literal")
			}
			c.toks = append(c.toks, s[i:i+j+2])
			i += j + 2
		case strings.IndexByte("()<>,?^", ch) >= 0:
			c.toks = append(c.toks, s[i:i+1])
			i++
		case ch == '$' || isFormatIDChar(ch):
			j := i + 1
			for j < len(s) && isFormatIDChar(s[j]) {
				j++
			}
			c.toks = append(c.toks, s[i:j])
			i = j
		default:
			return fmt.Errorf("unexpected character %q", ch)
		}
	}
	return nil
}

func isFormatIDChar(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (c *formatCompiler) peek() string {
	if c.pos < len(c.toks) {
		return c.toks[c.pos]
	}
	return ""
}

func (c *formatCompiler) next() string {
	t := c.peek()
	c.pos++
	return t
}

func (c *formatCompiler) expect(t string) error {
	if got := c.next(); got != t {
		if got == "" {
			got = "end of format"
		}
		return c.errf("expected '%s', got '%s'", t, got)
	}
	return nil
}

// elems compiles elements up to the end or, in a group, up to its ')'.
func (c *formatCompiler) elems(inGroup bool) ([]FormatElem, error) {
	var out []FormatElem
	for c.pos < len(c.toks) {
		if inGroup && c.peek() == ")" {
			return out, nil
		}
		e, err := c.elem()
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	if inGroup {
		return nil, c.errf("unterminated optional group")
	}
	return out, nil
}

func (c *formatCompiler) elem() (FormatElem, error) {
	t := c.next()
	switch {
	case strings.HasPrefix(t, "`"):
		return FormatElem{Kind: ElemLiteral, Text: t[1 : len(t)-1]}, nil
	case strings.HasPrefix(t, "$"):
		return c.ref(t[1:])
	case t == "type":
		if err := c.expect("("); err != nil {
			return FormatElem{}, err
		}
		r, err := c.typeRef()
		if err != nil {
			return FormatElem{}, err
		}
		return FormatElem{Kind: ElemType, Ref: r}, c.expect(")")
	case t == "functional-type":
		if err := c.expect("("); err != nil {
			return FormatElem{}, err
		}
		a, err := c.typeRef()
		if err != nil {
			return FormatElem{}, err
		}
		if err := c.expect(","); err != nil {
			return FormatElem{}, err
		}
		b, err := c.typeRef()
		if err != nil {
			return FormatElem{}, err
		}
		if err := c.expect(")"); err != nil {
			return FormatElem{}, err
		}
		return FormatElem{Kind: ElemFunctionalType, Args: []FormatElem{{Kind: ElemType, Ref: a}, {Kind: ElemType, Ref: b}}}, nil
	case t == "attr-dict":
		return FormatElem{Kind: ElemAttrDict}, nil
	case t == "attr-dict-with-keyword":
		return FormatElem{Kind: ElemAttrDict, WithKeyword: true}, nil
	case t == "custom":
		if err := c.expect("<"); err != nil {
			return FormatElem{}, err
		}
		name := c.next()
		if err := c.expect(">"); err != nil {
			return FormatElem{}, err
		}
		dir := LookupDirective(name)
		if dir == nil {
			return FormatElem{}, c.errf("unknown custom directive '%s'", name)
		}
		if err := c.expect("("); err != nil {
			return FormatElem{}, err
		}
		var args []FormatElem
		for c.peek() != ")" {
			if len(args) > 0 {
				if err := c.expect(","); err != nil {
					return FormatElem{}, err
				}
			}
			a := c.next()
			var e FormatElem
			var err error
			switch {
			case strings.HasPrefix(a, "$"):
				e, err = c.ref(a[1:])
			case a == "type":
				if err = c.expect("("); err == nil {
					var r Ref
					if r, err = c.typeRef(); err == nil {
						e = FormatElem{Kind: ElemType, Ref: r}
						err = c.expect(")")
					}
				}
			default:
				err = c.errf("unexpected '%s' in custom<%s> arguments", a, name)
			}
			if err != nil {
				return FormatElem{}, err
			}
			args = append(args, e)
		}
		c.next()
		return FormatElem{Kind: ElemCustom, Text: name, Args: args, Dir: dir}, nil
	case t == "(":
		start := c.pos
		var group []FormatElem
		anchor := -1
		for c.peek() != ")" {
			if c.peek() == "" {
				return FormatElem{}, c.errf("unterminated optional group")
			}
			e, err := c.elem()
			if err != nil {
				return FormatElem{}, err
			}
			group = append(group, e)
			if c.peek() == "^" {
				c.next()
				if anchor >= 0 {
					return FormatElem{}, c.errf("optional group has more than one anchor")
				}
				anchor = len(group) - 1
			}
		}
		c.next()
		if err := c.expect("?"); err != nil {
			return FormatElem{}, err
		}
		if anchor < 0 {
			return FormatElem{}, c.errf("optional group has no anchor '^'")
		}
		if len(group) == 0 || start == c.pos {
			return FormatElem{}, c.errf("empty optional group")
		}
		switch group[0].Kind {
		case ElemLiteral, ElemOperand, ElemRegion, ElemType:
		default:
			return FormatElem{}, c.errf("the first element of an optional group must be a literal, an operand, a region or a type")
		}
		return FormatElem{Kind: ElemOptional, Args: group, Anchor: anchor}, nil
	case t == "":
		return FormatElem{}, c.errf("unexpected end of format")
	}
	return FormatElem{}, c.errf("unexpected '%s'", t)
}

// ref resolves $name against the declarations.
func (c *formatCompiler) ref(name string) (FormatElem, error) {
	d := c.d
	for i, a := range d.Operands {
		if a.Name == name {
			return FormatElem{Kind: ElemOperand, Ref: Ref{RefOperand, i, name}}, nil
		}
	}
	for i, a := range d.Attrs {
		if a.Name == name {
			return FormatElem{Kind: ElemAttr, Ref: Ref{RefAttr, i, name}}, nil
		}
	}
	for i, r := range d.Regions {
		if r == name {
			return FormatElem{Kind: ElemRegion, Ref: Ref{RefRegion, i, name}}, nil
		}
	}
	for _, a := range d.Results {
		if a.Name == name {
			return FormatElem{}, c.errf("result '$%s' may only appear in type($%s)", name, name)
		}
	}
	return FormatElem{}, c.errf("'$%s' is not a declared operand, attribute or region", name)
}

// typeRef resolves the argument of type(...): $operand, $result, operands or
// results.
func (c *formatCompiler) typeRef() (Ref, error) {
	t := c.next()
	switch t {
	case "operands":
		return Ref{Kind: RefAllOperands, Name: t}, nil
	case "results":
		return Ref{Kind: RefAllResults, Name: t}, nil
	}
	if !strings.HasPrefix(t, "$") {
		return Ref{}, c.errf("expected $name, operands or results in type(), got '%s'", t)
	}
	name := t[1:]
	for i, a := range c.d.Operands {
		if a.Name == name {
			return Ref{RefOperand, i, name}, nil
		}
	}
	for i, a := range c.d.Results {
		if a.Name == name {
			return Ref{RefResult, i, name}, nil
		}
	}
	return Ref{}, c.errf("'$%s' in type() is not a declared operand or result", name)
}

// check verifies that the format spells every operand and region once and
// gives every operand and result a type, and fills f's tables.
func (c *formatCompiler) check(f *Format) error {
	d := c.d
	operandSeen := make([]int, len(d.Operands))
	operandTyped := make([]bool, len(d.Operands))
	regionSeen := make([]int, len(d.Regions))
	typeRef := func(r Ref) {
		switch r.Kind {
		case RefOperand:
			operandTyped[r.Index] = true
		case RefResult:
			f.spelledResults[r.Index] = true
		case RefAllOperands:
			for i := range operandTyped {
				operandTyped[i] = true
			}
		case RefAllResults:
			for i := range f.spelledResults {
				f.spelledResults[i] = true
			}
		}
	}
	var walk func(es []FormatElem, top bool) error
	walk = func(es []FormatElem, top bool) error {
		for i, e := range es {
			switch e.Kind {
			case ElemOperand:
				operandSeen[e.Ref.Index]++
			case ElemAttr:
				f.spelledAttrs[e.Ref.Index] = true
			case ElemRegion:
				regionSeen[e.Ref.Index]++
			case ElemType:
				typeRef(e.Ref)
			case ElemFunctionalType:
				typeRef(e.Args[0].Ref)
				typeRef(e.Args[1].Ref)
			case ElemAttrDict:
				if !top {
					return c.errf("attr-dict inside an optional group")
				}
				if !e.WithKeyword && i+1 < len(es) && es[i+1].Kind == ElemRegion {
					return c.errf("attr-dict before a region is ambiguous (use attr-dict-with-keyword, or put it after the region)")
				}
				if e.WithKeyword && len(d.Attrs) == 0 {
					f.anyAttrs = true
				}
			case ElemCustom:
				for _, a := range e.Args {
					switch a.Kind {
					case ElemOperand:
						operandSeen[a.Ref.Index]++
						if e.Dir.SetsTypes {
							operandTyped[a.Ref.Index] = true
						}
					case ElemAttr:
						f.spelledAttrs[a.Ref.Index] = true
					case ElemRegion:
						f.regionArgs[a.Ref.Index] = true
					case ElemType:
						typeRef(a.Ref)
					}
				}
			case ElemOptional:
				if err := walk(e.Args, false); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(f.Elems, true); err != nil {
		return err
	}
	for i, a := range d.Operands {
		if operandSeen[i] != 1 {
			return c.errf("operand '$%s' must appear exactly once (appears %d times)", a.Name, operandSeen[i])
		}
		if !operandTyped[i] && f.buildOperand[i] == nil {
			return c.errf("the type of operand '$%s' is neither written nor buildable", a.Name)
		}
	}
	for i, r := range d.Regions {
		if regionSeen[i] != 1 {
			return c.errf("region '$%s' must appear exactly once (appears %d times)", r, regionSeen[i])
		}
	}
	for i, a := range d.Results {
		if a.Arity == One && !f.spelledResults[i] && f.buildResult[i] == nil && d.Infer == nil {
			return c.errf("the type of result '%s' is neither written, buildable nor inferred", a.Name)
		}
	}
	return nil
}

// groupRange is the range [lo, hi) of group g among n values of groups
// declared by args, the one group that is not One (index v, or -1) taking
// what the others leave. ok is false when n does not fit the declarations.
func groupRange(args []ArgDef, v, n, g int) (lo, hi int, ok bool) {
	fixed := len(args)
	if v >= 0 {
		fixed--
	}
	extra := n - fixed
	if extra < 0 || v < 0 && extra != 0 || v >= 0 && args[v].Arity == Optional && extra > 1 {
		return 0, 0, false
	}
	lo = g
	if v >= 0 && g > v {
		lo = g - 1 + extra
	}
	hi = lo + 1
	if g == v {
		hi = lo + extra
	}
	return lo, hi, true
}

// OperandGroup returns the operands of op's operand group g (by the
// format's declarations).
func (f *Format) OperandGroup(op *Operation, g int) []*Value {
	lo, hi, ok := groupRange(f.def.Operands, f.varOperand, len(op.Operands), g)
	if !ok {
		return nil
	}
	return op.Operands[lo:hi]
}

// ResultGroup returns the results of op's result group g.
func (f *Format) ResultGroup(op *Operation, g int) []*Value {
	lo, hi, ok := groupRange(f.def.Results, f.varResult, len(op.Results), g)
	if !ok {
		return nil
	}
	return op.Results[lo:hi]
}

// EnumWhat is how diagnostics name the values of attribute a ("expected
// comparison kind to be one of: ..."): its EnumName, or its name.
func EnumWhat(a *AttrDef) string {
	if a.EnumName != "" {
		return a.EnumName
	}
	return strings.ReplaceAll(a.Name, "_", " ")
}

// groups returns the type a builder gives each operand or result group of
// a record (buildableType of its Doc) and the index of the one group that
// is optional or variadic (-1: none); a second such group is an error.
func (c *formatCompiler) groups(args []ArgDef, what string) (build []Type, variadic int, err error) {
	build, variadic = make([]Type, len(args)), -1
	for i, a := range args {
		if a.Arity != One {
			if variadic >= 0 {
				return nil, -1, c.errf("more than one optional or variadic %s group", what)
			}
			variadic = i
		}
		build[i] = buildableType(a.Doc)
	}
	return build, variadic, nil
}
