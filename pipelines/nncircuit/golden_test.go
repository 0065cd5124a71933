package nncircuit_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/pipelines/nncircuit/circuittest"
)

// The quantized evaluator's golden cases (tests/nn/Inputs/quantized, whose
// values gen.py computes in exact rational arithmetic of its own) through
// nn-to-circuit: the circuit's outputs, all outputs of the graph in order,
// equal the generator's bit for bit on its input sample.
func TestQuantizedGoldenCircuits(t *testing.T) {
	dir := filepath.Join("..", "..", "tests", "nn", "Inputs", "quantized")
	ms, _ := filepath.Glob(filepath.Join(dir, "*.mlir"))
	if len(ms) < 10 {
		t.Fatalf("found %d cases in %s, want at least 10", len(ms), dir)
	}
	for _, path := range ms {
		base := strings.TrimSuffix(path, ".mlir")
		t.Run(filepath.Base(base), func(t *testing.T) {
			text, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			params := base + ".params.npz"
			if _, err := os.Stat(params); err != nil {
				params = circuittest.WritePayload(t, t.TempDir(), nil)
			}
			p := circuittest.Circuit(t, string(text), "params="+params)
			z, err := npy.ReadNPZFile(base + ".npz")
			if err != nil {
				t.Fatal(err)
			}
			var in, want []float64
			for k := 0; ; k++ {
				a, ok := z.Arrays[fmt.Sprintf("in%d", k)]
				if !ok {
					break
				}
				in = append(in, a.Float64s()...)
			}
			for k := 0; ; k++ {
				a, ok := z.Arrays[fmt.Sprintf("out%d", k)]
				if !ok {
					break
				}
				want = append(want, a.Float64s()...)
			}
			if len(in) != p.NumInputs() || len(want) != p.NumOutputs() {
				t.Fatalf("the circuit has %d inputs and %d outputs, the case %d and %d", p.NumInputs(), p.NumOutputs(), len(in), len(want))
			}
			got := circuittest.Run(t, p, in, 1)
			if k := sameBits(got, want); k >= 0 {
				t.Fatalf("output value %d: circuit %v, generator %v", k, got[k], want[k])
			}
		})
	}
}
