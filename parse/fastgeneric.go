package parse

import (
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/otir-dev/otir/ir"
)

// The fast path of the generic form: operations written "name"(%a) {...} :
// (T) -> T without regions, whose attributes are scalars, strings, types or
// units, are read by hand into exactly the AST the participle grammar builds
// for them. It never reports an error: on anything unexpected it rewinds and
// lets the grammar parse the operation (and word the error). The pretty
// forms need no such path: their format interpreter (pretty.go) is theirs.

// fastReader reads tokens for the fast path.
type fastReader struct {
	lex *lexer.PeekingLexer
	al  *allocator
	ok  bool
}

func (f *fastReader) peek() *lexer.Token { return f.lex.Peek() }

// punct consumes the punctuation s, or fails.
func (f *fastReader) punct(s string) {
	if !f.ok {
		return
	}
	t := f.lex.Peek()
	if (t.Type != tokPunct && t.Type != tokArrow) || t.Value != s {
		f.ok = false
		return
	}
	f.lex.Next()
}

// isPunct reports whether the next token is the punctuation s.
func (f *fastReader) isPunct(s string) bool {
	t := f.lex.Peek()
	return (t.Type == tokPunct || t.Type == tokArrow) && t.Value == s
}

// word consumes a token of type typ with text s (any text if s is empty).
func (f *fastReader) word(typ lexer.TokenType, s string) string {
	if !f.ok {
		return ""
	}
	t := f.lex.Peek()
	if t.Type != typ || s != "" && t.Value != s {
		f.ok = false
		return ""
	}
	f.lex.Next()
	return t.Value
}

func (f *fastReader) value() string { return f.word(tokValue, "") }

// typ consumes a type token.
func (f *fastReader) typ() string {
	if !f.ok {
		return ""
	}
	t := f.lex.Peek()
	if !isTypeTok(t) {
		f.ok = false
		return ""
	}
	f.lex.Next()
	return t.Value
}

// types consumes Type ("," Type)*.
func (f *fastReader) types() []string { return f.list(f.typ) }

// list consumes item ("," item)* into a list from the arena. As the grammar
// commits to a repetition once it has read its ',', a ',' not followed by
// an item fails.
func (f *fastReader) list(item func() string) []string {
	var buf [8]string
	vs := buf[:0]
	for {
		vs = append(vs, item())
		if !f.ok || !f.isPunct(",") {
			break
		}
		f.lex.Next()
	}
	if !f.ok {
		return nil
	}
	out := f.al.typeLists.many(len(vs))
	copy(out, vs)
	return out
}

// funcType consumes a Sig token or "(" Types? ")" "->" (Type | "(" Types? ")").
func (f *fastReader) funcType() *FuncType {
	if !f.ok {
		return nil
	}
	ft := f.al.funcs.one()
	ft.Pos = f.peek().Pos
	if t := f.peek(); t.Type == tokSig {
		ft.Sig = f.lex.Next().Value
		return ft
	}
	f.punct("(")
	if f.ok && !f.isPunct(")") {
		ft.Ins = f.types()
	}
	f.punct(")")
	f.punct("->")
	if !f.ok {
		return nil
	}
	if f.isPunct("(") {
		f.lex.Next()
		ft.Paren = true
		if !f.isPunct(")") {
			ft.Outs = f.types()
		}
		f.punct(")")
	} else {
		ft.Out = f.typ()
	}
	return ft
}

// fastGeneric parses one operation in the simple generic form, or returns
// nil with the lexer where it was.
func fastGeneric(lex *lexer.PeekingLexer, al *allocator) *Operation {
	t := lex.Peek()
	if t.Type != tokString && t.Type != tokValue && t.Type != tokResultGroup {
		return nil
	}
	cp := lex.MakeCheckpoint()
	start := lex.RawCursor()
	f := fastReader{lex: lex, al: al, ok: true}
	o := al.ops.one()
	if t.Type == tokValue || t.Type == tokResultGroup {
		o.Results = al.strs.many(1)[:0]
		for {
			t := lex.Peek()
			if t.Type != tokValue && t.Type != tokResultGroup {
				f.ok = false
				break
			}
			o.Results = append(o.Results, lex.Next().Value)
			if f.isPunct(",") {
				lex.Next()
				continue
			}
			f.punct("=")
			break
		}
	}
	if f.ok && lex.Peek().Type == tokString {
		o.Body = f.generic()
	} else {
		f.ok = false
	}
	if !f.ok || o.Body == nil {
		lex.LoadCheckpoint(cp)
		return nil
	}
	o.Tokens = lex.Range(start, lex.RawCursor())
	return o
}

// generic consumes the generic form of an operation without regions, whose
// attributes, if any, are scalars, strings, types or units:
// "name"(%a, %b) {k = 1 : i32} : (T, T) -> T.
func (f *fastReader) generic() OpBody {
	t := f.lex.Next()
	name, err := decodeString(t.Value, t.Pos)
	if err != nil || ir.LookupOp(name) == nil {
		f.ok = false // the grammar words the error
		return nil
	}
	g := f.al.generics.one()
	g.Name.Name = name
	f.punct("(")
	if f.ok && !f.isPunct(")") {
		g.Operands = f.list(f.value)
	}
	f.punct(")")
	if !f.ok || f.isPunct("(") {
		f.ok = false // regions
		return nil
	}
	if f.isPunct("{") {
		g.Attrs = f.attrDict()
	}
	f.punct(":")
	g.Sig = f.funcType()
	if !f.ok {
		return nil
	}
	return g
}

// maxFastAttrs is the most attributes the fast path reads; longer
// dictionaries go to the grammar.
const maxFastAttrs = 8

// attrDict consumes "{" (Entry ("," Entry)*)? "}" of simple attributes.
func (f *fastReader) attrDict() *AttrDict {
	f.punct("{")
	d := f.al.dicts.one()
	if f.isPunct("}") {
		f.lex.Next()
		return d
	}
	var buf [maxFastAttrs]*AttrEntry
	n := 0
	for f.ok {
		t := f.peek()
		switch t.Type {
		case tokIdent, tokString, tokOpOther:
		default:
			f.ok = false
			return nil
		}
		if n == maxFastAttrs {
			f.ok = false
			return nil
		}
		e := f.al.entries.one()
		e.Pos, e.Name = t.Pos, f.lex.Next().Value
		if f.isPunct("=") {
			f.lex.Next()
			e.Value = f.attrValue()
		}
		buf[n] = e
		n++
		if !f.isPunct(",") {
			break
		}
		f.lex.Next()
	}
	f.punct("}")
	d.Entries = f.al.entryLists.many(n)
	copy(d.Entries, buf[:n])
	return d
}

// attrValue consumes a scalar, string, unit or type attribute with its
// optional `: type`; anything else fails.
func (f *fastReader) attrValue() *Attribute {
	if !f.ok {
		return nil
	}
	t := f.peek()
	a := f.al.attrs.one()
	a.Pos = t.Pos
	switch {
	case t.Type == tokInt:
		a.Int = t.Value
	case t.Type == tokFloat:
		a.Float = t.Value
	case t.Type == tokString:
		a.Str = t.Value
	case t.Type == tokIdent && (t.Value == "true" || t.Value == "false"):
		a.Bool = t.Value
	case t.Type == tokIdent && t.Value == "unit":
		a.Unit = true
	case t.Type == tokIdent && t.Value == "dense":
		f.ok = false
		return nil
	case isTypeTok(t):
		a.Type = t.Value
	default:
		f.ok = false
		return nil
	}
	f.lex.Next()
	if f.isPunct(":") {
		f.lex.Next()
		a.Typed = f.typ()
	}
	return a
}
