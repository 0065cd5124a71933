// Command not runs a command and inverts its exit status, like LLVM's `not`:
// it succeeds when the command exits with a non-zero status and fails when
// the command succeeds or dies from a signal. With --crash it succeeds only
// when the command dies from a signal.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/otir-dev/otir/cmd/internal/crash"
)

const usage = `usage: not [--crash] command [args...]

Runs command and inverts its exit status: exits 0 when the command fails
(a non-zero exit status), 1 when it succeeds or dies from a signal. With
--crash, exits 0 only when the command dies from a signal. Exits 2 for bad
usage; a command that cannot be started is reported and exits 1. Exits 3 on
an internal error of not itself (a bug: please report it).
`

func main() {
	defer crash.Guard("not")
	args := os.Args[1:]
	crash := false
	if len(args) > 0 && args[0] == "--crash" {
		crash, args = true, args[1:]
	}
	if len(args) == 1 && (args[0] == "--help" || args[0] == "-help" || args[0] == "-h") {
		fmt.Print(usage)
		os.Exit(0)
	}
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: not [--crash] command [args...] (see --help)")
		os.Exit(2)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		os.Exit(1)
	case errors.As(err, &exitErr):
		signaled := false
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			signaled = true
		}
		if crash == signaled {
			os.Exit(0)
		}
		os.Exit(1)
	default:
		// The command could not be started at all.
		fmt.Fprintf(os.Stderr, "not: %v\n", err)
		os.Exit(1)
	}
}
