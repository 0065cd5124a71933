// Package optmain is the otir-opt driver, as MLIR's MlirOptMain: it reads an
// OTIR file (or each `// -----` chunk of it), parses, verifies, runs a pass
// pipeline and prints the result, with mlir-opt's flags for pipelines,
// diagnostics checking, IR printing and timing.
//
// The parser and verifier are given by the caller (Env), so the driver can be
// tested on its own and embedded in other tools.
package optmain

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/otir-dev/otir/cmd/internal/crash"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// Exit codes of otir-opt.
const (
	ExitOK    = 0 // success
	ExitError = 1 // an error diagnostic (or an unmet expectation)
	ExitUsage = 1 // bad flags, pipeline or arguments: 1, as mlir-opt
	// An internal error (a bug: a panic; one in the parser, the verifier or
	// a pass is also a diagnostic at its chunk) exits with crash.ExitCode, 3.
)

// Env is what the driver needs from the outside world.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Parse reads a file or a chunk whose first line is line lineOffset+1 of
	// the file; the error is a *diag.Diagnostic or diag.List.
	Parse func(filename, src string, lineOffset int) (*ir.Module, error)
	// ParseUnregistered is Parse accepting operations of unregistered
	// dialects (--allow-unregistered-dialect); nil when the tool cannot.
	ParseUnregistered func(filename, src string, lineOffset int) (*ir.Module, error)
	// Dialects are the registered dialects (--show-dialects), sorted.
	Dialects []string
	// Version is the tool's version line (--version).
	Version string
	// Verify checks a module.
	Verify func(*ir.Module) diag.List
	// StderrTerminal reports whether Stderr is a terminal, and its width in
	// columns, for --progress=auto; nil means it is not one.
	StderrTerminal func() (ok bool, width int)
}

// exitError ends a run with a code; its message, if any, is printed as
// "otir-opt: <msg>".
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return &exitError{code: ExitUsage, msg: fmt.Sprintf(format, args...)}
}

func failf(format string, args ...any) error {
	return &exitError{code: ExitError, msg: fmt.Sprintf(format, args...)}
}

// Main runs otir-opt with the given command line (args[0] is the program
// name) and returns the exit code. It never panics on bad input.
func Main(args []string, env Env) (code int) {
	defer func() {
		if r := recover(); r != nil {
			code = crash.Report(env.Stderr, "otir-opt", r, debug.Stack())
		}
	}()
	app := newApp(env)
	norm, err := normalizeArgs(args, app.Flags)
	if err == nil {
		err = app.Run(norm)
	}
	var ee *exitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		if ee.msg != "" {
			fmt.Fprintf(env.Stderr, "otir-opt: %s\n", ee.msg)
		}
		return ee.code
	}
	fmt.Fprintf(env.Stderr, "otir-opt: %v\n", err)
	return ExitUsage
}
