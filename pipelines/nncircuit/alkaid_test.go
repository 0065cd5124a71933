package nncircuit_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/bench/nncircuit"
	"github.com/otir-dev/otir/pipelines/nncircuit/circuittest"
)

// alkaid's figures for its program of the alkaid-mlp network
// (../shared/conformance/alir/alkaid-mlp/README.md).
const (
	alkaidAdders = 4314
	alkaidDepth  = 35
)

// The quantized alkaid-mlp graph (its quant.json written as types) through
// nn-to-circuit computes alkaid's outputs on alkaid's inputs bit for bit,
// with fewer adders than alkaid's program at no greater adder depth.
func TestAlkaidMLP(t *testing.T) {
	dir := conformance(t, "alir", "alkaid-mlp")
	text, err := os.ReadFile(filepath.Join("..", "..", "tests", "nn", "Inputs", "alkaid-mlp-q.mlir"))
	if err != nil {
		t.Fatal(err)
	}
	p := circuittest.Circuit(t, string(text), "params="+filepath.Join(dir, "params.npz"))
	in, want := readRows(t, filepath.Join(dir, "inputs.txt")), readRows(t, filepath.Join(dir, "expected.txt"))
	n := len(in) / p.NumInputs()
	got := circuittest.Run(t, p, in, n)
	if k := sameBits(got, want); k >= 0 {
		t.Fatalf("sample %d output %d: %v, alkaid's %v", k/p.NumOutputs(), k%p.NumOutputs(), got[k], want[k])
	}
	c, err := nncircuit.Count(p) // adders as otir-run info counts them
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("otir: %d adders (%d negations), depth %d, %d constant adds; alkaid: %d adders, depth %d", c.Adders, c.Negs, c.Depth, c.ConstAdds, alkaidAdders, alkaidDepth)
	if c.Adders >= alkaidAdders || c.Depth > alkaidDepth {
		t.Errorf("otir's circuit has %d adders at depth %d; alkaid's %d at depth %d", c.Adders, c.Depth, alkaidAdders, alkaidDepth)
	}
}
