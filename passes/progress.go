package passes

import "fmt"

// ProgressReporter is implemented by a pass that can tell how far it has
// come while it runs, for a progress display (otir-opt --progress):
// lower-tiles reports the kernel, workgroups and constant-matrix products,
// dais-optimize its current sub-pass. Before running the pass, a Manager
// with a ProgressInstrumentation gives it a report function, and nil after
// the pass; a pass without one reports nothing and pays nothing.
//
// The pass calls report at coarse points (per workgroup, per solved
// sub-problem, per sub-pass), never per operation. Each status describes
// the step that starts now, so a display may show how long the step has
// been running; it is formatted (String) only when the display draws, at
// most a few times a second and possibly on another goroutine, so it must
// be a value that the pass no longer changes.
type ProgressReporter interface {
	Pass
	SetProgress(report func(status fmt.Stringer))
}

// ProgressInstrumentation is an Instrumentation that also receives the
// progress reports of the running pass (see ProgressReporter).
type ProgressInstrumentation interface {
	Instrumentation
	PassProgress(e *Entry, status fmt.Stringer)
}

// Status is a fixed status text, for passes whose progress is a name
// ("dais-cse").
type Status string

// String returns the text.
func (s Status) String() string { return string(s) }

// progressFor returns the report function of entry e's pass: it forwards to
// every progress instrumentation; nil when there is none.
func (pm *Manager) progressFor(e *Entry) func(fmt.Stringer) {
	var pis []ProgressInstrumentation
	for _, in := range pm.instr {
		if pi, ok := in.(ProgressInstrumentation); ok {
			pis = append(pis, pi)
		}
	}
	switch len(pis) {
	case 0:
		return nil
	case 1:
		pi := pis[0]
		return func(s fmt.Stringer) { pi.PassProgress(e, s) }
	}
	return func(s fmt.Stringer) {
		for _, pi := range pis {
			pi.PassProgress(e, s)
		}
	}
}
