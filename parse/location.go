package parse

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/otir-dev/otir/ir"
)

// Locations written in the input: an operation's loc(...) after its last
// token becomes its location, and a block argument's after its type its
// location, as in mlir-opt. Location aliases,
// #name = loc(...), are found by scanning the source once, when a location
// first refers to one (they may follow their uses).

// trailingLoc reads the location written after o's text, if any.
func (r *resolver) trailingLoc(o *Operation) (ir.Location, bool, error) {
	return r.locAfter(o, int(o.text.end))
}

// locAfter reads the location written at offset end of the source or after
// blanks and comments (in o's text: o locates errors), if any.
func (r *resolver) locAfter(o *Operation, end int) (ir.Location, bool, error) {
	p := skipBlank(r.src, end)
	if !strings.HasPrefix(r.src[p:], "loc(") {
		return ir.Location{}, false, nil
	}
	e, ok := skipLoc(r.src, p)
	if !ok {
		return ir.Location{}, false, errAt(r.posAt(o, p), "expected ')' to end the location")
	}
	open := p + len("loc(")
	lp := &locParser{r: r, s: r.src[open : e-1], base: open, opening: open}
	l, err := lp.top()
	if err != nil {
		at := p
		if le, ok := err.(*locError); ok {
			at = le.off
		}
		return ir.Location{}, false, errAt(r.posAt(o, at), "%s", err.Error())
	}
	return ir.LocationOf(l), true, nil
}

// skipBlank skips blanks and // comments.
func skipBlank(src string, p int) int {
	for p < len(src) {
		switch c := src[p]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p++
		case c == '/' && p+1 < len(src) && src[p+1] == '/':
			for p < len(src) && src[p] != '\n' {
				p++
			}
		default:
			return p
		}
	}
	return p
}

// posAt is the position of offset off of the source, counted from o's
// first token (whose line and column are known).
func (r *resolver) posAt(o *Operation, off int) lexer.Position {
	line, col := int(o.text.line), int(o.text.col)
	start := int(o.text.start)
	if off < start { // an alias's text, before o
		for i := off; i < start && i < len(r.src); i++ {
			if r.src[i] == '\n' {
				line--
			}
		}
		ls := strings.LastIndexByte(r.src[:off], '\n') + 1
		return lexer.Position{Offset: off, Line: line, Column: off - ls + 1}
	}
	for i := start; i < off && i < len(r.src); i++ {
		if r.src[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return lexer.Position{Offset: off, Line: line, Column: col}
}

// locAlias is the text of an alias's location and its offset in the source.
type locAlias struct {
	text string
	off  int
}

// locAliases finds every #name = loc(...) of the source, unparsed.
func (r *resolver) locAliases() map[string]locAlias {
	if r.aliases != nil {
		return r.aliases
	}
	r.aliases = map[string]locAlias{}
	src := r.src
	for p := 0; p < len(src); {
		q := p
		for q < len(src) && (src[q] == ' ' || src[q] == '\t') {
			q++
		}
		if q < len(src) && src[q] == '#' {
			e := q + 1
			for e < len(src) && isIDChar(src[e]) {
				e++
			}
			name := src[q:e]
			v := e
			for v < len(src) && (src[v] == ' ' || src[v] == '\t') {
				v++
			}
			if v < len(src) && src[v] == '=' {
				v = skipBlank(src, v+1)
				if strings.HasPrefix(src[v:], "loc(") {
					if end, ok := skipLoc(src, v); ok {
						r.aliases[name] = locAlias{src[v+len("loc(") : end-1], v + len("loc(")}
					}
				}
			}
		}
		nl := strings.IndexByte(src[p:], '\n')
		if nl < 0 {
			break
		}
		p += nl + 1
	}
	return r.aliases
}

// locParser reads the text inside loc(...).
type locParser struct {
	r *resolver
	s string
	p int
	// base is the offset of s in the source; opening that of the text of
	// the location being read, after "loc(".
	base, opening int
	depth         int
}

// locError is a malformed location: its message and where in the source.
type locError struct {
	msg string
	off int
}

func (e *locError) Error() string { return e.msg }

// fail makes an error where mlir-opt reports a wrong token: right after
// the token before it (the next token, backed up over blanks).
func (lp *locParser) fail(msg string) error {
	lp.blank()
	p := lp.p
	for p > 0 && (lp.s[p-1] == ' ' || lp.s[p-1] == '\t') {
		p--
	}
	return &locError{msg: msg, off: lp.base + p}
}

func (lp *locParser) top() (*ir.Loc, error) {
	l, err := lp.loc()
	if err != nil {
		return nil, err
	}
	lp.blank()
	if lp.p != len(lp.s) {
		return nil, lp.fail("expected ')' in location")
	}
	return l, nil
}

func (lp *locParser) blank() {
	for lp.p < len(lp.s) && (lp.s[lp.p] == ' ' || lp.s[lp.p] == '\t') {
		lp.p++
	}
}

func (lp *locParser) eat(tok string) bool {
	lp.blank()
	if strings.HasPrefix(lp.s[lp.p:], tok) {
		lp.p += len(tok)
		return true
	}
	return false
}

func (lp *locParser) ident() string {
	lp.blank()
	st := lp.p
	for lp.p < len(lp.s) && isIDChar(lp.s[lp.p]) {
		lp.p++
	}
	return lp.s[st:lp.p]
}

func (lp *locParser) str() (string, error) {
	lp.blank()
	st := lp.p
	if lp.p >= len(lp.s) || lp.s[lp.p] != '"' {
		return "", lp.fail("expected location instance")
	}
	for lp.p++; lp.p < len(lp.s) && lp.s[lp.p] != '"'; lp.p++ {
		if lp.s[lp.p] == '\\' {
			lp.p++
		}
	}
	if lp.p >= len(lp.s) {
		return "", lp.fail("expected '\"' to end the string")
	}
	lp.p++
	s, err := decodeString(lp.s[st:lp.p], lexer.Position{})
	if err != nil {
		return "", lp.fail("invalid escape in a location's string")
	}
	return s, nil
}

// int reads an unsigned 32-bit integer; ok is false, having read nothing,
// when there is none.
func (lp *locParser) int() (int, bool) {
	lp.blank()
	st := lp.p
	for lp.p < len(lp.s) && isDigit(lp.s[lp.p]) {
		lp.p++
	}
	n, err := strconv.ParseUint(lp.s[st:lp.p], 10, 32)
	if err != nil {
		lp.p = st
		return 0, false
	}
	return int(n), true
}

// fileLoc reads the rest of a file location after "file": as MLIR 22
// does: line, line:col, or a range line:col to line:col / line:col to :col
// (a range that ends where it starts is a file location).
func (lp *locParser) fileLoc(name string) (*ir.Loc, error) {
	line, ok := lp.int()
	if !ok {
		return nil, lp.fail("expected integer line number in FileLineColRange")
	}
	l := &ir.Loc{Kind: ir.LocFile, Name: name, Line: line}
	if !lp.eat(":") {
		return l, nil // "file":line, column 0
	}
	if l.Col, ok = lp.int(); !ok {
		return nil, lp.fail("expected integer column number in FileLineColRange")
	}
	if !lp.keyword("to") {
		return l, nil
	}
	l.EndLine = line
	if n, ok := lp.int(); ok {
		l.EndLine = n
		if !lp.eat(":") {
			return nil, lp.fail("expected either integer or `:` post `to` in FileLineColRange")
		}
	} else if !lp.eat(":") {
		return nil, lp.fail("expected either integer or `:` post `to` in FileLineColRange")
	}
	if l.EndCol, ok = lp.int(); !ok {
		return nil, lp.fail("expected integer column number in FileLineColRange")
	}
	if l.EndLine != l.Line || l.EndCol != l.Col {
		l.Kind = ir.LocRange
	}
	return l, nil
}

// fuse simplifies a fused location as MLIR's FusedLoc::get does: nested
// fused locations with the same metadata are flattened, unknown locations
// and repeats dropped; none left is unknown and one left without metadata is
// that location.
func fuse(l *ir.Loc) *ir.Loc {
	var locs []*ir.Loc
	seen := map[string]bool{}
	add := func(c *ir.Loc) {
		if k := c.String(); !seen[k] {
			seen[k] = true
			locs = append(locs, c)
		}
	}
	for _, c := range l.Locs {
		switch {
		case c.Kind == ir.LocFused && c.Meta == l.Meta:
			for _, cc := range c.Locs {
				add(cc)
			}
		case c.Kind != ir.LocUnknown:
			add(c)
		}
	}
	switch {
	case len(locs) == 0 && l.Meta == "":
		return &ir.Loc{Kind: ir.LocUnknown}
	case len(locs) == 1 && l.Meta == "":
		return locs[0]
	}
	l.Locs = locs
	return l
}

// keyword eats the bare word w when it comes next.
func (lp *locParser) keyword(w string) bool {
	lp.blank()
	e := lp.p + len(w)
	if strings.HasPrefix(lp.s[lp.p:], w) && (e == len(lp.s) || !isIDChar(lp.s[e])) {
		lp.p = e
		return true
	}
	return false
}

// loc reads one location: unknown, "file":line:col, "name"(child)?,
// callsite(a at b), fused<meta>?[a, ...] or an alias #name.
func (lp *locParser) loc() (*ir.Loc, error) {
	lp.depth++
	defer func() { lp.depth-- }()
	if lp.depth > 256 {
		return nil, lp.fail("location nested too deeply")
	}
	lp.blank()
	if lp.p >= len(lp.s) {
		return nil, lp.fail("expected location instance")
	}
	switch c := lp.s[lp.p]; {
	case c == '"':
		name, err := lp.str()
		if err != nil {
			return nil, err
		}
		if lp.eat(":") {
			return lp.fileLoc(name)
		}
		l := &ir.Loc{Kind: ir.LocName, Name: name}
		if lp.eat("(") {
			child, err := lp.loc()
			if err != nil {
				return nil, err
			}
			if !lp.eat(")") {
				return nil, lp.fail("expected ')' in location")
			}
			l.Locs = []*ir.Loc{child}
		}
		return l, nil
	case c == '#':
		st := lp.p
		lp.p++
		name := "#" + lp.ident()
		a, ok := lp.r.locAliases()[name]
		if !ok {
			if lp.depth == 1 && lp.base+st == lp.opening {
				lp.p = st // loc(#name): mlir-opt's words for an op's location
				return nil, lp.fail("operation location alias was never defined")
			}
			return nil, lp.fail("undefined symbol alias id '" + name[1:] + "'")
		}
		sub := &locParser{r: lp.r, s: a.text, base: a.off, depth: lp.depth}
		return sub.top()
	}
	st := lp.p
	switch kw := lp.ident(); kw {
	case "unknown":
		return &ir.Loc{Kind: ir.LocUnknown}, nil
	case "callsite":
		if !lp.eat("(") {
			return nil, lp.fail("expected '(' in callsite location")
		}
		callee, err := lp.loc()
		if err != nil {
			return nil, err
		}
		if !lp.keyword("at") {
			return nil, lp.fail("expected 'at' in callsite location")
		}
		caller, err := lp.loc()
		if err != nil {
			return nil, err
		}
		if !lp.eat(")") {
			return nil, lp.fail("expected ')' in location")
		}
		return &ir.Loc{Kind: ir.LocCallSite, Locs: []*ir.Loc{callee, caller}}, nil
	case "fused":
		l := &ir.Loc{Kind: ir.LocFused}
		if lp.eat("<") {
			st, depth := lp.p, 1
			for ; lp.p < len(lp.s) && depth > 0; lp.p++ {
				switch lp.s[lp.p] {
				case '<':
					depth++
				case '>':
					depth--
				case '"':
					for lp.p++; lp.p < len(lp.s) && lp.s[lp.p] != '"'; lp.p++ {
						if lp.s[lp.p] == '\\' {
							lp.p++
						}
					}
				}
			}
			if depth > 0 {
				return nil, lp.fail("expected '>' after fused location metadata")
			}
			l.Meta = strings.TrimSpace(lp.s[st : lp.p-1])
		}
		if !lp.eat("[") {
			return nil, lp.fail("expected '[' in fused location")
		}
		if !lp.eat("]") {
			for {
				c, err := lp.loc()
				if err != nil {
					return nil, err
				}
				l.Locs = append(l.Locs, c)
				if lp.eat("]") {
					break
				}
				if !lp.eat(",") {
					return nil, lp.fail("expected ']' in fused location")
				}
			}
		}
		return fuse(l), nil
	}
	lp.p = st
	return nil, lp.fail("expected location instance")
}
