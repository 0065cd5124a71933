package filecheck

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// The annotated input dump (--dump-input), after LLVM's
// BuildInputAnnotations and DumpAnnotatedInput.

// dumpMode is the --dump-input value; larger values take precedence.
type dumpMode int

const (
	dumpNever dumpMode = iota
	dumpFail
	dumpAlways
	dumpHelp
)

// dumpFilter is the --dump-input-filter value; larger values take precedence.
type dumpFilter int

const (
	filterError dumpFilter = iota
	filterAnnotation
	filterAnnotationFull
	filterAll
)

type markerStyle struct {
	lead           byte
	color          int
	note           string
	filtersAsError bool
}

func getMarker(mt matchType) markerStyle {
	switch mt {
	case matchFoundAndExpected:
		return markerStyle{'^', colorGreen, "", false}
	case matchFoundButExcluded:
		return markerStyle{'!', colorRed, "error: no match expected", true}
	case matchFoundButWrongLine:
		return markerStyle{'!', colorRed, "error: match on wrong line", true}
	case matchFoundButDiscarded:
		return markerStyle{'!', colorCyan, "discard: overlaps earlier match", false}
	case matchFoundErrorNote:
		return markerStyle{'!', colorRed, "error: unknown error after match", true}
	case matchNoneAndExcluded:
		return markerStyle{'X', colorGreen, "", false}
	case matchNoneButExpected:
		return markerStyle{'X', colorRed, "error: no match found", true}
	case matchNoneForInvalidPattern:
		return markerStyle{'X', colorRed, "error: match failed for invalid pattern", true}
	case matchFuzzy:
		return markerStyle{'?', colorMag, "possible intended match", true}
	}
	return markerStyle{}
}

// inputAnnotation is one annotation line under an input line.
type inputAnnotation struct {
	diagIndex        int
	label            string
	isFirstLine      bool
	inputLine        int
	startCol, endCol int // endCol == math.MaxInt: to the end of the line
	marker           markerStyle
	foundAndExpected bool
}

// buildInputAnnotations turns diagnostics into per-line annotations and
// returns them with the widest label.
func (fc *checker) buildInputAnnotations(diags []fcDiag) ([]inputAnnotation, int) {
	countPer := map[loc]int{}
	for _, d := range diags {
		countPer[d.checkLoc]++
	}
	indexPer := map[loc]int{}
	var out []inputAnnotation
	labelWidth := 0
	for i, d := range diags {
		a := inputAnnotation{diagIndex: i}
		label := d.checkTy.abbrev() + ":"
		if d.checkLoc.b == fc.checkBuf {
			line, _ := d.checkLoc.lineCol()
			label += fmt.Sprint(line)
		} else {
			for k, b := range fc.impBufs {
				if b == d.checkLoc.b {
					label += fmt.Sprintf("imp%d", k+1)
				}
			}
		}
		if countPer[d.checkLoc] > 1 {
			label += fmt.Sprintf("'%d", indexPer[d.checkLoc])
			indexPer[d.checkLoc]++
		}
		a.label = label
		labelWidth = max(labelWidth, len(label))
		a.marker = getMarker(d.matchTy)
		if d.note != "" {
			a.marker.note = d.note
			if d.startLine == d.endLine && d.startCol == d.endCol {
				a.marker.lead = ' '
			}
		}
		if d.matchTy == matchFoundErrorNote {
			a.marker.note = "error: " + a.marker.note
		}
		a.foundAndExpected = d.matchTy == matchFoundAndExpected
		a.isFirstLine = true
		a.inputLine = d.startLine
		a.startCol = d.startCol
		if d.startLine == d.endLine {
			a.endCol = max(d.startCol+1, d.endCol)
			out = append(out, a)
			continue
		}
		a.endCol = math.MaxInt
		out = append(out, a)
		for l := d.startLine + 1; l <= d.endLine; l++ {
			if d.endCol == 1 && l == d.endLine {
				break
			}
			b := a
			b.isFirstLine = false
			b.inputLine = l
			b.marker.lead = '~'
			b.marker.note = ""
			b.startCol = 1
			if l != d.endLine {
				b.endCol = math.MaxInt
			} else {
				b.endCol = d.endCol
			}
			out = append(out, b)
		}
	}
	return out, labelWidth
}

func findInputLineInFilter(filter dumpFilter, cur int, anns []inputAnnotation) int {
	if filter == filterAll {
		return cur
	}
	for _, a := range anns {
		switch filter {
		case filterAnnotationFull:
			return a.inputLine
		case filterAnnotation:
			if a.isFirstLine {
				return a.inputLine
			}
		case filterError:
			if a.isFirstLine && a.marker.filtersAsError {
				return a.inputLine
			}
		}
	}
	return math.MaxInt
}

// colorWriter writes optional ANSI colors.
type colorWriter struct {
	b     *strings.Builder
	color bool
}

func (w colorWriter) set(c int, bold, bg bool) {
	if w.color {
		w.b.WriteString(ansiColor(c, bold, bg))
	}
}
func (w colorWriter) reset() {
	if w.color {
		w.b.WriteString(ansiReset)
	}
}

// dumpAnnotatedInput writes the "Input was:" dump.
func (fc *checker) dumpAnnotatedInput(out io.Writer, filter dumpFilter, context int, input string, anns []inputAnnotation, labelWidth int, color bool) {
	var o strings.Builder
	o.WriteString("Input was:\n<<<<<<\n")
	sort.SliceStable(anns, func(i, j int) bool {
		if anns[i].inputLine != anns[j].inputLine {
			return anns[i].inputLine < anns[j].inputLine
		}
		return anns[i].diagIndex < anns[j].diagIndex
	})
	lineCount := strings.Count(input, "\n")
	if len(input) > 0 && input[len(input)-1] != '\n' {
		lineCount++
	}
	lineNoWidth := 1
	if lineCount > 0 {
		lineNoWidth = int(math.Log10(float64(lineCount))) + 1
	}
	labelWidth = max(labelWidth, lineNoWidth) + 3

	prevInFilter, nextInFilter := 0, 0
	var elided strings.Builder
	dumpElided := func() {
		if elided.Len() == 0 {
			return
		}
		if 3 < strings.Count(elided.String(), "\n") {
			for i := 0; i < 3; i++ {
				w := colorWriter{&o, color}
				w.set(colorBlack, true, false)
				fmt.Fprintf(&o, "%*s", labelWidth, ".")
				w.reset()
				o.WriteByte('\n')
			}
		} else {
			o.WriteString(elided.String())
		}
		elided.Reset()
	}
	ai := 0
	pos := 0
	for line := 1; pos < len(input) || ai < len(anns); line++ {
		lineStart := pos
		if nextInFilter < line {
			nextInFilter = findInputLineInFilter(filter, line, anns[ai:])
		}
		if nextInFilter == line {
			prevInFilter = line
		}
		var lb *strings.Builder
		if (prevInFilter == 0 || prevInFilter+context < line) && (nextInFilter == math.MaxInt || line+context < nextInFilter) {
			lb = &elided
		} else {
			lb = &o
			dumpElided()
		}
		w := colorWriter{lb, color}
		w.set(colorBlack, true, false)
		fmt.Fprintf(lb, "%*d", labelWidth, line)
		lb.WriteString(": ")
		w.reset()

		var goodMatches []inputAnnotation
		if fc.req.Verbose && color {
			for k := ai; k < len(anns) && anns[k].inputLine == line; k++ {
				if anns[k].foundAndExpected {
					goodMatches = append(goodMatches, anns[k])
				}
			}
		}
		inMatch := false
		if fc.req.Verbose {
			w.set(colorCyan, true, true)
		}
		newline := false
		for col := 1; pos < len(input) && !newline; col++ {
			was := inMatch
			inMatch = false
			for _, m := range goodMatches {
				if m.startCol <= col && col < m.endCol {
					inMatch = true
					break
				}
			}
			if !was && inMatch {
				w.reset()
			} else if was && !inMatch {
				w.set(colorCyan, true, true)
			}
			if input[pos] == '\n' {
				newline = true
				lb.WriteByte(' ')
			} else {
				lb.WriteByte(input[pos])
			}
			pos++
		}
		if fc.req.Verbose {
			w.reset()
		}
		lb.WriteByte('\n')
		lineWidth := pos - lineStart

		for ai < len(anns) && anns[ai].inputLine == line {
			a := anns[ai]
			w.set(a.marker.color, true, false)
			fmt.Fprintf(lb, "%-*s  ", labelWidth, a.label)
			col := 1
			for ; col < a.startCol; col++ {
				lb.WriteByte(' ')
			}
			lb.WriteByte(a.marker.lead)
			for col++; col < a.endCol && col <= lineWidth; col++ {
				lb.WriteByte('~')
			}
			if a.marker.note != "" {
				for ; col <= lineWidth; col++ {
					lb.WriteByte(' ')
				}
				lb.WriteString(" " + a.marker.note)
			}
			w.reset()
			lb.WriteByte('\n')
			ai++
		}
	}
	dumpElided()
	o.WriteString(">>>>>>\n")
	io.WriteString(out, o.String())
}

// dumpHelpText is printed by --dump-input=help.
const dumpHelpText = `The following description was requested by -dump-input=help to
explain the input dump printed by FileCheck.

Related command-line options:

  - -dump-input=<value> enables or disables the input dump
  - -dump-input-filter=<value> filters the input lines
  - -dump-input-context=<N> adjusts the context of filtered lines
  - -v and -vv add more annotations
  - -color forces colors to be enabled both in the dump and below
  - -help documents the above options in more detail

These options can also be set via FILECHECK_OPTS.  For example, for
maximum debugging output on failures:

  $ FILECHECK_OPTS='-dump-input-filter=all -vv -color' ninja check

Input dump annotation format:

  - L:     labels line number L of the input file
           An extra space is added after each input line to represent the
           newline character
  - T:L    labels the only match result for either (1) a pattern of type T from
           line L of the check file if L is an integer or (2) the I-th implicit
           pattern if L is "imp" followed by an integer I (index origin one)
  - T:L'N  labels the Nth match result for such a pattern
  - ^~~    marks good match (reported if -v)
  - !~~    marks bad match, such as:
           - CHECK-NEXT on same line as previous match (error)
           - CHECK-NOT found (error)
           - CHECK-DAG overlapping match (discarded, reported if -vv)
  - X~~    marks search range when no match is found, such as:
           - CHECK-NEXT not found (error)
           - CHECK-NOT not found (success, reported if -vv)
           - CHECK-DAG not found after discarded matches (error)
  - ?      marks fuzzy match when no match is found
  - ...    indicates elided input lines and annotations, as specified by
           -dump-input-filter and -dump-input-context
  - colors success, error, fuzzy match, discarded match, unmatched input
`
