// Command otir-gen writes generated OTIR programs for benchmarks:
//
//	otir-gen chain -n 100000 > chain100k.otir
//
// `chain` is the kernel the parser benchmarks use (parse.GenerateChain): a
// chain of element-wise operations in all three annotation forms.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/otir-dev/otir/parse"
)

func main() {
	app := &cli.App{
		Name:            "otir-gen",
		Usage:           "write generated OTIR programs (for benchmarks)",
		HideHelpCommand: true,
		Commands: []*cli.Command{{
			Name:  "chain",
			Usage: "a kernel whose body is a chain of about N element-wise operations",
			Flags: []cli.Flag{&cli.IntFlag{Name: "n", Value: 100000, Usage: "number of operations"}},
			Action: func(c *cli.Context) error {
				n := c.Int("n")
				if n < 1 || n > 100_000_000 {
					return usageError{fmt.Errorf("-n must be between 1 and 100000000, got %d", n)}
				}
				_, err := os.Stdout.Write(parse.GenerateChain(n))
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

// usageError is a bad command line (exit 2).
type usageError struct{ error }
