package passes

import (
	"fmt"
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

// progressLog records the hooks and progress reports it sees.
type progressLog struct {
	NoInstrumentation
	log []string
}

func (p *progressLog) BeforePass(e *Entry, _ *ir.Module) { p.log = append(p.log, "before "+e.Name()) }

func (p *progressLog) PassProgress(e *Entry, s fmt.Stringer) {
	p.log = append(p.log, e.Name()+": "+s.String())
}

func TestPassProgress(t *testing.T) {
	pm := mustPipeline(t, "builtin.module(test-noop,test-progress,test-progress)")
	a, b := &progressLog{}, &progressLog{}
	pm.AddInstrumentation(a)
	pm.AddInstrumentation(&TimingInstrumentation{T: NewTimer()}) // no progress hook
	pm.AddInstrumentation(b)
	if ds := pm.Run(newModule()); len(ds) != 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	want := "before test-noop|before test-progress|test-progress: step 1|test-progress: step 2|" +
		"before test-progress|test-progress: step 1|test-progress: step 2"
	for _, l := range []*progressLog{a, b} {
		if got := strings.Join(l.log, "|"); got != want {
			t.Errorf("log\n%s\nwant\n%s", got, want)
		}
	}
	// The report function is taken back after the pass.
	for _, e := range pm.Entries {
		if p, ok := e.Pass.(*progressPass); ok && p.report != nil {
			t.Errorf("pass %s kept its report function", e.Name())
		}
	}
}

// TestPassProgressOff: without a progress instrumentation the pass gets no
// report function at all.
func TestPassProgressOff(t *testing.T) {
	pm := mustPipeline(t, "builtin.module(test-progress)")
	called := false
	pm.Entries[0].Pass.(*progressPass).report = func(fmt.Stringer) { called = true }
	pm.AddInstrumentation(&TimingInstrumentation{T: NewTimer()})
	pm.Run(newModule())
	if !called {
		t.Error("the pass's own report function was replaced without a progress instrumentation")
	}
}
