package main

import (
	"math"

	"github.com/urfave/cli/v2"

	"github.com/otir-dev/otir/backend/exec"
	"github.com/otir-dev/otir/cmd/internal/cliargs"
	"github.com/otir-dev/otir/cmd/otir-run/internal/kernelrun"
)

// kernelFlags are otir-run's flags for OTIR kernels (see docs/executor.md).
var kernelFlags = []cli.Flag{
	&cli.StringFlag{Name: "kernel", Usage: "OTIR: the kernel to run (default: the file's only kernel)"},
	&cli.StringSliceFlag{Name: "arg", Usage: "OTIR: bind an argument: NAME=file.npy, NAME=42 (a scalar, or every element) or NAME=[1, 2, ...] (every element, row-major) (repeatable)"},
	&cli.StringFlag{Name: "out-dir", Usage: "OTIR: write each #global argument the kernel writes to DIR/NAME.npy"},
	&cli.BoolFlag{Name: "print", Usage: "OTIR: print each written #global argument as text"},
	&cli.BoolFlag{Name: "check-races", Usage: "OTIR: run the grid in several orders and report order-dependent #global elements"},
	cliargs.Int64In(&cli.Int64Flag{Name: "max-steps", Value: exec.DefaultMaxSteps, Usage: "OTIR: stop a run after this many steps (an operation, plus one per element of its tile results; a loop iteration); the default stops an endless loop in under a second"}, 1, math.MaxInt64, ""),
	cliargs.Int64In(&cli.Int64Flag{Name: "max-elements", Value: exec.DefaultMaxElements, Usage: "OTIR: the most elements any tile, and all tiles of the kernel together, may hold"}, 1, math.MaxInt64, ""),
}

// runKernel runs an OTIR kernel on the reference executor. Diagnostics are
// rendered to stderr, and kernelrun.ErrReported returned for main to exit with 1.
func runKernel(c *cli.Context, path string) error {
	steps, elems := c.Int64("max-steps"), c.Int64("max-elements") // ranges checked by the flags
	return kernelrun.RunFile(kernelrun.FileRun{
		Path:    path,
		Kernel:  c.String("kernel"),
		Args:    c.StringSlice("arg"),
		OutDir:  c.String("out-dir"),
		Print:   c.Bool("print"),
		Options: exec.Options{CheckRaces: c.Bool("check-races"), MaxSteps: steps, MaxElements: elems},

		MaxInputBytes: inputOptions(c).MaxBytes,
	}, c.App.Writer, c.App.ErrWriter)
}
