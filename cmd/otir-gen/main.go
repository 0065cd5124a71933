// Command otir-gen writes generated OTIR programs for benchmarks:
//
//	otir-gen chain -n 100000 > chain100k.otir
//	otir-gen chain -n 1330000 -one-line > oneline.otir
//	otir-gen kernels -n 100000 > kernels100k.otir
//
// `chain` is the kernel the parser benchmarks use (parse.GenerateChain): a
// chain of element-wise operations in all three annotation forms; with
// -one-line its whole body is on one line (parse.GenerateChainOneLine).
// `kernels` is N empty kernels, one a line (parse.GenerateEmptyKernels).
// `shift-add` is an ALIR JSON program of N random shift-and-add operations
// (alir.RandomShiftAdd), the program the interpreter and `otir-run info`
// benchmarks read:
//
//	otir-gen shift-add -n 250000 --inputs 1000 --outputs 1000 --seed 1 > sa250k.json
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/cmd/internal/cliargs"
	"github.com/otir-dev/otir/cmd/internal/crash"
	"github.com/otir-dev/otir/parse"
)

// maxCount bounds -n.
const maxCount = 100_000_000

// maxShiftAddOps bounds shift-add's sizes: the most operations otir-run
// reads by default (--max-ops, 2^21).
const maxShiftAddOps = 1 << 21

func main() {
	defer crash.Guard("otir-gen")
	os.Exit(mainCode(os.Args, os.Stdout, os.Stderr))
}

// nFlag is -n, the number of operations or kernels.
func nFlag(usage string) cli.Flag {
	return cliargs.IntIn(&cli.IntFlag{Name: "n", Value: 100000, Usage: usage}, 1, maxCount, "")
}

// mainCode runs otir-gen and returns its exit code: 0 success, 1 when the
// output cannot be written, 2 bad usage.
func mainCode(args []string, stdout, stderr io.Writer) int {
	app := &cli.App{
		Name:            "otir-gen",
		Usage:           "write generated OTIR programs (for benchmarks)",
		HideHelpCommand: true,
		Writer:          stdout,
		ErrWriter:       stderr,
		ExitErrHandler:  func(*cli.Context, error) {},
		Commands: []*cli.Command{{
			Name:  "chain",
			Usage: "a kernel whose body is a chain of about N element-wise operations",
			Flags: []cli.Flag{
				nFlag("number of operations"),
				&cli.BoolFlag{Name: "one-line", Usage: "write the kernel's body on one line"},
			},
			Action: func(c *cli.Context) error {
				gen := parse.GenerateChain
				if c.Bool("one-line") {
					gen = parse.GenerateChainOneLine
				}
				return writeOut(stdout, gen(c.Int("n")))
			},
		}, {
			Name:  "shift-add",
			Usage: "an ALIR JSON program (spec 2) of N random shift-and-add operations, inputs included",
			Flags: []cli.Flag{
				cliargs.IntIn(&cli.IntFlag{Name: "n", Value: 250000, Usage: "number of operations"}, 2, maxShiftAddOps, ""),
				cliargs.IntIn(&cli.IntFlag{Name: "inputs", Value: 1000, Usage: "number of inputs"}, 1, maxShiftAddOps, ""),
				cliargs.IntIn(&cli.IntFlag{Name: "outputs", Value: 1000, Usage: "number of outputs (the last operations)"}, 1, maxShiftAddOps, ""),
				&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random seed"},
			},
			Action: func(c *cli.Context) error {
				p := alir.RandomShiftAdd(alir.ShiftAddConfig{Inputs: c.Int("inputs"), Ops: c.Int("n"), Outputs: c.Int("outputs"), Seed: c.Uint64("seed")})
				b, err := alir.EncodeJSON(p)
				if err != nil {
					return writeError{err}
				}
				return writeOut(stdout, b)
			},
		}, {
			Name:  "kernels",
			Usage: "N empty kernels, one a line",
			Flags: []cli.Flag{nFlag("number of kernels")},
			Action: func(c *cli.Context) error {
				return writeOut(stdout, parse.GenerateEmptyKernels(c.Int("n")))
			},
		}},
	}
	onUsage := func(_ *cli.Context, err error, _ bool) error { return err }
	app.OnUsageError = onUsage
	head, flags := 1, app.Flags
	for _, c := range app.Commands {
		c.OnUsageError = onUsage
		if len(args) > 1 && args[1] == c.Name {
			head, flags = 2, c.Flags
		}
	}
	args, err := cliargs.Reorder(args, head, flags)
	if err == nil {
		err = app.Run(args)
	}
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "otir-gen: %v\n", err)
	var we writeError
	if errors.As(err, &we) {
		return 1
	}
	return 2
}

// writeError is a failure to write the output (exit 1).
type writeError struct{ error }

func writeOut(w io.Writer, b []byte) error {
	if _, err := w.Write(b); err != nil {
		return writeError{err}
	}
	return nil
}
