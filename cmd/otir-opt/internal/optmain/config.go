package optmain

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/otir-dev/otir/internal/outfile"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"
)

// config is a checked command line.
type config struct {
	input, output string // "-" for the standard streams
	print         ir.PrintOptions
	split         bool
	splitMarker   string // the input's chunk separator
	outputMarker  string // the line between the chunks' outputs
	verifyDiags   bool
	// onlyExpected is --verify-diagnostics=only-expected: diagnostics that
	// no directive expects are ignored.
	onlyExpected bool
	// unregistered is --allow-unregistered-dialect.
	unregistered bool
	verifyEach   bool
	pipeline     passes.Pipeline
	// passCtx is what the passes are given: the files --params and
	// --quant name, each read once.
	passCtx      *passes.Context
	dumpPipeline bool
	printBefore  func(*passes.Entry) bool
	printAfter   func(*passes.Entry) bool
	timing       bool
	// cpuProfile is --cpuprofile: the file of the run's CPU profile.
	cpuProfile string
	// progress is --progress (auto, always or never), progressDelay the
	// hidden --progress-delay.
	progress      string
	progressDelay time.Duration
	// importALIR is the ALIR/DAIS file read instead of OTIR text, emit the
	// --emit format ("" to print the module).
	importALIR, emit string
	// maxInput is --max-input-bytes: the most bytes read from the input.
	maxInput int64
}

// configure checks the flags and builds the pipeline; every problem is a
// usage error.
func configure(c *cli.Context, rec *passRecorder) (*config, error) {
	cfg := &config{
		input:         "-",
		output:        c.String("o"),
		print:         ir.PrintOptions{Generic: c.Bool("print-op-generic"), DebugInfo: c.Bool("mlir-print-debuginfo")},
		split:         c.IsSet("split-input-file"),
		splitMarker:   c.String("split-input-file"),
		outputMarker:  c.String("output-split-marker"),
		verifyDiags:   c.IsSet("verify-diagnostics"),
		unregistered:  c.Bool("allow-unregistered-dialect"),
		verifyEach:    c.Bool("verify-each"),
		dumpPipeline:  c.Bool("dump-pass-pipeline"),
		timing:        c.Bool("timing"),
		cpuProfile:    c.String("cpuprofile"),
		progress:      c.String("progress"),
		progressDelay: c.Duration("progress-delay"),
		importALIR:    c.String("import-alir"),
		emit:          c.String("emit"),
		maxInput:      c.Int64("max-input-bytes"),
	}
	if cfg.maxInput < 1 {
		return nil, usageErrorf("--max-input-bytes must be positive, got %d", cfg.maxInput)
	}
	if c.IsSet("latency-cutoff") {
		// --latency-cutoff C is --emit=verilog|vhdl,latency-cutoff=C.
		base, opt, _ := strings.Cut(cfg.emit, ",")
		if (base != "verilog" && base != "vhdl") || opt != "" {
			return nil, usageErrorf("--latency-cutoff applies to --emit=verilog or --emit=vhdl")
		}
		cfg.emit = base + ",latency-cutoff=" + c.String("latency-cutoff")
	}
	switch c.NArg() {
	case 0:
	case 1:
		cfg.input = c.Args().First()
	default:
		return nil, usageErrorf("too many input files: %s (otir-opt reads one file)", strings.Join(c.Args().Slice(), " "))
	}
	if cfg.splitMarker == "" {
		cfg.splitMarker = splitMarker
	}
	switch lvl := c.String("verify-diagnostics"); lvl {
	case "", "all":
	case "only-expected":
		cfg.onlyExpected = true
	default:
		return nil, usageErrorf("invalid --verify-diagnostics=%s (expected all or only-expected)", lvl)
	}
	switch cfg.progress {
	case progressAuto, progressAlways, progressNever:
	default:
		return nil, usageErrorf("invalid --progress=%s (expected auto, always or never)", cfg.progress)
	}
	if cfg.progressDelay < 0 {
		return nil, usageErrorf("invalid --progress-delay=%s (expected a duration of at least 0)", cfg.progressDelay)
	}
	if c.Bool("mlir-disable-threading") {
		runtime.GOMAXPROCS(1)
	}
	if cfg.output == "" {
		return nil, usageErrorf("-o needs a file name ('-' for stdout)")
	}
	if err := checkEmit(cfg); err != nil {
		return nil, err
	}
	var err error
	if cfg.pipeline, err = pipeline(c, rec); err != nil {
		return nil, err
	}
	cfg.passCtx = passContext(c)
	// A registered pipeline (nn-to-circuit) runs, times and prints as the
	// passes it stands for.
	if cfg.pipeline, err = passes.Expand(cfg.pipeline); err != nil {
		return nil, usageErrorf("%v", err)
	}
	// Building the passes once checks what their constructors check.
	if _, err := passes.NewManagerContext(cfg.passCtx, cfg.pipeline); err != nil {
		return nil, usageErrorf("%v", err)
	}
	if err := checkOutput(c, cfg); err != nil {
		return nil, err
	}
	if cfg.printBefore, err = passSelector(c, "print-ir-before-all", "print-ir-before"); err != nil {
		return nil, err
	}
	if cfg.printAfter, err = passSelector(c, "print-ir-after-all", "print-ir-after"); err != nil {
		return nil, err
	}
	return cfg, nil
}

// checkOutput refuses an output file that is one of the files read: the
// input, --import-alir, --quant, --params, or a file a pass's option names
// (quant=, params=).
func checkOutput(c *cli.Context, cfg *config) error {
	var files outfile.Files
	if cfg.importALIR == "" {
		files.Input("INPUT", cfg.input)
	}
	for _, name := range []string{"import-alir", "quant", "params"} {
		files.Input("--"+name, c.String(name))
	}
	for _, s := range cfg.pipeline {
		for _, o := range s.Options.List() {
			if o.ReadsFile {
				files.Input(s.Info.Name+"'s "+o.Name+" option", o.Value())
			}
		}
	}
	if err := files.Output("-o", cfg.output); err != nil {
		return usageErrorf("%v", err)
	}
	return nil
}

// pipeline reads --pass-pipeline or the short pass flags (not both).
func pipeline(c *cli.Context, rec *passRecorder) (passes.Pipeline, error) {
	if c.IsSet("pass-pipeline") {
		if len(rec.uses) > 0 {
			return nil, usageErrorf("--pass-pipeline cannot be combined with pass flags such as --%s", rec.uses[0].name)
		}
		pl, err := passes.ParsePipeline(c.String("pass-pipeline"))
		if err != nil {
			msg := "invalid --pass-pipeline: " + err.Error()
			if pe, ok := err.(*passes.PipelineError); ok && pe.Context() != "" {
				msg += "\n" + indent(pe.Context())
			}
			return nil, usageErrorf("%s", msg)
		}
		return pl, nil
	}
	pl := passes.Pipeline{}
	for _, u := range rec.uses {
		spec, err := specFromUse(u)
		if err != nil {
			return nil, err
		}
		pl = append(pl, spec)
	}
	return pl, nil
}

func indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }

// passSelector builds the selection of --print-ir-X-all / --print-ir-X=a,b,
// checking that every name is a registered pass.
func passSelector(c *cli.Context, allFlag, listFlag string) (func(*passes.Entry) bool, error) {
	if c.Bool(allFlag) {
		return passes.AllPasses, nil
	}
	var names []string
	for _, v := range c.StringSlice(listFlag) {
		for _, n := range strings.Split(v, ",") {
			n = strings.TrimSpace(n)
			if n == "" {
				continue
			}
			if passes.Lookup(n) == nil {
				msg := fmt.Sprintf("unknown pass '%s' in --%s", n, listFlag)
				if s := passes.Suggest(n, passes.Names()); s != "" {
					msg += fmt.Sprintf(", did you mean '%s'?", s)
				}
				return nil, usageErrorf("%s", msg)
			}
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	return passes.PassSet(names), nil
}
