package parse

import (
	"fmt"
	"io"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/otir-dev/otir/internal/readlimit"
	"github.com/otir-dev/otir/ir"
)

// Token types of the OTIR lexer. Tokens are coarse on purpose: an SSA name
// with its result number (%0#1), a whole dialect type (!otir.tile<16xi8,
// #private>) and an operation name are one token each, so that participle
// matches few tokens per operation.
const (
	tokValue       lexer.TokenType = iota + 1 // %name, %name#N
	tokResultGroup                            // %name:N (a result group before '=')
	tokSymbol                                 // @name, @"name"
	tokCaret                                  // ^bb0
	tokHash                                   // #name
	tokIdent                                  // bare identifier: i8, index, to, module, foo.bar
	tokBangType                               // !dialect.name or !dialect.name<...>
	tokInt                                    // 42, -3, 0x7FF0000000000000
	tokFloat                                  // 1.5, -2.0e-3
	tokString                                 // "text" (raw, with quotes and escapes)
	tokArrow                                  // ->
	tokSig                                    // (T1, T2) -> T3 after ':' (one line)
	tokPunct                                  // = , : ( ) { } [ ] < > ? * +
	// A registered operation name (its record says how it is written).
	tokOpOther
	// A large region body kept as text, scanned and parsed later in chunks
	// (skeleton.go, stream.go).
	tokOpaque
	// The bracketed list of a dense<[...]> literal as one token, when it
	// holds only brackets, commas, blanks and scalars (dense.go parses it).
	tokDenseList
	numTokenTypes
)

// symbols names the token types for participle grammars (`@Value`, `@Int`).
var symbols = map[string]lexer.TokenType{
	"EOF":         lexer.EOF,
	"Value":       tokValue,
	"ResultGroup": tokResultGroup,
	"Symbol":      tokSymbol,
	"Caret":       tokCaret,
	"Hash":        tokHash,
	"Ident":       tokIdent,
	"BangType":    tokBangType,
	"Int":         tokInt,
	"Float":       tokFloat,
	"String":      tokString,
	"Arrow":       tokArrow,
	"Sig":         tokSig,
	"Punct":       tokPunct,
	"OpOther":     tokOpOther,
	"DenseList":   tokDenseList,
}

// opTokenType classifies a bare identifier: a registered operation name is
// tokOpOther, anything else tokIdent.
func opTokenType(name string) lexer.TokenType {
	if ir.LookupOp(name) == nil {
		return tokIdent
	}
	return tokOpOther
}

// lexDef is the participle lexer.Definition of OTIR text.
type lexDef struct{ lineOffset int }

func (lexDef) Symbols() map[string]lexer.TokenType { return symbols }

func (d lexDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := readlimit.All(r, readlimit.Default, "")
	if err != nil {
		return nil, err
	}
	return d.LexString(filename, string(b))
}

func (d lexDef) LexBytes(filename string, b []byte) (lexer.Lexer, error) {
	return d.LexString(filename, string(b))
}

func (d lexDef) LexString(filename string, s string) (lexer.Lexer, error) {
	return newScanner(s, d.lineOffset), nil
}

// scanner turns source text into tokens, one per Next call (it is the
// lexer.Lexer that participle's PeekingLexer reads).
type scanner struct {
	src       string
	pos       int
	line      int           // current line (with the line offset applied)
	lineStart int           // byte offset of the current line's first byte
	toks      []lexer.Token // scanned tokens (emit appends here)
	depth     int           // bracket depth (relative to the start)
	peak      int           // greatest depth so far
	piece     bool          // scanning a piece: record peaks, do not fail
	peaks     []peak
	spans     []bodySpan // large bodies to emit as opaque tokens, by start
	nextSpan  int        // first span of spans not yet passed
	base      int        // bracket nesting where the scan starts
	// dense is 1 after the identifier "dense", 2 after "dense <": a '['
	// then starts a dense list token.
	dense int
	// cutList is set when a dense list runs past the end of src: in a piece
	// of a larger source (scanTokens), the list crosses the cut, and the
	// source must be scanned whole so that it is one token.
	cutList bool
}

// maxNesting bounds bracket nesting, so that no input can exhaust the stack
// of the recursive grammar, the printer or the verifier. Depth counts '(',
// '[' and '{' up and their closers down, unbalanced closers included.
const maxNesting = 4096

const nestingError = "brackets nested more than 4096 levels deep"

// peak is a point where a piece's bracket depth reached a new maximum.
type peak struct {
	depth int // relative to the piece's start
	idx   int // index of the opening token in the piece's tokens
}

// newScanner scans src; token positions carry no file name (the parser adds
// it to locations and diagnostics).
func newScanner(src string, lineOffset int) *scanner {
	return &scanner{src: src, line: 1 + lineOffset}
}

// Next returns the next token, EOF at the end. A lexical error is a
// *syntaxError at the offending character.
func (s *scanner) Next() (lexer.Token, error) {
	s.toks = s.toks[:0]
	for len(s.toks) == 0 { // a dropped location scans no token
		if err := s.scanOne(); err != nil {
			return lexer.Token{}, err
		}
	}
	return s.toks[0], nil
}

// scanOne appends the next token (EOF at the end) to s.toks, or nothing
// when it read a location, which is dropped.
func (s *scanner) scanOne() error {
	if err := s.skipSpace(); err != nil {
		return err
	}
	if s.pos >= len(s.src) {
		s.toks = append(s.toks, lexer.Token{Type: lexer.EOF, Pos: s.here()})
		return nil
	}
	return s.next()
}

// scanPiece appends every token up to the end of s.src, without EOF.
func (s *scanner) scanPiece() error {
	for {
		if err := s.skipSpace(); err != nil {
			return err
		}
		if s.pos >= len(s.src) {
			return nil
		}
		if err := s.next(); err != nil {
			return err
		}
	}
}

// scanAll appends every token of the source, ending with EOF, to s.toks.
func (s *scanner) scanAll() error {
	for {
		n := len(s.toks)
		if err := s.scanOne(); err != nil {
			return err
		}
		if len(s.toks) > n && s.toks[len(s.toks)-1].Type == lexer.EOF {
			return nil
		}
	}
}

// tokenize scans the whole source; the result ends with an EOF token.
func tokenize(src string, lineOffset int) ([]lexer.Token, error) {
	s := newScanner(src, lineOffset)
	if err := s.scanAll(); err != nil {
		return nil, err
	}
	return s.toks, nil
}

func (s *scanner) here() lexer.Position {
	return lexer.Position{Offset: s.pos, Line: s.line, Column: s.pos - s.lineStart + 1}
}

func (s *scanner) errAt(pos int, msg string) error {
	p := s.here()
	p.Offset = pos
	p.Column = pos - s.lineStart + 1
	return &syntaxError{pos: p, msg: msg}
}

// skipSpace skips blanks, newlines and // comments.
func (s *scanner) skipSpace() error {
	for s.pos < len(s.src) {
		switch c := s.src[s.pos]; c {
		case ' ', '\t', '\r':
			s.pos++
		case '\n':
			s.pos++
			s.line++
			s.lineStart = s.pos
		case '/':
			if s.pos+1 < len(s.src) && s.src[s.pos+1] == '/' {
				for s.pos < len(s.src) && s.src[s.pos] != '\n' {
					s.pos++
				}
				continue
			}
			return s.errAt(s.pos, "unexpected character")
		default:
			return nil
		}
	}
	return nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isHex(c byte) bool    { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// isIDChar is a character of a bare identifier after the first.
func isIDChar(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' || c == '$' || c == '.' }

// isSuffixChar is a character of an SSA or block name (MLIR's suffix-id).
func isSuffixChar(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_' || c == '$' || c == '.' || c == '-'
}

func (s *scanner) emit(typ lexer.TokenType, start int) {
	s.toks = append(s.toks, lexer.Token{
		Type:  typ,
		Value: s.src[start:s.pos],
		Pos:   lexer.Position{Offset: start, Line: s.line, Column: start - s.lineStart + 1},
	})
	switch {
	case typ == tokIdent && s.pos-start == 5 && s.src[start:s.pos] == "dense":
		s.dense = 1
	case s.dense == 1 && typ == tokPunct && s.src[start] == '<':
		s.dense = 2
	default:
		s.dense = 0
	}
}

// denseListToken turns the list token on (tests turn it off to compare with
// the token-by-token grammar).
var denseListToken = true

// denseList emits the list of a dense<[...]> literal starting at s.pos as
// one tokDenseList token, so that a literal of millions of elements costs
// one token (denselist.go parses it in linear time, at any depth). It only
// does so when the list is balanced, nested at most maxNesting deep, and
// holds nothing but brackets, commas, blanks, "//" comments, numbers and
// true/false, each scalar followed by a delimiter; otherwise it emits
// nothing and the list is scanned token by token (whose errors then apply).
func (s *scanner) denseList() bool {
	src, start := s.src, s.pos
	p, depth, top := start, 0, 0
	line, lineStart := s.line, s.lineStart
	delim := func(q int) bool {
		if q >= len(src) {
			return false
		}
		switch src[q] {
		case ' ', '\t', '\r', '\n', ',', '[', ']':
			return true
		case '/':
			return q+1 < len(src) && src[q+1] == '/'
		}
		return false
	}
scan:
	for p < len(src) {
		switch c := src[p]; {
		case c == '[':
			depth++
			top = max(top, depth)
			p++
		case c == ']':
			depth--
			p++
			if depth == 0 {
				break scan
			}
		case c == ',' || c == ' ' || c == '\t' || c == '\r':
			p++
		case c == '\n':
			p++
			line++
			lineStart = p
		case c == '/':
			if p+1 >= len(src) || src[p+1] != '/' {
				return false
			}
			for p < len(src) && src[p] != '\n' {
				p++
			}
		case isDigit(c) || c == '-':
			q := numberEnd(src, p)
			if q == p || !delim(q) {
				return false
			}
			p = q
		case isLetter(c):
			q := p
			for q < len(src) && isIDChar(src[q]) {
				q++
			}
			if w := src[p:q]; w != "true" && w != "false" || !delim(q) {
				return false
			}
			p = q
		default:
			return false
		}
	}
	if depth != 0 {
		s.cutList = s.cutList || p >= len(src)
		return false
	}
	if d := s.depth + top; d > s.peak {
		if s.piece {
			s.peak = d
			s.peaks = append(s.peaks, peak{d, len(s.toks)})
		} else if d > maxNesting {
			return false // scanned token by token, which reports it
		} else {
			s.peak = d
		}
	}
	s.toks = append(s.toks, lexer.Token{
		Type:  tokDenseList,
		Value: src[start:p],
		Pos:   lexer.Position{Offset: start, Line: s.line, Column: start - s.lineStart + 1},
	})
	s.dense = 0
	s.pos, s.line, s.lineStart = p, line, lineStart
	return true
}

// numberEnd is where the number token that number() would scan at p ends
// (p itself if there is none).
func numberEnd(src string, p int) int {
	q := p
	if q < len(src) && src[q] == '-' {
		q++
	}
	if q >= len(src) || !isDigit(src[q]) {
		return p
	}
	if src[q] == '0' && q+2 < len(src) && src[q+1] == 'x' && isHex(src[q+2]) {
		q += 2
		for q < len(src) && isHex(src[q]) {
			q++
		}
		return q
	}
	for q < len(src) && isDigit(src[q]) {
		q++
	}
	if q >= len(src) || src[q] != '.' {
		return q
	}
	q++
	for q < len(src) && isDigit(src[q]) {
		q++
	}
	if q < len(src) && (src[q] == 'e' || src[q] == 'E') {
		e := q + 1
		if e < len(src) && (src[e] == '+' || src[e] == '-') {
			e++
		}
		if e < len(src) && isDigit(src[e]) {
			for e < len(src) && isDigit(src[e]) {
				e++
			}
			q = e
		}
	}
	return q
}

// next scans one token at s.pos (not a blank).
func (s *scanner) next() error {
	if s.nextSpan < len(s.spans) && s.spans[s.nextSpan].start <= s.pos && s.opaque() {
		return nil
	}
	start := s.pos
	c := s.src[s.pos]
	switch {
	case c == '%':
		s.pos++
		if !s.suffixID() {
			return s.errAt(start, "invalid SSA name")
		}
		typ := tokValue
		if s.pos+1 < len(s.src) && (s.src[s.pos] == '#' || s.src[s.pos] == ':') && isDigit(s.src[s.pos+1]) {
			if s.src[s.pos] == ':' {
				typ = tokResultGroup
			}
			s.pos++
			for s.pos < len(s.src) && isDigit(s.src[s.pos]) {
				s.pos++
			}
		}
		s.emit(typ, start)
	case c == '^':
		s.pos++
		if !s.suffixID() {
			return s.errAt(start, "invalid block name")
		}
		s.emit(tokCaret, start)
	case c == '@':
		s.pos++
		if s.pos < len(s.src) && s.src[s.pos] == '"' {
			if err := s.stringLit(); err != nil {
				return err
			}
		} else if !s.suffixID() {
			// The printer writes any name of [a-zA-Z0-9_$.-] bare.
			return s.errAt(start, "expected valid symbol name")
		}
		s.emit(tokSymbol, start)
	case c == '#':
		s.pos++
		if !s.bareID() {
			return s.errAt(start, "invalid attribute alias name")
		}
		// A location alias, #loc1 = loc("file":1:2) (mlir-opt prints them
		// after the module with --mlir-print-debuginfo): dropped.
		p := s.pos
		for p < len(s.src) && (s.src[p] == ' ' || s.src[p] == '\t') {
			p++
		}
		if p < len(s.src) && s.src[p] == '=' {
			p++
			for p < len(s.src) && (s.src[p] == ' ' || s.src[p] == '\t') {
				p++
			}
			if strings.HasPrefix(s.src[p:], "loc(") {
				end, ok := skipLoc(s.src, p)
				if !ok {
					return s.errAt(p, "expected ')' to end the location")
				}
				s.pos = end
				return nil
			}
		}
		s.emit(tokHash, start)
	case c == '!':
		return s.bangType(start)
	case c == '"':
		if err := s.stringLit(); err != nil {
			return err
		}
		s.emit(tokString, start)
	case isDigit(c) || (c == '-' && s.pos+1 < len(s.src) && isDigit(s.src[s.pos+1])):
		return s.number(start)
	case c == '-' && s.pos+1 < len(s.src) && s.src[s.pos+1] == '>':
		s.pos += 2
		s.emit(tokArrow, start)
	case isLetter(c) || c == '_' || c == '$' || c == '.':
		// MLIR's bare identifiers start with a letter or '_'; '$' and '.'
		// are accepted too because the printer writes attribute names such
		// as ".foo" bare.
		s.pos++
		for s.pos < len(s.src) && isIDChar(s.src[s.pos]) {
			s.pos++
		}
		if s.src[start:s.pos] == "loc" && s.pos < len(s.src) && s.src[s.pos] == '(' {
			// A location, loc("file":1:2) after an operation or a
			// region: read and dropped, as a comment (operations keep
			// their place in this text).
			end, ok := skipLoc(s.src, start)
			if !ok {
				return s.errAt(start, "expected ')' to end the location")
			}
			s.pos = end
			return nil
		}
		if s.src[start:s.pos] == "tensor" && s.pos < len(s.src) && s.src[s.pos] == '<' {
			// A builtin tensor type (the generic form's dense constants
			// are typed tensor<4xi8>) is one type token, as a dialect
			// type is.
			return s.angled(start, "unbalanced '<' in tensor type")
		}
		s.emit(opTokenType(s.src[start:s.pos]), start)
	default:
		switch c {
		case '(', '{', '[':
			if c == '(' && s.signature(start) {
				return nil
			}
			if c == '[' && s.dense == 2 && denseListToken && s.denseList() {
				return nil
			}
			s.depth++
			if s.depth > s.peak {
				// A new deepest point: keep it, or fail when scanning the
				// whole source (a piece only learns its start depth later).
				s.peak = s.depth
				if s.piece {
					s.peaks = append(s.peaks, peak{s.depth, len(s.toks)})
				} else if s.depth > maxNesting {
					return s.errAt(start, nestingError)
				}
			}
			s.pos++
			s.emit(tokPunct, start)
		case ')', '}', ']':
			s.depth--
			s.pos++
			s.emit(tokPunct, start)
		case '=', ',', ':', '<', '>', '?', '*', '+':
			s.pos++
			s.emit(tokPunct, start)
		default:
			return s.errAt(start, "unexpected character")
		}
	}
	return nil
}

// opaque emits the large body that starts at s.pos, if any, as one
// tokOpaque token and moves to its closing '}'. Bodies nested in one already
// emitted, or that this scanner's source cuts short, are passed over.
func (s *scanner) opaque() bool {
	for s.nextSpan < len(s.spans) && s.spans[s.nextSpan].start < s.pos {
		s.nextSpan++
	}
	if s.nextSpan == len(s.spans) {
		return false
	}
	sp := &s.spans[s.nextSpan]
	if sp.start != s.pos || sp.end > len(s.src) {
		return false
	}
	s.nextSpan++
	sp.brackets = s.base + s.depth
	s.toks = append(s.toks, lexer.Token{
		Type:  tokOpaque,
		Value: s.src[sp.start:sp.end],
		Pos:   lexer.Position{Offset: sp.start, Line: s.line, Column: sp.start - s.lineStart + 1},
	})
	s.pos, s.line, s.lineStart = sp.end, sp.endLine, sp.endLineStart
	return true
}

// suffixID scans digits or an identifier made of suffix characters.
func (s *scanner) suffixID() bool {
	start := s.pos
	if s.pos < len(s.src) && isDigit(s.src[s.pos]) {
		for s.pos < len(s.src) && isDigit(s.src[s.pos]) {
			s.pos++
		}
		return true
	}
	for s.pos < len(s.src) && isSuffixChar(s.src[s.pos]) {
		s.pos++
	}
	return s.pos > start
}

// bareID scans [a-zA-Z_][a-zA-Z0-9_$.]*.
func (s *scanner) bareID() bool {
	if s.pos >= len(s.src) || !(isLetter(s.src[s.pos]) || s.src[s.pos] == '_') {
		return false
	}
	for s.pos < len(s.src) && isIDChar(s.src[s.pos]) {
		s.pos++
	}
	return true
}

// number scans an integer (decimal or 0x hex) or a float literal. A float
// must have a decimal point, as in MLIR: 1e-5 is an error that says to
// write 1.0e-5 (mlir-opt reads the integer 1, then fails at e-5).
func (s *scanner) number(start int) error {
	if s.src[s.pos] == '-' {
		s.pos++
	}
	if s.src[s.pos] == '0' && s.pos+2 < len(s.src) && s.src[s.pos+1] == 'x' && isHex(s.src[s.pos+2]) {
		s.pos += 2
		for s.pos < len(s.src) && isHex(s.src[s.pos]) {
			s.pos++
		}
		s.emit(tokInt, start)
		return nil
	}
	for s.pos < len(s.src) && isDigit(s.src[s.pos]) {
		s.pos++
	}
	if end := s.exponentEnd(s.pos); end > s.pos {
		return s.errAt(start, fmt.Sprintf("a float needs a decimal point, as in MLIR: write %s.0%s, not %s",
			s.src[start:s.pos], s.src[s.pos:end], s.src[start:end]))
	}
	if s.pos >= len(s.src) || s.src[s.pos] != '.' {
		s.emit(tokInt, start)
		return nil
	}
	s.pos++
	for s.pos < len(s.src) && isDigit(s.src[s.pos]) {
		s.pos++
	}
	s.pos = s.exponentEnd(s.pos)
	s.emit(tokFloat, start)
	return nil
}

// exponentEnd is the end of the exponent ([eE][+-]?[0-9]+) at pos, or pos
// when there is none.
func (s *scanner) exponentEnd(pos int) int {
	if pos >= len(s.src) || s.src[pos] != 'e' && s.src[pos] != 'E' {
		return pos
	}
	p := pos + 1
	if p < len(s.src) && (s.src[p] == '+' || s.src[p] == '-') {
		p++
	}
	if p >= len(s.src) || !isDigit(s.src[p]) {
		return pos
	}
	for p < len(s.src) && isDigit(s.src[p]) {
		p++
	}
	return p
}

// stringLit scans a double-quoted string with backslash escapes (decoded later).
func (s *scanner) stringLit() error {
	s.pos++ // opening quote
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case '"':
			s.pos++
			return nil
		case '\\':
			s.pos += 2
		case '\n':
			return s.errAt(s.pos, "expected '\"' in string literal")
		default:
			s.pos++
		}
	}
	s.pos = len(s.src)
	return s.errAt(s.pos, "expected '\"' in string literal")
}

// bangType scans a dialect type: '!' bare-id, then an optional balanced <...>.
func (s *scanner) bangType(start int) error {
	s.pos++
	if !s.bareID() {
		return s.errAt(start, "expected dialect type name")
	}
	return s.angled(start, "unbalanced '<' in dialect type")
}

// angled scans an optional balanced <...> at the cursor, on one line, and
// emits the type token that began at start.
func (s *scanner) angled(start int, unbalanced string) error {
	if s.pos < len(s.src) && s.src[s.pos] == '<' {
		depth := 0
		for s.pos < len(s.src) {
			c := s.src[s.pos]
			s.pos++
			switch c {
			case '<':
				depth++
			case '>':
				depth--
			case '\n':
				return s.errAt(start, unbalanced)
			}
			if depth == 0 {
				break
			}
		}
		if depth != 0 {
			return s.errAt(start, unbalanced)
		}
	}
	s.emit(tokBangType, start)
	return nil
}

// signature scans a whole function type that follows a ':' on the same line,
// "(T1, T2) -> T3" or "(T1) -> (T2, T3)", as one token: signatures are a
// third of an element-wise operation's tokens. It reports false, having read
// nothing, when the text is not of that shape (the tokens are then scanned
// one by one and the grammar reads them). The types inside are split and
// checked by the parser (splitSig).
func (s *scanner) signature(start int) bool {
	if len(s.toks) == 0 {
		return false
	}
	if prev := &s.toks[len(s.toks)-1]; prev.Type != tokPunct || prev.Value != ":" || prev.Pos.Line != s.line {
		return false
	}
	end, ok := s.parenGroup(start)
	if !ok {
		return false
	}
	p := end
	for p < len(s.src) && (s.src[p] == ' ' || s.src[p] == '\t') {
		p++
	}
	if p+1 >= len(s.src) || s.src[p] != '-' || s.src[p+1] != '>' {
		return false
	}
	p += 2
	for p < len(s.src) && (s.src[p] == ' ' || s.src[p] == '\t') {
		p++
	}
	switch {
	case p < len(s.src) && s.src[p] == '(':
		if end, ok = s.parenGroup(p); !ok {
			return false
		}
	case p < len(s.src) && (s.src[p] == '!' || isLetter(s.src[p]) || s.src[p] == '_'):
		// A dialect type (!otir.tile<...>), a builtin shaped type
		// (tensor<...>) or a bare type (i8).
		end = p
		if s.src[p] == '!' {
			end++
		}
		for end < len(s.src) && isIDChar(s.src[end]) {
			end++
		}
		if end < len(s.src) && s.src[end] == '<' {
			depth := 0
			for ; end < len(s.src) && s.src[end] != '\n'; end++ {
				if s.src[end] == '<' {
					depth++
				} else if s.src[end] == '>' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if depth != 0 || end >= len(s.src) {
				return false
			}
			end++
		}
	default:
		return false
	}
	s.pos = end
	s.emit(tokSig, start)
	return true
}

// parenGroup returns the offset just past the ')' matching the '(' at start,
// which must be on the same line and contain no other parentheses or braces.
func (s *scanner) parenGroup(start int) (int, bool) {
	for p := start + 1; p < len(s.src); p++ {
		switch s.src[p] {
		case ')':
			return p + 1, true
		case '(', '{', '}', '\n', '"':
			return 0, false
		}
	}
	return 0, false
}

// skipLoc returns the end of the location loc(...) at src[start:], whose
// parentheses balance on one line (strings may hold any of them).
func skipLoc(src string, start int) (int, bool) {
	depth := 0
	for p := start + len("loc"); p < len(src); p++ {
		switch src[p] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return p + 1, true
			}
		case '"':
			for p++; p < len(src) && src[p] != '"' && src[p] != '\n'; p++ {
				if src[p] == '\\' {
					p++
				}
			}
			if p >= len(src) || src[p] != '"' {
				return 0, false
			}
		case '\n':
			return 0, false
		}
	}
	return 0, false
}
