package parse

import (
	"errors"
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// syntaxError is a located error raised by the lexer or by hand-written
// parts of the grammar. It implements participle.Error so that participle
// passes it through unchanged.
type syntaxError struct {
	pos lexer.Position
	msg string
}

func (e *syntaxError) Error() string            { return e.pos.String() + ": " + e.msg }
func (e *syntaxError) Message() string          { return e.msg }
func (e *syntaxError) Position() lexer.Position { return e.pos }

// loc converts a token position to an IR location without a file name
// (toDiag fills it in).
func loc(p lexer.Position) ir.Location {
	return ir.Location{File: p.Filename, Line: p.Line, Col: p.Column}
}

// errAt makes a diagnostic at a token position.
func errAt(p lexer.Position, format string, args ...any) *diag.Diagnostic {
	return diag.Errorf(loc(p), format, args...)
}

// toDiag turns any error of the parse into a diagnostic located in file,
// rewording participle's "unexpected token" errors the way mlir-opt words
// them ("expected ':'").
func toDiag(err error, file string) *diag.Diagnostic {
	d := anyToDiag(err, file)
	if d.Loc.File == "" {
		d.Loc.File = file
	}
	for _, n := range d.Notes {
		if n.Loc.File == "" && n.Loc.Line > 0 {
			n.Loc.File = file
		}
	}
	return d
}

func anyToDiag(err error, file string) *diag.Diagnostic {
	var d *diag.Diagnostic
	if errors.As(err, &d) {
		return d
	}
	var se *syntaxError
	if errors.As(err, &se) {
		return errAt(se.pos, "%s", se.msg)
	}
	var ut *participle.UnexpectedTokenError
	if errors.As(err, &ut) {
		return errAt(ut.Unexpected.Pos, "%s", expectedMessage(ut))
	}
	var pe participle.Error
	if errors.As(err, &pe) {
		return errAt(pe.Position(), "%s", pe.Message())
	}
	return diag.Errorf(ir.Location{File: file, Line: 1, Col: 1}, "%s", err.Error())
}

// expectedMessage words an unexpected-token error by the first thing the
// grammar expected there.
func expectedMessage(ut *participle.UnexpectedTokenError) string {
	msg := ut.Message()
	i := strings.Index(msg, " (expected ")
	if i < 0 || !strings.HasSuffix(msg, ")") {
		return unexpected(ut.Unexpected)
	}
	want := strings.TrimSpace(msg[i+len(" (expected ") : len(msg)-1])
	if what := describe(firstTerm(want)); what != "" {
		return "expected " + what
	}
	return unexpected(ut.Unexpected)
}

func unexpected(t lexer.Token) string {
	if t.EOF() {
		return "unexpected end of file"
	}
	return fmt.Sprintf("unexpected token '%s'", t.Value)
}

// firstTerm returns the first element of an EBNF expression: a quoted
// literal, a name, or the first alternative of a parenthesised group.
func firstTerm(s string) string {
	s = strings.TrimSpace(s)
	for strings.HasPrefix(s, "(") {
		s = strings.TrimSpace(s[1:])
	}
	if strings.HasPrefix(s, `"`) {
		if j := strings.IndexByte(s[1:], '"'); j >= 0 {
			return s[:j+2]
		}
		return s
	}
	end := strings.IndexAny(s, " |)?*+!")
	if end < 0 {
		return s
	}
	return s[:end]
}

// describe names what a grammar term stands for, in mlir-opt's words.
func describe(term string) string {
	if strings.HasPrefix(term, `"`) {
		return "'" + strings.Trim(term, `"`) + "'"
	}
	// Token references print as <name>.
	switch strings.ToLower(strings.Trim(term, "<>")) {
	case "value":
		return "SSA operand"
	case "resultgroup":
		return "SSA result name"
	case "ident", "bangtype":
		return "type"
	case "int":
		return "integer value"
	case "float":
		return "floating point value"
	case "string":
		return "string"
	case "sig":
		return "function type"
	case "caret":
		return "block name"
	case "symbol":
		return "valid '@'-identifier for symbol name"
	case "opother":
		return "operation name"
	case "denselist":
		return "dense element literal"
	}
	switch term {
	case "OpBody", "Operation":
		return "operation name in quotes"
	case "Region":
		return "'{' to begin a region"
	case "AttrDict":
		return "'{' in attribute dictionary"
	case "Attribute":
		return "attribute value"
	case "FuncType":
		return "'('"
	case "DenseLit":
		return "dense element literal"
	case "ArgDecl":
		return "SSA operand"
	}
	return ""
}
