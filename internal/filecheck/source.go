package filecheck

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// npos is "not found", like llvm::StringRef::npos. It is the largest int so
// that clamping arithmetic (substr, min) works without special cases.
const npos = math.MaxInt

// srcBuf is one named text buffer that diagnostics can point into: the check
// file, the input, a fake "command line" buffer per --implicit-check-not, or
// the "Global defines" buffer.
type srcBuf struct {
	name string
	text string

	nonASCII []int // offsets of bytes >= 0x80, computed on first use
	indexed  bool
}

// isASCII reports whether text[off:end] has only ASCII bytes, in
// logarithmic time after one pass over the buffer.
func (b *srcBuf) isASCII(off, end int) bool {
	if !b.indexed {
		for i := 0; i < len(b.text); i++ {
			if b.text[i] >= 0x80 {
				b.nonASCII = append(b.nonASCII, i)
			}
		}
		b.indexed = true
	}
	i := sort.SearchInts(b.nonASCII, off)
	return i == len(b.nonASCII) || b.nonASCII[i] >= end
}

// loc is a position in a buffer (llvm::SMLoc). The zero loc is invalid.
type loc struct {
	b   *srcBuf
	off int
}

func (l loc) valid() bool { return l.b != nil }

// sref is a slice [off,end) of a buffer (llvm::StringRef into a SourceMgr
// buffer), so that parse errors can point at the text they are about.
type sref struct {
	b        *srcBuf
	off, end int
}

func wholeBuf(b *srcBuf) sref { return sref{b, 0, len(b.text)} }

func (s sref) str() string {
	if s.b == nil {
		return ""
	}
	return s.b.text[s.off:s.end]
}
func (s sref) size() int        { return s.end - s.off }
func (s sref) empty() bool      { return s.end <= s.off }
func (s sref) at(i int) byte    { return s.b.text[s.off+i] }
func (s sref) front() byte      { return s.at(0) }
func (s sref) loc() loc         { return loc{s.b, s.off} }
func (s sref) endLoc() loc      { return loc{s.b, s.end} }
func (s sref) String() string   { return s.str() }
func (s sref) back() byte       { return s.at(s.size() - 1) }
func (s sref) count(c byte) int { return strings.Count(s.str(), string(c)) }

// substr returns n bytes from start, both clamped to the size.
func (s sref) substr(start, n int) sref {
	start = min(start, s.size())
	n = min(n, s.size()-start)
	return sref{s.b, s.off + start, s.off + start + n}
}
func (s sref) from(start int) sref      { return s.substr(start, npos) }
func (s sref) dropFront(n int) sref     { return s.from(n) }
func (s sref) takeFront(n int) sref     { return s.substr(0, n) }
func (s sref) dropBack(n int) sref      { return s.substr(0, s.size()-min(n, s.size())) }
func (s sref) startsWith(p string) bool { return strings.HasPrefix(s.str(), p) }

// slice returns [start,end) clamped (llvm::StringRef::slice).
func (s sref) slice(start, end int) sref {
	start = min(start, s.size())
	end = min(max(start, end), s.size())
	return sref{s.b, s.off + start, s.off + end}
}

func (s *sref) consumeFront(p string) bool {
	if !s.startsWith(p) {
		return false
	}
	s.off += len(p)
	return true
}

func (s sref) find(p string, from int) int {
	if from > s.size() {
		return npos
	}
	i := strings.Index(s.str()[from:], p)
	if i < 0 {
		return npos
	}
	return i + from
}

func (s sref) findByte(c byte) int { return s.find(string(c), 0) }

func (s sref) findFirstOf(chars string) int {
	i := strings.IndexAny(s.str(), chars)
	if i < 0 {
		return npos
	}
	return i
}

func (s sref) findFirstNotOf(chars string) int {
	str := s.str()
	for i := 0; i < len(str); i++ {
		if strings.IndexByte(chars, str[i]) < 0 {
			return i
		}
	}
	return npos
}

func (s sref) ltrim(chars string) sref {
	for !s.empty() && strings.IndexByte(chars, s.front()) >= 0 {
		s.off++
	}
	return s
}

func (s sref) rtrim(chars string) sref {
	for !s.empty() && strings.IndexByte(chars, s.back()) >= 0 {
		s.end--
	}
	return s
}

func (s sref) trim(chars string) sref { return s.ltrim(chars).rtrim(chars) }

// lineCol returns the 1-based line and column of l (SourceMgr's rule: lines
// count '\n', columns restart after '\n' or '\r').
func (l loc) lineCol() (int, int) {
	before := l.b.text[:l.off]
	line := strings.Count(before, "\n") + 1
	nl := strings.LastIndexAny(before, "\n\r")
	return line, l.off - nl
}

type diagKind int

const (
	dkError diagKind = iota
	dkWarning
	dkRemark
	dkNote
)

// srcMgr prints diagnostics in the format of llvm::SourceMgr.
type srcMgr struct {
	out   io.Writer
	color bool
}

// ANSI sequences as llvm::raw_ostream emits them.
const (
	ansiReset   = "\x1b[0m"
	ansiBold    = "\x1b[1m"
	colorRed    = 1
	colorGreen  = 2
	colorYellow = 3
	colorBlue   = 4
	colorMag    = 5
	colorCyan   = 6
	colorBlack  = 0
)

func ansiColor(c int, bold, bg bool) string {
	base := 30
	if bg {
		base = 40
	}
	if bold {
		return fmt.Sprintf("\x1b[0;1;%dm", base+c)
	}
	return fmt.Sprintf("\x1b[0;%dm", base+c)
}

// printMessage prints one diagnostic at l with optional highlighted ranges.
func (sm *srcMgr) printMessage(l loc, kind diagKind, msg string, ranges ...sref) {
	var b strings.Builder
	sm.formatMessage(&b, l, kind, msg, ranges)
	io.WriteString(sm.out, b.String())
}

func (sm *srcMgr) formatMessage(b *strings.Builder, l loc, kind diagKind, msg string, ranges []sref) {
	if sm.color {
		b.WriteString(ansiBold)
	}
	if l.valid() {
		line, col := l.lineCol()
		fmt.Fprintf(b, "%s:%d:%d: ", l.b.name, line, col)
	}
	if sm.color {
		b.WriteString(ansiReset)
	}
	label, color := "", 0
	switch kind {
	case dkError:
		label, color = "error: ", colorRed
	case dkWarning:
		label, color = "warning: ", colorMag
	case dkRemark:
		label, color = "remark: ", colorBlue
	case dkNote:
		label, color = "note: ", colorBlack
	}
	if sm.color {
		b.WriteString(ansiColor(color, true, false) + label + ansiReset)
		b.WriteString(ansiBold + msg + ansiReset + "\n")
	} else {
		b.WriteString(label + msg + "\n")
	}
	if !l.valid() {
		return
	}
	text := l.b.text
	ls := l.off
	for ls > 0 && text[ls-1] != '\n' && text[ls-1] != '\r' {
		ls--
	}
	le := l.off
	for le < len(text) && text[le] != '\n' && text[le] != '\r' {
		le++
	}
	lineStr := text[ls:le]
	for i := 0; i < len(lineStr); i++ {
		if lineStr[i] >= 0x80 {
			// SourceMgr prints no caret line for non-ASCII lines.
			printSourceLine(b, lineStr)
			return
		}
	}
	caret := []byte(strings.Repeat(" ", len(lineStr)+1))
	for _, r := range ranges {
		if r.b != l.b || r.off > le || r.end < ls {
			continue
		}
		s, e := max(r.off, ls)-ls, min(r.end, le)-ls
		for i := s; i < min(e, len(caret)); i++ {
			caret[i] = '~'
		}
	}
	col := l.off - ls
	if col <= len(lineStr) {
		caret[col] = '^'
	} else {
		caret[len(lineStr)] = '^'
	}
	caretStr := strings.TrimRight(string(caret), " ")
	printSourceLine(b, lineStr)
	if sm.color {
		b.WriteString(ansiColor(colorGreen, true, false))
	}
	outCol := 0
	for i := 0; i < len(caretStr); i++ {
		if i >= len(lineStr) || lineStr[i] != '\t' {
			b.WriteByte(caretStr[i])
			outCol++
			continue
		}
		for {
			b.WriteByte(caretStr[i])
			outCol++
			if outCol%8 == 0 {
				break
			}
		}
	}
	if sm.color {
		b.WriteString(ansiReset)
	}
	b.WriteByte('\n')
}

// printSourceLine prints a line with tabs expanded to 8-column stops.
func printSourceLine(b *strings.Builder, line string) {
	outCol := 0
	for i := 0; i < len(line); i++ {
		if line[i] != '\t' {
			b.WriteByte(line[i])
			outCol++
			continue
		}
		for {
			b.WriteByte(' ')
			outCol++
			if outCol%8 == 0 {
				break
			}
		}
	}
	b.WriteByte('\n')
}

// diagError is a located error (FileCheck's ErrorDiagnostic).
type diagError struct {
	l   loc
	rng sref // highlighted range; may be empty
	msg string
}

func (e *diagError) Error() string { return e.msg }

// newDiagErr makes an error pointing at the text s, highlighting it.
func newDiagErr(s sref, msg string) *diagError {
	return &diagError{l: s.loc(), rng: s, msg: msg}
}

// newDiagErrAt makes an error pointing at one location.
func newDiagErrAt(l loc, msg string) *diagError {
	return &diagError{l: l, rng: sref{l.b, l.off, l.off}, msg: msg}
}

// printDiagErr prints e. Like LLVM, the printed diagnostic shows only a
// caret; the range is kept for the input dump.
func (sm *srcMgr) printDiagErr(e *diagError) {
	sm.printMessage(e.l, dkError, e.msg)
}

// logErrors prints errors like llvm::logAllUnhandledErrors: each error's
// own text followed by a newline (so located errors end in a blank line).
func (sm *srcMgr) logErrors(err error) {
	for _, e := range flattenErrs(err) {
		if d, ok := e.(*diagError); ok {
			sm.printDiagErr(d)
		} else {
			io.WriteString(sm.out, e.Error())
		}
		io.WriteString(sm.out, "\n")
	}
}
