package ir

import (
	"strings"
)

// AsmPrinter is what a custom directive prints with (MLIR's OpAsmPrinter).
// Nothing is separated automatically: a directive writes its own spaces.
type AsmPrinter interface {
	// WriteString writes text as it is.
	WriteString(s string)
	// PrintOperand writes a value's name, %x.
	PrintOperand(v *Value)
	// PrintOperands writes names separated by ", ".
	PrintOperands(vs []*Value)
	// PrintType writes a type.
	PrintType(t Type)
	// PrintTypes writes types separated by ", ".
	PrintTypes(ts []Type)
	// PrintValueTypes writes the types of vs separated by ", ".
	PrintValueTypes(vs []*Value)
	// PrintFunctionalType writes "(T1, T2) -> T3" (results in parentheses
	// unless there is exactly one).
	PrintFunctionalType(ins, outs []*Value)
	// PrintInt writes an integer.
	PrintInt(n int64)
	// PrintInts writes integers separated by ", ".
	PrintInts(ns []int64)
	// PrintAttr writes an attribute value.
	PrintAttr(a Attr)
	// PrintSymbolName writes @name (quoted when it is not a bare identifier).
	PrintSymbolName(name string)
	// PrintRegion writes a region "{ ... }" without its entry block's
	// header; an operand-less implicit terminator is elided.
	PrintRegion(r *Region)
	// PrintOptionalLocation writes " loc(...)" when locations are printed
	// (PrintOptions.DebugInfo), and nothing otherwise (MLIR's
	// printOptionalLocationSpecifier): a block argument's location.
	PrintOptionalLocation(l Location)
}

// Printer spacing states: what the previous element was.
const (
	spNormal = iota // a space goes before the next element
	spOpen          // after '(' or '[': no space
	spWord          // after the op name or a keyword: no space before '('
)

func (p *printer) WriteString(s string)  { p.w.WriteString(s) }
func (p *printer) PrintOperand(v *Value) { p.val(v) }
func (p *printer) PrintOperands(vs []*Value) {
	p.vals(vs)
}
func (p *printer) PrintType(t Type)            { p.typ(t) }
func (p *printer) PrintValueTypes(vs []*Value) { p.valueTypes(vs, false) }
func (p *printer) PrintTypes(ts []Type) {
	for i, t := range ts {
		if i > 0 {
			p.str(", ")
		}
		p.typ(t)
	}
}
func (p *printer) PrintFunctionalType(ins, outs []*Value) {
	p.valueTypes(ins, true)
	p.str(" -> ")
	if len(outs) == 1 && outs[0] != nil {
		p.typ(outs[0].Type)
	} else {
		p.valueTypes(outs, true)
	}
}
func (p *printer) PrintInt(n int64)     { p.int(n) }
func (p *printer) PrintInts(ns []int64) { p.ints(ns) }
func (p *printer) PrintAttr(a Attr)     { p.str(a.String()) }
func (p *printer) PrintSymbolName(s string) {
	p.w.WriteByte('@')
	p.str(symbolName(s))
}
func (p *printer) PrintRegion(r *Region) {
	p.region(r, p.depth, false, r == nil || implicitTerminator(r.Parent) == "")
}

func (p *printer) PrintOptionalLocation(l Location) {
	if p.opts.DebugInfo {
		p.w.WriteByte(' ')
		p.str(LocText(l))
	}
}

func (p *printer) ints(vs []int64) {
	for i, v := range vs {
		if i > 0 {
			p.str(", ")
		}
		p.int(v)
	}
}

// pretty prints op in the form its format describes, or returns false having
// printed nothing when the op does not fit that form (it then prints
// generically).
func (p *printer) pretty(op *Operation, d *OpDef, depth int) bool {
	f := d.asm
	if f == nil || !f.fits(op, &p.scratch) {
		return false
	}
	saved := p.depth
	p.depth = depth
	p.results(op)
	p.str(strings.TrimPrefix(op.Name, "builtin."))
	p.sp = spWord
	p.elems(op, f, f.Elems)
	p.depth = saved
	return true
}

// space writes the space that goes before an element.
func (p *printer) space() {
	if p.sp != spOpen {
		p.w.WriteByte(' ')
	}
}

func (p *printer) elems(op *Operation, f *Format, es []FormatElem) {
	for i := range es {
		e := &es[i]
		switch e.Kind {
		case ElemLiteral:
			t := e.Text
			switch {
			case t == ")" || t == "]" || t == ",":
			case t == "(" && p.sp != spNormal:
			default:
				p.space()
			}
			p.str(t)
			switch {
			case t == "(" || t == "[":
				p.sp = spOpen
			case isWordLiteral(t):
				p.sp = spWord
			default:
				p.sp = spNormal
			}
		case ElemOperand:
			vs := f.OperandGroup(op, e.Ref.Index)
			if len(vs) == 0 {
				continue
			}
			p.space()
			p.vals(vs)
			p.sp = spNormal
		case ElemAttr:
			a := op.Attr(e.Ref.Name)
			if a == nil {
				continue
			}
			p.space()
			p.attrElem(&f.def.Attrs[e.Ref.Index], a)
			p.sp = spNormal
		case ElemRegion:
			p.space()
			p.region(op.Regions[e.Ref.Index], p.depth, false, f.def.ImplicitTerminator == "")
			p.sp = spNormal
		case ElemType:
			p.space()
			p.typeRef(op, f, e.Ref)
			p.sp = spNormal
		case ElemFunctionalType:
			p.space()
			p.w.WriteByte('(')
			p.typeRef(op, f, e.Args[0].Ref)
			p.str(") -> ")
			outs := refValues(op, f, e.Args[1].Ref)
			if len(outs) == 1 {
				p.typ(outs[0].Type)
			} else {
				p.valueTypes(outs, true)
			}
			p.sp = spNormal
		case ElemAttrDict:
			p.attrDict(op, f, e.WithKeyword)
		case ElemCustom:
			if !e.Dir.Glued {
				p.space()
			}
			e.Dir.Print(p, op, f, e.Args)
			p.sp = spNormal
		case ElemOptional:
			if anchorPresent(op, f, &e.Args[e.Anchor]) {
				p.elems(op, f, e.Args)
			}
		}
	}
}

func isWordLiteral(t string) bool {
	c := t[0]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// attrElem prints an attribute spelled by the format: integers bare, enum
// words bare, a sym_name as a symbol (MLIR's SymbolNameAttr), anything else
// as in an attribute dictionary.
func (p *printer) attrElem(d *AttrDef, a Attr) {
	switch d.Kind {
	case AttrInt:
		if ia, ok := a.(*IntAttr); ok {
			p.str(ia.Value.String())
			return
		}
	case AttrString:
		if s, ok := a.(*StringAttr); ok {
			switch {
			case d.Name == "sym_name":
				p.PrintSymbolName(s.Value)
			case d.Enum != nil:
				p.str(s.Value)
			default:
				p.str(QuoteString(s.Value))
			}
			return
		}
	}
	p.str(a.String())
}

// typeRef prints the types a type reference names, separated by ", ".
func (p *printer) typeRef(op *Operation, f *Format, r Ref) {
	p.valueTypes(refValues(op, f, r), false)
}

// refValues are the values whose types a reference names.
func refValues(op *Operation, f *Format, r Ref) []*Value {
	switch r.Kind {
	case RefOperand:
		return f.OperandGroup(op, r.Index)
	case RefResult:
		return f.ResultGroup(op, r.Index)
	case RefAllOperands:
		return op.Operands
	case RefAllResults:
		return op.Results
	}
	return nil
}

// attrDict prints the attributes no other element spells: " {a = 1}", or
// " attributes {a = 1}" with the keyword; nothing when there are none.
func (p *printer) attrDict(op *Operation, f *Format, keyword bool) {
	n := 0
	for _, a := range op.Attrs {
		if !f.spelled(a.Name) {
			n++
		}
	}
	if n == 0 {
		return
	}
	rest := make(Attrs, 0, n)
	for _, a := range op.Attrs {
		if !f.spelled(a.Name) {
			rest = append(rest, a)
		}
	}
	if keyword {
		p.str(" attributes ")
	} else {
		p.space()
	}
	p.str(rest.String())
	p.sp = spNormal
}

// spelled reports whether the format spells attribute name outside attr-dict.
func (f *Format) spelled(name string) bool {
	for i := range f.def.Attrs {
		if f.def.Attrs[i].Name == name {
			return f.spelledAttrs[i]
		}
	}
	return false
}

// anchorPresent reports whether an optional group's anchor has something to
// print.
func anchorPresent(op *Operation, f *Format, e *FormatElem) bool {
	switch e.Kind {
	case ElemOperand:
		return len(f.OperandGroup(op, e.Ref.Index)) > 0
	case ElemRegion:
		r := op.Regions[e.Ref.Index]
		return r != nil && len(r.Blocks) > 0
	case ElemType:
		return len(refValues(op, f, e.Ref)) > 0
	case ElemAttr:
		return op.Attr(e.Ref.Name) != nil
	case ElemCustom:
		for _, a := range e.Args {
			switch a.Kind {
			case ElemOperand:
				return len(f.OperandGroup(op, a.Ref.Index)) > 0
			case ElemAttr:
				return op.Attr(a.Ref.Name) != nil
			}
		}
	}
	return true
}

// countFits reports whether n values fit the groups args declare.
func countFits(args []ArgDef, v, n int) bool {
	if len(args) == 0 {
		return n == 0
	}
	_, _, ok := groupRange(args, v, n, 0)
	return ok
}

// Fits reports whether op can be printed in its format: its operand, result
// and region counts fit the declarations, its attributes are all declared
// (unless the format takes any) and those the format spells have their
// declared kinds, regions printed without a header have one block (or none,
// for an optional one) without arguments, result types the text omits are
// the ones the parser would give, and every custom directive accepts it.
// Anything else prints generically, so the printer never fails on malformed
// IR.
func (f *Format) Fits(op *Operation) bool { return f.fits(op, &inferScratch{}) }

// inferScratch is the memory reinfers uses (a printer's own).
type inferScratch struct {
	in  InferInput
	out [4]Type
}

func (f *Format) fits(op *Operation, sc *inferScratch) bool {
	d := f.def
	if !f.anyAttrs && !hasOnlyAttrs(op, d) {
		return false
	}
	for _, v := range op.Operands {
		if v == nil || v.Type == nil {
			return false
		}
	}
	for _, v := range op.Results {
		if v == nil || v.Type == nil {
			return false
		}
	}
	if !countFits(d.Operands, f.varOperand, len(op.Operands)) || !countFits(d.Results, f.varResult, len(op.Results)) || len(op.Regions) != len(d.Regions) {
		return false
	}
	term := f.def.ImplicitTerminator
	for i, r := range op.Regions {
		if r == nil || len(r.Blocks) > 1 || len(r.Blocks) == 0 && !f.optionalRegion(i) {
			return false
		}
		if len(r.Blocks) == 0 {
			if term != "" && len(op.Results) > 0 {
				return false
			}
			continue
		}
		b := r.Blocks[0]
		if b == nil || !f.regionArgs[i] && len(b.Args) != 0 {
			return false
		}
		if term != "" && len(op.Results) > 0 {
			// An elided operand-less terminator must be restorable.
			if t := b.Terminator(); t == nil || t.Name != term {
				return false
			}
		}
	}
	for i := range d.Attrs {
		ad := &d.Attrs[i]
		if !f.spelledAttrs[i] {
			continue
		}
		a := op.Attr(ad.Name)
		if a == nil {
			if !ad.Optional {
				return false
			}
			continue
		}
		if !attrKindOK(a, ad.Kind) {
			return false
		}
	}
	for i := range d.Results {
		if f.spelledResults[i] || d.Results[i].Arity != One {
			continue
		}
		rs := f.ResultGroup(op, i)
		if t := f.buildResult[i]; t != nil {
			for _, r := range rs {
				if r.Type != t {
					return false
				}
			}
			continue
		}
		if !f.reinfers(op, i, rs, sc) {
			return false
		}
	}
	for _, e := range f.customs {
		if !e.Dir.Fits(op, f, e.Args) {
			return false
		}
	}
	return true
}

// reinfers reports whether the record's inference (Infer) gives result group
// i (a One group) the types rs have (the parser infers them from the same
// text).
func (f *Format) reinfers(op *Operation, i int, rs []*Value, sc *inferScratch) bool {
	inf := f.def.Infer
	if inf == nil || len(rs) != 1 || f.nInferred > len(sc.out) {
		return false
	}
	sc.in = InferInput{Def: f.def, Attrs: op.Attrs}
	if len(op.Operands) > 0 {
		in := &sc.in
		in.Operands = make([][]Type, len(f.def.Operands))
		for g := range f.def.Operands {
			vs := f.OperandGroup(op, g)
			ts := make([]Type, len(vs))
			for k, v := range vs {
				ts[k] = v.Type
			}
			in.Operands[g] = ts
		}
	}
	out := sc.out[:f.nInferred]
	clear(out)
	if err := inf(&sc.in, out); err != nil {
		return false
	}
	k := 0
	for g := 0; g < i; g++ {
		if f.def.Results[g].Arity == One {
			k++
		}
	}
	sc.in = InferInput{}
	return out[k] == rs[0].Type
}

// optionalRegion reports whether region i is the anchor of an optional group.
func (f *Format) optionalRegion(i int) bool {
	var find func(es []FormatElem) bool
	find = func(es []FormatElem) bool {
		for _, e := range es {
			if e.Kind == ElemOptional {
				if a := e.Args[e.Anchor]; a.Kind == ElemRegion && a.Ref.Index == i {
					return true
				}
				if find(e.Args) {
					return true
				}
			}
		}
		return false
	}
	return find(f.Elems)
}

// attrKindOK reports whether a holds a value of kind k.
func attrKindOK(a Attr, k AttrKind) bool {
	switch k {
	case AttrInt:
		_, ok := a.(*IntAttr)
		return ok
	case AttrString:
		_, ok := a.(*StringAttr)
		return ok
	case AttrDenseI64:
		_, ok := a.(*DenseI64Attr)
		return ok
	case AttrConstant:
		switch a.(type) {
		case *IntAttr, *FloatAttr, *DenseAttr:
			return true
		}
		return false
	case AttrFuncType:
		_, ok := a.(*FunctionType)
		return ok
	case AttrArray:
		_, ok := a.(*ArrayAttr)
		return ok
	case AttrFloat:
		_, ok := a.(*FloatAttr)
		return ok
	}
	return true
}
