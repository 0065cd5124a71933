package kernels_test

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/lower/nn/kernels"
	"github.com/otir-dev/otir/parse"
	"github.com/otir-dev/otir/passes/verify"
)

// TestEmptyNodeResult: a node whose result has no elements (here a payload
// constant of shape [0]) is an error at the node, not IR the verifier
// rejects after the pass (an argument of no elements is
// tests/nn/nn-to-otir-invalid.mlir's case).
func TestEmptyNodeResult(t *testing.T) {
	const text = `nn.graph @g(%x: tensor<4x!quant.uniform<i8:f64, 0.125>>) -> (tensor<4x!quant.uniform<i8:f64, 0.125>>, tensor<0xf64>) {
  %0 = nn.const {params = "c"} : () -> tensor<0xf64>
  nn.return %x, %0 : tensor<4x!quant.uniform<i8:f64, 0.125>>, tensor<0xf64>
}`
	m, err := parse.ParseString("g.mlir", text, parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds := verify.Verify(m); ds.HasErrors() {
		t.Fatal(ds)
	}
	var g = m.Body().Ops[0]
	if g.Name != nn.OpGraph {
		t.Fatalf("first op is %s", g.Name)
	}
	_, err = kernels.LowerGraph(g, tensor.Payload{"c": {Shape: []int64{0}}})
	want := "'nn.const' op result of type 'tensor<0xf64>' has no elements: a circuit has no lanes for it"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want an error containing %q", err, want)
	}
}
