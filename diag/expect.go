package diag

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/otir-dev/otir/ir"
)

// Expectation is one `expected-<severity>` directive of a source file, as
// mlir-opt's --verify-diagnostics reads them:
//
//	%x = otir.add %a : i8   // expected-error {{needs two operands}}
//	// expected-note @+1 {{declared here}}
//	// expected-error-re @below {{width {{[0-9]+}} is too large}}
//
// A directive without designator applies to its own line; `@+N` / `@-N` to
// the line N below / above; `@below` / `@above` to the next / previous line
// that is not itself a directive; `@unknown` to diagnostics without location.
// The text between the outer `{{ }}` must occur in the message; in the `-re`
// forms, parts in `{{...}}` are regular expressions and the rest literal text.
type Expectation struct {
	Severity Severity
	// Line is the line the diagnostic must be reported on (0: @unknown).
	Line int
	// Text is the expected message text as written.
	Text string
	// Loc is where the directive is written (its `expected-` keyword).
	Loc     ir.Location
	re      *regexp.Regexp
	matched bool
}

// Matched reports whether a diagnostic matched the expectation.
func (e *Expectation) Matched() bool { return e.matched }

// matches reports whether msg satisfies the expected text.
func (e *Expectation) matches(msg string) bool {
	if e.re != nil {
		return e.re.MatchString(msg)
	}
	return strings.Contains(msg, e.Text)
}

// Expectations are the directives of one file or chunk, and the state of
// matching diagnostics against them.
type Expectations struct {
	file string
	list []*Expectation
}

// List returns the directives in source order.
func (es *Expectations) List() []*Expectation { return es.list }

var (
	directiveRE = regexp.MustCompile(`expected-(error|warning|note|remark)(-re)?[ \t]*(@([+-][0-9]+|above|below|unknown))?[ \t]*\{\{(.*)\}\}[ \t]*$`)
	// startRE finds anything that looks like a directive, to report
	// malformed ones instead of silently ignoring them.
	startRE = regexp.MustCompile(`expected-(error|warning|note|remark)(-re)?([ \t]*@|[ \t]*\{|[ \t]*$)`)
)

// ParseExpectations reads the directives of src, a file or a chunk of one
// whose first line is line lineOffset+1 of file. Malformed directives (a bad
// designator, a regex that does not compile, a missing `{{...}}`) are
// returned as errors located at the directive.
func ParseExpectations(file, src string, lineOffset int) (*Expectations, List) {
	es := &Expectations{file: file}
	var errs List
	var below []*Expectation
	lastPlain := 0 // last line that is not a directive
	lines := strings.Split(src, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, text := range lines {
		line := lineOffset + i + 1
		m := directiveRE.FindStringSubmatchIndex(text)
		if m == nil {
			if s := startRE.FindStringIndex(text); s != nil {
				errs = append(errs, Errorf(ir.Location{File: file, Line: line, Col: s[0] + 1},
					"malformed %s directive: expected '{{message}}' at the end of the line", directiveName(text[s[0]:])))
				continue
			}
			for _, e := range below {
				e.Line = line
			}
			below = nil
			lastPlain = line
			continue
		}
		sub := func(k int) string {
			if m[2*k] < 0 {
				return ""
			}
			return text[m[2*k]:m[2*k+1]]
		}
		e := &Expectation{
			Severity: severityNamed(sub(1)),
			Text:     sub(5),
			Loc:      ir.Location{File: file, Line: line, Col: m[0] + 1},
		}
		if sub(2) != "" {
			re, err := compileExpected(e.Text)
			if err != nil {
				errs = append(errs, Errorf(e.Loc, "%v", err))
				continue
			}
			e.re = re
		}
		switch d := sub(4); {
		case d == "":
			e.Line = line
		case d == "above":
			if lastPlain == 0 {
				errs = append(errs, Errorf(e.Loc, "'@above' has no line above it to refer to"))
				continue
			}
			e.Line = lastPlain
		case d == "below":
			below = append(below, e)
		case d == "unknown":
			e.Line = 0
		default:
			n, err := strconv.Atoi(d[1:])
			if err != nil || n > 1<<30 {
				errs = append(errs, Errorf(e.Loc, "'@%s' is too far from its line", d))
				continue
			}
			if d[0] == '-' {
				n = -n
			}
			e.Line = line + n
			if e.Line < 1 {
				errs = append(errs, Errorf(e.Loc, "'@%s' refers to a line before the start of the file", d))
				continue
			}
		}
		es.list = append(es.list, e)
	}
	for _, e := range below {
		errs = append(errs, Errorf(e.Loc, "'@below' has no line below it to refer to"))
		for i, x := range es.list {
			if x == e {
				es.list = append(es.list[:i], es.list[i+1:]...)
				break
			}
		}
	}
	return es, errs
}

// directiveName is the directive keyword at the start of s ("expected-error-re").
func directiveName(s string) string {
	end := strings.IndexAny(s, " \t@{")
	if end < 0 {
		return s
	}
	return s[:end]
}

func severityNamed(s string) Severity {
	switch s {
	case "warning":
		return Warning
	case "note":
		return Note
	case "remark":
		return Remark
	}
	return Error
}

// compileExpected builds the regex of an `-re` directive: `{{...}}` parts are
// regular expressions, everything else is matched literally.
func compileExpected(text string) (*regexp.Regexp, error) {
	var sb strings.Builder
	rest := text
	for rest != "" {
		open := strings.Index(rest, "{{")
		if open < 0 {
			sb.WriteString(regexp.QuoteMeta(rest))
			break
		}
		sb.WriteString(regexp.QuoteMeta(rest[:open]))
		rest = rest[open+2:]
		end := strings.Index(rest, "}}")
		if end < 0 {
			return nil, fmt.Errorf("found start of regex with no end '}}'")
		}
		sb.WriteString("(" + rest[:end] + ")")
		rest = rest[end+2:]
	}
	re, err := regexp.Compile(sb.String())
	if err != nil {
		return nil, fmt.Errorf("invalid regex in expected text '%s': %v", text, err)
	}
	return re, nil
}

// Process matches a diagnostic and each of its notes against the
// expectations, as mlir-opt does, and returns an error for each one nobody
// expected: `unexpected error: <msg>` at the diagnostic's location, or, when
// only the severity differs, `'error' diagnostic emitted when expecting a
// 'warning'` at the directive.
func (es *Expectations) Process(d *Diagnostic) List {
	var errs List
	if e := es.processOne(d); e != nil {
		errs = append(errs, e)
	}
	for _, n := range d.Notes {
		if e := es.processOne(n); e != nil {
			errs = append(errs, e)
		}
	}
	return errs
}

func (es *Expectations) processOne(d *Diagnostic) *Diagnostic {
	line := d.Loc.Shown().Line
	var near *Expectation
	for _, e := range es.list {
		if e.Line != line || !e.matches(d.Msg) {
			continue
		}
		if f := d.Loc.Shown().File; line != 0 && f != "" && e.Loc.File != f {
			continue
		}
		if e.Severity == d.Severity {
			e.matched = true
			return nil
		}
		near = e
	}
	if near != nil {
		return Errorf(near.Loc, "'%s' diagnostic emitted when expecting a '%s'", d.Severity, near.Severity)
	}
	return Errorf(d.Loc, "unexpected %s: %s", d.Severity, d.Msg)
}

// Unmet returns an error for each expectation no diagnostic matched:
// `expected error "<text>" was not produced`, at the directive.
func (es *Expectations) Unmet() List {
	var errs List
	for _, e := range es.list {
		if !e.matched {
			errs = append(errs, Errorf(e.Loc, "expected %s \"%s\" was not produced", e.Severity, e.Text))
		}
	}
	return errs
}

// Check matches every diagnostic of l and then reports unmet expectations;
// the result is empty exactly when the diagnostics are as expected.
func (es *Expectations) Check(l List) List {
	var errs List
	for _, d := range l {
		errs = append(errs, es.Process(d)...)
	}
	return append(errs, es.Unmet()...)
}
