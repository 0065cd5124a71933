package passes

import (
	"errors"
	"fmt"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// Entry is one pass of a Manager: its specification and the built pass.
type Entry struct {
	Spec PassSpec
	Pass Pass
}

// Name is the pass's registered name ("cse").
func (e *Entry) Name() string { return e.Spec.Info.Name }

// Title is the pass's display name ("CSE").
func (e *Entry) Title() string { return e.Spec.Info.DisplayName() }

// Manager runs an ordered list of passes on a module, running the verifier
// after each one and calling its instrumentations around every step.
type Manager struct {
	Entries []*Entry
	// Verify checks the module after each pass; nil disables verification.
	Verify func(*ir.Module) diag.List
	instr  []Instrumentation
	ctx    *Context
}

// NewManager builds every pass of a pipeline, in a context of its own.
func NewManager(pl Pipeline) (*Manager, error) { return NewManagerContext(NewContext(), pl) }

// NewManagerContext builds every pass of a pipeline in ctx, the values a
// driver provides to the passes (and the passes share).
func NewManagerContext(ctx *Context, pl Pipeline) (*Manager, error) {
	pm := &Manager{ctx: ctx}
	for _, s := range pl {
		if err := pm.Add(s); err != nil {
			return nil, err
		}
	}
	return pm, nil
}

// Add builds a pass from its spec and appends it (the passes of a
// registered pipeline, one by one).
func (pm *Manager) Add(s PassSpec) (err error) {
	if s.Info.IsPipeline() {
		steps, err := Expand(Pipeline{s})
		if err != nil {
			return err
		}
		for _, st := range steps {
			if err := pm.Add(st); err != nil {
				return err
			}
		}
		return nil
	}
	if pm.ctx == nil {
		pm.ctx = NewContext()
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("pass '%s' could not be created: %v", s.Info.Name, r)
		}
	}()
	p, err := s.Build(pm.ctx)
	if err != nil {
		if strings.HasPrefix(err.Error(), s.Info.Name+":") {
			return err // already names the pass
		}
		return fmt.Errorf("pass '%s': %v", s.Info.Name, err)
	}
	if p == nil {
		return fmt.Errorf("pass '%s' could not be created", s.Info.Name)
	}
	pm.Entries = append(pm.Entries, &Entry{Spec: s, Pass: p})
	return nil
}

// Build makes the pass of s in ctx; a registered pipeline is expanded
// first (Expand, or Manager.Add).
func (s PassSpec) Build(ctx *Context) (Pass, error) {
	if s.Info.IsPipeline() {
		return nil, fmt.Errorf("'%s' is a pipeline: expand it into its passes first", s.Info.Name)
	}
	return s.Info.build(s.Options.Struct(), ctx)
}

// AddInstrumentation registers hooks called around each pass and verifier run.
func (pm *Manager) AddInstrumentation(i Instrumentation) { pm.instr = append(pm.instr, i) }

// Pipeline is the manager's passes as a pipeline.
func (pm *Manager) Pipeline() Pipeline {
	pl := make(Pipeline, len(pm.Entries))
	for i, e := range pm.Entries {
		pl[i] = e.Spec
	}
	return pl
}

// Run runs every pass in order and returns the diagnostics they produced. It
// stops at the first pass that fails, or whose output the verifier rejects;
// the run succeeded when the result holds no error. A panicking pass is
// reported as an error, never propagated.
func (pm *Manager) Run(m *ir.Module) diag.List {
	var all diag.List
	for _, e := range pm.Entries {
		for _, in := range pm.instr {
			in.BeforePass(e, m)
		}
		pr, reports := e.Pass.(ProgressReporter)
		if reports {
			if report := pm.progressFor(e); report != nil {
				pr.SetProgress(report)
			} else {
				reports = false
			}
		}
		ds := pm.runPass(e, m)
		if reports {
			pr.SetProgress(nil)
		}
		all = append(all, ds...)
		failed := ds.HasErrors()
		for _, in := range pm.instr {
			in.AfterPass(e, m, failed)
		}
		if failed {
			return all
		}
		if pm.Verify == nil {
			continue
		}
		for _, in := range pm.instr {
			in.BeforeVerify(e, m)
		}
		vs := runVerify(pm.Verify, m)
		for _, in := range pm.instr {
			in.AfterVerify(e, m, vs.HasErrors())
		}
		if vs.HasErrors() {
			for _, d := range vs {
				if d.Severity == diag.Error {
					d.Note(ir.Location{}, "the IR was made invalid by pass '%s' (%s)", e.Name(), e.Title())
				}
			}
			return append(all, vs...)
		}
		all = append(all, vs...)
	}
	return all
}

// runPass runs one pass, turning its error (or panic) into diagnostics.
func (pm *Manager) runPass(e *Entry, m *ir.Module) (ds diag.List) {
	defer func() {
		if r := recover(); r != nil {
			ds = append(ds, diag.Errorf(m.Op.Loc, "pass '%s' crashed: %v", e.Name(), r).
				Note(ir.Location{}, "this is a bug in the pass, please report it with this input"))
		}
	}()
	return ToDiagnostics(e.Run(m), m, "pass '"+e.Name()+"' failed")
}

// Run runs the entry's pass.
func (e *Entry) Run(m *ir.Module) error { return e.Pass.Run(m) }

// runVerify calls the verifier, reporting a panic as an error.
func runVerify(verify func(*ir.Module) diag.List, m *ir.Module) (ds diag.List) {
	defer func() {
		if r := recover(); r != nil {
			ds = diag.List{diag.Errorf(m.Op.Loc, "the verifier crashed: %v", r)}
		}
	}()
	return verify(m)
}

// ToDiagnostics turns an error into diagnostics: a *diag.Diagnostic or
// diag.List (possibly wrapped) keeps its locations; any other error becomes
// "<what>: <error>" at the module's location.
func ToDiagnostics(err error, m *ir.Module, what string) diag.List {
	if err == nil {
		return nil
	}
	var l diag.List
	if errors.As(err, &l) {
		return l
	}
	var d *diag.Diagnostic
	if errors.As(err, &d) {
		return diag.List{d}
	}
	var loc ir.Location
	if m != nil && m.Op != nil {
		loc = m.Op.Loc
	}
	return diag.List{diag.Errorf(loc, "%s: %v", what, err)}
}
