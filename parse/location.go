package parse

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/otir-dev/otir/ir"
)

// Locations written in the input: an operation's loc(...) after its last
// token becomes its location, as in mlir-opt. Location aliases,
// #name = loc(...), are found by scanning the source once, when a location
// first refers to one (they may follow their uses).

// trailingLoc reads the location written after o's text, if any.
func (r *resolver) trailingLoc(o *Operation) (ir.Location, bool, error) {
	p := skipBlank(r.src, int(o.text.end))
	if !strings.HasPrefix(r.src[p:], "loc(") {
		return ir.Location{}, false, nil
	}
	end, ok := skipLoc(r.src, p)
	if !ok {
		return ir.Location{}, false, errAt(r.posAt(o, p), "expected ')' to end the location")
	}
	lp := &locParser{r: r, s: r.src[p+len("loc(") : end-1]}
	l, err := lp.top()
	if err != nil {
		return ir.Location{}, false, errAt(r.posAt(o, p), "%s", err.Error())
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

// posAt is the position of offset off at or after o's first token.
func (r *resolver) posAt(o *Operation, off int) lexer.Position {
	line, col := int(o.text.line), int(o.text.col)
	for i := int(o.text.start); i < off && i < len(r.src); i++ {
		if r.src[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return lexer.Position{Offset: off, Line: line, Column: col}
}

// locAliases finds every #name = loc(...) of the source, unparsed.
func (r *resolver) locAliases() map[string]string {
	if r.aliases != nil {
		return r.aliases
	}
	r.aliases = map[string]string{}
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
						r.aliases[name] = src[v+len("loc(") : end-1]
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
	r     *resolver
	s     string
	p     int
	depth int
}

type locError string

func (e locError) Error() string { return string(e) }

func (lp *locParser) top() (*ir.Loc, error) {
	l, err := lp.loc()
	if err != nil {
		return nil, err
	}
	lp.blank()
	if lp.p != len(lp.s) {
		return nil, locError("expected ')' to end the location")
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
		return "", locError("expected location instance")
	}
	for lp.p++; lp.p < len(lp.s) && lp.s[lp.p] != '"'; lp.p++ {
		if lp.s[lp.p] == '\\' {
			lp.p++
		}
	}
	if lp.p >= len(lp.s) {
		return "", locError("expected '\"' to end the string")
	}
	lp.p++
	s, err := decodeString(lp.s[st:lp.p], lexer.Position{})
	if err != nil {
		return "", locError("invalid escape in a location's string")
	}
	return s, nil
}

func (lp *locParser) int() (int, error) {
	lp.blank()
	st := lp.p
	for lp.p < len(lp.s) && isDigit(lp.s[lp.p]) {
		lp.p++
	}
	n, err := strconv.Atoi(lp.s[st:lp.p])
	if err != nil || n > 1<<31-1 {
		return 0, locError("expected integer line and column in a file location")
	}
	return n, nil
}

// loc reads one location: unknown, "file":line:col, "name"(child)?,
// callsite(a at b), fused<meta>?[a, ...] or an alias #name.
func (lp *locParser) loc() (*ir.Loc, error) {
	lp.depth++
	defer func() { lp.depth-- }()
	if lp.depth > 256 {
		return nil, locError("location nested too deeply")
	}
	lp.blank()
	if lp.p >= len(lp.s) {
		return nil, locError("expected location instance")
	}
	switch c := lp.s[lp.p]; {
	case c == '"':
		name, err := lp.str()
		if err != nil {
			return nil, err
		}
		if lp.eat(":") {
			line, err := lp.int()
			if err != nil {
				return nil, err
			}
			if !lp.eat(":") {
				return nil, locError("expected ':' in a file location")
			}
			col, err := lp.int()
			if err != nil {
				return nil, err
			}
			return &ir.Loc{Kind: ir.LocFile, Name: name, Line: line, Col: col}, nil
		}
		l := &ir.Loc{Kind: ir.LocName, Name: name}
		if lp.eat("(") {
			child, err := lp.loc()
			if err != nil {
				return nil, err
			}
			if !lp.eat(")") {
				return nil, locError("expected ')' after a name location's child")
			}
			l.Locs = []*ir.Loc{child}
		}
		return l, nil
	case c == '#':
		lp.p++
		name := "#" + lp.ident()
		text, ok := lp.r.locAliases()[name]
		if !ok {
			return nil, locError("undefined symbol alias id '" + name[1:] + "'")
		}
		sub := &locParser{r: lp.r, s: text, depth: lp.depth}
		return sub.top()
	}
	switch kw := lp.ident(); kw {
	case "unknown":
		return &ir.Loc{Kind: ir.LocUnknown}, nil
	case "callsite":
		if !lp.eat("(") {
			return nil, locError("expected '(' in callsite location")
		}
		callee, err := lp.loc()
		if err != nil {
			return nil, err
		}
		if lp.ident() != "at" {
			return nil, locError("expected 'at' in callsite")
		}
		caller, err := lp.loc()
		if err != nil {
			return nil, err
		}
		if !lp.eat(")") {
			return nil, locError("expected ')' in callsite location")
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
				return nil, locError("expected '>' after fused location metadata")
			}
			l.Meta = strings.TrimSpace(lp.s[st : lp.p-1])
		}
		if !lp.eat("[") {
			return nil, locError("expected '[' in fused location")
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
					return nil, locError("expected ']' in fused location")
				}
			}
		}
		return l, nil
	}
	return nil, locError("expected location instance")
}
