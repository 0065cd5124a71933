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
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/otir-dev/otir/cmd/internal/crash"
	"github.com/otir-dev/otir/parse"
)

func main() {
	defer crash.Guard("otir-gen")
	app := &cli.App{
		Name:            "otir-gen",
		Usage:           "write generated OTIR programs (for benchmarks)",
		HideHelpCommand: true,
		Commands: []*cli.Command{{
			Name:  "chain",
			Usage: "a kernel whose body is a chain of about N element-wise operations",
			Flags: []cli.Flag{
				&cli.IntFlag{Name: "n", Value: 100000, Usage: "number of operations"},
				&cli.BoolFlag{Name: "one-line", Usage: "write the kernel's body on one line"},
			},
			Action: func(c *cli.Context) error {
				n, err := count(c)
				if err != nil {
					return err
				}
				gen := parse.GenerateChain
				if c.Bool("one-line") {
					gen = parse.GenerateChainOneLine
				}
				_, err = os.Stdout.Write(gen(n))
				return err
			},
		}, {
			Name:  "kernels",
			Usage: "N empty kernels, one a line",
			Flags: []cli.Flag{&cli.IntFlag{Name: "n", Value: 100000, Usage: "number of kernels"}},
			Action: func(c *cli.Context) error {
				n, err := count(c)
				if err != nil {
					return err
				}
				_, err = os.Stdout.Write(parse.GenerateEmptyKernels(n))
				return err
			},
		}},
	}
	onUsage := func(_ *cli.Context, err error, _ bool) error { return usageError{err} }
	app.OnUsageError = onUsage
	for _, c := range app.Commands {
		c.OnUsageError = onUsage
	}
	if err := app.Run(os.Args); err != nil {
		fmt.Fprintf(os.Stderr, "otir-gen: %v\n", err)
		// 2 for bad usage, 1 when the output cannot be written.
		var ue usageError
		if errors.As(err, &ue) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// count is the -n flag, checked.
func count(c *cli.Context) (int, error) {
	n := c.Int("n")
	if n < 1 || n > 100_000_000 {
		return 0, usageError{fmt.Errorf("-n must be between 1 and 100000000, got %d", n)}
	}
	return n, nil
}

// usageError is a bad command line (exit 2).
type usageError struct{ error }
