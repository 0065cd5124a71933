// Command otir-run runs a compiled program on a batch of samples and
// describes programs:
//
//	otir-run model.json.gz --input x.npy --output y.npy
//	otir-run model.bin --format dais-v1 --input x.txt --output -
//	otir-run info model.json.gz
//	otir-run convert model.bin model.json.gz
//	otir-run convert model.json.gz design.v [--latency-cutoff C] [--testbench tb.v]
//	otir-run report model.json.gz -o report.html
//	otir-run kernel.otir --arg a=a.npy --arg n=42 --out-dir DIR [--print]
//	otir-run graph.mlir --params p.npz --input x.npy [--input ...] --output y.npy [--entry @name] [--all-values DIR]
//
// Program files are ALIR spec v2 JSON (plain or .json.gz), ALIR v2 int32
// bytecode, DAIS v1 binaries and original DAIS binaries; the format is
// detected from the content unless --format names it. Samples are read from
// and written to .npy files (one row per sample) or text files with one
// sample per line, values separated by spaces ("-" is standard input or
// output). See docs/alir.md.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/backend/alir/report"
	"github.com/otir-dev/otir/backend/rtl"
	"github.com/otir-dev/otir/cmd/internal/cliargs"
	"github.com/otir-dev/otir/cmd/otir-run/internal/kernelrun"
	"github.com/otir-dev/otir/diag"
)

// Exit codes: 0 success, 1 an error in the input (a program, kernel,
// sample or argument file that cannot be read, is invalid or fails to run,
// or a limit exceeded), 2 bad usage (unknown, conflicting or inapplicable
// flags, missing or extra arguments, a bad flag or --arg value).
const (
	exitError = 1
	exitUsage = 2
)

func main() {
	os.Exit(mainCode(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// mainCode runs otir-run and returns its exit code.
func mainCode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	err := newApp(stdin, stdout, stderr).Run(reorderArgs(args))
	if err == nil {
		return 0
	}
	var d *diag.Diagnostic
	switch {
	case errors.Is(err, kernelrun.ErrReported):
	case errors.As(err, &d):
		// An error in or about a file: "file: error: ..." or
		// "file:line:col: error: ...", as otir-opt and mlir-opt print them.
		var sm *diag.SourceMgr // no source lines: program files are not text to quote
		sm.Render(stderr, d)
	default:
		fmt.Fprintf(stderr, "otir-run: %v\n", err)
	}
	return exitCode(err)
}

// fileErr makes err, an error in or about the file path ("-": standard input
// or output, named by stdName), an input error printed as a diagnostic about
// the file (diag.AboutFile). nil stays nil.
func fileErr(path, stdName string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, alir.ErrInflateLimit) {
		err = fmt.Errorf("%w (--max-input-bytes raises it)", err)
	}
	name := path
	if path == "-" {
		name = stdName
	}
	return inputError{diag.AboutFile(name, err)}
}

// usageError is a problem with the command line (exit 2).
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// inputError is a problem with the input (exit 1).
type inputError struct{ error }

func (e inputError) Unwrap() error { return e.error }

// exitCode maps an error of the app to the exit code. Errors the actions
// return are inputError or usageError (or kernelrun.ErrReported); any other
// error comes from the flag parser: bad usage.
func exitCode(err error) int {
	var ue usageError
	var ie inputError
	var ae *kernelrun.ArgError
	switch {
	case errors.As(err, &ue), errors.As(err, &ae):
		return exitUsage
	case errors.As(err, &ie), errors.Is(err, kernelrun.ErrReported):
		return exitError
	}
	return exitUsage
}

// inputErr marks err as an input error (nil stays nil); an error that is
// already classified keeps its class.
func inputErr(err error) error {
	var ue usageError
	var ae *kernelrun.ArgError
	if err == nil || errors.Is(err, kernelrun.ErrReported) || errors.As(err, &ue) || errors.As(err, &ae) {
		return err
	}
	if errors.Is(err, alir.ErrInflateLimit) {
		err = fmt.Errorf("%w (--max-input-bytes raises it)", err)
	}
	return inputError{err}
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
		return nil, fileErr(path, "", err)
	}
	m, err := alir.Compile(p)
	if err != nil {
		return nil, fileErr(path, "", err)
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
	"kernel": true, "arg": true, "params": true, "entry": true, "all-values": true, "out-dir": true, "max-steps": true, "max-elements": true, "max-input-bytes": true, "repeat": true, "min-time": true,
	"latency-cutoff": true, "testbench": true, "name": true, "rows": true}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	formatFlag := &cli.StringFlag{Name: "format", Aliases: []string{"f"}, Usage: formatUsage + " (default: detect)"}
	maxInputFlag := &cli.Int64Flag{Name: "max-input-bytes", Value: alir.MaxInflated, Usage: "ALIR: the most bytes a .json.gz program may expand to"}
	return &cli.App{
		Name:  "otir-run",
		Usage: "run a compiled program on samples, or describe it",
		UsageText: "otir-run [options] PROGRAM --input X --output Y\notir-run [options] KERNEL.otir [--arg NAME=VALUE ...] [--print] [--out-dir DIR]\notir-run GRAPH.mlir [--params P.npz] --input X.npy [--input ...] [--output Y.npy ...] [--entry @name] [--all-values DIR]\notir-run info [--json] PROGRAM\notir-run convert PROGRAM OUT [--latency-cutoff C] [--testbench TB]\notir-run report PROGRAM -o report.html\notir-run bench PROGRAM --input X [-j N] [--repeat K | --min-time D]\notir-run quant-error GRAPH.mlir [--params P.npz] --input X.npy [--input ...] [--per-tensor]\n\n" +
			"A program file is run on the ALIR interpreter, OTIR text (whatever its name) on the reference executor;\n" +
			"OTIR text with --input, --output, --params, --entry or --all-values is an nn graph, run on the nn evaluator.\n" +
			"Exit status: 0 success, 1 an error in the input (a file that cannot be read or is invalid, a failed run,\n" +
			"a limit exceeded), 2 bad usage (flags, arguments).",
		Reader:    stdin,
		Writer:    stdout,
		ErrWriter: stderr,
		// Errors go back to main, which prints them and exits.
		ExitErrHandler: func(*cli.Context, error) {},
		// A bad flag is one line (main prints it), not the whole help.
		OnUsageError:    onUsageError,
		HideHelpCommand: true,
		// --arg 'a=[1, 2]' holds commas; they must not split the value.
		DisableSliceFlagSeparator: true,
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "input", Aliases: []string{"i"}, Usage: "input samples: .npy, or text with one sample per line (- for stdin); nn graph: one .npy per argument (repeatable)"},
			&cli.StringSliceFlag{Name: "output", Aliases: []string{"o"}, Usage: "output samples: .npy, or text (- for stdout, the default); nn graph: one .npy per output (repeatable)"},
			formatFlag,
			&cli.IntFlag{Name: "workers", Aliases: []string{"j"}, Usage: "goroutines to run on (0: all cores)"},
			&cli.BoolFlag{Name: "exact", Usage: "evaluate with the slow exact reference evaluator"},
			maxInputFlag,
		}, append(kernelFlags, graphFlags...)...),
		Action: runAction,
		Commands: []*cli.Command{
			benchCommand(formatFlag, maxInputFlag),
			quantErrorCommand(),
			{
				Name:         "info",
				OnUsageError: onUsageError,
				Usage:        "describe a program: inputs, outputs, operations by opcode, cost and latency",
				ArgsUsage:    "PROGRAM",
				Flags: []cli.Flag{
					formatFlag,
					maxInputFlag,
					&cli.BoolFlag{Name: "json", Usage: "print JSON"},
				},
				Action: infoAction,
			},
			{
				Name:         "report",
				OnUsageError: onUsageError,
				Usage:        "write a self-contained HTML page describing a program: cost, depth, op counts, histograms, critical path",
				ArgsUsage:    "PROGRAM",
				Flags: []cli.Flag{
					formatFlag,
					maxInputFlag,
					&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "-", Usage: "the HTML file (- for stdout)"},
				},
				Action: reportAction,
			},
			{
				Name:         "convert",
				OnUsageError: onUsageError,
				Usage:        "write a program in another format (by OUT's name, or --to), or as hardware: Verilog (OUT.v) or VHDL (OUT.vhd)",
				ArgsUsage:    "PROGRAM OUT",
				Flags: []cli.Flag{
					formatFlag,
					maxInputFlag,
					&cli.StringFlag{Name: "to", Usage: "output format: " + strings.Join(alir.FormatNames()[1:], ", ") + ", verilog, vhdl (default: from OUT's name; .v and .vhd are hardware)"},
					&cli.Float64Flag{Name: "latency-cutoff", Usage: "hardware: pipeline so that no stage exceeds `C` units of the cost model's latency (0: combinational; at most 10000 stages)"},
					&cli.StringFlag{Name: "name", Usage: "hardware: the design's name, the top module's and every name's prefix (default: from OUT's name; made a legal Verilog and VHDL name, see docs/rtl.md)"},
					&cli.StringFlag{Name: "testbench", Usage: "hardware: also write a testbench to `FILE` (rows of model_inp in hex from +in=FILE or generic infile, default inputs.hex; prints model_out in hex)"},
					&cli.StringFlag{Name: "rows", Usage: "hardware, with --testbench: encode the input samples in `X` (.npy or text) as inputs.hex beside the testbench"},
				},
				Action: convertAction,
			},
		},
	}
}

func onUsageError(_ *cli.Context, err error, _ bool) error {
	return usagef("%v (see --help)", err)
}

func oneArg(c *cli.Context, what string) (string, error) {
	if c.NArg() != 1 {
		return "", usagef("want one %s argument, got %d (see --help)", what, c.NArg())
	}
	return c.Args().First(), nil
}

// setMaxInput applies --max-input-bytes.
func setMaxInput(c *cli.Context) error {
	if !c.IsSet("max-input-bytes") {
		return nil
	}
	n := c.Int64("max-input-bytes")
	if n < 1 {
		return usagef("--max-input-bytes must be positive, got %d", n)
	}
	alir.MaxInflated = n
	return nil
}

func runAction(c *cli.Context) error {
	if c.NArg() == 0 && c.NumFlags() == 0 {
		return cli.ShowAppHelp(c)
	}
	path, err := oneArg(c, "program")
	if err != nil {
		return err
	}
	kernel := c.String("format") == "" && isKernelFile(path)
	if kernel && isGraphRun(c) {
		if err := checkGraphApplicable(c, path); err != nil {
			return err
		}
		return inputErr(runGraph(c, path))
	}
	if err := checkApplicable(c, path, kernel); err != nil {
		return err
	}
	if kernel {
		return inputErr(runKernel(c, path))
	}
	return inputErr(runALIR(c, path))
}

// checkApplicable rejects flags that do not apply to the kind of program.
func checkApplicable(c *cli.Context, path string, kernel bool) error {
	kind, other := "an ALIR/DAIS program", append(kernelFlagNames, graphFlagNames...)
	if kernel {
		kind, other = "an OTIR kernel (the file is OTIR text)", alirFlagNames
	}
	for _, name := range other {
		if c.IsSet(name) {
			return usagef("--%s does not apply to %s: %s", name, kind, path)
		}
	}
	if !kernel && len(c.StringSlice("input")) == 0 {
		return usagef("--input is required to run %s (%s)", kind, path)
	}
	if n := len(c.StringSlice("input")); n > 1 {
		return usagef("--input is given %d times; %s takes one", n, kind)
	}
	if n := len(c.StringSlice("output")); n > 1 {
		return usagef("--output is given %d times; %s takes one", n, kind)
	}
	return nil
}

// alirFlagNames and kernelFlagNames are the flags that apply to one kind of
// program only.
var (
	alirFlagNames   = []string{"input", "output", "format", "workers", "exact", "max-input-bytes"}
	kernelFlagNames = []string{"kernel", "arg", "out-dir", "print", "check-races", "max-steps", "max-elements"}
)

func runALIR(c *cli.Context, path string) error {
	if err := setMaxInput(c); err != nil {
		return err
	}
	if _, err := formatOf(c); err != nil {
		return err
	}
	p, err := openProgram(path, c.String("format"))
	if err != nil {
		return err
	}
	if a, ok := p.(*alirProgram); ok {
		a.exact = c.Bool("exact")
	}
	in, n, err := readSamples(c.StringSlice("input")[0], c.App.Reader, p.NumInputs())
	if err != nil {
		return err
	}
	out, err := p.Run(in, n, c.Int("workers"))
	if err != nil {
		return err
	}
	output := "-"
	if o := c.StringSlice("output"); len(o) == 1 {
		output = o[0]
	}
	return writeSamples(output, c.App.Writer, out, n, p.NumOutputs())
}

// programArg is the one PROGRAM argument of info, report and bench, after
// their common option checks (--max-input, --format).
func programArg(c *cli.Context) (string, error) {
	path, err := oneArg(c, "program")
	if err != nil {
		return "", err
	}
	if err := setMaxInput(c); err != nil {
		return "", err
	}
	if _, err := formatOf(c); err != nil {
		return "", err
	}
	return path, nil
}

func infoAction(c *cli.Context) error {
	path, err := programArg(c)
	if err != nil {
		return err
	}
	p, err := openProgram(path, c.String("format"))
	if err != nil {
		return inputErr(err)
	}
	if err := p.Info(c.App.Writer, c.Bool("json")); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) { // writing stdout
			return inputErr(err)
		}
		return fileErr(path, "", err)
	}
	return nil
}

func reportAction(c *cli.Context) error {
	path, err := programArg(c)
	if err != nil {
		return err
	}
	p, err := openALIR(path, c.String("format"))
	if err != nil {
		return inputErr(err)
	}
	var b bytes.Buffer
	if err := report.Write(&b, p.prog, filepath.Base(path)); err != nil {
		return fileErr(path, "", err)
	}
	out := c.String("output")
	if out == "-" {
		_, err = c.App.Writer.Write(b.Bytes())
		return inputErr(err)
	}
	if err := os.WriteFile(out, b.Bytes(), 0o666); err != nil {
		return fileErr(out, "", err)
	}
	return nil
}

// formatOf reads --format (FormatAuto when absent); a bad name is a usage
// error.
func formatOf(c *cli.Context) (alir.Format, error) {
	if c.String("format") == "" {
		return alir.FormatAuto, nil
	}
	f, err := alir.ParseFormat(c.String("format"))
	if err != nil {
		return f, usageError{err}
	}
	return f, nil
}

func convertAction(c *cli.Context) error {
	if c.NArg() != 2 {
		return usagef("want PROGRAM and OUT arguments, got %d", c.NArg())
	}
	if err := setMaxInput(c); err != nil {
		return err
	}
	if _, err := formatOf(c); err != nil {
		return err
	}
	src, dst := c.Args().Get(0), c.Args().Get(1)
	to := alir.FormatAuto
	lang, hw := rtl.LanguageOf(dst)
	switch strings.ToLower(c.String("to")) {
	case "verilog":
		lang, hw = rtl.Verilog, true
	case "vhdl":
		lang, hw = rtl.VHDL, true
	case "":
	default:
		hw = false
	}
	if hw {
		return convertRTL(c, src, dst, lang)
	}
	if c.IsSet("latency-cutoff") || c.IsSet("testbench") || c.IsSet("name") || c.IsSet("rows") {
		return usagef("--latency-cutoff, --name, --testbench and --rows apply to hardware output only (OUT.v, OUT.vhd, --to verilog|vhdl)")
	}
	if s := c.String("to"); s != "" {
		var err error
		if to, err = alir.ParseFormat(s); err != nil {
			return usageError{err}
		}
	}
	p, err := openALIR(src, c.String("format"))
	if err != nil {
		return inputErr(err)
	}
	if err := alir.WriteFile(dst, p.prog, to); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return fileErr(dst, "", err)
		}
		return fileErr(src, "", err) // the program cannot be written so
	}
	return nil
}

// convertRTL writes the program at src as a hardware design (and its
// testbench with --testbench).
func convertRTL(c *cli.Context, src, dst string, lang rtl.Language) error {
	name := c.String("name")
	if name == "" {
		name = rtl.NameFromPath(dst)
	}
	if c.IsSet("rows") && !c.IsSet("testbench") {
		return usagef("--rows needs --testbench (it writes inputs.hex beside it)")
	}
	p, err := openALIR(src, c.String("format"))
	if err != nil {
		return inputErr(err)
	}
	d, err := rtl.Build(p.prog, rtl.Options{Name: name, LatencyCutoff: c.Float64("latency-cutoff")})
	if err != nil {
		var ce *rtl.CutoffError
		if errors.As(err, &ce) {
			return usageError{err}
		}
		return fileErr(src, "", err)
	}
	write := func(path string, f func(io.Writer) error) error {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			return err
		}
		if err := os.WriteFile(path, b.Bytes(), 0o666); err != nil {
			return fileErr(path, "", err)
		}
		return nil
	}
	if err := write(dst, func(w io.Writer) error { return d.Write(w, lang) }); err != nil {
		return err
	}
	if tb := c.String("testbench"); tb != "" {
		tl := lang
		if l, ok := rtl.LanguageOf(tb); ok {
			tl = l
		}
		f := d.WriteVerilogTestbench
		if tl == rtl.VHDL {
			f = d.WriteVHDLTestbench
		}
		if err := write(tb, f); err != nil {
			return err
		}
		if rows := c.String("rows"); rows != "" {
			in, _, err := readSamples(rows, c.App.Reader, p.prog.NumInputs())
			if err != nil {
				return fileErr(rows, "standard input", err)
			}
			hex := filepath.Join(filepath.Dir(tb), "inputs.hex")
			return write(hex, func(w io.Writer) error { return d.EncodeInputs(w, p.prog.InShifts, in) })
		}
	}
	return nil
}

// reorderArgs moves options after positional arguments in front of them,
// since the flag parser stops at the first positional argument:
// "otir-run m.json --input x" becomes "otir-run --input x m.json". The
// subcommand name stays first, and "--" ends the options.
func reorderArgs(args []string) []string {
	head := 1
	if len(args) >= 2 && (args[1] == "info" || args[1] == "convert" || args[1] == "report" || args[1] == "bench" || args[1] == "quant-error") {
		head = 2
	}
	return cliargs.Reorder(args, head, valueFlags)
}
