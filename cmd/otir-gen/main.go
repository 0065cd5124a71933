// Command otir-gen writes generated OTIR programs for benchmarks:
//
//	otir-gen chain -n 100000 > chain100k.otir
//
// `chain` is the kernel the parser benchmarks use (parse.GenerateChain): a
// chain of element-wise operations in all three annotation forms.
package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"otir/parse"
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
					return fmt.Errorf("-n must be between 1 and 100000000, got %d", n)
				}
				_, err := os.Stdout.Write(parse.GenerateChain(n))
				return err
			},
		}},
	}
	if err := app.Run(os.Args); err != nil {
		fmt.Fprintf(os.Stderr, "otir-gen: %v\n", err)
		os.Exit(1)
	}
}
