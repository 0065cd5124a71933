// Command otir-run runs a compiled program on a batch of samples and
// describes programs:
//
//	otir-run model.json.gz --input x.npy --output y.npy
//	otir-run model.bin --format dais-v1 --input x.txt --output -
//	otir-run info model.json.gz
//	otir-run convert model.bin model.json.gz
//	otir-run kernel.otir --arg a=a.npy --arg n=42 --out-dir DIR [--print]
//
// Program files are ALIR spec v2 JSON (plain or .json.gz), ALIR v2 int32
// bytecode, DAIS v1 binaries and original DAIS binaries; the format is
// detected from the content unless --format names it. Samples are read from
// and written to .npy files (one row per sample) or text files with one
// sample per line, values separated by spaces ("-" is standard input or
// output). See docs/alir.md.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"otir/backend/alir"
	"otir/backend/exec"
)

func main() {
	if err := newApp(os.Stdin, os.Stdout, os.Stderr).Run(reorderArgs(os.Args)); err != nil {
		if !errors.Is(err, exec.ErrReported) {
			fmt.Fprintf(os.Stderr, "otir-run: %v\n", err)
		}
		os.Exit(1)
	}
}

// program is a loaded program of any kind that otir-run can run and
// describe.
type program interface {
	NumInputs() int
	NumOutputs() int
	// Run evaluates n samples (row-major inputs) on the given number of
	// goroutines (0: all cores).
	Run(in []float64, n, workers int) ([]float64, error)
	// Info writes a description for people, or JSON.
	Info(w io.Writer, asJSON bool) error
}

// openProgram loads the program in path. This is the one place that
// dispatches on the kind of program file: ALIR and DAIS files (OTIR kernels
// are run by runKernel, on the reference executor).
func openProgram(path, format string) (program, error) {
	switch {
	default:
		return openALIR(path, format)
	}
}

// alirProgram is an ALIR or DAIS program.
type alirProgram struct {
	path   string
	format alir.Format
	prog   *alir.Program
	m      *alir.Machine
	exact  bool
}

func openALIR(path, format string) (*alirProgram, error) {
	f := alir.FormatAuto
	if format != "" {
		var err error
		if f, err = alir.ParseFormat(format); err != nil {
			return nil, err
		}
	}
	p, f, err := alir.ReadFile(path, f)
	if err != nil {
		return nil, err
	}
	m, err := alir.Compile(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &alirProgram{path: path, format: f, prog: p, m: m}, nil
}

func (a *alirProgram) NumInputs() int  { return a.prog.NumInputs() }
func (a *alirProgram) NumOutputs() int { return a.prog.NumOutputs() }

func (a *alirProgram) Run(in []float64, n, workers int) ([]float64, error) {
	if a.exact {
		return alir.RunExact(a.prog, in, n)
	}
	a.m.Workers = workers
	return a.m.Run(in, n)
}

func (a *alirProgram) Info(w io.Writer, asJSON bool) error {
	in, err := a.prog.Info()
	if err != nil {
		return err
	}
	if asJSON {
		v := struct {
			File   string `json:"file"`
			Format string `json:"format"`
			*alir.Info
		}{a.path, a.format.String(), in}
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	if _, err := fmt.Fprintf(w, "program:     %s (%s)\n", a.path, a.format); err != nil {
		return err
	}
	return in.WriteText(w)
}

var formatUsage = "program file format: " + strings.Join(alir.FormatNames(), ", ")

// valueFlags are the flags that take a value; reorderArgs needs them.
var valueFlags = map[string]bool{"input": true, "i": true, "output": true, "o": true, "format": true, "f": true, "workers": true, "j": true, "to": true,
	"kernel": true, "arg": true, "out-dir": true}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	formatFlag := &cli.StringFlag{Name: "format", Aliases: []string{"f"}, Usage: formatUsage + " (default: detect)"}
	return &cli.App{
		Name:      "otir-run",
		Usage:     "run a compiled program on samples, or describe it",
		UsageText: "otir-run [options] PROGRAM --input X --output Y\notir-run info [--json] PROGRAM\notir-run convert PROGRAM OUT",
		Reader:    stdin,
		Writer:    stdout,
		ErrWriter: stderr,
		// Errors go back to main, which prints them and exits.
		ExitErrHandler:  func(*cli.Context, error) {},
		HideHelpCommand: true,
		// --arg 'a=[1, 2]' holds commas; they must not split the value.
		DisableSliceFlagSeparator: true,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "input", Aliases: []string{"i"}, Usage: "input samples: .npy, or text with one sample per line (- for stdin)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "-", Usage: "output samples: .npy, or text (- for stdout)"},
			formatFlag,
			&cli.IntFlag{Name: "workers", Aliases: []string{"j"}, Usage: "goroutines to run on (0: all cores)"},
			&cli.BoolFlag{Name: "exact", Usage: "evaluate with the slow exact reference evaluator"},
		}, kernelFlags...),
		Action: runAction,
		Commands: []*cli.Command{
			{
				Name:      "info",
				Usage:     "describe a program: inputs, outputs, operations by opcode, cost and latency",
				ArgsUsage: "PROGRAM",
				Flags: []cli.Flag{
					formatFlag,
					&cli.BoolFlag{Name: "json", Usage: "print JSON"},
				},
				Action: infoAction,
			},
			{
				Name:      "convert",
				Usage:     "write a program in another format (by OUT's name, or --to)",
				ArgsUsage: "PROGRAM OUT",
				Flags: []cli.Flag{
					formatFlag,
					&cli.StringFlag{Name: "to", Usage: "output format: " + strings.Join(alir.FormatNames()[1:], ", ") + " (default: from OUT's name)"},
				},
				Action: convertAction,
			},
		},
	}
}

func oneArg(c *cli.Context, what string) (string, error) {
	if c.NArg() != 1 {
		return "", fmt.Errorf("want one %s argument, got %d (see --help)", what, c.NArg())
	}
	return c.Args().First(), nil
}

func runAction(c *cli.Context) error {
	if c.NArg() == 0 && c.NumFlags() == 0 {
		return cli.ShowAppHelp(c)
	}
	path, err := oneArg(c, "program")
	if err != nil {
		return err
	}
	if isKernelFile(path) {
		return runKernel(c, path)
	}
	if c.String("input") == "" {
		return errors.New("--input is required")
	}
	p, err := openProgram(path, c.String("format"))
	if err != nil {
		return err
	}
	if a, ok := p.(*alirProgram); ok {
		a.exact = c.Bool("exact")
	}
	in, n, err := readSamples(c.String("input"), c.App.Reader, p.NumInputs())
	if err != nil {
		return err
	}
	out, err := p.Run(in, n, c.Int("workers"))
	if err != nil {
		return err
	}
	return writeSamples(c.String("output"), c.App.Writer, out, n, p.NumOutputs())
}

func infoAction(c *cli.Context) error {
	path, err := oneArg(c, "program")
	if err != nil {
		return err
	}
	p, err := openProgram(path, c.String("format"))
	if err != nil {
		return err
	}
	return p.Info(c.App.Writer, c.Bool("json"))
}

func convertAction(c *cli.Context) error {
	if c.NArg() != 2 {
		return fmt.Errorf("want PROGRAM and OUT arguments, got %d", c.NArg())
	}
	src, dst := c.Args().Get(0), c.Args().Get(1)
	p, err := openALIR(src, c.String("format"))
	if err != nil {
		return err
	}
	to := alir.FormatAuto
	if s := c.String("to"); s != "" {
		if to, err = alir.ParseFormat(s); err != nil {
			return err
		}
	}
	return alir.WriteFile(dst, p.prog, to)
}

// reorderArgs moves options after positional arguments in front of them,
// since the flag parser stops at the first positional argument:
// "otir-run m.json --input x" becomes "otir-run --input x m.json". The
// subcommand name stays first, and "--" ends the options.
func reorderArgs(args []string) []string {
	if len(args) < 2 {
		return args
	}
	head, rest := args[:1], args[1:]
	if rest[0] == "info" || rest[0] == "convert" {
		head, rest = args[:2], args[2:]
	}
	var flags, pos []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			pos = append(pos, rest[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && valueFlags[name] && i+1 < len(rest) {
				i++
				flags = append(flags, rest[i])
			}
			continue
		}
		pos = append(pos, a)
	}
	out := append(append([]string(nil), head...), flags...)
	if len(pos) > 0 {
		out = append(append(out, "--"), pos...)
	}
	return out
}
