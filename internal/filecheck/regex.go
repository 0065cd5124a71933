package filecheck

import (
	"fmt"
	"regexp"
	"strings"
)

// This file implements the regular-expression dialect of LLVM's
// llvm::Regex: POSIX extended regular expressions as parsed by Henry
// Spencer's regcomp (which LLVM ships), with back-references \1..\9,
// compiled with REG_NEWLINE (so '.' and negated brackets never match a
// newline and ^/$ match at line boundaries) and matched leftmost-longest.
//
// Patterns are parsed into a small syntax tree that reproduces Spencer's
// error messages. A tree without back-references or word-boundary
// assertions is translated to Go's regexp syntax and run by Go's linear-time
// engine in leftmost-longest mode; anything else falls back to a bounded
// backtracking matcher (backtrack.go).

// Error strings of Spencer's regerror(), as LLVM prints them.
const (
	errEmpty    = "empty (sub)expression"
	errBadRpt   = "repetition-operator operand invalid"
	errEParen   = "parentheses not balanced"
	errEBrace   = "braces not balanced"
	errBadBr    = "invalid repetition count(s)"
	errEBrack   = "brackets ([ ]) not balanced"
	errERange   = "invalid character range"
	errECType   = "invalid character class"
	errECollate = "invalid collating element"
	errEEscape  = "trailing backslash (\\)"
	errESubReg  = "invalid backreference number"
)

// dupMax is Spencer's RE_DUP_MAX, the largest repetition count.
const dupMax = 255

type reOp int

const (
	opLit     reOp = iota // one byte (set holds both cases under ignore-case)
	opSet                 // bracket expression or '.'
	opBol                 // ^
	opEol                 // $
	opBow                 // [[:<:]]
	opEow                 // [[:>:]]
	opConcat              // subs in sequence (possibly empty)
	opAlt                 // alternatives
	opRepeat              // subs[0] repeated min..max times (max<0: unbounded)
	opGroup               // capturing group number idx
	opBackref             // back-reference to group idx
)

// reNode is a node of a parsed regular expression.
type reNode struct {
	op       reOp
	set      *[256]bool
	subs     []*reNode
	min, max int
	idx      int
}

// reParser is a recursive-descent parser following Spencer's p_ere.
type reParser struct {
	s      string
	pos    int
	err    string
	nsub   int
	closed map[int]bool
	icase  bool
	backtr bool // needs the backtracking matcher
}

func (p *reParser) more() bool  { return p.err == "" && p.pos < len(p.s) }
func (p *reParser) peek() byte  { return p.s[p.pos] }
func (p *reParser) more2() bool { return p.err == "" && p.pos+1 < len(p.s) }
func (p *reParser) peek2() byte { return p.s[p.pos+1] }
func (p *reParser) see(c byte) bool {
	return p.more() && p.peek() == c
}
func (p *reParser) eat(c byte) bool {
	if p.see(c) {
		p.pos++
		return true
	}
	return false
}
func (p *reParser) seeTwo(a, b byte) bool {
	return p.more2() && p.peek() == a && p.peek2() == b
}
func (p *reParser) setErr(e string) {
	if p.err == "" {
		p.err = e
	}
}

// parseERE parses s. It returns the tree, the number of capture groups and
// an error message in Spencer's wording ("" when valid).
func parseERE(s string, icase bool) (*reNode, int, bool, string) {
	p := &reParser{s: s, closed: map[int]bool{}, icase: icase}
	n := p.ere(0)
	if p.err == "" && p.pos < len(p.s) {
		// Only an unmatched ')' can stop the top level early.
		p.setErr(errEParen)
	}
	if p.err != "" {
		return nil, 0, false, p.err
	}
	return n, p.nsub, p.backtr, ""
}

// ere parses alternatives up to the stop byte (0: end of pattern).
func (p *reParser) ere(stop byte) *reNode {
	var alts []*reNode
	for {
		conc := &reNode{op: opConcat}
		for p.more() && p.peek() != '|' && (stop == 0 || p.peek() != stop) {
			if stop == 0 && p.peek() == ')' {
				// Spencer reports an unmatched ')' as unbalanced.
				p.setErr(errEParen)
				return nil
			}
			if e := p.ereExp(); e != nil {
				conc.subs = append(conc.subs, e)
			}
		}
		if p.err != "" {
			return nil
		}
		if emitsNothing(conc) {
			p.setErr(errEmpty)
			return nil
		}
		alts = append(alts, conc)
		if !p.eat('|') {
			break
		}
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return &reNode{op: opAlt, subs: alts}
}

// emitsNothing reports whether a branch is empty once Spencer's regcomp has
// dropped its zero-count repetitions (x{0}, x{0,0}): "a{0}|b" and "(a{0})"
// are "empty (sub)expression" errors in LLVM, not patterns matching "".
func emitsNothing(conc *reNode) bool {
	for _, s := range conc.subs {
		if s.op != opRepeat || s.max != 0 {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// ereExp parses one atom and an optional repetition (p_ere_exp).
func (p *reParser) ereExp() *reNode {
	c := p.s[p.pos]
	p.pos++
	var atom *reNode
	wasCaret := false
	switch c {
	case '(':
		if !p.more() {
			p.setErr(errEParen)
			return nil
		}
		p.nsub++
		idx := p.nsub
		var sub *reNode
		if !p.see(')') {
			sub = p.ere(')')
		} else {
			sub = &reNode{op: opConcat}
		}
		if p.err != "" {
			return nil
		}
		if !p.eat(')') {
			p.setErr(errEParen)
			return nil
		}
		p.closed[idx] = true
		atom = &reNode{op: opGroup, idx: idx, subs: []*reNode{sub}}
	case ')':
		p.setErr(errEParen)
		return nil
	case '^':
		atom = &reNode{op: opBol}
		wasCaret = true
	case '$':
		atom = &reNode{op: opEol}
	case '|':
		p.setErr(errEmpty)
		return nil
	case '*', '+', '?':
		p.setErr(errBadRpt)
		return nil
	case '.':
		var set [256]bool
		for i := range set {
			set[i] = i != '\n'
		}
		atom = &reNode{op: opSet, set: &set}
	case '[':
		atom = p.bracket()
		if atom == nil {
			return nil
		}
	case '\\':
		if !p.more() {
			p.setErr(errEEscape)
			return nil
		}
		c = p.s[p.pos]
		p.pos++
		switch {
		case c >= '1' && c <= '9':
			n := int(c - '0')
			if !p.closed[n] {
				p.setErr(errESubReg)
				return nil
			}
			atom = &reNode{op: opBackref, idx: n}
			p.backtr = true
		default:
			atom = p.ordinary(c)
		}
	case '{':
		if p.more() && isDigit(p.peek()) {
			p.setErr(errBadRpt)
			return nil
		}
		atom = p.ordinary(c)
	default:
		atom = p.ordinary(c)
	}
	if !p.more() {
		return atom
	}
	c = p.peek()
	if !(c == '*' || c == '+' || c == '?' || (c == '{' && p.more2() && isDigit(p.peek2()))) {
		return atom
	}
	p.pos++
	if wasCaret {
		p.setErr(errBadRpt)
		return nil
	}
	rep := &reNode{op: opRepeat, subs: []*reNode{atom}}
	switch c {
	case '*':
		rep.min, rep.max = 0, -1
	case '+':
		rep.min, rep.max = 1, -1
	case '?':
		rep.min, rep.max = 0, 1
	case '{':
		rep.min = p.count()
		rep.max = rep.min
		if p.eat(',') {
			if p.more() && isDigit(p.peek()) {
				rep.max = p.count()
				if rep.min > rep.max {
					p.setErr(errBadBr)
				}
			} else {
				rep.max = -1
			}
		}
		if !p.eat('}') {
			for p.more() && p.peek() != '}' {
				p.pos++
			}
			if !p.more() {
				p.setErr(errEBrace)
			}
			p.setErr(errBadBr)
		}
	}
	if p.err != "" {
		return nil
	}
	if p.more() {
		c = p.peek()
		if c == '*' || c == '+' || c == '?' || (c == '{' && p.more2() && isDigit(p.peek2())) {
			p.setErr(errBadRpt)
			return nil
		}
	}
	return rep
}

// count parses a repetition count (p_count).
func (p *reParser) count() int {
	n, ndigits := 0, 0
	for p.more() && isDigit(p.peek()) && n <= dupMax {
		n = n*10 + int(p.peek()-'0')
		ndigits++
		p.pos++
	}
	if ndigits == 0 || n > dupMax {
		p.setErr(errBadBr)
	}
	return n
}

// ordinary returns a node matching byte c, in both cases if ignoring case.
func (p *reParser) ordinary(c byte) *reNode {
	if p.icase && isAlpha(c) {
		var set [256]bool
		set[toLower(c)], set[toUpper(c)] = true, true
		return &reNode{op: opSet, set: &set}
	}
	var set [256]bool
	set[c] = true
	return &reNode{op: opLit, set: &set}
}

func isAlpha(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
func toLower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 32
	}
	return c
}
func toUpper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 32
	}
	return c
}

// charClasses are the [:name:] classes of the C locale.
var charClasses = map[string]func(c byte) bool{
	"alnum":  func(c byte) bool { return isAlpha(c) || isDigit(c) },
	"alpha":  isAlpha,
	"blank":  func(c byte) bool { return c == ' ' || c == '\t' },
	"cntrl":  func(c byte) bool { return c < 32 || c == 127 },
	"digit":  isDigit,
	"graph":  func(c byte) bool { return c > 32 && c < 127 },
	"lower":  func(c byte) bool { return c >= 'a' && c <= 'z' },
	"print":  func(c byte) bool { return c >= 32 && c < 127 },
	"punct":  func(c byte) bool { return c > 32 && c < 127 && !isAlpha(c) && !isDigit(c) },
	"space":  func(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') },
	"upper":  func(c byte) bool { return c >= 'A' && c <= 'Z' },
	"xdigit": func(c byte) bool { return isDigit(c) || ((c|0x20) >= 'a' && (c|0x20) <= 'f') },
}

// collNames are the collating-element names Spencer's cname table knows
// (a subset: the control characters and punctuation names).
var collNames = map[string]byte{
	"NUL": 0, "tab": '\t', "newline": '\n', "vertical-tab": '\v',
	"form-feed": '\f', "carriage-return": '\r', "space": ' ',
	"exclamation-mark": '!', "quotation-mark": '"', "number-sign": '#',
	"dollar-sign": '$', "percent-sign": '%', "ampersand": '&',
	"apostrophe": '\'', "left-parenthesis": '(', "right-parenthesis": ')',
	"asterisk": '*', "plus-sign": '+', "comma": ',', "hyphen": '-',
	"hyphen-minus": '-', "period": '.', "full-stop": '.', "slash": '/',
	"solidus": '/', "zero": '0', "one": '1', "two": '2', "three": '3',
	"four": '4', "five": '5', "six": '6', "seven": '7', "eight": '8',
	"nine": '9', "colon": ':', "semicolon": ';', "less-than-sign": '<',
	"equals-sign": '=', "greater-than-sign": '>', "question-mark": '?',
	"commercial-at": '@', "left-square-bracket": '[', "backslash": '\\',
	"reverse-solidus": '\\', "right-square-bracket": ']',
	"circumflex": '^', "circumflex-accent": '^', "underscore": '_',
	"low-line": '_', "grave-accent": '`', "left-brace": '{',
	"left-curly-bracket": '{', "vertical-line": '|', "right-brace": '}',
	"right-curly-bracket": '}', "tilde": '~', "DEL": 127,
}

// bracket parses a bracket expression after '[' (p_bracket).
func (p *reParser) bracket() *reNode {
	if strings.HasPrefix(p.s[p.pos:], "[:<:]]") {
		p.pos += 6
		p.backtr = true
		return &reNode{op: opBow}
	}
	if strings.HasPrefix(p.s[p.pos:], "[:>:]]") {
		p.pos += 6
		p.backtr = true
		return &reNode{op: opEow}
	}
	var set [256]bool
	invert := p.eat('^')
	if p.eat(']') {
		set[']'] = true
	} else if p.eat('-') {
		set['-'] = true
	}
	for p.more() && p.peek() != ']' && !p.seeTwo('-', ']') {
		p.bracketTerm(&set)
	}
	if p.eat('-') {
		set['-'] = true
	}
	if !p.eat(']') {
		p.setErr(errEBrack)
		return nil
	}
	if p.err != "" {
		return nil
	}
	if p.icase {
		for c := 'A'; c <= 'Z'; c++ {
			if set[c] || set[c+32] {
				set[c], set[c+32] = true, true
			}
		}
	}
	if invert {
		for i := range set {
			set[i] = !set[i]
		}
		set['\n'] = false
	}
	return &reNode{op: opSet, set: &set}
}

// bracketTerm parses one term of a bracket expression (p_b_term).
func (p *reParser) bracketTerm(set *[256]bool) {
	var c byte
	switch p.peek() {
	case '[':
		if p.more2() {
			c = p.peek2()
		}
	case '-':
		p.setErr(errERange)
		return
	}
	switch c {
	case ':':
		p.pos += 2
		if !p.more() {
			p.setErr(errEBrack)
			return
		}
		if c := p.peek(); c == '-' || c == ']' {
			p.setErr(errECType)
			return
		}
		start := p.pos
		for p.more() && isAlpha(p.peek()) {
			p.pos++
		}
		fn, ok := charClasses[p.s[start:p.pos]]
		if !ok {
			p.setErr(errECType)
			return
		}
		for i := 0; i < 256; i++ {
			if fn(byte(i)) {
				set[i] = true
			}
		}
		if !p.more() {
			p.setErr(errEBrack)
			return
		}
		if !p.seeTwo(':', ']') {
			p.setErr(errECType)
			return
		}
		p.pos += 2
	case '=':
		p.pos += 2
		if !p.more() {
			p.setErr(errEBrack)
			return
		}
		if c := p.peek(); c == '-' || c == ']' {
			p.setErr(errECollate)
			return
		}
		ch := p.collElem('=')
		if p.err != "" {
			return
		}
		set[ch] = true
		if !p.more() {
			p.setErr(errEBrack)
			return
		}
		if !p.seeTwo('=', ']') {
			p.setErr(errECollate)
			return
		}
		p.pos += 2
	default:
		start := p.symbol()
		finish := start
		if p.see('-') && p.more2() && p.peek2() != ']' {
			p.pos++
			if p.eat('-') {
				finish = '-'
			} else {
				finish = p.symbol()
			}
		}
		if p.err != "" {
			return
		}
		if start > finish {
			p.setErr(errERange)
			return
		}
		for i := int(start); i <= int(finish); i++ {
			set[i] = true
		}
	}
}

// symbol parses a bracket symbol, possibly a [.name.] collating element.
func (p *reParser) symbol() byte {
	if !p.more() {
		p.setErr(errEBrack)
		return 0
	}
	if !p.seeTwo('[', '.') {
		c := p.peek()
		p.pos++
		return c
	}
	p.pos += 2
	v := p.collElem('.')
	if p.err != "" {
		return 0
	}
	if !p.seeTwo('.', ']') {
		p.setErr(errECollate)
		return 0
	}
	p.pos += 2
	return v
}

// collElem parses a collating element name up to endc followed by ']'.
func (p *reParser) collElem(endc byte) byte {
	start := p.pos
	for p.more() && !p.seeTwo(endc, ']') {
		p.pos++
	}
	if !p.more() {
		p.setErr(errEBrack)
		return 0
	}
	name := p.s[start:p.pos]
	if v, ok := collNames[name]; ok {
		return v
	}
	if len(name) == 1 {
		return name[0]
	}
	p.setErr(errECollate)
	return 0
}

// regexMetachars are the characters llvm::Regex::escape protects.
const regexMetachars = "()^$|*+?.[]\\{}"

// regexEscape quotes s so that it matches literally (llvm::Regex::escape).
func regexEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0 || strings.IndexByte(regexMetachars, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ereRegex is a compiled pattern.
type ereRegex struct {
	tree *reNode
	nsub int
	goRe *regexp.Regexp // nil: use the backtracking matcher
	// must is a string every match contains ("" if none), as Spencer's
	// regexec checks before running its engine: text without it is
	// rejected by one strings.Index, as fast as LLVM's memcmp scan.
	must string
	// oneLine: no match can span a line break (no set holds '\n') and Go's
	// engine runs it, so only the lines holding must are given to it. (The
	// backtracking matcher's step budget is per search, so it keeps one
	// search of the whole text.)
	oneLine bool
}

// mustLiteral returns the longest run of single bytes that every match of
// n holds in sequence (Spencer's findmust): consecutive literals of the
// top-level concatenation, looking through groups.
func mustLiteral(n *reNode) string {
	var best, run []byte
	var walk func(n *reNode)
	walk = func(n *reNode) {
		switch {
		case n.op == opConcat:
			for _, s := range n.subs {
				walk(s)
			}
		case n.op == opGroup:
			walk(n.subs[0])
		case n.op == opLit:
			for c := range n.set {
				if n.set[c] {
					run = append(run, byte(c))
					break
				}
			}
			if len(run) > len(best) {
				best = append(best[:0], run...)
			}
		default:
			run = run[:0]
		}
	}
	walk(n)
	return string(best)
}

// matchesNewline reports whether some part of n can match a '\n'.
func matchesNewline(n *reNode) bool {
	if n.set != nil && n.set['\n'] {
		return true
	}
	for _, s := range n.subs {
		if matchesNewline(s) {
			return true
		}
	}
	return false
}

// compileERE compiles an LLVM regex; the error is Spencer's message.
func compileERE(s string, icase bool) (*ereRegex, error) {
	tree, nsub, backtr, msg := parseERE(s, icase)
	if msg != "" {
		return nil, fmt.Errorf("%s", msg)
	}
	re := &ereRegex{tree: tree, nsub: nsub, must: mustLiteral(tree)}
	if !backtr {
		var b strings.Builder
		toGoSyntax(&b, tree)
		if g, err := regexp.Compile(b.String()); err == nil {
			g.Longest()
			re.goRe = g
			re.oneLine = !matchesNewline(tree)
		}
	}
	return re, nil
}

// validateERE reports whether s is a valid LLVM regex and its group count.
func validateERE(s string) (int, string) {
	_, nsub, _, msg := parseERE(s, false)
	return nsub, msg
}

// toGoSyntax writes n as Go regexp syntax with byte-exact semantics for
// ASCII text (non-ASCII bytes are written as runes U+0080..U+00FF, which is
// how byteRuneReader presents them).
func toGoSyntax(b *strings.Builder, n *reNode) {
	switch n.op {
	case opLit, opSet:
		writeGoSet(b, n.set)
	case opBol:
		b.WriteString(`(?m:^)`)
	case opEol:
		b.WriteString(`(?m:$)`)
	case opConcat:
		b.WriteString("(?:")
		for _, s := range n.subs {
			toGoSyntax(b, s)
		}
		b.WriteString(")")
	case opAlt:
		b.WriteString("(?:")
		for i, s := range n.subs {
			if i > 0 {
				b.WriteByte('|')
			}
			toGoSyntax(b, s)
		}
		b.WriteString(")")
	case opGroup:
		b.WriteString("(")
		toGoSyntax(b, n.subs[0])
		b.WriteString(")")
	case opRepeat:
		b.WriteString("(?:")
		toGoSyntax(b, n.subs[0])
		b.WriteString(")")
		switch {
		case n.max < 0:
			fmt.Fprintf(b, "{%d,}", n.min)
		default:
			fmt.Fprintf(b, "{%d,%d}", n.min, n.max)
		}
	}
}

func writeGoSet(b *strings.Builder, set *[256]bool) {
	b.WriteString("[")
	any := false
	for i := 0; i < 256; {
		if !set[i] {
			i++
			continue
		}
		j := i
		for j+1 < 256 && set[j+1] {
			j++
		}
		any = true
		fmt.Fprintf(b, `\x{%x}`, i)
		if j > i {
			fmt.Fprintf(b, `-\x{%x}`, j)
		}
		i = j + 1
	}
	if !any {
		// An empty set never matches; Go has no empty class syntax.
		b.WriteString(`^\x00-\x{10ffff}`)
	}
	b.WriteString("]")
}

// byteRuneReader presents each byte of a string as one rune of width one, so
// that Go's regexp engine works on bytes like Spencer's.
type byteRuneReader struct {
	s string
	i int
}

func (r *byteRuneReader) ReadRune() (rune, int, error) {
	if r.i >= len(r.s) {
		return 0, 0, errEOF
	}
	c := r.s[r.i]
	r.i++
	return rune(c), 1, nil
}

type eofError struct{}

func (eofError) Error() string { return "EOF" }

var errEOF error = eofError{}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// match finds the leftmost-longest match of re in text and returns the
// submatch offsets (2*(nsub+1) ints, -1 for unset groups), or nil. Offsets
// are relative to text. notBOL is never needed: FileCheck always matches
// from the start of a line or a buffer LLVM treats as such.
func (re *ereRegex) match(text string) []int {
	return re.matchASCII(text, isASCII(text))
}

// matchASCII is match for a caller that knows whether text is ASCII.
// When the regex has a required literal, text without it is rejected at
// once, and a regex that cannot cross lines runs only on the lines that
// hold the literal: the leftmost match lies on the first such line where
// the engine finds one (issue 26: 2000 CHECK-NOT patterns over 1 MB).
func (re *ereRegex) matchASCII(text string, ascii bool) []int {
	if re.must == "" {
		return re.engine(text, ascii)
	}
	at := strings.Index(text, re.must)
	if !re.oneLine || at < 0 {
		if at < 0 {
			return nil
		}
		return re.engine(text, ascii)
	}
	for at >= 0 {
		start := strings.LastIndexByte(text[:at], '\n') + 1
		end := len(text)
		if nl := strings.IndexByte(text[at:], '\n'); nl >= 0 {
			end = at + nl
		}
		if m := re.engine(text[start:end], ascii); m != nil {
			for i := range m {
				if m[i] >= 0 {
					m[i] += start
				}
			}
			return m
		}
		if end == len(text) {
			return nil
		}
		if at = strings.Index(text[end:], re.must); at >= 0 {
			at += end
		}
	}
	return nil
}

// engine runs Go's regexp or the backtracking matcher on text.
func (re *ereRegex) engine(text string, ascii bool) []int {
	if re.goRe != nil {
		if ascii {
			return re.goRe.FindStringSubmatchIndex(text)
		}
		r := re.goRe.FindReaderSubmatchIndex(&byteRuneReader{s: text})
		if r != nil {
			// Reader matches report rune offsets, which equal byte offsets.
			return r
		}
		return nil
	}
	return backtrackMatch(re.tree, re.nsub, text)
}
