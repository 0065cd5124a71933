package optmain

import (
	"fmt"

	"github.com/otir-dev/otir/internal/progress"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"
)

// Values of --progress.
const (
	progressAuto   = "auto"   // on when stderr is a terminal
	progressAlways = "always" // on, whatever stderr is (tests)
	progressNever  = "never"
)

// newProgress returns the status display of --progress, or nil when it is
// off: with auto, unless stderr is a terminal. It is not started.
func newProgress(cfg *config, env Env) *progress.Display {
	width := 0
	switch cfg.progress {
	case progressNever:
		return nil
	case progressAuto:
		if env.StderrTerminal == nil {
			return nil
		}
		var ok bool
		if ok, width = env.StderrTerminal(); !ok {
			return nil
		}
	case progressAlways:
		if env.StderrTerminal != nil {
			_, width = env.StderrTerminal()
		}
	}
	return progress.New(env.Stderr, progress.Options{
		Prefix:   "otir-opt: ",
		Delay:    cfg.progressDelay,
		Interval: progress.DefaultInterval,
		Width:    width,
	})
}

// progressInstrumentation shows the running pass ("[2/3] lower-tiles") and
// its progress reports on the display.
type progressInstrumentation struct {
	d     *progress.Display
	index map[*passes.Entry]int
	n     int
}

func newProgressInstrumentation(d *progress.Display, pm *passes.Manager) *progressInstrumentation {
	pi := &progressInstrumentation{d: d, index: map[*passes.Entry]int{}, n: len(pm.Entries)}
	for i, e := range pm.Entries {
		pi.index[e] = i + 1
	}
	return pi
}

func (pi *progressInstrumentation) name(e *passes.Entry) string {
	return fmt.Sprintf("[%d/%d] %s", pi.index[e], pi.n, e.Name())
}

func (pi *progressInstrumentation) BeforePass(e *passes.Entry, _ *ir.Module) {
	pi.d.Phase(pi.name(e))
}

func (pi *progressInstrumentation) AfterPass(*passes.Entry, *ir.Module, bool) { pi.d.Phase("") }

func (pi *progressInstrumentation) BeforeVerify(e *passes.Entry, _ *ir.Module) {
	pi.d.Phase(pi.name(e) + " verifier")
}

func (pi *progressInstrumentation) AfterVerify(*passes.Entry, *ir.Module, bool) { pi.d.Phase("") }

func (pi *progressInstrumentation) PassProgress(_ *passes.Entry, s fmt.Stringer) { pi.d.Status(s) }
