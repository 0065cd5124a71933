package daisopt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
	"github.com/otir-dev/otir/passes"
	"github.com/otir-dev/otir/passes/passtest"
)

// runPipeline runs a pass pipeline, verifying after each pass, as otir-opt
// does.
func runPipeline(t *testing.T, m *ir.Module, text string) {
	t.Helper()
	passtest.MustRun(t, m, text, "")
}

// The registered passes run through the pass manager, on every program of a
// module, and keep the outputs.
func TestRegisteredPipeline(t *testing.T) {
	pipeline := strings.Replace(Pipeline, "lower-tiles,", "", 1)
	for _, text := range []string{pipeline, "builtin.module(dais-optimize)", "builtin.module(dais-optimize{annotate=false})"} {
		p1 := randomProgram(genConfig{inputs: 6, ops: 200, outputs: 8, seed: 11})
		p2 := randomProgram(genConfig{inputs: 6, ops: 200, outputs: 8, seed: 12})
		m, _ := toDais(t, p1)
		prog2, err := dais.FromALIR(p2, "second")
		if err != nil {
			t.Fatal(err)
		}
		m.Body().Append(prog2)
		runPipeline(t, m, text)
		progs := dais.Programs(m)
		for k, want := range []*alir.Program{p1, p2} {
			got, err := dais.ToALIR(progs[k])
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Ops) >= len(want.Ops) {
				t.Errorf("%s: program %d kept all its %d ops", text, k, len(got.Ops))
			}
			sameOutputs(t, want, got, 1000, 3)
		}
	}
}

// annotate=false leaves the latency and cost attributes alone; the default
// recomputes them.
func TestAnnotateOption(t *testing.T) {
	for _, c := range []struct {
		pass  string
		keeps bool
	}{
		{"dais-narrow", false}, {"dais-narrow{annotate=false}", true},
		{"dais-balance", false}, {"dais-balance{annotate=false}", true},
	} {
		p := randomProgram(genConfig{inputs: 4, ops: 60, outputs: 4, seed: 5})
		for i := range p.Ops {
			p.Ops[i].Latency, p.Ops[i].Cost = 1234, 1234
		}
		m, prog := toDais(t, p)
		runPipeline(t, m, "builtin.module("+c.pass+")")
		// Kept: the costs left are all the old ones (new nodes have none);
		// recomputed: none is.
		old, other := 0, 0
		for _, op := range body(prog).Ops {
			if a, ok := op.Attr("cost").(*ir.FloatAttr); ok && a.Value == 1234 {
				old++
			} else if ok {
				other++
			}
		}
		if kept := old > 0 && other == 0; kept != c.keeps || (!c.keeps && old > 0) {
			t.Errorf("%s: %d old and %d new costs; want the old ones kept: %v", c.pass, old, other, c.keeps)
		}
	}
}

// Every pass is registered with a summary.
func TestRegistered(t *testing.T) {
	for _, name := range []string{"dais-fold", "dais-cse", "dais-dce", "dais-narrow", "dais-balance", "dais-optimize"} {
		if info := passes.Lookup(name); info == nil || info.Summary == "" {
			t.Errorf("%s is not registered", name)
		}
	}
}

// progressLog records the progress reports of the passes.
type progressLog struct {
	passes.NoInstrumentation
	log []string
}

func (p *progressLog) PassProgress(e *passes.Entry, s fmt.Stringer) {
	p.log = append(p.log, e.Name()+" "+s.String())
}

// dais-optimize reports each program and each of its steps; the single
// passes report the program.
func TestProgress(t *testing.T) {
	m, _ := toDais(t, randomProgram(genConfig{inputs: 4, ops: 50, outputs: 4, seed: 3}))
	prog2, err := dais.FromALIR(randomProgram(genConfig{inputs: 4, ops: 50, outputs: 4, seed: 4}), "second")
	if err != nil {
		t.Fatal(err)
	}
	m.Body().Append(prog2)
	pl, err := passes.ParsePipeline("builtin.module(dais-cse,dais-optimize)")
	if err != nil {
		t.Fatal(err)
	}
	pm, err := passes.NewManager(pl)
	if err != nil {
		t.Fatal(err)
	}
	rec := &progressLog{}
	pm.AddInstrumentation(rec)
	if ds := pm.Run(m); ds.HasErrors() {
		t.Fatal(ds)
	}
	first := "@" + programName(dais.Programs(m)[0])
	var want []string
	for i, name := range []string{first, "@second"} {
		want = append(want, fmt.Sprintf("dais-cse program %d/2 %s", i+1, name))
	}
	for i, name := range []string{first, "@second"} {
		where := fmt.Sprintf("dais-optimize program %d/2 %s", i+1, name)
		want = append(want, where)
		for _, s := range []string{"dais-fold", "dais-cse", "dais-narrow", "dais-balance", "dais-dce"} {
			want = append(want, where+": "+s)
		}
	}
	if got := strings.Join(rec.log, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("progress:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
}
