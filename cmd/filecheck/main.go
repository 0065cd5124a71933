// Command filecheck checks its input against CHECK directives in a check
// file, like LLVM's FileCheck. See docs/filecheck.md.
package main

import (
	"os"

	"github.com/otir-dev/otir/cmd/internal/crash"
	"github.com/otir-dev/otir/internal/filecheck"
)

func main() {
	defer crash.Guard("filecheck")
	fi, err := os.Stderr.Stat()
	tty := err == nil && fi.Mode()&os.ModeCharDevice != 0
	os.Exit(filecheck.Main(filecheck.Env{
		Args:      os.Args,
		Stdin:     os.Stdin,
		Stdout:    os.Stdout,
		Stderr:    os.Stderr,
		Getenv:    os.Getenv,
		StderrTTY: tty,
	}))
}
