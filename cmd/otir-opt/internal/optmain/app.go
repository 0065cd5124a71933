package optmain

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/otir-dev/otir/internal/progress"
	"github.com/otir-dev/otir/internal/readlimit"
	"github.com/otir-dev/otir/passes"
)

// Flag categories, as shown by --help.
const (
	catIO       = "Input and output"
	catPipeline = "Pipeline"
	catDebug    = "Debugging"
)

// newApp builds the command line: the general flags and one flag per
// registered pass (skipping a pass whose name is already a flag).
func newApp(env Env) *cli.App {
	rec := &passRecorder{}
	flags := []cli.Flag{
		&cli.StringFlag{Name: "o", Value: "-", Usage: "write the output to `FILE` ('-' for stdout)", Category: catIO},
		&cli.BoolFlag{Name: "print-op-generic", Aliases: []string{"mlir-print-op-generic"}, Usage: "print operations in MLIR's generic form", Category: catIO},
		&cli.StringFlag{Name: "split-input-file", Usage: "split the input at lines that start with `MARKER` (default '// -----') and process each chunk on its own", Category: catIO},
		&cli.StringFlag{Name: "output-split-marker", Value: splitMarker, Usage: "join the outputs of the chunks with `MARKER` lines", Category: catIO},
		&cli.StringFlag{Name: "verify-diagnostics", Usage: "check the diagnostics against the expected-* comments of the input: `LEVEL` all (the default) or only-expected (other diagnostics are ignored)", Category: catIO},
		&cli.BoolFlag{Name: "allow-unregistered-dialect", Usage: "accept operations of unregistered dialects (in the generic form) as opaque operations", Category: catIO},
		&cli.BoolFlag{Name: "mlir-print-debuginfo", Usage: "print each operation's location after it, loc(\"file\":line:col) (inline, as with --mlir-print-local-scope)", Category: catIO},
		&cli.Int64Flag{Name: "max-input-bytes", Value: readlimit.Default, Usage: "read at most `N` bytes of the input (or --import-alir) file: a larger or endless input is an error", Category: catIO},
		&cli.StringFlag{Name: "import-alir", Usage: "read the ALIR/DAIS program `FILE` (JSON, JSON.gz, bytecode, DAIS binary) as a dais.program instead of OTIR text", Category: catIO},
		&cli.StringFlag{Name: "emit", Usage: "write the module's only dais.program to -o FILE as `FORMAT`: alir-json, alir-json-gz, alir-bytecode, alir-v4-json, alir-v4-json-gz, alir-v4-bytecode, dais-binary, verilog, vhdl (hardware: verilog,latency-cutoff=C pipelines), or dot (a Graphviz graph of the whole module: ops as nodes, SSA uses as edges; -o - for stdout)", Category: catIO},
		&cli.StringFlag{Name: "latency-cutoff", Usage: "with --emit=verilog or vhdl: pipeline the design so that no stage exceeds `C` units of estimated delay (alkaid's surrogate model, docs/rtl.md \"Pipelining\"), with the fewest register bits at that latency (0: combinational)", Category: catIO},
		&cli.StringFlag{Name: "pass-pipeline", Aliases: []string{"p"}, Usage: "run `PIPELINE`, e.g. 'builtin.module(cse,dce)'", Category: catPipeline},
		&cli.BoolFlag{Name: "verify-each", Value: true, Usage: "run the verifier after each pass", Category: catPipeline},
		&cli.BoolFlag{Name: "dump-pass-pipeline", Usage: "print the fully-specified pipeline to stderr", Category: catPipeline},
		&cli.BoolFlag{Name: "list-passes", Usage: "list the registered passes and their options, then exit", Category: catPipeline},
		&cli.BoolFlag{Name: "list-ops", Usage: "list the registered operations (operands, results, attributes, traits, assembly format, executor and lower-tiles support), then exit", Category: catPipeline},
		&cli.BoolFlag{Name: "show-dialects", Usage: "print the registered dialects, then exit", Category: catPipeline},
		&cli.BoolFlag{Name: "mlir-disable-threading", Usage: "run on one thread: parse, verify and print without worker goroutines", Category: catPipeline},
		quantFlag,
		paramsFlag,
		&cli.BoolFlag{Name: "print-ir-before-all", Aliases: []string{"mlir-print-ir-before-all"}, Usage: "print the IR to stderr before each pass", Category: catDebug},
		&cli.BoolFlag{Name: "print-ir-after-all", Aliases: []string{"mlir-print-ir-after-all"}, Usage: "print the IR to stderr after each pass", Category: catDebug},
		&cli.StringSliceFlag{Name: "print-ir-before", Aliases: []string{"mlir-print-ir-before"}, Usage: "print the IR to stderr before each pass of the comma-separated list `PASSES`", Category: catDebug},
		&cli.StringSliceFlag{Name: "print-ir-after", Aliases: []string{"mlir-print-ir-after"}, Usage: "print the IR to stderr after each pass of the comma-separated list `PASSES`", Category: catDebug},
		&cli.BoolFlag{Name: "timing", Aliases: []string{"mlir-timing"}, Usage: "print an execution time report to stderr", Category: catDebug},
		&cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile of the run to `FILE`, for go tool pprof", Category: catDebug},
		&cli.StringFlag{Name: "progress", Value: progressAuto, Usage: "show the running pass and its progress on one status line of stderr, rewritten in place and erased at the end, once a run lasts half a second: `WHEN` auto (the default: only when stderr is a terminal), always or never", Category: catDebug},
		// Hidden: how long a run lasts before the status line is drawn (tests set 0).
		&cli.DurationFlag{Name: "progress-delay", Value: progress.DefaultDelay, Hidden: true},
		&cli.BoolFlag{Name: "version", Usage: "print the version, then exit", Category: catDebug},
	}
	taken := map[string]bool{"help": true, "h": true}
	for _, f := range flags {
		for _, n := range f.Names() {
			taken[n] = true
		}
	}
	for _, info := range passes.All() {
		if !taken[info.Name] {
			flags = append(flags, &passFlag{info: info, rec: rec})
		}
	}
	return &cli.App{
		Name:  "otir-opt",
		Usage: "parse, verify, transform and print OTIR",
		Flags: flags,
		// urfave's -h/--help prints this pre-rendered text.
		CustomAppHelpTemplate: `{{index .Metadata "help"}}`,
		Metadata:              map[string]any{"help": helpText(flags)},
		HideHelpCommand:       true,
		Reader:                env.Stdin,
		Writer:                env.Stdout,
		ErrWriter:             env.Stderr,
		ExitErrHandler:        func(*cli.Context, error) {},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return usageErrorf("%v", err)
		},
		Action: func(c *cli.Context) error {
			if c.Bool("version") {
				fmt.Fprintln(env.Stdout, versionLine(env))
				return nil
			}
			if c.Bool("show-dialects") {
				fmt.Fprintf(env.Stdout, "Available Dialects: %s\n", strings.Join(env.Dialects, ","))
				return nil
			}
			if c.Bool("list-ops") {
				listOps(env.Stdout)
				return nil
			}
			if c.Bool("list-passes") {
				listPasses(env.Stdout)
				return nil
			}
			cfg, err := configure(c, rec)
			if err != nil {
				return err
			}
			return run(cfg, env)
		},
	}
}

// versionLine is --version's line: the Env's, or the module's build version.
func versionLine(env Env) string {
	if env.Version != "" {
		return env.Version
	}
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	return "otir-opt version " + v
}
