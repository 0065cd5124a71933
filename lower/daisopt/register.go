package daisopt

import (
	"fmt"

	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
	"github.com/otir-dev/otir/passes"
)

// Pipeline is the recommended order of the passes after lower-tiles, as a
// pass pipeline (dais-optimize runs the same passes in one step): folding
// exposes common subexpressions and dead constants, narrowing after CSE
// works on fewer ops, balancing builds its new nodes from narrowed leaf
// ranges, and DCE removes what the others left unused.
const Pipeline = "builtin.module(lower-tiles,dais-fold,dais-cse,dais-narrow,dais-balance,dais-dce)"

// AnnotateOptions are the options of the passes that can recompute latency
// and cost.
type AnnotateOptions struct {
	// Annotate recomputes every op's latency and cost afterwards.
	Annotate bool
}

// Declare declares the options.
func (o *AnnotateOptions) Declare(d *passes.Decl) {
	d.Bool(&o.Annotate, "annotate", true, "recompute every op's latency and cost by the da4ml cost model afterwards")
}

// FuseOptions are dais-fuse-sums' options.
type FuseOptions struct {
	AnnotateOptions
	// MaxTerms is the most terms a sum may have.
	MaxTerms int
}

// Declare declares the options.
func (o *FuseOptions) Declare(d *passes.Decl) {
	o.AnnotateOptions.Declare(d)
	d.Int(&o.MaxTerms, "max-terms", 3, "the most terms a sum may have (3: alkaid's ternary adders)").Min(2)
}

func init() {
	register("dais-fold", "DAISFold", "Fold constants and algebraic identities in dais programs",
		func(*passes.NoOptions) func(*ir.Operation) error {
			return func(p *ir.Operation) error { _, err := Fold(p); return err }
		})
	register("dais-cse", "DAISCSE", "Merge identical slots of dais programs",
		func(*passes.NoOptions) func(*ir.Operation) error {
			return func(p *ir.Operation) error { _, err := CSE(p); return err }
		})
	register("dais-dce", "DAISDCE", "Remove the slots and lookup tables of dais programs that no output depends on",
		func(*passes.NoOptions) func(*ir.Operation) error {
			return func(p *ir.Operation) error { _, err := DCE(p); return err }
		})
	register("dais-narrow", "DAISNarrow", "Shrink the result types of dais slots to the exact range of their values",
		func(o *AnnotateOptions) func(*ir.Operation) error {
			return func(p *ir.Operation) error { _, err := Narrow(p, o.Annotate); return err }
		})
	register("dais-balance", "DAISBalance", "Rebuild chains of dais adds and subs as balanced trees",
		func(o *AnnotateOptions) func(*ir.Operation) error {
			return func(p *ir.Operation) error { _, err := Balance(p, o.Annotate); return err }
		})
	register("dais-fuse-sums", "DAISFuseSums", "Fuse exact chains of dais adds and subs into sums of up to max-terms terms (ALIR spec 4 opcode 11; run last, before --emit=alir-v4-*)",
		func(o *FuseOptions) func(*ir.Operation) error {
			return func(p *ir.Operation) error { _, err := FuseSums(p, o.MaxTerms, o.Annotate); return err }
		})
	register("dais-rescale", "DAISRescale", "Move constant shifts into the scales of dais slots: shifts and constant-plus-shifted adds stop costing in the cost model (after dais-optimize)",
		func(o *AnnotateOptions) func(*ir.Operation) error {
			return func(p *ir.Operation) error { _, err := Rescale(p, o.Annotate); return err }
		})
	registerSteps("dais-optimize", "DAISOptimize", "Run dais-fold, dais-cse, dais-narrow, dais-balance and dais-dce on dais programs",
		func(o *AnnotateOptions) func(*ir.Operation, func(string)) error {
			return func(p *ir.Operation, step func(string)) error { _, err := optimize(p, o.Annotate, step); return err }
		})
}

// register adds a pass that runs fn(options) on every dais.program of the
// module, in order.
func register[O any, P passes.OptionsPtr[O]](name, title, summary string, fn func(*O) func(*ir.Operation) error) {
	registerSteps[O, P](name, title, summary, func(o *O) func(*ir.Operation, func(string)) error {
		run := fn(o)
		return func(p *ir.Operation, _ func(string)) error { return run(p) }
	})
}

// registerSteps is register for a pass made of named steps, which it
// reports (with the program) as its progress: fn's step is called with the
// name of each step as it starts.
func registerSteps[O any, P passes.OptionsPtr[O]](name, title, summary string, fn func(*O) func(*ir.Operation, func(string)) error) {
	passes.Register[O, P](passes.Info{Name: name, Title: title, Summary: summary},
		func(o *O, _ *passes.Context) (passes.Pass, error) { return &programPass{run: fn(o)}, nil })
}

// programPass runs on every dais.program of the module, reporting the
// program and step it is at (passes.ProgressReporter) when asked to.
type programPass struct {
	run    func(p *ir.Operation, step func(string)) error
	report func(fmt.Stringer)
}

func (pp *programPass) SetProgress(report func(fmt.Stringer)) { pp.report = report }

func (pp *programPass) Run(m *ir.Module) error {
	progs := dais.Programs(m)
	for i, p := range progs {
		var step func(string)
		if pp.report != nil {
			where := "@" + programName(p)
			if len(progs) > 1 {
				where = fmt.Sprintf("program %d/%d %s", i+1, len(progs), where)
			}
			pp.report(passes.Status(where))
			step = func(s string) { pp.report(passes.Status(where + ": " + s)) }
		}
		if err := pp.run(p, step); err != nil {
			return err
		}
	}
	return nil
}

func programName(p *ir.Operation) string {
	name, _ := p.StringAttr("sym_name")
	return name
}

// Optimize runs Fold, CSE, Narrow, Balance and DCE on one program, in that
// order (see Pipeline). With annotate, latency and cost are recomputed once,
// after Balance (DCE's removals do not change the others').
func Optimize(prog *ir.Operation, annotate bool) (int, error) {
	return optimize(prog, annotate, nil)
}

// optimize is Optimize, calling onStep (if not nil) with the name of each
// pass as it starts.
func optimize(prog *ir.Operation, annotate bool, onStep func(string)) (int, error) {
	// One view for all the steps: a step that changes nothing leaves the
	// program as loaded, so only a change (or annotations written to a
	// program the view does not hold) loads it again. On the lowering of a
	// matmul, where no step finds anything, this loads and validates the
	// program once instead of five times.
	v, err := load(prog)
	if err != nil {
		return 0, err
	}
	total := 0
	for _, step := range []struct {
		name string
		run  func(*view) int
	}{
		{"dais-fold", (*view).fold},
		{"dais-cse", (*view).cse},
		{"dais-narrow", func(v *view) int {
			n := v.narrow()
			if n > 0 {
				v.commit()
			}
			return n
		}},
		{"dais-balance", (*view).balance},
		{"dais-dce", (*view).dce},
	} {
		if onStep != nil {
			onStep(step.name)
		}
		n := step.run(v)
		total += n
		stale := n > 0
		if annotate && step.name == "dais-balance" {
			if err := dais.Annotate(prog); err != nil {
				return total, err
			}
			// Annotate writes the dense form in place: the view's own
			// when the program is dense.
			stale = stale || dais.DenseOf(prog) != v.d
		}
		if stale && step.name != "dais-dce" {
			if v, err = load(prog); err != nil {
				return total, err
			}
		}
	}
	return total, nil
}
