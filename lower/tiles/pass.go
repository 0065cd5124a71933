package tiles

import (
	"fmt"
	"strconv"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/cmvm"
	"github.com/otir-dev/otir/passes"
)

func init() {
	passes.Register(passes.Info{
		Name:    "lower-tiles",
		Summary: "lower every kernel to a dais.program: unroll the grid, loops and tiles into combinational logic",
		Options: []passes.Option{
			{Name: "max-ops", Help: "the most dais operations (and executed operations and loop iterations) a kernel may lower to", Default: strconv.Itoa(DefaultMaxOps), Kind: passes.IntOption},
			{Name: "carry-size", Help: "cost model: carry chain length (latency = ceil(bits/carry-size); -1: 1 per adder)", Default: "-1", Kind: passes.IntOption},
			{Name: "adder-size", Help: "cost model: adder size (cost = ceil(bits/adder-size); -1: 1 per adder)", Default: "-1", Kind: passes.IntOption},
			{Name: "max-adder-depth", Help: "adder depth bound of each constant-matrix product: 0 unconstrained, -1 the minimal adder tree, N at most N adders", Default: "0", Kind: passes.IntOption},
			{Name: "adder-depth-slack", Help: "with max-adder-depth=-1: levels each constant-matrix product may take above its minimal adder tree, spent where they save adders", Default: "0", Kind: passes.IntOption},
			{Name: "cmvm-objective", Help: "what each constant-matrix product minimises: adders, or luts (the estimated LUTs of synth_xilinx, docs/cmvm.md#lut-objective)", Default: "adders", Values: []string{"adders", "luts"}},
			{Name: "warn-dead", Help: "warn when an output is a constant or an input is unused, at the operation where the signal died", Default: "false", Kind: passes.BoolOption},
		},
		New: func(o map[string]string) (passes.Pass, error) {
			var opts Options
			var err error
			if opts.MaxOps, err = strconv.Atoi(o["max-ops"]); err != nil || opts.MaxOps < 1 {
				return nil, fmt.Errorf("max-ops must be a positive integer, got '%s'", o["max-ops"])
			}
			if opts.CarrySize, err = strconv.Atoi(o["carry-size"]); err != nil {
				return nil, fmt.Errorf("carry-size must be an integer, got '%s'", o["carry-size"])
			}
			if opts.AdderSize, err = strconv.Atoi(o["adder-size"]); err != nil {
				return nil, fmt.Errorf("adder-size must be an integer, got '%s'", o["adder-size"])
			}
			if opts.MaxAdderDepth, err = strconv.Atoi(o["max-adder-depth"]); err != nil || opts.MaxAdderDepth < -1 {
				return nil, fmt.Errorf("max-adder-depth must be 0, -1 or a positive integer, got '%s'", o["max-adder-depth"])
			}
			if opts.AdderDepthSlack, err = strconv.Atoi(o["adder-depth-slack"]); err != nil || opts.AdderDepthSlack < 0 || opts.AdderDepthSlack > 60 {
				return nil, fmt.Errorf("adder-depth-slack must be an integer from 0 to 60, got '%s'", o["adder-depth-slack"])
			}
			if o["cmvm-objective"] == "luts" {
				opts.Objective = cmvm.LUTs
			}
			return &pass{opts: opts, warn: o["warn-dead"] == "true"}, nil
		},
	})
}

// pass is lower-tiles in the pass manager; it reports its progress
// (passes.ProgressReporter) when the manager asks for it.
type pass struct {
	opts Options
	warn bool
}

// Run lowers the module's kernels; with warn-dead, the warnings about dead
// signals come back with the diagnostics (only errors make the pass fail).
func (p *pass) Run(m *ir.Module) error {
	if !p.warn {
		return Lower(m, p.opts)
	}
	var ws diag.List
	opts := p.opts
	opts.Warn = func(d *diag.Diagnostic) { ws = append(ws, d) }
	err := Lower(m, opts)
	if err == nil {
		if len(ws) == 0 {
			return nil
		}
		return ws
	}
	if errs, ok := err.(diag.List); ok {
		return append(ws, errs...)
	}
	return err
}

// SetProgress reports the lowering's Progress to report; nil turns it off.
func (p *pass) SetProgress(report func(fmt.Stringer)) {
	if report == nil {
		p.opts.Progress = nil
		return
	}
	p.opts.Progress = func(pr Progress) { report(pr) }
}

// Lower replaces every otir.kernel of the module by its dais.program (see
// LowerKernel), in place. It reports every kernel that cannot be lowered.
func Lower(m *ir.Module, opts Options) error {
	return passes.ReplaceTopLevel(m, otir.IsKernel,
		func(op *ir.Operation) (*ir.Operation, error) { return LowerKernel(op, opts) })
}
