package alir

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// jsonScanner reads a JSON text from a stream without holding it: it
// validates the syntax as it goes, with encoding/json's messages, skips
// values, and records the bytes of the values its caller keeps (the small
// ones: a field of the model, one op record). A program of a million ops
// is read in one pass of this loop, not a json.Decoder per number.
type jsonScanner struct {
	src   io.Reader // nil: buf holds the rest of the text
	buf   []byte
	pos   int   // the next byte of buf
	base  int64 // the offset of buf[0] in the text
	err   error // the first error: *syntaxError, errUnexpectedEOF or a read error
	rec   []byte
	recAt int // start of the recording in buf; -1 when not recording
}

// maxJSONDepth is encoding/json's bound on nesting.
const maxJSONDepth = 10000

// errUnexpectedEOF is the error of a text that ends inside a value, as
// json.Decoder gives it.
var errUnexpectedEOF = fmt.Errorf("json: %w", io.ErrUnexpectedEOF)

// syntaxError is a syntax error at byte offset off of the text.
type syntaxError struct {
	msg string
	off int64
}

func (e *syntaxError) Error() string { return "json: " + e.msg }

// newJSONScanner scans data, which is in memory already.
func newJSONScanner(data []byte) *jsonScanner { return &jsonScanner{buf: data, recAt: -1} }

// newJSONStreamScanner scans what r reads.
func newJSONStreamScanner(r io.Reader) *jsonScanner {
	return &jsonScanner{src: r, buf: make([]byte, 0, 64<<10), recAt: -1}
}

// offset is the offset of the next byte in the text.
func (s *jsonScanner) offset() int64 { return s.base + int64(s.pos) }

// fill makes the next byte available in buf; false at the end of the text
// or on a read error (s.err).
func (s *jsonScanner) fill() bool {
	if s.pos < len(s.buf) {
		return true
	}
	if s.src == nil || s.err != nil {
		return false
	}
	if s.recAt >= 0 {
		s.rec = append(s.rec, s.buf[s.recAt:]...)
		s.recAt = 0
	}
	s.base += int64(len(s.buf))
	s.buf, s.pos = s.buf[:cap(s.buf)], 0
	for {
		n, err := s.src.Read(s.buf)
		s.buf = s.buf[:n]
		switch {
		case n > 0:
			return true
		case err == io.EOF:
			s.src = nil
			return false
		case err != nil:
			s.err = err
			return false
		}
	}
}

// peek returns the next byte without consuming it.
func (s *jsonScanner) peek() (byte, bool) {
	if s.pos < len(s.buf) {
		return s.buf[s.pos], true
	}
	if !s.fill() {
		return 0, false
	}
	return s.buf[s.pos], true
}

// ws skips white space.
func (s *jsonScanner) ws() {
	for {
		for s.pos < len(s.buf) {
			switch s.buf[s.pos] {
			case ' ', '\t', '\r', '\n':
				s.pos++
				continue
			}
			return
		}
		if !s.fill() {
			return
		}
	}
}

// next skips white space and returns the next byte, unconsumed; false at
// the end of the text (then s.err is set: the text ended inside a value).
func (s *jsonScanner) next() (byte, bool) {
	s.ws()
	c, ok := s.peek()
	if !ok {
		s.eof()
	}
	return c, ok
}

// eof records the end of the text inside a value (unless a read error
// came first) and returns false.
func (s *jsonScanner) eof() bool {
	if s.err == nil {
		s.err = errUnexpectedEOF
	}
	return false
}

// fail records a syntax error at the next byte, c, in encoding/json's
// words, and returns false.
func (s *jsonScanner) fail(c byte, context string) bool {
	if s.err == nil {
		s.err = &syntaxError{"invalid character " + quoteChar(c) + " " + context, s.offset()}
	}
	return false
}

// quoteChar is encoding/json's quoting of a byte in its messages.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	q := strconv.Quote(string(rune(c)))
	return "'" + q[1:len(q)-1] + "'"
}

// startRecording starts recording the bytes consumed.
func (s *jsonScanner) startRecording() {
	s.rec, s.recAt = s.rec[:0], s.pos
}

// recorded stops recording and returns the bytes consumed since
// startRecording; they stay valid until the next recording.
func (s *jsonScanner) recorded() []byte {
	at := s.recAt
	s.recAt = -1
	if len(s.rec) == 0 {
		return s.buf[at:s.pos:s.pos]
	}
	s.rec = append(s.rec, s.buf[at:s.pos]...)
	return s.rec
}

// value scans one value after white space; false on an error (s.err).
func (s *jsonScanner) value(depth int) bool {
	c, ok := s.next()
	if !ok {
		return false
	}
	switch {
	case c == '{':
		return s.object(depth + 1)
	case c == '[':
		return s.array(depth + 1)
	case c == '"':
		return s.str()
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return s.fail(c, "looking for beginning of value")
}

// deep reports (and records) nesting beyond encoding/json's bound.
func (s *jsonScanner) deep(depth int) bool {
	if depth <= maxJSONDepth {
		return false
	}
	if s.err == nil {
		s.err = &syntaxError{"exceeded max depth", s.offset()}
	}
	return true
}

func (s *jsonScanner) object(depth int) bool {
	if s.deep(depth) {
		return false
	}
	return s.fields(nil, depth)
}

// fields reads the members of the object whose '{' is next. With value
// nil it scans each member's value; else value reads it, given the key
// (recorded: not inside another recording).
func (s *jsonScanner) fields(value func(name string) bool, depth int) bool {
	s.pos++ // '{'
	c, ok := s.next()
	if !ok {
		return false
	}
	if c == '}' {
		s.pos++
		return true
	}
	for {
		if value == nil {
			ok = s.key() && s.value(depth)
		} else {
			s.ws()
			s.startRecording()
			ok = s.key()
			raw := s.recorded()
			ok = ok && value(keyName(raw))
		}
		if !ok {
			return false
		}
		if more, ok := s.after('}', "after object key:value pair"); !more {
			return ok
		}
	}
}

// key scans an object key and its colon.
func (s *jsonScanner) key() bool {
	c, ok := s.next()
	if !ok {
		return false
	}
	if c != '"' {
		return s.fail(c, "looking for beginning of object key string")
	}
	if !s.str() {
		return false
	}
	if c, ok = s.next(); !ok {
		return false
	}
	if c != ':' {
		return s.fail(c, "after object key")
	}
	s.pos++
	return true
}

// after reads what follows an element of an object or array: a comma
// (more) or the closing bracket end.
func (s *jsonScanner) after(end byte, context string) (more, ok bool) {
	c, ok := s.next()
	switch {
	case !ok:
		return false, false
	case c == ',':
		s.pos++
		return true, true
	case c == end:
		s.pos++
		return false, true
	}
	return false, s.fail(c, context)
}

func (s *jsonScanner) array(depth int) bool {
	if s.deep(depth) {
		return false
	}
	_, ok := s.elements(func(int) bool { return s.value(depth) })
	return ok
}

// elements reads the elements of the array whose '[' is next, each with
// elem (which consumes one value), and returns their number.
func (s *jsonScanner) elements(elem func(i int) bool) (int, bool) {
	s.pos++ // '['
	c, ok := s.next()
	if !ok {
		return 0, false
	}
	if c == ']' {
		s.pos++
		return 0, true
	}
	for i := 0; ; i++ {
		if !elem(i) {
			return i, false
		}
		if more, ok := s.after(']', "after array element"); !more {
			return i + 1, ok
		}
	}
}

func (s *jsonScanner) str() bool {
	s.pos++ // '"'
	for {
		if !s.fill() {
			return s.eof()
		}
		switch c := s.buf[s.pos]; {
		case c == '"':
			s.pos++
			return true
		case c == '\\':
			s.pos++
			if !s.escape() {
				return false
			}
		case c < 0x20:
			return s.fail(c, "in string literal")
		default:
			s.pos++
		}
	}
}

// escape reads an escape sequence after its backslash.
func (s *jsonScanner) escape() bool {
	c, ok := s.peek()
	if !ok {
		return s.eof()
	}
	switch c {
	case 'b', 'f', 'n', 'r', 't', '\\', '/', '"':
		s.pos++
		return true
	case 'u':
		s.pos++
		for range 4 {
			c, ok := s.peek()
			if !ok {
				return s.eof()
			}
			if !isHex(c) {
				return s.fail(c, `in \u hexadecimal character escape`)
			}
			s.pos++
		}
		return true
	}
	return s.fail(c, "in string escape code")
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number scans a number: -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?
func (s *jsonScanner) number() bool {
	if s.buf[s.pos] == '-' {
		s.pos++
	}
	c, ok := s.peek()
	switch {
	case !ok:
		return s.eof()
	case c == '0':
		s.pos++
	case isDigit(c):
		s.digits()
	default:
		return s.fail(c, "in numeric literal")
	}
	if c, ok = s.peek(); ok && c == '.' {
		s.pos++
		if c, ok = s.peek(); !ok {
			return s.eof()
		} else if !isDigit(c) {
			return s.fail(c, "after decimal point in numeric literal")
		}
		s.digits()
	}
	if c, ok = s.peek(); ok && (c == 'e' || c == 'E') {
		s.pos++
		if c, ok = s.peek(); ok && (c == '+' || c == '-') {
			s.pos++
			c, ok = s.peek()
		}
		if !ok {
			return s.eof()
		} else if !isDigit(c) {
			return s.fail(c, "in exponent of numeric literal")
		}
		s.digits()
	}
	return true
}

func (s *jsonScanner) digits() {
	for {
		for s.pos < len(s.buf) && isDigit(s.buf[s.pos]) {
			s.pos++
		}
		if s.pos < len(s.buf) || !s.fill() {
			return
		}
	}
}

// literal scans true, false or null, whose first byte is next.
func (s *jsonScanner) literal(word string) bool {
	s.pos++
	for i := 1; i < len(word); i++ {
		c, ok := s.peek()
		if !ok {
			return s.eof()
		}
		if c != word[i] {
			return s.fail(c, fmt.Sprintf("in literal %s (expecting %s)", word, quoteChar(word[i])))
		}
		s.pos++
	}
	return true
}

// rawValue scans one value and returns its bytes (valid until the next
// recording) and its offset.
func (s *jsonScanner) rawValue() ([]byte, int64, bool) {
	s.ws()
	off := s.offset()
	s.startRecording()
	ok := s.value(0)
	raw := s.recorded()
	return raw, off, ok
}

// skipTo moves to offset off of the text (ahead of the next byte), without
// scanning what it passes: the second pass over a text the first pass
// validated.
func (s *jsonScanner) skipTo(off int64) bool {
	for s.offset() < off {
		if !s.fill() {
			return s.eof()
		}
		s.pos += int(min(off-s.offset(), int64(len(s.buf)-s.pos)))
	}
	return true
}

// splitArray returns the elements of raw, a valid JSON value, if it is an
// array (as json.Unmarshal into []json.RawMessage gives them, without
// surrounding white space), and their offsets in raw.
func splitArray(raw []byte) ([]json.RawMessage, []int, bool) {
	s := newJSONScanner(raw)
	if c, ok := s.next(); !ok || c != '[' {
		return nil, nil, false
	}
	a, offs := []json.RawMessage{}, []int{}
	_, ok := s.elements(func(int) bool {
		s.ws()
		start := s.pos
		if !s.value(0) {
			return false
		}
		a, offs = append(a, raw[start:s.pos:s.pos]), append(offs, start)
		return true
	})
	return a, offs, ok
}

// rawOffset is the offset in raw, a valid JSON value, of element idx[0] of
// the array raw, then of element idx[1] of that, and so on, as far as the
// path goes through arrays.
func rawOffset(raw []byte, idx []int) int64 {
	off := 0
	for _, n := range idx {
		_, offs, ok := splitArray(raw[off:])
		if !ok || n >= len(offs) {
			break
		}
		off += offs[n]
	}
	return int64(off)
}

// numberText is the number a JSON value raw (valid, without surrounding
// white space) holds, as encoding/json reads it into a json.Number: a
// number literal, a string holding a valid number, or "" for null; false
// for any other value.
func numberText(raw []byte) (string, bool) {
	if len(raw) == 0 {
		return "", false
	}
	switch c := raw[0]; {
	case c == '-' || isDigit(c):
		return string(raw), true
	case c == 'n':
		return "", true
	case c == '"':
		var t string
		if json.Unmarshal(raw, &t) != nil || !isJSONNumber(t) {
			return "", false
		}
		return t, true
	}
	return "", false
}

// isJSONNumber reports whether t is a JSON number literal.
func isJSONNumber(t string) bool {
	s := newJSONScanner([]byte(t))
	if t == "" || t[0] != '-' && !isDigit(t[0]) {
		return false
	}
	return s.number() && s.pos == len(t)
}
