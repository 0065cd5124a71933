package parse

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/typing"
)

// Pretty operations. Every registered operation with an assembly format is
// parsed by one mechanism: its name selects its record, and the record's
// compiled format is interpreted (ir.ParseFormat) over the tokens through
// asmParser, this package's ir.AsmParser. The result is an ir.OpState that
// the builder turns into IR, inferring the result types the text omits
// (the record's Infer: the typing rules, a constant's value, ...).

// PrettyOp is an operation in its pretty form.
type PrettyOp struct {
	st ir.OpState
}

func (*PrettyOp) opBody() {}

// Parse implements participle.Parseable, for the operations the grammar
// reaches (top-level ones; those of blocks go through prettyOperation).
func (po *PrettyOp) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.Type != tokOpOther {
		return participle.NextMatch
	}
	d := ir.LookupOp(t.Value)
	if d == nil || d.AsmFormat() == nil {
		return participle.NextMatch
	}
	st := stateOf(lex)
	al := st.alloc()
	defer st.release(al)
	return po.parse(lex, al, d)
}

// parse reads the op's name and interprets its format.
func (po *PrettyOp) parse(lex *lexer.PeekingLexer, al *allocator, d *ir.OpDef) error {
	name := lex.Next()
	st := &po.st
	st.Def = d
	st.Operands = al.nameGroups.many(len(d.Operands))
	st.OperandTypes = al.typeGroups.many(len(d.Operands))
	st.ResultTypes = al.typeGroups.many(len(d.Results))
	st.Regions = al.pregions.many(len(d.Regions))
	p := &al.asm
	p.lex, p.al, p.name = lex, al, name.Pos
	return ir.ParseFormat(p, d.AsmFormat(), st)
}

// prettyOperation parses an operation of a block whose name is a registered
// op with a format: its results, then its format. ok is false, with the
// lexer where it was, for anything else (the grammar parses it).
func prettyOperation(lex *lexer.PeekingLexer, al *allocator) (o *Operation, ok bool, err error) {
	cp := lex.MakeCheckpoint()
	start := lex.RawCursor()
	var results []string
	if t := lex.Peek(); t.Type == tokValue || t.Type == tokResultGroup {
		results = al.strs.many(1)[:0]
		for {
			t := lex.Peek()
			if t.Type != tokValue && t.Type != tokResultGroup {
				lex.LoadCheckpoint(cp)
				return nil, false, nil
			}
			results = append(results, lex.Next().Value)
			if t := lex.Peek(); t.Type == tokPunct && t.Value == "," {
				lex.Next()
				continue
			}
			if t := lex.Peek(); t.Type != tokPunct || t.Value != "=" {
				lex.LoadCheckpoint(cp)
				return nil, false, nil
			}
			lex.Next()
			break
		}
	}
	t := lex.Peek()
	var d *ir.OpDef
	if t.Type == tokOpOther {
		d = ir.LookupOp(t.Value)
	}
	if d == nil || d.AsmFormat() == nil {
		lex.LoadCheckpoint(cp)
		return nil, false, nil
	}
	po := al.pretty.one()
	if err := po.parse(lex, al, d); err != nil {
		return nil, true, err
	}
	o = al.ops.one()
	o.Results = results
	o.Body = po
	o.Tokens = lex.Range(start, lex.RawCursor())
	return o, true, nil
}

// asmParser is the ir.AsmParser over this package's tokens.
type asmParser struct {
	lex  *lexer.PeekingLexer
	al   *allocator
	name lexer.Position
}

func asmLoc(p lexer.Position) ir.AsmLoc {
	return ir.AsmLoc{Offset: p.Offset, Line: p.Line, Col: p.Column}
}

func lexPos(l ir.AsmLoc) lexer.Position {
	return lexer.Position{Offset: l.Offset, Line: l.Line, Column: l.Col}
}

func (p *asmParser) CurrentLoc() ir.AsmLoc { return asmLoc(p.lex.Peek().Pos) }
func (p *asmParser) NameLoc() ir.AsmLoc    { return asmLoc(p.name) }

func (p *asmParser) Errorf(at ir.AsmLoc, format string, args ...any) error {
	return &syntaxError{pos: lexPos(at), msg: fmt.Sprintf(format, args...)}
}

func (p *asmParser) Expected(what string) error {
	return &syntaxError{pos: p.lex.Peek().Pos, msg: "expected " + what}
}

// located turns a diagnostic of a conversion (attributes, signatures) into a
// syntax error of the parse phase.
func located(err error) error {
	var d *diag.Diagnostic
	if errors.As(err, &d) {
		return &syntaxError{pos: lexer.Position{Line: d.Loc.Line, Column: d.Loc.Col}, msg: d.Msg}
	}
	return err
}

func (p *asmParser) IsOperand() bool { return p.lex.Peek().Type == tokValue }

func (p *asmParser) ParseOperand() (string, error) {
	if t := p.lex.Peek(); t.Type == tokValue {
		p.lex.Next()
		return t.Value, nil
	}
	return "", p.Expected("SSA operand")
}

func (p *asmParser) ParseOptionalOperand() (string, bool) {
	if t := p.lex.Peek(); t.Type == tokValue {
		p.lex.Next()
		return t.Value, true
	}
	return "", false
}

func (p *asmParser) ParseOperandList() ([]string, error) {
	if !p.IsOperand() {
		return nil, nil
	}
	var buf [8]string
	vs := buf[:0]
	for {
		v, err := p.ParseOperand()
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
		if !p.ParseOptionalPunct(",") {
			break
		}
	}
	out := p.al.typeLists.many(len(vs))
	copy(out, vs)
	return out, nil
}

func isTypeTok(t *lexer.Token) bool { return t.Type == tokIdent || t.Type == tokBangType }

func (p *asmParser) IsType() bool { return isTypeTok(p.lex.Peek()) }

func (p *asmParser) ParseType() (ir.Type, error) {
	t := p.lex.Peek()
	if !isTypeTok(t) {
		return nil, p.Expected("type")
	}
	p.lex.Next()
	ty, err := ir.ParseType(t.Value)
	if err != nil {
		return nil, &syntaxError{pos: t.Pos, msg: err.Error()}
	}
	return ty, nil
}

func (p *asmParser) ParseTypeList() ([]ir.Type, error) {
	var buf [8]ir.Type
	ts := buf[:0]
	for {
		t, err := p.ParseType()
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
		if !p.ParseOptionalPunct(",") {
			break
		}
	}
	out := p.al.tys.many(len(ts))
	copy(out, ts)
	return out, nil
}

func (p *asmParser) IsFunctionalType() bool {
	t := p.lex.Peek()
	return t.Type == tokSig || t.Type == tokPunct && t.Value == "("
}

func (p *asmParser) ParseFunctionalType(brackets bool) (ins, outs []ir.Type, at ir.AsmLoc, err error) {
	t := p.lex.Peek()
	at = asmLoc(t.Pos)
	if t.Type == tokSig {
		p.lex.Next()
		ins, outs, err = p.al.sig(t.Value, t.Pos, brackets)
		return ins, outs, at, located(err)
	}
	if err = p.ParsePunct("("); err != nil {
		return
	}
	if ins, err = p.typesIn(brackets); err != nil {
		return
	}
	if err = p.ParsePunct(")"); err != nil {
		return
	}
	if err = p.ParsePunct("->"); err != nil {
		return
	}
	if p.ParseOptionalPunct("(") {
		if outs, err = p.typesIn(false); err != nil {
			return
		}
		err = p.ParsePunct(")")
		return
	}
	var r ir.Type
	if r, err = p.ParseType(); err != nil {
		return
	}
	outs = p.Types(1)
	outs[0] = r
	return
}

// typesIn reads a possibly empty type list up to ')'; with brackets a type
// may be written [T].
func (p *asmParser) typesIn(brackets bool) ([]ir.Type, error) {
	if p.IsPunct(")") {
		return nil, nil
	}
	var ts []ir.Type
	for {
		br := brackets && p.ParseOptionalPunct("[")
		t, err := p.ParseType()
		if err != nil {
			return nil, err
		}
		if br {
			if err := p.ParsePunct("]"); err != nil {
				return nil, err
			}
		}
		ts = append(ts, t)
		if !p.ParseOptionalPunct(",") {
			return ts, nil
		}
	}
}

func (p *asmParser) ParseKeyword(kw string) error {
	if !p.ParseOptionalKeyword(kw) {
		return p.Expected("'" + kw + "'")
	}
	return nil
}

func (p *asmParser) ParseOptionalKeyword(kw string) bool {
	if t := p.lex.Peek(); (t.Type == tokIdent || t.Type == tokOpOther) && t.Value == kw {
		p.lex.Next()
		return true
	}
	return false
}

func (p *asmParser) ParseWord() (string, ir.AsmLoc, error) {
	t := p.lex.Peek()
	if t.Type != tokIdent {
		return "", asmLoc(t.Pos), p.Expected("valid keyword")
	}
	p.lex.Next()
	return t.Value, asmLoc(t.Pos), nil
}

func (p *asmParser) IsPunct(s string) bool {
	t := p.lex.Peek()
	return (t.Type == tokPunct || t.Type == tokArrow) && t.Value == s
}

func (p *asmParser) ParsePunct(s string) error {
	if !p.ParseOptionalPunct(s) {
		return p.Expected("'" + s + "'")
	}
	return nil
}

func (p *asmParser) ParseOptionalPunct(s string) bool {
	if p.IsPunct(s) {
		p.lex.Next()
		return true
	}
	return false
}

func (p *asmParser) ParseInt() (int64, ir.AsmLoc, error) {
	t := p.lex.Peek()
	if t.Type != tokInt {
		return 0, asmLoc(t.Pos), p.Expected("integer value")
	}
	p.lex.Next()
	v, err := strconv.ParseInt(t.Value, 0, 64)
	if err != nil {
		return 0, asmLoc(t.Pos), &syntaxError{pos: t.Pos, msg: "integer constant out of range for attribute"}
	}
	return v, asmLoc(t.Pos), nil
}

func (p *asmParser) ParseAttribute() (ir.Attr, ir.AsmLoc, error) {
	t := p.lex.Peek()
	at := asmLoc(t.Pos)
	var a *Attribute
	switch {
	case t.Type == tokInt || t.Type == tokFloat || t.Type == tokIdent && (t.Value == "true" || t.Value == "false"):
		// The frequent scalar, read by hand.
		a = p.al.attrs.one()
		a.Pos = t.Pos
		switch t.Type {
		case tokInt:
			a.Int = t.Value
		case tokFloat:
			a.Float = t.Value
		default:
			a.Bool = t.Value
		}
		p.lex.Next()
		if p.ParseOptionalPunct(":") {
			tt := p.lex.Peek()
			if !isTypeTok(tt) {
				return nil, at, p.Expected("type")
			}
			p.lex.Next()
			a.Typed = tt.Value
		}
	default:
		var err error
		if a, err = attrParser().ParseFromLexer(p.lex, allowTrailing...); err != nil {
			return nil, at, err
		}
	}
	v, err := (*builder)(nil).attr(a)
	if err != nil {
		return nil, at, located(err)
	}
	return v, at, nil
}

func (p *asmParser) ParseOptionalAttrDict() (ir.Attrs, error) {
	if !p.IsPunct("{") {
		return nil, nil
	}
	d, err := dictParser().ParseFromLexer(p.lex, allowTrailing...)
	if err != nil {
		return nil, err
	}
	as, err := (*builder)(nil).attrDict(d)
	return as, located(err)
}

func (p *asmParser) ParseSymbolName() (string, error) {
	t := p.lex.Peek()
	if t.Type != tokSymbol {
		return "", p.Expected("valid '@'-identifier for symbol name")
	}
	p.lex.Next()
	name := t.Value[1:]
	if len(name) > 0 && name[0] == '"' {
		s, err := decodeString(name, t.Pos)
		if err != nil {
			return "", located(err)
		}
		name = s
	}
	return name, nil
}

func (p *asmParser) IsRegion() bool { return p.IsPunct("{") }

// ParseRegion reads "{" OpList "}". A pretty region has no block header:
// its entry block's arguments are named by the op's text.
func (p *asmParser) ParseRegion() (any, ir.AsmLoc, error) {
	t := p.lex.Peek()
	at := asmLoc(t.Pos)
	if !p.IsPunct("{") {
		return nil, at, p.Expected("'{' to begin a region")
	}
	p.lex.Next()
	r := &Region{Pos: t.Pos}
	if h := p.lex.Peek(); h.Type == tokCaret {
		return nil, at, &syntaxError{pos: h.Pos, msg: "invalid block name in region with named arguments"}
	}
	r.Body = &OpList{}
	if t := p.lex.Peek(); t.Type == tokOpaque {
		if err := r.Body.Parse(p.lex); err != nil {
			return nil, at, err
		}
	} else {
		// The region's operations come from this op's allocator; parsing
		// them reuses its format interpreter (p), whose state is the outer
		// operation's again after.
		saved := *p
		err := r.Body.parse(p.lex, stateOf(p.lex), p.al)
		*p = saved
		if err != nil {
			return nil, at, err
		}
	}
	if err := p.ParsePunct("}"); err != nil {
		return nil, at, err
	}
	return r, at, nil
}

func (p *asmParser) Names(n int) []string { return p.al.typeLists.many(n) }
func (p *asmParser) Types(n int) []ir.Type {
	return p.al.tys.many(n)
}

// pretty builds an operation parsed from its format.
func (b *builder) pretty(o *Operation, po *PrettyOp) error {
	st := &po.st
	d := st.Def
	infer := false
	for g := range d.Results {
		if st.ResultTypes[g] == nil && d.Results[g].Arity == ir.One {
			infer = true
		}
	}
	if infer {
		if err := b.inferResults(o, st); err != nil {
			return err
		}
	}
	nUses, nRes := 0, 0
	for _, g := range st.Operands {
		nUses += len(g)
	}
	for _, g := range st.ResultTypes {
		nRes += len(g)
	}
	al := b.al
	o.uses = al.uses.many(nUses)
	k := 0
	for g, names := range st.Operands {
		ts := st.OperandTypes[g]
		for i, n := range names {
			o.uses[k] = use{n, ts[i]}
			k++
		}
	}
	op := al.irOps.one()
	op.Name, op.Attrs, op.Loc = d.Name, st.Attrs, b.loc(o.Tokens[0].Pos)
	op.Operands = al.valPtrs.many(nUses)
	if nRes > 0 {
		vals := al.values.many(nRes)
		op.Results = al.valPtrs.many(nRes)
		k := 0
		for _, g := range st.ResultTypes {
			for _, t := range g {
				vals[k] = ir.Value{Type: t, Def: op, Index: k, Loc: op.Loc}
				op.Results[k] = &vals[k]
				k++
			}
		}
	}
	o.op = op
	if len(d.Regions) == 0 {
		return nil
	}
	term := d.ImplicitTerminator
	for i := range st.Regions {
		r := &st.Regions[i]
		if r.Body == nil {
			op.Regions = append(op.Regions, &ir.Region{Parent: op})
			continue
		}
		spec := regionSpec{ast: r.Body.(*Region), pretty: true, terminator: term}
		for _, a := range r.Args {
			spec.argTypes = append(spec.argTypes, a.Type)
			spec.argNames = append(spec.argNames, a.Name)
			spec.argPos = append(spec.argPos, lexPos(a.Loc))
			spec.argEnd = append(spec.argEnd, typeEnd(o.Tokens, a.Loc.Offset))
		}
		if err := b.region(o, spec); err != nil {
			return err
		}
	}
	return nil
}

// inferResults gives the One result groups the text left untyped their
// inferred types, with the verifier's words for a missing rule.
func (b *builder) inferResults(o *Operation, st *ir.OpState) error {
	d := st.Def
	at := o.Tokens[0].Pos
	inf := d.Infer
	if inf == nil {
		return errAt(at, "cannot infer the result type of '%s'", d.Name)
	}
	b.inferIn = ir.InferInput{Def: d, Style: b.style, Operands: st.OperandTypes, Attrs: st.Attrs}
	res := b.al.tys.many(len(d.Results))
	err := inf(&b.inferIn, res)
	b.inferIn = ir.InferInput{}
	if err != nil {
		var noRule *typing.NoRuleError
		if errors.As(err, &noRule) {
			return diag.OpErrorAt(loc(at), d.Name, "%s", err.Error())
		}
		return errAt(at, "%s", err.Error())
	}
	k := 0
	for g := range d.Results {
		if d.Results[g].Arity != ir.One {
			continue
		}
		k++
		if st.ResultTypes[g] != nil {
			continue
		}
		if res[k-1] == nil {
			return errAt(at, "cannot infer the result type of '%s'", d.Name)
		}
		st.ResultTypes[g] = res[k-1 : k : k]
	}
	return nil
}
