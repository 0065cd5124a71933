package parse

import "sort"

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
// least minChunk bytes. It returns nil when there are none, or when brackets
// nest deeper than the lexer allows (the lexer then reports it).
func skeletonOf(src string, firstLine, minChunk int) *skeleton {
	if len(src) < minChunk {
		return nil
	}
	type open struct {
		c               byte
		off             int
		line, lineStart int
	}
	var (
		sk        skeleton
		stack     []open
		lastCut   = []int{0} // per depth: offset of the last cut or '{'
		line      = firstLine
		lineStart = 0
	)
	n := len(src)
	for i := 0; i < n; i++ {
		c := src[i]
		if !skeletonByte[c] {
			continue
		}
		switch c {
		case '\n':
			line++
			lineStart = i + 1
			j := i + 1
			for j < n && (src[j] == ' ' || src[j] == '\t' || src[j] == '\r') {
				j++
			}
			if j == n || !startsOp(src, j) {
				continue
			}
			d := len(stack)
			if j-lastCut[d] >= minChunk {
				sk.cuts = append(sk.cuts, cutPoint{off: j, line: line, lineStart: lineStart, depth: d})
				lastCut[d] = j
			}
		case '"':
			// A string, escapes included; newlines in it still count.
			for i++; i < n && src[i] != '"'; i++ {
				switch src[i] {
				case '\\':
					i++
				case '\n':
					line++
					lineStart = i + 1
				}
			}
		case '/':
			if i+1 < n && src[i+1] == '/' {
				for i+1 < n && src[i+1] != '\n' {
					i++
				}
			}
		case '(', '[', '{':
			if len(stack) >= maxNesting {
				return nil
			}
			stack = append(stack, open{c, i, line, lineStart})
			if len(lastCut) <= len(stack) {
				lastCut = append(lastCut, 0)
			}
			lastCut[len(stack)] = i
		case ')', ']', '}':
			if len(stack) == 0 {
				continue
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if c == '}' && o.c == '{' && i-o.off >= minChunk {
				if sp, ok := bodyStart(src[:i], o.off+1, o.line, o.lineStart); ok {
					sp.end, sp.depth, sp.endLine, sp.endLineStart = i, len(stack)+1, line, lineStart
					sk.spans = append(sk.spans, sp)
				}
			}
		}
	}
	if len(sk.spans) == 0 {
		return nil
	}
	// Spans were found as they closed: inner ones first.
	sort.Slice(sk.spans, func(a, b int) bool { return sk.spans[a].start < sk.spans[b].start })
	for k := range sk.spans {
		sp := &sk.spans[k]
		sp.firstCut = sort.Search(len(sk.cuts), func(i int) bool { return sk.cuts[i].off >= sp.start })
	}
	return &sk
}

// skeletonByte marks the bytes the skeleton pass looks at.
var skeletonByte = func() (t [256]bool) {
	for _, c := range []byte("\n\"/()[]{}") {
		t[c] = true
	}
	return t
}()

// startsOp reports whether the line whose first non-blank byte is at j may
// begin an operation: not a closing bracket, a block label or a comment.
func startsOp(src string, j int) bool {
	switch src[j] {
	case '}', ')', ']', '^', '\n':
		return false
	case '/':
		return false
	}
	return true
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
