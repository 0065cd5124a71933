package main

import (
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/otir-dev/otir/cmd/otir-run/internal/graphrun"
)

// quantErrorCommand is `otir-run quant-error`: what quantization cost, the
// quantized graph's outputs against its float reading (docs/nn.md
// "Quantized graphs").
func quantErrorCommand(maxInputFlag cli.Flag) *cli.Command {
	return &cli.Command{
		Name:         "quant-error",
		OnUsageError: onUsageError,
		Usage:        "evaluate a quantized nn graph bit-exactly and as its float reading (quantized types read as f64) on the same samples: max and mean absolute error per output",
		ArgsUsage:    "GRAPH.mlir",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "params", Usage: "the payload, an .npz of the parameters by key"},
			&cli.StringSliceFlag{Name: "input", Aliases: []string{"i"}, Usage: "one .npy per graph argument: a sample of its shape, or a batch [N, ...] (repeatable)"},
			&cli.StringFlag{Name: "entry", Usage: "the graph to run, @name (default: the file's only graph)"},
			&cli.BoolFlag{Name: "per-tensor", Usage: "also print the error of every tensor, in node order"},
			maxInputFlag,
			maxWorkFlag,
			workersFlag(),
		},
		Action: quantErrorAction,
	}
}

func quantErrorAction(c *cli.Context) error {
	path, err := oneArg(c, "graph")
	if err != nil {
		return err
	}
	err = graphrun.QuantError(graphrun.QuantErrorRun{
		FileRun: graphrun.FileRun{
			Path:   path,
			Entry:  c.String("entry"),
			Params: c.String("params"),
			Inputs: c.StringSlice("input"),

			MaxInputBytes: inputOptions(c).MaxBytes,
			MaxWork:       c.Int64("max-work"),
			Workers:       c.Int("workers"),
		},
		PerTensor: c.Bool("per-tensor"),
	}, c.App.Writer, c.App.ErrWriter)
	if errors.Is(err, graphrun.ErrNoGraph) {
		return fileErr(path, "", err)
	}
	return inputErr(err)
}
