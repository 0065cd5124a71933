package optmain

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/pprof"

	"github.com/otir-dev/otir/cmd/internal/crash"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/internal/outfile"
	"github.com/otir-dev/otir/internal/progress"
	"github.com/otir-dev/otir/internal/readlimit"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
	"github.com/otir-dev/otir/passes"
)

// stdinName is the file name of standard input in locations.
const stdinName = "<stdin>"

// run processes the input as configured and writes the output.
func run(cfg *config, env Env) error {
	if cfg.cpuProfile != "" {
		stop, err := startCPUProfile(cfg.cpuProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	name, src, parse := cfg.importALIR, "", env.Parse
	if cfg.unregistered {
		if env.ParseUnregistered == nil {
			return usageErrorf("--allow-unregistered-dialect is not supported by this parser")
		}
		parse = env.ParseUnregistered
	}
	if cfg.importALIR != "" {
		parse = func(string, string, int) (*ir.Module, error) { return importALIR(cfg.importALIR, cfg.maxInput) }
	} else {
		var err error
		if name, src, err = readInput(cfg.input, env.Stdin, cfg.maxInput); err != nil {
			return err
		}
		src = diag.NormalizeNewlines(src)
	}
	// The status line of --progress: everything else written to stderr
	// erases it first.
	disp := newProgress(cfg, env)
	if disp != nil {
		env.Stderr = disp.Writer(env.Stderr)
		disp.Start()
		defer disp.Stop()
	}
	d := &driver{cfg: cfg, env: env, file: name, sm: diag.NewSourceMgr(), parse: parse, progress: disp}
	if cfg.importALIR == "" { // a binary file has no source lines to show
		d.sm.Add(name, src)
	}
	if !cfg.split && !cfg.verifyDiags && cfg.emit == "" {
		// One module, printed only if it is correct: straight to the output.
		out := &directOutput{path: cfg.output, stdout: env.Stdout}
		if !d.chunk(chunk{text: src}, out) {
			return d.failure()
		}
		return nil
	}
	chunks := []chunk{{text: src}}
	if cfg.split {
		chunks = splitInput(src, cfg.splitMarker)
	}
	out := &bufferOutput{}
	if cfg.emit == "" {
		out.Grow(len(src) + len(src)/4) // the printed IR is about the input's size
	}
	failed := false
	for i, ch := range chunks {
		if i > 0 {
			out.WriteString(cfg.outputMarker + "\n")
		}
		if !d.chunk(ch, out) {
			failed = true
		}
	}
	switch {
	case cfg.emit != "": // written by the chunk
	case cfg.output == "-":
		env.Stdout.Write(out.Bytes())
	case !failed:
		// As mlir-opt, the output file is only written on success.
		if err := outfile.WriteFile(cfg.output, out.Bytes()); err != nil {
			return failf("cannot write output file '%s': %v", cfg.output, pathErr(err))
		}
	}
	if failed {
		return d.failure()
	}
	return nil
}

// readInput reads the input file ("-": standard input), at most max bytes.
func readInput(path string, stdin io.Reader, max int64) (name, src string, err error) {
	if path == "-" {
		b, err := readlimit.All(stdin, max, readlimit.Flag)
		if err != nil {
			return "", "", failf("cannot read standard input: %v", err)
		}
		return stdinName, string(b), nil
	}
	b, err := readlimit.File(path, max, readlimit.Flag)
	if readlimit.IsTooLarge(err) {
		return "", "", failf("cannot read input file '%s': %v", path, err)
	}
	if err != nil {
		return "", "", failf("cannot open input file '%s': %v", path, pathErr(err))
	}
	return path, string(b), nil
}

// pathErr drops the path from an *fs.PathError, which the message already names.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// driver processes the chunks of one input.
type driver struct {
	cfg  *config
	env  Env
	file string
	sm   *diag.SourceMgr
	// parse reads a chunk: env.Parse, or the --import-alir reader.
	parse func(filename, src string, lineOffset int) (*ir.Module, error)
	// progress is the --progress display, nil when off.
	progress *progress.Display
	// crashed: a chunk hit an internal error (a panic), reported as a
	// diagnostic at the chunk; the run exits with crash.ExitCode.
	crashed bool
}

// failure is the error of a run whose chunks failed.
func (d *driver) failure() error {
	if d.crashed {
		return &exitError{code: crash.ExitCode}
	}
	return &exitError{code: ExitError}
}

// phaseNames are the display's names of the driver's steps (the rows of
// --timing).
var phaseNames = map[string]string{"Parser": "parsing", "Verifier": "verifying", "Output": "writing the output"}

// chunk parses, verifies, transforms and prints one chunk, giving the
// printed module to out on success. It reports whether the chunk succeeded:
// no error diagnostic or, with --verify-diagnostics, exactly the expected ones.
func (d *driver) chunk(ch chunk, out output) bool {
	var timer *passes.Timer
	if d.cfg.timing {
		timer = passes.NewTimer()
		defer timer.Report(d.env.Stderr)
	}
	timed := func(name string, fn func()) {
		if d.progress != nil {
			d.progress.Phase(phaseNames[name])
			defer d.progress.Phase("")
		}
		if timer == nil {
			fn()
			return
		}
		timer.Time(name, fn)
	}

	var exps *diag.Expectations
	if d.cfg.verifyDiags {
		var errs diag.List
		exps, errs = diag.ParseExpectations(d.file, ch.text, ch.lineOffset)
		if len(errs) > 0 {
			d.sm.RenderAll(d.env.Stderr, errs)
			return false
		}
	}

	diags, m := d.process(ch, timed, timer)
	ok := !diags.HasErrors()
	if ok && d.cfg.emit != "" {
		timed("Output", func() {
			if err := emit(m, d.cfg.emit, d.cfg.output, d.env.Stdout); err != nil {
				if dg, isDiag := err.(*diag.Diagnostic); isDiag {
					diags = append(diags, dg)
				} else {
					fmt.Fprintf(d.env.Stderr, "otir-opt: %v\n", err)
				}
				ok = false
			}
		})
	} else if ok {
		timed("Output", func() {
			if err := out.print(m, d.cfg.print); err != nil {
				var we *writeError
				if errors.As(err, &we) {
					fmt.Fprintf(d.env.Stderr, "otir-opt: %v\n", err)
				} else {
					diags = append(diags, diag.Errorf(ir.Location{}, "cannot print the module: %v", err))
				}
				ok = false
			}
		})
	}
	if exps != nil {
		var errs diag.List
		if d.cfg.onlyExpected {
			// Only the directives are checked: a diagnostic none expects,
			// or one of another severity, is ignored.
			for _, dg := range diags {
				exps.Process(dg)
			}
			errs = exps.Unmet()
		} else {
			errs = exps.Check(diags)
		}
		d.sm.RenderAll(d.env.Stderr, errs)
		return len(errs) == 0
	}
	d.sm.RenderAll(d.env.Stderr, diags)
	return ok
}

// process parses, verifies and runs the pipeline on a chunk, returning every
// diagnostic and the module (nil if it did not parse).
func (d *driver) process(ch chunk, timed func(string, func()), timer *passes.Timer) (diags diag.List, m *ir.Module) {
	defer func() {
		if r := recover(); r != nil {
			d.crashed = true
			diags = append(diags, diag.Errorf(ir.Location{File: d.file, Line: ch.lineOffset + 1, Col: 1}, "otir-opt crashed on this input: %v (an internal error: please report it)", r))
		}
	}()
	var err error
	timed("Parser", func() { m, err = d.parse(d.file, ch.text, ch.lineOffset) })
	if err != nil || m == nil {
		if err == nil {
			err = fmt.Errorf("the parser returned no module")
		}
		return passes.ToDiagnostics(err, nil, "cannot parse"), nil
	}
	verify := d.env.Verify
	if verify == nil {
		verify = func(*ir.Module) diag.List { return nil }
	}
	var vs diag.List
	timed("Verifier", func() { vs = verify(m) })
	if vs.HasErrors() {
		return vs, m
	}
	diags = vs
	pm, err := passes.NewManagerContext(d.cfg.passCtx, d.cfg.pipeline)
	if err != nil {
		return append(diags, diag.Errorf(ir.Location{}, "%v", err)), m
	}
	if d.cfg.verifyEach {
		pm.Verify = verify
	}
	if d.cfg.dumpPipeline {
		fmt.Fprintf(d.env.Stderr, "Pass Manager with %d passes:\n%s\n\n", len(pm.Entries), pm.Pipeline())
	}
	if d.cfg.printBefore != nil || d.cfg.printAfter != nil {
		pm.AddInstrumentation(daisPrinter{&passes.IRPrinter{W: d.env.Stderr, Before: d.cfg.printBefore, After: d.cfg.printAfter, Opts: d.cfg.print}})
	}
	if timer != nil {
		pm.AddInstrumentation(&passes.TimingInstrumentation{T: timer})
	}
	if d.progress != nil {
		pm.AddInstrumentation(newProgressInstrumentation(d.progress, pm))
	}
	return append(diags, pm.Run(m)...), m
}

// output receives the printed module of each chunk that succeeds.
type output interface {
	print(m *ir.Module, opts ir.PrintOptions) error
}

// bufferOutput keeps the printed modules in memory: with split input or
// expected diagnostics, the output file is written at the end, and only if
// every chunk succeeded.
type bufferOutput struct{ bytes.Buffer }

func (b *bufferOutput) print(m *ir.Module, opts ir.PrintOptions) error {
	n := b.Len()
	err := printModule(&b.Buffer, m, opts)
	if err != nil {
		b.Truncate(n) // no half-printed module
	}
	return err
}

// directOutput prints a single module straight to its destination, opened
// only then (the module is correct by that time): a large module is not
// held in memory a second time as text. A file is replaced only when it is
// written completely (outfile.Write).
type directOutput struct {
	path   string // "-": stdout
	stdout io.Writer
}

// writeError is a failure to write the output, reported as such rather than
// as a diagnostic of the module.
type writeError struct {
	path string
	err  error
}

func (e *writeError) Error() string {
	return fmt.Sprintf("cannot write output file '%s': %v", e.path, pathErr(e.err))
}

func (o *directOutput) print(m *ir.Module, opts ir.PrintOptions) error {
	write := func(dst io.Writer) error {
		w := bufio.NewWriterSize(dst, 1<<16)
		if err := printModule(w, m, opts); err != nil {
			return err
		}
		return w.Flush()
	}
	var err error
	if o.path == "-" {
		err = write(o.stdout)
	} else {
		err = outfile.Write(o.path, write)
	}
	if err == nil {
		return nil
	}
	var pp *printerPanic
	if errors.As(err, &pp) {
		return err
	}
	return &writeError{o.path, err}
}

// printerPanic is a printer bug, reported as a diagnostic of the module.
type printerPanic struct{ v any }

func (p *printerPanic) Error() string { return fmt.Sprint(p.v) }

// printModule writes m to w as mlir-opt prints it (the module, then an empty
// line), turning a printer panic into a *printerPanic; other errors are the
// writer's.
func printModule(w io.Writer, m *ir.Module, opts ir.PrintOptions) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &printerPanic{r}
		}
	}()
	if err := dais.MaterializeAll(m); err != nil { // the text view of dense programs
		return err
	}
	if err := ir.Print(w, m, opts); err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n")
	return err
}

// daisPrinter is the IR printer of --mlir-print-ir-before/after: it first
// gives the dense dais.programs their ops (dais.Materialize), which it
// prints.
type daisPrinter struct{ *passes.IRPrinter }

func (p daisPrinter) BeforePass(e *passes.Entry, m *ir.Module) {
	if p.Before != nil && p.Before(e) {
		dais.MaterializeAll(m)
	}
	p.IRPrinter.BeforePass(e, m)
}

func (p daisPrinter) AfterPass(e *passes.Entry, m *ir.Module, failed bool) {
	if p.After != nil && p.After(e) {
		dais.MaterializeAll(m)
	}
	p.IRPrinter.AfterPass(e, m, failed)
}

// startCPUProfile starts writing the run's CPU profile (runtime/pprof) to
// path; stop ends it and closes the file.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, failf("cannot write the CPU profile '%s': %v", path, pathErr(err))
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, failf("cannot write the CPU profile '%s': %v", path, err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
