// Package circuittest holds what the end-to-end tests of the network
// lowerings and of nn-to-circuit share: a graph's payload file, its
// circuit (nn-to-circuit's ALIR program) run on rows of inputs, and the
// evaluator's outputs on the same rows, the two compared bit for bit.
package circuittest

import (
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
	"github.com/otir-dev/otir/passes/passtest"
	_ "github.com/otir-dev/otir/pipelines/nncircuit" // nn-to-circuit
)

// WritePayload writes the payload as dir/p.npz and returns its path.
func WritePayload(t testing.TB, dir string, p tensor.Payload) string {
	t.Helper()
	path := filepath.Join(dir, "p.npz")
	if err := tensor.WritePayloadFile(path, p); err != nil {
		t.Fatal(err)
	}
	return path
}

// Lower parses and verifies a graph's text and runs the pass pipeline on
// it, verifying after each pass; an error fails t, shown with the text.
func Lower(t testing.TB, text, pipeline string) *ir.Module {
	t.Helper()
	m := passtest.Parse(t, "graph.mlir", text)
	passtest.MustRun(t, m, pipeline, text)
	return m
}

// Graph parses and verifies a graph's text and returns its first nn.graph.
func Graph(t testing.TB, text string) *ir.Operation {
	t.Helper()
	return nn.Graphs(passtest.Parse(t, "graph.mlir", text))[0]
}

// Program returns the one ALIR program of a module lowered to dais.
func Program(t testing.TB, m *ir.Module) *alir.Program {
	t.Helper()
	progs := dais.Programs(m)
	if len(progs) != 1 {
		t.Fatalf("%d programs, want 1", len(progs))
	}
	p, err := dais.ProgramOf(progs[0])
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Circuit runs nn-to-circuit{options} on a graph's text and returns the
// ALIR program; an error fails t, shown with the text.
func Circuit(t testing.TB, text, options string) *alir.Program {
	t.Helper()
	p, ds := TryCircuit(t, text, options)
	if ds.HasErrors() {
		t.Fatalf("%s: %v\n%s", circuitPipeline(options), ds, text)
	}
	return p
}

// TryCircuit is Circuit that returns what nn-to-circuit reported instead
// of failing t on an error (no program then).
func TryCircuit(t testing.TB, text, options string) (*alir.Program, diag.List) {
	t.Helper()
	m := passtest.Parse(t, "graph.mlir", text)
	if ds := passtest.Run(t, m, circuitPipeline(options)); ds.HasErrors() {
		return nil, ds
	}
	return Program(t, m), nil
}

func circuitPipeline(options string) string {
	return "builtin.module(nn-to-circuit{" + options + "})"
}

// Run runs a program on rows of inputs (one after another in in) with
// otir's ALIR interpreter and returns the rows of outputs.
func Run(t testing.TB, p *alir.Program, in []float64, rows int) []float64 {
	t.Helper()
	mc, err := alir.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	out, err := mc.Run(in, rows)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Eval runs a graph of one input in backend/nneval on rows of inputs (one
// after another in in, each of the shape of the graph's argument) and
// returns, row after row, the row's outputs one after another: what Run
// returns for the graph's circuit.
func Eval(t testing.TB, g *ir.Operation, payload tensor.Payload, in []float64, rows int) []float64 {
	t.Helper()
	shape := g.Body(0).Args[0].Type.(*ir.TensorType).Shape
	n := len(in) / rows
	var out []float64
	for r := range rows {
		x := &tensor.Tensor{Shape: shape, Data: in[r*n : (r+1)*n]}
		res, err := nneval.Eval(g, []*tensor.Tensor{x}, payload, nneval.Options{})
		if err != nil {
			t.Fatalf("nneval, row %d: %v", r, err)
		}
		for _, y := range res.Outputs {
			out = append(out, y.Data...)
		}
	}
	return out
}
