// Package crash is every command's safety net: a panic that reaches main
// (a bug, whatever the input) becomes one line that says so, the stack on
// stderr for the bug report, and exit status 3 instead of Go's crash dump
// and status 2 (which the commands use for bad usage).
//
// It is a net, not a fix: the fuzz targets still look for the panics
// themselves, and each one found is fixed where it happens.
package crash

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// ExitCode is the exit status of a command that hit an internal error.
const ExitCode = 3

// Guard, deferred as the first statement of a command's main,
//
//	defer crash.Guard("otir-run")
//
// turns a panic of the main goroutine into Report's message and exit
// status 3. (A panic in another goroutine still ends the process as Go
// does.)
func Guard(tool string) {
	if r := recover(); r != nil {
		os.Exit(Report(os.Stderr, tool, r, debug.Stack()))
	}
}

// Report writes the message of an internal error of tool, the recovered
// value r and the stack, and returns ExitCode.
func Report(w io.Writer, tool string, r any, stack []byte) int {
	fmt.Fprintf(w, "%s: internal error: %v\n", tool, r)
	fmt.Fprintf(w, "%s: this is a bug in %s, not in the input: please report it, with the command line and its input files\n", tool, tool)
	if len(stack) > 0 {
		fmt.Fprintf(w, "%s", stack)
	}
	return ExitCode
}
