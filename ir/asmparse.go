package ir

import (
	"math/big"
	"strings"
)

// AsmLoc is a position in the text being parsed.
type AsmLoc struct{ Offset, Line, Col int }

// AsmParser is what the format interpreter and custom directives parse with
// (MLIR's OpAsmParser); package parse implements it over its tokens. Errors
// are located diagnostics; Parse* methods fail with "expected ..." at the
// current token, ParseOptional* ones consume nothing when the text does not
// match.
type AsmParser interface {
	// CurrentLoc is the position of the next token; NameLoc that of the
	// operation's name.
	CurrentLoc() AsmLoc
	NameLoc() AsmLoc
	// Errorf makes an error located at at.
	Errorf(at AsmLoc, format string, args ...any) error
	// Expected makes the error "expected <what>" at the next token.
	Expected(what string) error

	// ParseOperand reads an SSA operand name (%x, %x#1).
	ParseOperand() (string, error)
	ParseOptionalOperand() (string, bool)
	// ParseOperandList reads zero or more comma-separated operands.
	ParseOperandList() ([]string, error)
	IsOperand() bool

	// ParseType reads one type.
	ParseType() (Type, error)
	IsType() bool
	// ParseTypeList reads one or more comma-separated types.
	ParseTypeList() ([]Type, error)
	// IsFunctionalType reports whether a function type "(...) -> ..." follows.
	IsFunctionalType() bool
	// ParseFunctionalType reads "(T1, T2) -> T3" or "(T1) -> (T2, T3)", at
	// its location; with brackets an input type may be written [T].
	ParseFunctionalType(brackets bool) (ins, outs []Type, at AsmLoc, err error)

	// ParseKeyword reads the bare word kw; ParseWord any bare word.
	ParseKeyword(kw string) error
	ParseOptionalKeyword(kw string) bool
	ParseWord() (string, AsmLoc, error)
	// ParsePunct reads punctuation: , : ( ) [ ] = -> ...
	ParsePunct(s string) error
	ParseOptionalPunct(s string) bool
	IsPunct(s string) bool

	// ParseInt reads an integer that fits in 64 bits.
	ParseInt() (int64, AsmLoc, error)
	// ParseAttribute reads an attribute value with its optional ": type".
	ParseAttribute() (Attr, AsmLoc, error)
	// ParseOptionalAttrDict reads "{...}" if one follows.
	ParseOptionalAttrDict() (Attrs, error)
	// ParseSymbolName reads @name.
	ParseSymbolName() (string, error)
	// ParseRegion reads a region "{ ... }"; the handle goes in
	// OpState.Regions.
	ParseRegion() (any, AsmLoc, error)
	IsRegion() bool

	// Names and Types hand out slices for the state (from the parser's
	// arenas).
	Names(n int) []string
	Types(n int) []Type
}

// OpState is an operation as parsed from its format (MLIR's
// OperationState): operand names and types by operand group, result types by
// result group (nil for a One group: inferred), attributes, and regions with
// the entry block arguments the text names.
type OpState struct {
	Def          *OpDef
	Operands     [][]string
	OperandTypes [][]Type
	ResultTypes  [][]Type
	Attrs        Attrs
	Regions      []ParsedRegion
}

// ParsedRegion is a region of an OpState.
type ParsedRegion struct {
	Body any        // the parser's handle; nil: absent
	Args []BlockArg // entry block arguments named by the text
	Loc  AsmLoc
}

// BlockArg is a named entry block argument.
type BlockArg struct {
	Name string
	Type Type
	Loc  AsmLoc
}

// NumOperands is the number of operands parsed so far.
func (st *OpState) NumOperands() int {
	n := 0
	for _, g := range st.Operands {
		n += len(g)
	}
	return n
}

// ParseFormat interprets f against p into st, whose slices have one entry
// per declared group and region. Types the text does not write are filled
// from the declarations' buildable types; result types left nil are for the
// caller to infer.
func ParseFormat(p AsmParser, f *Format, st *OpState) error {
	if err := parseElems(p, f, st, f.Elems); err != nil {
		return err
	}
	d := f.def
	for g := range d.Operands {
		if st.OperandTypes[g] == nil && len(st.Operands[g]) > 0 {
			t := f.buildOperand[g]
			if t == nil {
				return p.Errorf(p.NameLoc(), "cannot infer the type of operand '%s' of '%s'", d.Operands[g].Name, d.Name)
			}
			ts := p.Types(len(st.Operands[g]))
			for i := range ts {
				ts[i] = t
			}
			st.OperandTypes[g] = ts
		}
	}
	for g := range d.Results {
		if st.ResultTypes[g] == nil && d.Results[g].Arity == One {
			if t := f.buildResult[g]; t != nil {
				ts := p.Types(1)
				ts[0] = t
				st.ResultTypes[g] = ts
			}
		}
	}
	return nil
}

func parseElems(p AsmParser, f *Format, st *OpState, es []FormatElem) error {
	for i := range es {
		if err := parseElem(p, f, st, &es[i]); err != nil {
			return err
		}
	}
	return nil
}

func parseElem(p AsmParser, f *Format, st *OpState, e *FormatElem) error {
	d := f.def
	switch e.Kind {
	case ElemLiteral:
		if isWordLiteral(e.Text) {
			return p.ParseKeyword(e.Text)
		}
		return p.ParsePunct(e.Text)
	case ElemOperand:
		g := e.Ref.Index
		switch d.Operands[g].Arity {
		case One:
			name, err := p.ParseOperand()
			if err != nil {
				return err
			}
			ns := p.Names(1)
			ns[0] = name
			st.Operands[g] = ns
		case Optional:
			if name, ok := p.ParseOptionalOperand(); ok {
				ns := p.Names(1)
				ns[0] = name
				st.Operands[g] = ns
			}
		default:
			ns, err := p.ParseOperandList()
			if err != nil {
				return err
			}
			st.Operands[g] = ns
		}
	case ElemAttr:
		ad := &d.Attrs[e.Ref.Index]
		a, err := parseAttrElem(p, d, ad)
		if err != nil {
			return err
		}
		st.Attrs.Set(ad.Name, a)
	case ElemRegion:
		at := p.CurrentLoc()
		body, _, err := p.ParseRegion()
		if err != nil {
			return err
		}
		r := &st.Regions[e.Ref.Index]
		r.Body, r.Loc = body, at
	case ElemType:
		return parseTypeRef(p, f, st, e.Ref)
	case ElemFunctionalType:
		ins, outs, at, err := p.ParseFunctionalType(false)
		if err != nil {
			return err
		}
		if err := setTypes(p, f, st, e.Args[0].Ref, ins, at, true); err != nil {
			return err
		}
		return setTypes(p, f, st, e.Args[1].Ref, outs, at, true)
	case ElemAttrDict:
		if e.WithKeyword {
			if !p.ParseOptionalKeyword("attributes") {
				return nil
			}
			if !p.IsPunct("{") {
				return p.Expected("'{' in attribute dictionary")
			}
		}
		at := p.CurrentLoc()
		as, err := p.ParseOptionalAttrDict()
		if err != nil {
			return err
		}
		all, dup := st.Attrs.Union(as)
		if dup != "" {
			return p.Errorf(at, "duplicate key '%s' in dictionary attribute", dup)
		}
		st.Attrs = all
	case ElemCustom:
		return e.Dir.Parse(p, st, e.Args)
	case ElemOptional:
		first := &e.Args[0]
		switch first.Kind {
		case ElemLiteral:
			var ok bool
			if isWordLiteral(first.Text) {
				ok = p.ParseOptionalKeyword(first.Text)
			} else {
				ok = p.ParseOptionalPunct(first.Text)
			}
			if !ok {
				return nil
			}
			return parseElems(p, f, st, e.Args[1:])
		case ElemOperand:
			if !p.IsOperand() {
				return nil
			}
		case ElemRegion:
			if !p.IsRegion() {
				return nil
			}
		case ElemType:
			if !p.IsType() {
				return nil
			}
		}
		return parseElems(p, f, st, e.Args)
	}
	return nil
}

// parseAttrElem reads an attribute the format spells, by its declared kind.
func parseAttrElem(p AsmParser, d *OpDef, ad *AttrDef) (Attr, error) {
	switch ad.Kind {
	case AttrInt:
		v, _, err := p.ParseInt()
		if err != nil {
			return nil, err
		}
		return I64(v), nil
	case AttrString:
		if ad.Name == "sym_name" {
			s, err := p.ParseSymbolName()
			if err != nil {
				return nil, err
			}
			return &StringAttr{Value: s}, nil
		}
		if ad.Enum != nil {
			w, at, err := p.ParseWord()
			if err != nil {
				return nil, err
			}
			for _, x := range ad.Enum {
				if w == x {
					return &StringAttr{Value: w}, nil
				}
			}
			return nil, p.Errorf(at, "expected %s to be one of: %s", EnumWhat(ad), strings.Join(ad.Enum, ", "))
		}
	}
	a, at, err := p.ParseAttribute()
	if err != nil {
		return nil, err
	}
	if ad.Kind == AttrConstant {
		if b, ok := a.(*BoolAttr); ok {
			// A boolean is the i1 integer it denotes.
			v := int64(0)
			if b.Value {
				v = 1
			}
			a = &IntAttr{Value: big.NewInt(v), Type: Bool()}
		}
		if !attrKindOK(a, AttrConstant) {
			return nil, p.Errorf(at, "%s expects an integer, float, boolean or dense value", d.Name)
		}
		return a, nil
	}
	if !attrKindOK(a, ad.Kind) {
		return nil, p.Errorf(at, "invalid kind of attribute '%s' for '%s'", ad.Name, d.Name)
	}
	return a, nil
}

// parseTypeRef reads the types of a type($x), type(operands) or
// type(results).
func parseTypeRef(p AsmParser, f *Format, st *OpState, r Ref) error {
	at := p.CurrentLoc()
	if r.Kind == RefOperand && f.def.Operands[r.Index].Arity == One || r.Kind == RefResult && f.def.Results[r.Index].Arity == One {
		t, err := p.ParseType()
		if err != nil {
			return err
		}
		ts := p.Types(1)
		ts[0] = t
		return setTypes(p, f, st, r, ts, at, false)
	}
	var ts []Type
	if p.IsType() {
		var err error
		if ts, err = p.ParseTypeList(); err != nil {
			return err
		}
	} else if r.Kind == RefAllOperands && st.NumOperands() > 0 || r.Kind == RefOperand && len(st.Operands[r.Index]) > 0 {
		return p.Expected("type")
	}
	return setTypes(p, f, st, r, ts, at, false)
}

// setTypes gives the types ts, read at at, to what r names, checking their
// number.
func setTypes(p AsmParser, f *Format, st *OpState, r Ref, ts []Type, at AsmLoc, fn bool) error {
	d := f.def
	switch r.Kind {
	case RefOperand:
		if n := len(st.Operands[r.Index]); n != len(ts) {
			return p.Errorf(p.NameLoc(), "%d operands present, but expected %d", n, len(ts))
		}
		st.OperandTypes[r.Index] = ts
	case RefResult:
		st.ResultTypes[r.Index] = ts
	case RefAllOperands:
		n := st.NumOperands()
		if n != len(ts) {
			if fn {
				return p.Errorf(at, "%d operands present, but expected %d", n, len(ts))
			}
			return p.Errorf(p.NameLoc(), "%d operands present, but expected %d", n, len(ts))
		}
		k := 0
		for g := range d.Operands {
			m := len(st.Operands[g])
			st.OperandTypes[g] = ts[k : k+m : k+m]
			k += m
		}
	case RefAllResults:
		if f.varResult < 0 && len(ts) != len(d.Results) {
			return p.Errorf(at, "expected %d result type, got %d", len(d.Results), len(ts))
		}
		if !countFits(d.Results, f.varResult, len(ts)) {
			return p.Errorf(at, "expected %d result types, got %d", len(d.Results), len(ts))
		}
		for g := range d.Results {
			lo, hi, _ := groupRange(d.Results, f.varResult, len(ts), g)
			st.ResultTypes[g] = ts[lo:hi:hi]
		}
	}
	return nil
}
