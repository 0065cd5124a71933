package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"otir/backend/exec"
)

// isKernelFile reports whether path is OTIR text, run by the reference
// executor rather than the ALIR interpreter.
func isKernelFile(path string) bool { return strings.HasSuffix(path, ".otir") }

// kernelFlags are otir-run's flags for OTIR kernels (see docs/executor.md).
var kernelFlags = []cli.Flag{
	&cli.StringFlag{Name: "kernel", Usage: "OTIR: the kernel to run (default: the file's only kernel)"},
	&cli.StringSliceFlag{Name: "arg", Usage: "OTIR: bind an argument: NAME=file.npy, NAME=42 or NAME=[1, 2, ...] (repeatable)"},
	&cli.StringFlag{Name: "out-dir", Usage: "OTIR: write each #global argument the kernel writes to DIR/NAME.npy"},
	&cli.BoolFlag{Name: "print", Usage: "OTIR: print each written #global argument as text"},
	&cli.BoolFlag{Name: "check-races", Usage: "OTIR: run the grid in several orders and report order-dependent #global elements"},
}

// runKernel runs an .otir kernel on the reference executor. Diagnostics are
// rendered to stderr, and exec.ErrReported returned for main to exit with 1.
func runKernel(c *cli.Context, path string) error {
	return exec.RunFile(exec.FileRun{
		Path:    path,
		Kernel:  c.String("kernel"),
		Args:    c.StringSlice("arg"),
		OutDir:  c.String("out-dir"),
		Print:   c.Bool("print"),
		Options: exec.Options{CheckRaces: c.Bool("check-races")},
	}, c.App.Writer, c.App.ErrWriter)
}
