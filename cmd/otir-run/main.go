// Command otir-run runs a compiled program on a batch of samples and
// describes programs:
//
//	otir-run model.json.gz --input x.npy --output y.npy
//	otir-run model.bin --format dais-v1 --input x.txt --output -
//	otir-run info model.json.gz
//	otir-run convert model.bin model.json.gz
//	otir-run convert model.json.gz design.v [--latency-cutoff C] [--testbench tb.v [--rows x.npy]]
//	otir-run report model.json.gz -o report.html
//	otir-run kernel.otir --arg a=a.npy --arg n=42 --out-dir DIR [--print]
//	otir-run graph.mlir --params p.npz --input x.npy [--input ...] --output y.npy [--entry @name] [--all-values DIR] [-j N]
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
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/backend/alir/report"
	"github.com/otir-dev/otir/backend/rtl"
	"github.com/otir-dev/otir/cmd/internal/cliargs"
	"github.com/otir-dev/otir/cmd/internal/crash"
	"github.com/otir-dev/otir/cmd/internal/frontdoor"
	"github.com/otir-dev/otir/cmd/otir-run/internal/kernelrun"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/internal/outfile"
	"github.com/otir-dev/otir/internal/readlimit"
)

// Exit codes: 0 success, 1 an error in the input (a program, kernel,
// sample or argument file that cannot be read, is invalid or fails to run,
// or a limit exceeded), 2 bad usage (unknown, conflicting or inapplicable
// flags, missing or extra arguments, a bad flag or --arg value); 3 (set by
// crash.Guard) an internal error.
const (
	exitError = 1
	exitUsage = 2
)

func main() {
	defer crash.Guard("otir-run")
	os.Exit(mainCode(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// mainCode runs otir-run and returns its exit code.
func mainCode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp(stdin, stdout, stderr)
	args, err := reorderArgs(args, app)
	if err == nil {
		err = app.Run(args)
	}
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

// openProgram loads the program in path for the command c (run, info,
// report, bench, convert): ALIR and DAIS files (OTIR kernels are run by
// runKernel, on the reference executor).
func openProgram(c *cli.Context, path string) (program, error) {
	return openALIR(c, path)
}

// alirProgram is an ALIR or DAIS program.
type alirProgram struct {
	path   string
	format alir.Format
	prog   *alir.Program
	m      *alir.Machine
	exact  bool
}

// readALIR reads the program in path through the front door: decoded and
// validated. OTIR text goes through the front door too (parsed and
// verified, its diagnostics rendered with source lines), then is refused:
// the commands that open programs do not take it. Text that is not OTIR
// either (it does not parse, and the file is not named .otir or .mlir) gets
// the program decoder's error.
func readALIR(c *cli.Context, path string) (*alirProgram, error) {
	f, err := formatOf(c)
	if err != nil {
		return nil, err
	}
	opts := inputOptions(c)
	if f == alir.FormatAuto && frontdoor.IsText(path) {
		sm := diag.NewSourceMgr()
		_, err := frontdoor.ReadIR(sm, path, opts)
		switch {
		case err == nil:
			return nil, inputError{frontdoor.NotAProgram(path, commandName(c))}
		case frontdoor.IsVerifyError(err) || frontdoor.HasTextName(path):
			frontdoor.Render(c.App.ErrWriter, sm, err)
			return nil, kernelrun.ErrReported
		}
	}
	p, f, err := frontdoor.ReadProgram(path, f, opts)
	if err != nil {
		return nil, inputError{err}
	}
	return &alirProgram{path: path, format: f, prog: p}, nil
}

// openALIR is readALIR, then compiles the program for the interpreter
// (run, bench, convert): a program whose values are too wide to evaluate
// is refused here. info and report only describe the program and skip it
// (compiling was half of info's time on a 250,000-op program).
func openALIR(c *cli.Context, path string) (*alirProgram, error) {
	a, err := readALIR(c, path)
	if err != nil {
		return nil, err
	}
	if a.m, err = alir.Compile(a.prog); err != nil {
		return nil, fileErr(path, "", err)
	}
	return a, nil
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
	area, areaLine := estimateArea(a.prog)
	if asJSON {
		v := struct {
			File   string `json:"file"`
			Format string `json:"format"`
			*alir.Info
			Area *rtl.Estimate `json:"area"`
		}{a.path, a.format.String(), in, area}
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
	if err := in.WriteText(w); err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "area:        %s\n", areaLine)
	return err
}

// maxEstimateOps bounds the programs info and report estimate the area of:
// building the design takes about 2 KB and 8 µs an operation (on a
// 250,000-op program info's 1.9 CPU-s and 360 MB became 4.1 CPU-s and
// 550 MB), and a program may hold alir.MaxOps (2^21). A larger one gets no
// estimate, so info stays quick on it; otir-run convert still writes its
// design.
var maxEstimateOps = 1 << 16

// estimateArea is the area of p's combinational design
// (rtl.Design.Estimate), nil when the design cannot be built or p is larger
// than maxEstimateOps, and the line info and report print about it.
func estimateArea(p *alir.Program) (*rtl.Estimate, string) {
	if len(p.Ops) > maxEstimateOps {
		return nil, fmt.Sprintf("not estimated: %d operations, more than info estimates (%d)", len(p.Ops), maxEstimateOps)
	}
	d, err := rtl.Build(p, rtl.Options{Name: "info"})
	if err != nil {
		return nil, "not estimated: " + err.Error()
	}
	e := d.Estimate()
	return &e, fmt.Sprintf("~%d LUTs, %d CARRY4, %d DSP48E1 (estimated, combinational, for yosys synth_xilinx: docs/rtl.md#cost-model)",
		e.LUTs, e.Carry, e.DSPs)
}

var formatUsage = "program file format: " + strings.Join(alir.FormatNames(), ", ")

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	formatFlag := &cli.StringFlag{Name: "format", Aliases: []string{"f"}, Usage: formatUsage + " (default: detect)"}
	maxInputFlag := cliargs.Int64In(&cli.Int64Flag{Name: "max-input-bytes", Value: readlimit.Default, Usage: "the most bytes read from each input file: the program, kernel or graph, --input samples (a .json.gz program: also once decompressed)"}, 1, math.MaxInt64, "")
	maxOpsFlag := cliargs.IntIn(&cli.IntFlag{Name: "max-ops", Value: alir.MaxOps, Usage: "ALIR JSON: the most operations a program may hold"}, 1, math.MaxInt, "")
	return &cli.App{
		Name:  "otir-run",
		Usage: "run a compiled program on samples, or describe it",
		UsageText: "otir-run [options] PROGRAM --input X --output Y\notir-run [options] KERNEL.otir [--arg NAME=VALUE ...] [--print] [--out-dir DIR]\notir-run GRAPH.mlir [--params P.npz] --input X.npy [--input ...] [--output Y.npy ...] [--entry @name] [--all-values DIR] [-j N] [--max-work N]\notir-run info [--json] PROGRAM\notir-run convert PROGRAM OUT [--latency-cutoff C] [--testbench TB [--rows X]]\notir-run report PROGRAM -o report.html\notir-run bench PROGRAM --input X [-j N] [--repeat K | --min-time D]\notir-run quant-error GRAPH.mlir [--params P.npz] --input X.npy [--input ...] [--per-tensor] [-j N]\n\n" +
			"A program file is run on the ALIR interpreter, OTIR text (whatever its name) on the reference executor;\n" +
			"OTIR text with --input, --output, --params, --entry or --all-values is an nn graph, run on the nn evaluator.\n" +
			"A graph's --input is one sample of its argument's shape or a batch [N, ...shape] (every input the same N):\n" +
			"the samples run in parallel (-j) and each output (and --all-values value) is written stacked, [N, ...];\n" +
			"printed, one line \"%y[i] = ...\" per output of sample i. quant-error takes the same batches.\n" +
			"Exit status: 0 success, 1 an error in the input (a file that cannot be read or is invalid, a failed run,\n" +
			"a limit exceeded), 2 bad usage (flags, arguments), 3 an internal error (a bug: please report it).",
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
			&cli.StringSliceFlag{Name: "input", Aliases: []string{"i"}, Usage: "input samples: .npy, or text with one sample per line (- for stdin); nn graph: one .npy per argument, a sample of its shape or a batch [N, ...] (repeatable)"},
			&cli.StringSliceFlag{Name: "output", Aliases: []string{"o"}, Usage: "output samples: .npy, or text (- for stdout, the default); nn graph: one .npy per output, [N, ...] for a batch (repeatable)"},
			formatFlag,
			workersFlag(),
			&cli.BoolFlag{Name: "exact", Usage: "evaluate with the slow exact reference evaluator"},
			maxInputFlag,
			maxOpsFlag,
		}, append(kernelFlags, graphFlags...)...),
		Action: runAction,
		Commands: []*cli.Command{
			benchCommand(formatFlag, maxInputFlag, maxOpsFlag),
			quantErrorCommand(maxInputFlag),
			{
				Name:         "info",
				OnUsageError: onUsageError,
				Usage:        "describe a program: inputs, outputs, operations by opcode and by category (adders, constant adds, muxes, lookups, quantizers: docs/alir.md#what-info-counts), adder depth, cost and latency, constant outputs and unused inputs, and the estimated LUTs of its design (docs/rtl.md#cost-model)",
				ArgsUsage:    "PROGRAM",
				Flags: []cli.Flag{
					formatFlag,
					maxInputFlag,
					maxOpsFlag,
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
					maxOpsFlag,
					&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "-", Usage: "the HTML file (- for stdout)"},
				},
				Action: reportAction,
			},
			{
				Name:         "convert",
				OnUsageError: onUsageError,
				Usage:        "write a program in another format (by OUT's name, or --to), or as hardware: Verilog (OUT.v) or VHDL (OUT.vhd)",
				ArgsUsage:    "PROGRAM OUT [--latency-cutoff C [--delay-model estimate|program]] [--name N] [--testbench TB [--rows X]]",
				Flags: []cli.Flag{
					formatFlag,
					maxInputFlag,
					maxOpsFlag,
					&cli.StringFlag{Name: "to", Usage: "output format: " + strings.Join(alir.FormatNames()[1:], ", ") + ", verilog, vhdl (default: from OUT's name; .v and .vhd are hardware)"},
					cliargs.Float64In(&cli.Float64Flag{Name: "latency-cutoff", Usage: "hardware: pipeline so that no stage exceeds `C` units of delay (alkaid's surrogate delay model on the design's nets, about ns; or the program's latencies: --delay-model); prints the latency in cycles and the flip-flops to stderr (0: combinational; at most 10000 stages)"}, 0, math.MaxFloat64, "0: combinational"),
					&cli.StringFlag{Name: "delay-model", Value: "estimate", Usage: "hardware, with --latency-cutoff: `MODEL` estimate (each op's delay from the design's widths by alkaid's surrogate model: an n-bit adder 1.09375 + 0.0254 per carry_size bits, a mux or bitwise op a LUT level of 0.5, a lookup by its index width, docs/rtl.md, Pipelining; registers placed for the fewest flip-flops) or program (the latencies stored in the program, cut at multiples of C as alkaid's traces stored them)"},
					&cli.StringFlag{Name: "name", Usage: "hardware: the design's name, the top module's and every name's prefix (default: from OUT's name; made a legal Verilog and VHDL name, see docs/rtl.md)"},
					&cli.StringFlag{Name: "testbench", Usage: "hardware: also write a testbench to `FILE`; without --rows it reads rows of model_inp in hex from +in=FILE or generic infile (default inputs.hex) and prints model_out in hex"},
					&cli.StringFlag{Name: "rows", Usage: "hardware, with --testbench: make the testbench self-checking: it embeds the input samples in `X` (.npy or text) and the interpreter's outputs for them, prints PASS n/n or the first mismatching row and lane with both values, and exits non-zero on a mismatch"},
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

// inputOptions applies --max-input-bytes (the bound of the front door's
// reads, and of a .json.gz program once decompressed) and --max-ops (the
// most operations an ALIR JSON program may hold). Their flags check their
// ranges.
func inputOptions(c *cli.Context) frontdoor.Options {
	if c.IsSet("max-ops") {
		alir.MaxOps = c.Int("max-ops")
	}
	n := c.Int64("max-input-bytes")
	alir.MaxInflated = n
	return frontdoor.Options{MaxBytes: n, MaxOpsFlag: "--max-ops"}
}

// commandName is the name of c's command for messages ("running" at the
// top).
func commandName(c *cli.Context) string {
	if c.Command == nil || c.Command.Name == "" || c.Command.Name == c.App.Name {
		return "running"
	}
	return c.Command.Name
}

// maxWorkers bounds -j: more goroutines than this only cost memory.
const maxWorkers = 4096

// workersFlag is -j, --workers (run, bench, quant-error).
func workersFlag() cli.Flag {
	return cliargs.IntIn(&cli.IntFlag{Name: "workers", Aliases: []string{"j"}, Usage: "goroutines to run on (0: all cores); nn graph and quant-error: the samples of a batch"}, 0, maxWorkers, "0: all cores")
}

func runAction(c *cli.Context) error {
	if c.NArg() == 0 && c.NumFlags() == 0 {
		return cli.ShowAppHelp(c)
	}
	path, err := oneArg(c, "program")
	if err != nil {
		return err
	}
	kernel := c.String("format") == "" && frontdoor.IsText(path)
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
	alirFlagNames   = []string{"input", "output", "format", "workers", "exact", "max-ops"}
	kernelFlagNames = []string{"kernel", "arg", "out-dir", "print", "check-races", "max-steps", "max-elements"}
)

func runALIR(c *cli.Context, path string) error {
	input, output := c.StringSlice("input")[0], "-"
	if o := c.StringSlice("output"); len(o) == 1 {
		output = o[0]
	}
	if err := noOverwrite([]namedPath{{"PROGRAM", path}, {"--input", input}}, []namedPath{{"--output", output}}); err != nil {
		return err
	}
	p, err := openProgram(c, path)
	if err != nil {
		return err
	}
	if a, ok := p.(*alirProgram); ok {
		a.exact = c.Bool("exact")
	}
	in, n, err := readSamples(input, c.App.Reader, p.NumInputs(), c.Int64("max-input-bytes"))
	if err != nil {
		return err
	}
	out, err := p.Run(in, n, c.Int("workers"))
	if err != nil {
		return err
	}
	return writeSamples(output, c.App.Writer, out, n, p.NumOutputs())
}

// programArg is the one PROGRAM argument of info, report and bench, after
// their common option check (--format).
func programArg(c *cli.Context) (string, error) {
	path, err := oneArg(c, "program")
	if err != nil {
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
	p, err := readALIR(c, path)
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
	out := c.String("output")
	if err := noOverwrite([]namedPath{{"PROGRAM", path}}, []namedPath{{"-o", out}}); err != nil {
		return err
	}
	p, err := readALIR(c, path)
	if err != nil {
		return inputErr(err)
	}
	_, area := estimateArea(p.prog)
	var b bytes.Buffer
	if err := report.Write(&b, p.prog, filepath.Base(path), report.Row{Key: "area", Value: area}); err != nil {
		return fileErr(path, "", err)
	}
	if out == "-" {
		_, err = c.App.Writer.Write(b.Bytes())
		return inputErr(err)
	}
	if err := outfile.WriteFile(out, b.Bytes()); err != nil {
		return fileErr(out, "", err)
	}
	return nil
}

// namedPath is a file of the command line and the flag or argument that
// names it.
type namedPath struct{ what, path string }

// noOverwrite refuses (a usage error) an output that is the same file as
// an input or another output: the run would destroy it.
func noOverwrite(inputs, outputs []namedPath) error {
	var files outfile.Files
	for _, in := range inputs {
		files.Input(in.what, in.path)
	}
	for _, out := range outputs {
		if err := files.Output(out.what, out.path); err != nil {
			return usageError{err}
		}
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
	if _, err := formatOf(c); err != nil {
		return err
	}
	src, dst := c.Args().Get(0), c.Args().Get(1)
	outputs := []namedPath{{"OUT", dst}}
	if tb := c.String("testbench"); tb != "" {
		outputs = append(outputs, namedPath{"--testbench", tb})
	}
	if err := noOverwrite([]namedPath{{"PROGRAM", src}, {"--rows", c.String("rows")}}, outputs); err != nil {
		return err
	}
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
	if c.IsSet("latency-cutoff") || c.IsSet("delay-model") || c.IsSet("testbench") || c.IsSet("name") || c.IsSet("rows") {
		return usagef("--latency-cutoff, --delay-model, --name, --testbench and --rows apply to hardware output only (OUT.v, OUT.vhd, --to verilog|vhdl)")
	}
	if s := c.String("to"); s != "" {
		var err error
		if to, err = alir.ParseFormat(s); err != nil {
			return usageError{err}
		}
	}
	p, err := openALIR(c, src)
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
		return usagef("--rows needs --testbench (its rows and expected outputs go into the testbench)")
	}
	model, err := rtl.ParseDelayModel(c.String("delay-model"))
	if err != nil {
		return usagef("--delay-model: %v", err)
	}
	p, err := openALIR(c, src)
	if err != nil {
		return inputErr(err)
	}
	var rowValues []float64 // --rows, read before anything is written
	rows := c.String("rows")
	if rows != "" {
		var n int
		if rowValues, n, err = readSamples(rows, c.App.Reader, p.prog.NumInputs(), c.Int64("max-input-bytes")); err != nil {
			return fileErr(rows, "standard input", err)
		}
		if n == 0 {
			return fileErr(rows, "standard input", errors.New("no rows: a self-checking testbench needs at least one row to check"))
		}
	}
	d, err := rtl.Build(p.prog, rtl.Options{Name: name, LatencyCutoff: c.Float64("latency-cutoff"), Delay: model})
	if err != nil {
		var ce *rtl.CutoffError
		if errors.As(err, &ce) {
			return usageError{err}
		}
		return fileErr(src, "", err)
	}
	if d.Latency > 0 {
		fmt.Fprintf(c.App.ErrWriter, "otir-run: %s: latency: %s, %s\n", dst, cycles(d.Latency), d.PipelineText())
	}
	write := func(path string, f func(io.Writer) error) error {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			return err
		}
		if err := outfile.WriteFile(path, b.Bytes()); err != nil {
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
		if rows != "" { // the self-checking testbench
			v, err := d.Vectors(p.prog, rowValues)
			if err != nil {
				return fileErr(rows, "standard input", err)
			}
			f = func(w io.Writer) error { return d.WriteVerilogChecker(w, v) }
			if tl == rtl.VHDL {
				f = func(w io.Writer) error { return d.WriteVHDLChecker(w, v) }
			}
		}
		return write(tb, f)
	}
	return nil
}

// cycles is "1 cycle" or "N cycles".
func cycles(n int) string {
	if n == 1 {
		return "1 cycle"
	}
	return fmt.Sprintf("%d cycles", n)
}

// reorderArgs moves options after positional arguments in front of them,
// since the flag parser stops at the first positional argument:
// "otir-run m.json --input x" becomes "otir-run --input x m.json". The
// subcommand name stays first, and "--" ends the options. A flag that holds
// one value may be given once.
func reorderArgs(args []string, app *cli.App) ([]string, error) {
	if len(args) >= 2 {
		for _, cmd := range app.Commands {
			if args[1] == cmd.Name {
				return cliargs.Reorder(args, 2, cmd.Flags)
			}
		}
	}
	return cliargs.Reorder(args, 1, app.Flags)
}
