package parse

import (
	"sort"
	"strings"
)

// The skeleton of a source is where its large region bodies are and where
// their operations may be cut, found by one pass over the bytes that only
// follows brackets, strings and comments. The parser uses it to keep memory
// flat on large inputs (stream.go): a large body is one opaque token at the
// top level, and its operations are later scanned, parsed and built in
// chunks, each chunk's tokens in a buffer that is reused for the next one.
//
// The skeleton may be wrong on malformed text (or on a body that is not a
// list of operations, such as a large attribute dictionary); the parse then
// fails or a chunk does not end where it should, and the parser starts again
// without the skeleton. It never changes what a successful parse returns.

// bodySpan is the inside of a large '{ ... }': from the first token of its
// first operation (after a ^bb header line, if any) to the closing '}'.
type bodySpan struct {
	start, end   int // byte offsets of the first token and of the '}'
	depth        int // bracket depth of the body's operations
	line         int // line of start (lineStart: offset of that line)
	lineStart    int
	endLine      int // line of end
	endLineStart int
	firstCut     int // index in skeleton.cuts of the first cut at or after start
	// brackets is the nesting of all brackets at start, known once a
	// scanner emits the span; the body's chunks check the lexer's limit
	// with it.
	brackets int
}

// cutPoint is the first character of a line, where an operation may start.
type cutPoint struct {
	off       int // byte offset of the line's first non-blank character
	line      int
	lineStart int
	depth     int // bracket depth at off
}

// skeleton is the layout of a source: its large bodies (sorted by start, so
// a nested body follows the one around it) and candidate cuts (sorted by
// offset), at most one per minChunk bytes and depth.
type skeleton struct {
	spans []bodySpan
	cuts  []cutPoint
}

// skeletonOf scans src (whose first line is firstLine) for bodies of at
// least minChunk bytes. It returns nil when there are none, or when braces
// nest deeper than the lexer allows (the lexer then reports it).
//
// Only braces, strings and comments matter, and they are rare: the scan
// jumps between them with strings.IndexByte, which runs at memory speed, and
// counts lines only where it needs them. Parentheses and square brackets are
// not followed: the lexer checks their nesting in each chunk, and a cut that
// falls inside one (a list broken over lines) only makes its chunk fail.
func skeletonOf(src string, firstLine, minChunk int) *skeleton {
	if len(src) < minChunk {
		return nil
	}
	s := &skeletonScan{src: src, minChunk: minChunk, line: firstLine, lastCut: []int{0}}
	if !s.run() || len(s.sk.spans) == 0 {
		return nil
	}
	sk := &s.sk
	// Spans were found as they closed: inner ones first.
	sort.Slice(sk.spans, func(a, b int) bool { return sk.spans[a].start < sk.spans[b].start })
	for k := range sk.spans {
		sp := &sk.spans[k]
		sp.firstCut = sort.Search(len(sk.cuts), func(i int) bool { return sk.cuts[i].off >= sp.start })
	}
	return sk
}

// skeletonScan is the state of skeletonOf.
type skeletonScan struct {
	src      string
	minChunk int
	sk       skeleton
	// next[k] is the offset of the next specials[k] not yet passed.
	next [len(specials)]int
	// The line of offset lineOff is line, starting at lineStart; lineAt
	// moves them forward.
	lineOff, line, lineStart int
	stack                    []openBrace
	lastCut                  []int // per depth: offset of the last cut or '{'
	// The last midLineOp search, over [midFrom, midTo), found midAt (-1:
	// nothing); a search of a later part of the same stretch reuses it.
	midFrom, midTo, midAt int
}

// midLineOp is midLineOp(s.src, from, to), without searching the same text
// twice (a long stretch with no candidate would make the scan quadratic).
func (s *skeletonScan) midLineOp(from, to int) int {
	if to == s.midTo && s.midFrom <= from && (s.midAt < 0 || from <= s.midAt) {
		return s.midAt
	}
	s.midFrom, s.midTo, s.midAt = from, to, midLineOp(s.src, from, to)
	return s.midAt
}

// specials are the bytes the scan stops at.
const specials = "{}\"/"

type openBrace struct{ off, line, lineStart int }

// find sets next[k] to the first specials[k] at or after from.
func (s *skeletonScan) find(k, from int) {
	if j := strings.IndexByte(s.src[from:], specials[k]); j >= 0 {
		s.next[k] = from + j
	} else {
		s.next[k] = len(s.src)
	}
}

// skipTo moves past text the lexer reads as one token (a string or a
// comment): specials found inside it are looked for again after it.
func (s *skeletonScan) skipTo(pos int) {
	for k := range s.next {
		if s.next[k] < pos {
			s.find(k, pos)
		}
	}
}

// lineAt returns the line of offset off (at or after the last asked) and
// the offset where it starts.
func (s *skeletonScan) lineAt(off int) (line, lineStart int) {
	seg := s.src[s.lineOff:off]
	if n := strings.Count(seg, "\n"); n > 0 {
		s.line += n
		s.lineStart = s.lineOff + strings.LastIndexByte(seg, '\n') + 1
	}
	s.lineOff = off
	return s.line, s.lineStart
}

// run scans the whole source; false if braces nest too deep.
func (s *skeletonScan) run() bool {
	src := s.src
	for k := range s.next {
		s.find(k, 0)
	}
	pos := 0
	for {
		k := 0
		for j := 1; j < len(s.next); j++ {
			if s.next[j] < s.next[k] {
				k = j
			}
		}
		at := s.next[k]
		s.cuts(pos, at)
		if at == len(src) {
			return true
		}
		switch specials[k] {
		case '{':
			if len(s.stack) >= maxNesting {
				return false
			}
			line, lineStart := s.lineAt(at)
			s.stack = append(s.stack, openBrace{at, line, lineStart})
			if len(s.lastCut) <= len(s.stack) {
				s.lastCut = append(s.lastCut, 0)
			}
			s.lastCut[len(s.stack)] = at
			pos = at + 1
			s.find(k, pos)
		case '}':
			if n := len(s.stack); n > 0 {
				o := s.stack[n-1]
				s.stack = s.stack[:n-1]
				if at-o.off >= s.minChunk {
					if sp, ok := bodyStart(src[:at], o.off+1, o.line, o.lineStart); ok {
						sp.end, sp.depth = at, n
						sp.endLine, sp.endLineStart = s.lineAt(at)
						s.sk.spans = append(s.sk.spans, sp)
					}
				}
			}
			pos = at + 1
			s.find(k, pos)
		case '"':
			// As the lexer: a backslash escapes the next byte, and a
			// newline ends the string (there, with an error).
			pos = at + 1
			for pos < len(src) && src[pos] != '"' && src[pos] != '\n' {
				if src[pos] == '\\' {
					pos++
				}
				pos++
			}
			if pos < len(src) && src[pos] == '"' {
				pos++
			}
			if pos > len(src) {
				pos = len(src)
			}
			s.skipTo(pos)
		case '/':
			pos = at + 1
			if pos < len(src) && src[pos] == '/' {
				if nl := strings.IndexByte(src[pos:], '\n'); nl >= 0 {
					pos += nl
				} else {
					pos = len(src)
				}
			}
			s.skipTo(pos)
		}
	}
}

// cuts records the cut points of [from, to), a stretch without specials
// (the one at to may begin a line): the first operation-like line at least
// minChunk bytes after the last cut at the current depth.
func (s *skeletonScan) cuts(from, to int) {
	d := len(s.stack)
	for {
		target := s.lastCut[d] + s.minChunk
		if target < from {
			target = from
		}
		if target >= to {
			return
		}
		var nl int
		if nl = strings.IndexByte(s.src[target:min(to, target+s.minChunk)], '\n'); nl < 0 {
			// A long line (a whole body on one line, say) is cut inside,
			// before an operation's results, so that its chunks stay small;
			// unless a line starts before that operation.
			j := s.midLineOp(target, to)
			if j >= 0 && strings.IndexByte(s.src[target:j], '\n') < 0 {
				line, lineStart := s.lineAt(j)
				s.sk.cuts = append(s.sk.cuts, cutPoint{off: j, line: line, lineStart: lineStart, depth: d})
				s.lastCut[d] = j
				continue
			}
			if nl = strings.IndexByte(s.src[target:to], '\n'); nl < 0 {
				return
			}
		}
		lineStart := target + nl + 1
		j := lineStart
		for j < len(s.src) && (s.src[j] == ' ' || s.src[j] == '\t' || s.src[j] == '\r') {
			j++
		}
		if j > to || j == len(s.src) {
			return
		}
		if !startsOp(s.src, j) {
			from = lineStart // look at the next line
			if from >= to {
				return
			}
			continue
		}
		line, _ := s.lineAt(lineStart)
		s.sk.cuts = append(s.sk.cuts, cutPoint{off: j, line: line, lineStart: lineStart, depth: d})
		s.lastCut[d] = j
	}
}

// startsOp reports whether the line whose first non-blank byte is at j may
// begin an operation: results ('%'), a generic operation ('"') or a name
// (otir.store). Not a closing bracket, a block label or a comment, nor what
// begins the lines of a multi-line list such as a dense literal, which must
// stay one token: '[', a number, true or false.
func startsOp(src string, j int) bool {
	switch c := src[j]; {
	case c == '%' || c == '"':
		return true
	case isLetter(c) || c == '_':
		k := j
		for k < len(src) && isIDChar(src[k]) {
			k++
		}
		w := src[j:k]
		return w != "true" && w != "false"
	}
	return false
}

// midLineOp returns the first offset in [from, to), a stretch without
// strings, comments or braces, where an operation with results may begin
// inside a line: a '%' after a blank that does not follow ',' or '(' (a
// second result, an iter_args binding) or an operation name (scf.for's
// induction variable), then a name, an optional ":N" and '=' -- or -1. A
// wrong guess only makes its chunk fail (stream.go).
func midLineOp(src string, from, to int) int {
	for from < to {
		j := strings.IndexByte(src[from:to], '%')
		if j < 0 {
			return -1
		}
		p := from + j
		from = p + 1
		if p == 0 || src[p-1] != ' ' && src[p-1] != '\t' {
			continue
		}
		q := p - 1
		for q > 0 && (src[q] == ' ' || src[q] == '\t') {
			q--
		}
		if src[q] == ',' || src[q] == '(' || opNameBefore(src, q) {
			continue
		}
		k := p + 1
		for k < to && isSuffixChar(src[k]) {
			k++
		}
		if k == p+1 {
			continue
		}
		if k < to && src[k] == ':' {
			k++
			for k < to && isDigit(src[k]) {
				k++
			}
		}
		for k < to && (src[k] == ' ' || src[k] == '\t') {
			k++
		}
		if k < to && src[k] == '=' {
			return p
		}
	}
	return -1
}

// opNameBefore reports whether src[:q+1] ends with a dotted bare
// identifier, such as an operation's name (types and keywords have no dot).
func opNameBefore(src string, q int) bool {
	k := q
	for k >= 0 && isIDChar(src[k]) {
		k--
	}
	w := src[k+1 : q+1]
	return w != "" && !isDigit(w[0]) && strings.IndexByte(w, '.') >= 0
}

// bodyStart finds the first operation of the body that starts at off (just
// after its '{'), skipping blanks, comments and one ^bb header line. It
// fails when the body holds nothing else, or when something follows the '{'
// on its line: a region body starts on a new line (as the printer writes
// it), an attribute dictionary such as {a = 1} does not.
func bodyStart(src string, off, line, lineStart int) (bodySpan, bool) {
	headerSeen := false
	newLine := false
	i := off
	for i < len(src) {
		switch c := src[i]; {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\n':
			i++
			line++
			lineStart = i
			newLine = true
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case !newLine:
			return bodySpan{}, false
		case c == '^' && !headerSeen:
			headerSeen = true
			for i < len(src) && src[i] != '\n' {
				i++
			}
		default:
			return bodySpan{start: i, line: line, lineStart: lineStart}, true
		}
	}
	return bodySpan{}, false
}

// cutsOf returns the cuts of the span's own depth inside it.
func (sk *skeleton) cutsOf(sp *bodySpan) []cutPoint {
	var cuts []cutPoint
	for _, c := range sk.cuts[sp.firstCut:] {
		if c.off >= sp.end {
			break
		}
		if c.depth == sp.depth && c.off > sp.start {
			cuts = append(cuts, c)
		}
	}
	return cuts
}

// spanAt returns the span that starts at off, if any.
func (sk *skeleton) spanAt(off int) *bodySpan {
	if sk == nil {
		return nil
	}
	k := sort.Search(len(sk.spans), func(i int) bool { return sk.spans[i].start >= off })
	if k < len(sk.spans) && sk.spans[k].start == off {
		return &sk.spans[k]
	}
	return nil
}
