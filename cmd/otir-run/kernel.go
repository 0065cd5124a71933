package main

import (
	"bytes"
	"io"
	"math"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/otir-dev/otir/backend/exec"
	"github.com/otir-dev/otir/cmd/internal/cliargs"
	"github.com/otir-dev/otir/cmd/otir-run/internal/kernelrun"
)

// isKernelFile reports whether the file at path is OTIR text, run by the
// reference executor rather than the ALIR interpreter. The content decides,
// not the name: ALIR JSON starts with '{' (or is gzip-compressed), the
// binary formats hold bytes that text does not; anything else that is text
// is OTIR. An empty or unreadable file is a kernel when its name ends in
// .otir or .mlir (the run then reports the problem).
func isKernelFile(path string) bool {
	named := strings.HasSuffix(path, ".otir") || strings.HasSuffix(path, ".mlir")
	f, err := os.Open(path)
	if err != nil {
		return named
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	return isKernelText(head[:n], n < len(head), named)
}

// isKernelText decides on the first bytes of a file (all of it when
// complete).
func isKernelText(head []byte, complete, named bool) bool {
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

// kernelFlags are otir-run's flags for OTIR kernels (see docs/executor.md).
var kernelFlags = []cli.Flag{
	&cli.StringFlag{Name: "kernel", Usage: "OTIR: the kernel to run (default: the file's only kernel)"},
	&cli.StringSliceFlag{Name: "arg", Usage: "OTIR: bind an argument: NAME=file.npy, NAME=42 (a scalar, or every element) or NAME=[1, 2, ...] (every element, row-major) (repeatable)"},
	&cli.StringFlag{Name: "out-dir", Usage: "OTIR: write each #global argument the kernel writes to DIR/NAME.npy"},
	&cli.BoolFlag{Name: "print", Usage: "OTIR: print each written #global argument as text"},
	&cli.BoolFlag{Name: "check-races", Usage: "OTIR: run the grid in several orders and report order-dependent #global elements"},
	cliargs.Int64In(&cli.Int64Flag{Name: "max-steps", Value: exec.DefaultMaxSteps, Usage: "OTIR: stop a run after this many steps (an operation, plus one per element of its tile results; a loop iteration)"}, 1, math.MaxInt64, ""),
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
	}, c.App.Writer, c.App.ErrWriter)
}
