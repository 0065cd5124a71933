package diag

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/otir-dev/otir/ir"
)

// Positioned is implemented by errors that know where in a file they are
// (alir.JSONError, alir.RowError): a 1-based line and column, line 0 when
// unknown.
type Positioned interface {
	error
	Position() (line, col int)
}

// AboutFile turns err, an error in or about the file path, into a
// diagnostic printed the way mlir-opt prints them: "path: error: msg", or
// "path:line:col: error: msg" when err (or an error it wraps) is Positioned
// with a line. A leading "path: " in err's text is dropped, a Positioned
// error's own place prefix too, and an *fs.PathError about path says what
// could not be done ("cannot open the file: no such file or directory").
func AboutFile(path string, err error) *Diagnostic {
	loc := ir.Location{File: path}
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		what := "cannot " + pe.Op + " the file"
		switch pe.Op {
		case "mkdir":
			what = "cannot create the directory"
		case "stat", "lstat":
			what = "cannot find the file"
		}
		inner := fmt.Sprintf("%s: %v", what, pe.Err)
		msg = strings.Replace(msg, pe.Error(), inner, 1)
	}
	var p Positioned
	if errors.As(err, &p) {
		if line, col := p.Position(); line > 0 {
			loc.Line, loc.Col = line, max(col, 1)
			if u := errors.Unwrap(p); u != nil {
				msg = strings.Replace(msg, p.Error(), u.Error(), 1)
			}
		}
	}
	msg = strings.TrimPrefix(msg, path+": ")
	return &Diagnostic{Severity: Error, Loc: loc, Msg: msg}
}
