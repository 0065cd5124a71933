package main

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/otir-dev/otir/cmd/internal/cliargs"
)

// benchCommand is "otir-run bench PROGRAM --input ROWS [-j N] [--repeat K |
// --min-time D]": the compute-only throughput of the interpreter. Loading,
// compiling and reading the rows are not timed; one untimed pass (which also
// reports a run-time error such as a lookup out of range) warms the worker
// buffers, then the whole batch of rows is run K times, or again and again
// until D has passed.
func benchCommand(formatFlag, maxInputFlag, maxOpsFlag cli.Flag) *cli.Command {
	return &cli.Command{
		Name:         "bench",
		OnUsageError: onUsageError,
		Usage:        "time the interpreter on a batch of rows (compute only): samples/s and op-evals/s",
		ArgsUsage:    "PROGRAM",
		Flags: []cli.Flag{
			formatFlag,
			maxInputFlag,
			maxOpsFlag,
			&cli.StringFlag{Name: "input", Aliases: []string{"i"}, Usage: "input samples: .npy, or text with one sample per line (- for stdin)"},
			workersFlag(),
			cliargs.IntIn(&cli.IntFlag{Name: "repeat", Usage: "run the batch exactly this many times (default: until --min-time)"}, 1, math.MaxInt, ""),
			cliargs.DurationIn(&cli.DurationFlag{Name: "min-time", Value: time.Second, Usage: "run the batch again until this much time has passed"}, time.Nanosecond, math.MaxInt64, ""),
		},
		Action: benchAction,
	}
}

func benchAction(c *cli.Context) error {
	path, err := programArg(c)
	if err != nil {
		return err
	}
	if c.String("input") == "" {
		return usagef("--input is required to bench %s", path)
	}
	if c.IsSet("repeat") && c.IsSet("min-time") {
		return usagef("--repeat and --min-time exclude each other")
	}
	repeat, minTime := c.Int("repeat"), c.Duration("min-time")
	workers := c.Int("workers") // the flags' ranges are checked
	p, err := openALIR(c, path)
	if err != nil {
		return inputErr(err)
	}
	in, n, err := readSamples(c.String("input"), c.App.Reader, p.NumInputs(), c.Int64("max-input-bytes"))
	if err != nil {
		return inputErr(err)
	}
	if n == 0 {
		return fileErr(c.String("input"), "<stdin>", fmt.Errorf("no samples to bench"))
	}
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	m := p.m
	m.Workers = workers
	out := make([]float64, n*p.NumOutputs())
	if err := m.RunInto(out, in, n); err != nil { // warm-up, and errors
		return inputErr(err)
	}
	runs := 0
	cpu0, cpuOK := cpuTime()
	start := time.Now()
	var elapsed time.Duration
	for {
		if err := m.RunInto(out, in, n); err != nil {
			return inputErr(err)
		}
		runs++
		elapsed = time.Since(start)
		if repeat > 0 && runs >= repeat || repeat == 0 && elapsed >= minTime {
			break
		}
	}
	cpu1, _ := cpuTime()
	sec := elapsed.Seconds()
	ops := len(p.prog.Ops)
	samples := float64(n) * float64(runs)
	var b strings.Builder
	fmt.Fprintf(&b, "program: %s (%s)\nops: %d\nslots: %d\nstorage: %s\nsamples: %d\nrepeats: %d\nworkers: %d\nseconds: %.6f\n",
		path, p.format, ops, m.NumSlots(), m.Storage(), n, runs, workers, sec)
	if cpuOK {
		fmt.Fprintf(&b, "cpu-seconds: %.6f\n", (cpu1 - cpu0).Seconds())
	}
	fmt.Fprintf(&b, "samples/s: %.6g\nop-evals/s: %.6g\n", samples/sec, samples*float64(ops)/sec)
	_, err = io.WriteString(c.App.Writer, b.String())
	return inputErr(err)
}
