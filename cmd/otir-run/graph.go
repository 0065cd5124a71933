package main

import (
	"errors"
	"math"

	"github.com/urfave/cli/v2"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/cmd/internal/cliargs"
	"github.com/otir-dev/otir/cmd/otir-run/internal/graphrun"
)

// graphFlags are otir-run's flags for nn graphs (docs/nn.md); --input and
// --output are shared with ALIR programs, repeatable for graphs.
var graphFlags = []cli.Flag{
	&cli.StringFlag{Name: "params", Usage: "nn graph: the payload, an .npz of the parameters by key (NAME, NAME.weight, NAME.bias)"},
	&cli.StringFlag{Name: "entry", Usage: "nn graph: the graph to run, @name (default: the file's only graph)"},
	&cli.StringFlag{Name: "all-values", Usage: "nn graph: write every node's value to DIR/<ssa-name>.npy"},
	maxWorkFlag,
}

// maxWorkFlag bounds an evaluation's multiply-accumulates (nn graphs and
// quant-error; docs/nn.md, "The evaluator").
var maxWorkFlag = cliargs.Int64In(&cli.Int64Flag{Name: "max-work", Value: nneval.DefaultMaxWork,
	Usage: "nn graph: the most multiply-accumulates an evaluation may take, the whole batch together (2^32 take about 40 s of CPU)"}, 1, math.MaxInt64, "")

// graphFlagNames are the flags that apply to nn graphs only.
var graphFlagNames = []string{"params", "entry", "all-values", "max-work"}

// isGraphRun: OTIR text is an nn graph to evaluate when a flag of graphs
// (or --input, --output, which kernels do not take) is given.
func isGraphRun(c *cli.Context) bool {
	for _, name := range append(graphFlagNames, "input", "output") {
		if c.IsSet(name) {
			return true
		}
	}
	return false
}

// checkGraphApplicable rejects the flags of kernels and ALIR programs.
func checkGraphApplicable(c *cli.Context, path string) error {
	for _, name := range append(append([]string{}, kernelFlagNames...), "format", "exact", "max-ops") {
		if c.IsSet(name) {
			return usagef("--%s does not apply to an nn graph (the file is OTIR text run with --input/--params): %s", name, path)
		}
	}
	return nil
}

// runGraph evaluates an nn graph on the nn evaluator. Diagnostics are
// rendered to stderr, and kernelrun.ErrReported returned for main to exit
// with 1.
func runGraph(c *cli.Context, path string) error {
	err := graphrun.RunFile(graphrun.FileRun{
		Path:      path,
		Entry:     c.String("entry"),
		Params:    c.String("params"),
		Inputs:    c.StringSlice("input"),
		Outputs:   c.StringSlice("output"),
		AllValues: c.String("all-values"),

		MaxInputBytes: inputOptions(c).MaxBytes,
		MaxWork:       c.Int64("max-work"),
		Workers:       c.Int("workers"),
	}, c.App.Writer, c.App.ErrWriter)
	if errors.Is(err, graphrun.ErrNoGraph) {
		for _, name := range graphFlagNames {
			if c.IsSet(name) {
				return fileErr(path, "", err)
			}
		}
		// Only --input or --output: the file is a kernel, which takes
		// neither.
		return checkApplicable(c, path, true)
	}
	return err
}
