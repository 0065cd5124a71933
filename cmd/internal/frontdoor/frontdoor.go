// Package frontdoor is the one way a command reads IR from a file. OTIR
// text (kernels, nn graphs) is read with a bound on its size, parsed and
// verified; ALIR and DAIS programs are read with the same bound, decoded and
// validated. A command evaluates, lowers or emits only what came through
// here, so the verifier's diagnostic, located in the file with its source
// line and caret, is what a user sees for invalid IR, whichever mode of
// whichever command reads it.
//
// otir-opt reads through its own driver (cmd/otir-opt/internal/optmain:
// --split-input-file, --verify-diagnostics), which bounds its input with
// the same internal/readlimit and verifies every module it parses.
package frontdoor

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/internal/readlimit"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/parse"
	"github.com/otir-dev/otir/passes/verify"
)

// Options configure a read.
type Options struct {
	// MaxBytes bounds the size of the file (0: readlimit.Default); a larger
	// one is an error that names --max-input-bytes.
	MaxBytes int64
	// MaxOpsFlag, when set, is the flag that raises alir.MaxOps, named in
	// the error of a program with more operations.
	MaxOpsFlag string
}

func (o Options) max() int64 {
	if o.MaxBytes > 0 {
		return o.MaxBytes
	}
	return readlimit.Default
}

// ReadIR reads the OTIR text file at path, parses and verifies it. The
// text is added to sm, so that diagnostics render with their source lines.
// A program file (see IsText) is decoded and validated, and refused.
// An error is a *diag.Diagnostic ("path: error: ..." when the file cannot
// be read or is too large), the parser's *diag.Diagnostic or diag.List, or
// a *VerifyError (the verifier's errors, with any warnings); see Render.
func ReadIR(sm *diag.SourceMgr, path string, opts Options) (*ir.Module, error) {
	src, err := readlimit.File(path, opts.max(), readlimit.Flag)
	if err != nil {
		return nil, diag.AboutFile(path, err)
	}
	if head := src[:min(len(src), textSample)]; !IsTextHead(head, len(head) == len(src), HasTextName(path)) {
		// A program file: validated all the same, then refused.
		if _, _, err := alir.Decode(src, alir.FormatAuto); err != nil {
			return nil, diag.AboutFile(path, err)
		}
		return nil, diag.AboutFile(path, errors.New("this file is an ALIR or DAIS program, not OTIR text (a kernel or an nn graph)"))
	}
	text := diag.NormalizeNewlines(string(src))
	sm.Add(path, text)
	m, err := parse.ParseString(path, text, parse.Options{})
	if err != nil {
		return nil, err
	}
	if err := Verify(m); err != nil {
		return nil, err
	}
	return m, nil
}

// Verify runs the verifier on m: nil, or a *VerifyError holding its
// diagnostics when one of them is an error.
func Verify(m *ir.Module) error {
	if l := verify.Verify(m); l.HasErrors() {
		return &VerifyError{l}
	}
	return nil
}

// VerifyError is the verifier's rejection of text that parsed (as against
// text that is not OTIR at all).
type VerifyError struct{ List diag.List }

func (e *VerifyError) Error() string { return e.List.Error() }
func (e *VerifyError) Unwrap() error { return e.List }

// IsVerifyError reports whether err is (or wraps) a *VerifyError.
func IsVerifyError(err error) bool {
	var ve *VerifyError
	return errors.As(err, &ve)
}

// ReadProgram reads the ALIR or DAIS program file at path in format f
// (alir.FormatAuto detects it), decodes and validates it (alir.Decode
// validates every format). Errors are *diag.Diagnostic about the file
// ("path: error: ...", "path:line:col: error: ..." for JSON).
func ReadProgram(path string, f alir.Format, opts Options) (*alir.Program, alir.Format, error) {
	data, err := readlimit.File(path, opts.max(), readlimit.Flag)
	if err != nil {
		return nil, f, diag.AboutFile(path, err)
	}
	p, g, err := alir.Decode(data, f)
	switch {
	case errors.Is(err, alir.ErrInflateLimit):
		err = fmt.Errorf("%w (%s raises it)", err, readlimit.Flag)
	case errors.Is(err, alir.ErrOpLimit) && opts.MaxOpsFlag != "":
		err = fmt.Errorf("%w (%s raises it)", err, opts.MaxOpsFlag)
	}
	if err != nil {
		return nil, g, diag.AboutFile(path, err)
	}
	return p, g, nil
}

// Render writes err to w when it is a diagnostic (a *diag.Diagnostic, one
// wrapped, or a diag.List), with source lines from sm, and reports whether
// it did; other errors are left to the caller.
func Render(w io.Writer, sm *diag.SourceMgr, err error) bool {
	var l diag.List
	var d *diag.Diagnostic
	switch {
	case errors.As(err, &l):
		sm.RenderAll(w, l)
	case errors.As(err, &d):
		sm.Render(w, d)
	default:
		return false
	}
	return true
}

// IsText reports whether the file at path is OTIR text rather than an ALIR
// or DAIS program. The content decides, not the name: ALIR JSON starts with
// '{' (or is gzip-compressed), the binary formats hold bytes that text does
// not; anything else that is text is OTIR. An empty or unreadable file is
// text when its name ends in .otir or .mlir (reading it then reports the
// problem).
func IsText(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return HasTextName(path)
	}
	defer f.Close()
	head := make([]byte, textSample)
	n, _ := io.ReadFull(f, head)
	return IsTextHead(head[:n], n < len(head), HasTextName(path))
}

// textSample is how many bytes of a file IsText reads.
const textSample = 4096

// HasTextName reports whether path is named as OTIR text (.otir, .mlir).
func HasTextName(path string) bool {
	return strings.HasSuffix(path, ".otir") || strings.HasSuffix(path, ".mlir")
}

// IsTextHead decides on the first bytes of a file (all of it when
// complete); named says the file's name ends in .otir or .mlir.
func IsTextHead(head []byte, complete, named bool) bool {
	if len(head) == 0 {
		return named
	}
	if head[0] == 0x1f && len(head) > 1 && head[1] == 0x8b {
		return false // gzip: ALIR JSON
	}
	if t := bytes.TrimLeft(head, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		return false // ALIR JSON
	}
	for _, c := range head {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' || c == 0x7f {
			return false // a control character: binary
		}
	}
	if !complete {
		// The sample may end inside a multi-byte character.
		for i := 0; i < utf8.UTFMax && len(head) > 0 && !utf8.Valid(head); i++ {
			head = head[:len(head)-1]
		}
	}
	return utf8.Valid(head)
}

// NotAProgram is the error of a command that takes an ALIR or DAIS program
// when given valid OTIR text (what, e.g. "info", names the command).
func NotAProgram(path, what string) *diag.Diagnostic {
	return diag.AboutFile(path, fmt.Errorf("%s takes an ALIR or DAIS program, and this file is OTIR text (otir-opt lowers it to one: lower-tiles or nn-to-circuit, then --emit)", what))
}
