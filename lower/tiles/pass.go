package tiles

import (
	"fmt"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/cmvm"
	"github.com/otir-dev/otir/passes"
)

// PassOptions are lower-tiles' options: the lowering's limits and cost
// model, and whether dead signals are reported.
type PassOptions struct {
	Options
	// WarnDead warns when an output is a constant or an input is unused.
	WarnDead bool
}

// Declare declares the options.
func (o *PassOptions) Declare(d *passes.Decl) {
	d.Int(&o.MaxOps, "max-ops", DefaultMaxOps, "the most dais operations (and executed operations and loop iterations) a kernel may lower to").Min(1)
	d.Int(&o.CarrySize, "carry-size", -1, "cost model: carry chain length (latency = ceil(bits/carry-size); -1: 1 per adder)")
	d.Int(&o.AdderSize, "adder-size", -1, "cost model: adder size (cost = ceil(bits/adder-size); -1: 1 per adder)")
	d.Int(&o.MaxAdderDepth, "max-adder-depth", 0, "adder depth bound of each constant-matrix product: 0 unconstrained, -1 the minimal adder tree, N at most N adders").Min(-1)
	d.Int(&o.AdderDepthSlack, "adder-depth-slack", 0, "with max-adder-depth=-1: levels each constant-matrix product may take above its minimal adder tree, spent where they save adders").Range(0, 60)
	passes.EnumVar(d, &o.Objective, "cmvm-objective", cmvm.Adders, []string{"adders", "luts"}, []cmvm.Objective{cmvm.Adders, cmvm.LUTs},
		"what each constant-matrix product minimises: adders, or luts (the estimated LUTs of synth_xilinx, docs/cmvm.md#lut-objective)")
	d.Bool(&o.WarnDead, "warn-dead", false, "warn when an output is a constant or an input is unused, at the operation where the signal died")
}

func init() {
	passes.Register(passes.Info{
		Name:    "lower-tiles",
		Summary: "lower every kernel to a dais.program: unroll the grid, loops and tiles into combinational logic",
	}, func(o *PassOptions, _ *passes.Context) (passes.Pass, error) {
		if o.AdderDepthSlack > 0 && o.MaxAdderDepth != cmvm.DepthMinimal {
			return nil, fmt.Errorf("lower-tiles: option 'adder-depth-slack' needs max-adder-depth=-1, not %d: the slack counts levels above the minimal adder tree", o.MaxAdderDepth)
		}
		return &pass{opts: o.Options, warn: o.WarnDead}, nil
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
