// Package diag reports diagnostics the way mlir-opt does:
//
//	file.otir:3:10: error: message
//	  %0 = otir.add %a, %b : i8
//	         ^
//
// A Diagnostic carries a severity, a location and attached notes; a SourceMgr
// knows each file's text so a diagnostic can show its source line and a caret.
package diag

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/otir-dev/otir/ir"
)

// Severity orders diagnostics; only errors make a tool fail.
type Severity uint8

const (
	Error Severity = iota
	Warning
	Note
	Remark
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Note:
		return "note"
	}
	return "remark"
}

// Diagnostic is one message at a source location, with attached notes.
type Diagnostic struct {
	Severity Severity
	Loc      ir.Location
	Msg      string
	Notes    []*Diagnostic
}

// Error makes Diagnostic usable as a Go error.
func (d *Diagnostic) Error() string {
	if named(d.Loc) {
		return "<unknown>:0: " + d.Severity.String() + ": " + ir.LocText(d.Loc) + ": " + d.Msg
	}
	l := d.Loc.Shown()
	loc := l.String()
	if l.Line == 0 && l.File != "" {
		loc = l.File // about a whole file, as rendered
	}
	return loc + ": " + d.Severity.String() + ": " + d.Msg
}

// Errorf makes an error diagnostic.
func Errorf(loc ir.Location, format string, args ...any) *Diagnostic {
	return &Diagnostic{Severity: Error, Loc: loc, Msg: fmt.Sprintf(format, args...)}
}

// Note attaches a note and returns d, for chaining.
func (d *Diagnostic) Note(loc ir.Location, format string, args ...any) *Diagnostic {
	d.Notes = append(d.Notes, &Diagnostic{Severity: Note, Loc: loc, Msg: fmt.Sprintf(format, args...)})
	return d
}

// named reports whether l is an input's location that shows no file
// location (a name or call site of names), printed as itself.
func named(l ir.Location) bool {
	m := l.MLIR()
	if m == nil || m.Kind == ir.LocUnknown {
		return false
	}
	_, ok := m.Shown()
	return !ok
}

// List collects diagnostics; it is itself an error when it holds an error.
type List []*Diagnostic

func (l List) Error() string {
	var parts []string
	for _, d := range l {
		parts = append(parts, d.Error())
	}
	return strings.Join(parts, "\n")
}

// HasErrors reports whether any diagnostic is an error.
func (l List) HasErrors() bool {
	for _, d := range l {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Err returns the list as an error, or nil if it holds no error.
func (l List) Err() error {
	if l.HasErrors() {
		return l
	}
	return nil
}

// SourceMgr holds the text of every file diagnostics may point into.
type SourceMgr struct {
	mu    sync.Mutex
	files map[string]*sourceFile
}

type sourceFile struct {
	text  string
	lines []int // byte offset of each line start
}

// NewSourceMgr makes an empty source manager.
func NewSourceMgr() *SourceMgr { return &SourceMgr{files: map[string]*sourceFile{}} }

// Add registers a file's text (its name as used in locations).
func (sm *SourceMgr) Add(name, text string) {
	sm.mu.Lock()
	defer sm.mu.Unlock()
	sm.files[name] = &sourceFile{text: text}
}

// Line returns the text of a 1-based line of a file, without its newline.
func (sm *SourceMgr) Line(file string, line int) (string, bool) {
	sm.mu.Lock()
	f := sm.files[file]
	if f != nil && f.lines == nil {
		f.lines = append(f.lines, 0)
		for i := 0; i < len(f.text); i++ {
			if f.text[i] == '\n' {
				f.lines = append(f.lines, i+1)
			}
		}
	}
	sm.mu.Unlock()
	if f == nil || line < 1 || line > len(f.lines) {
		return "", false
	}
	start := f.lines[line-1]
	end := len(f.text)
	if line < len(f.lines) {
		end = f.lines[line] - 1
	}
	return strings.TrimSuffix(f.text[start:end], "\r"), true
}

// callStackLimit is the most "called from" notes a diagnostic shows (as
// mlir-opt's default).
const callStackLimit = 10

// Render writes d and its notes, each with its source line and a caret, as
// mlir-opt does: a diagnostic at a call site location (or a name or fused
// location that holds one) is shown at its callee, followed by a "called
// from" note at each caller in turn; a note shows its source line only when
// its location differs from the one shown before it.
func (sm *SourceMgr) Render(w io.Writer, d *Diagnostic) {
	sm.renderOne(w, d, true)
	last := d.Loc
	if m := d.Loc.MLIR(); m != nil {
		if cs := m.CallSite(); cs != nil {
			caller := cs.Locs[1]
			last = ir.LocationOf(caller)
			for depth := 0; depth < callStackLimit; depth++ {
				sm.renderOne(w, &Diagnostic{Severity: Note, Loc: last, Msg: "called from"}, true)
				if cs = caller.CallSite(); cs == nil {
					break
				}
				caller = cs.Locs[1]
				last = ir.LocationOf(caller)
			}
		}
	}
	for _, n := range d.Notes {
		sm.renderOne(w, n, n.Loc != last)
		last = n.Loc
	}
}

func (sm *SourceMgr) renderOne(w io.Writer, d *Diagnostic, showLine bool) {
	msg := ShortenWords(d.Msg)
	if named(d.Loc) {
		// A location without a file location in it (loc("name")): as
		// mlir-opt, "<unknown>:0: error: loc("name"): message".
		fmt.Fprintf(w, "<unknown>:0: %s: %s: %s\n", d.Severity, ir.LocText(d.Loc), msg)
		return
	}
	if m := d.Loc.MLIR(); m != nil {
		if m.Kind == ir.LocUnknown {
			// loc(unknown) written in the input: as mlir-opt.
			fmt.Fprintf(w, "<unknown>:0: %s: %s\n", d.Severity, msg)
			return
		}
		if s, ok := m.Shown(); ok && s.Line == 0 {
			// "file":0:0: mlir-opt's unknown line and column.
			fmt.Fprintf(w, "%s:0:%d: %s: %s\n", s.File, s.Col, d.Severity, msg)
			return
		}
	}
	d = &Diagnostic{Severity: d.Severity, Loc: d.Loc.Shown(), Msg: d.Msg}
	if d.Loc.Line == 0 {
		if d.Loc.File != "" { // about a whole file: "file: error: ..."
			fmt.Fprintf(w, "%s: %s: %s\n", d.Loc.File, d.Severity, msg)
			return
		}
		fmt.Fprintf(w, "%s: %s\n", d.Severity, msg)
		return
	}
	fmt.Fprintf(w, "%s: %s: %s\n", d.Loc, d.Severity, msg)
	// Column 0 is an unknown column (a location "file":line): no source
	// line, as mlir-opt.
	if sm == nil || !showLine || d.Loc.Col == 0 {
		return
	}
	line, ok := sm.Line(d.Loc.File, d.Loc.Line)
	if !ok {
		return
	}
	col := d.Loc.Col - 1
	if col > len(line) {
		col = len(line)
	}
	if col < 0 {
		col = 0
	}
	// A very long line is shown around the column only.
	if len(line) > maxShownLine {
		from, to := max(0, col-maxShownLine/2), min(len(line), col+maxShownLine/2)
		prefix := ""
		if from > 0 {
			prefix = "..."
		}
		suffix := ""
		if to < len(line) {
			suffix = "..."
		}
		line, col = prefix+line[from:to]+suffix, col-from+len(prefix)
	}
	fmt.Fprintln(w, line)
	// Keep tabs so the caret lines up under the column.
	pad := []byte(line[:col])
	for i, c := range pad {
		if c != '\t' {
			pad[i] = ' '
		}
	}
	fmt.Fprintf(w, "%s^\n", pad)
}

// maxShownLine is the most bytes of a source line a diagnostic shows.
const maxShownLine = 400

// maxWord is the longest run of non-blank bytes a rendered message keeps.
const maxWord = 200

// ShortenWords shortens every run of non-blank bytes longer than maxWord
// (a 50 MB identifier quoted by a message) to its start and end around a
// count of the bytes left out.
func ShortenWords(msg string) string {
	if len(msg) <= maxWord {
		return msg
	}
	var sb strings.Builder
	start := -1
	flush := func(end int) {
		word := msg[start:end]
		if len(word) > maxWord {
			keep := maxWord / 2
			fmt.Fprintf(&sb, "%s...(%d bytes)...%s", word[:keep], len(word)-keep-16, word[len(word)-16:])
		} else {
			sb.WriteString(word)
		}
		start = -1
	}
	for i := 0; i < len(msg); i++ {
		if c := msg[i]; c == ' ' || c == '\n' || c == '\t' {
			if start >= 0 {
				flush(i)
			}
			sb.WriteByte(c)
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		flush(len(msg))
	}
	return sb.String()
}

// RenderAll writes every diagnostic of a list.
func (sm *SourceMgr) RenderAll(w io.Writer, l List) {
	for _, d := range l {
		sm.Render(w, d)
	}
}
