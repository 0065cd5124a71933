package qonnx_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/pipelines/nncircuit/circuittest"
)

// selectionGraph quantizes x [1, 4] at a different scale per element and
// applies nn.linear by the payload's "pick" to it.
const selectionGraph = `nn.graph @g(%x: tensor<1x4xf64>) -> tensor<1x2xf64> {
  %0 = nn.quant %x {params = "q", bits = 5} : (tensor<1x4xf64>) -> tensor<1x4xf64>
  %1 = nn.linear %0 {params = "pick"} : (tensor<1x4xf64>) -> tensor<1x2xf64>
  nn.return %1 : tensor<1x2xf64>
}
`

func selectionPayload(weight, bias []float64) tensor.Payload {
	return tensor.Payload{
		"q.scale":      {Shape: []int64{1, 4}, Data: []float64{0.125, 0.0625, 0.25, 0.03125}},
		"q.zero_point": {Data: []float64{3}},
		"pick.weight":  {Shape: []int64{2, 4}, Data: weight},
		"pick.bias":    {Shape: []int64{2}, Data: bias},
	}
}

// TestLinear: nn.linear of a quantized value (zero point 3, so that its
// values are codes plus an offset), as a selection (rows that each pick
// one element or none, the importer's edge copies that pad a max pool and
// the zeros a ConvTranspose inserts: each picked element's code and
// function, which differ here element by element, and zeros), or as a
// constant matrix product plus bias (rows that sum
// elements, a bias: a float Gemm by plain weights, FINN's integer ones):
// the circuit equals the evaluator on 200 random inputs each. Of a rank-3
// value only a selection is absorbed, and a zero row only beside elements
// that are affine maps of their codes (not after a relu).
func TestLinear(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	rows := 200
	in := make([]float64, 4*rows)
	for i := range in {
		in[i] = float64(rng.IntN(256)-128) / 32 // fixed<8,3>: 5 fraction bits
	}
	for _, c := range []struct{ weight, bias []float64 }{
		{[]float64{0, 0, 0, 1, 0, 1, 0, 0}, []float64{0, 0}},
		{[]float64{0, 0, 0, 0, 0, 1, 0, 0}, []float64{0, 0}},
		{[]float64{0, 1, 0, 1, 1, 0, 0, 0}, []float64{0, 0}},
		{[]float64{0, 0, -2, 1, 1, 0, 0, 3}, []float64{0.25, -1.5}},
		{[]float64{2, 1, 0, 0, 0, 0, 0, 1}, []float64{0, 0}}, // a 1 after another weight picks nothing
	} {
		payload := selectionPayload(c.weight, c.bias)
		params := circuittest.WritePayload(t, t.TempDir(), payload)
		p := circuittest.Circuit(t, selectionGraph, "params="+params+" input-type=fixed<8,3>")
		got := circuittest.Run(t, p, in, rows)
		want := circuittest.Eval(t, circuittest.Graph(t, selectionGraph), payload, in, rows)
		if !slices.Equal(got, want) {
			t.Fatalf("weight %v bias %v: circuit %v\nevaluator %v", c.weight, c.bias, got[:8], want[:8])
		}
	}
	relu := strings.Replace(selectionGraph, `  %1 = nn.linear %0`, "  %r = nn.relu %0 : (tensor<1x4xf64>) -> tensor<1x4xf64>\n  %1 = nn.linear %r", 1)
	params := circuittest.WritePayload(t, t.TempDir(), selectionPayload([]float64{0, 0, 0, 0, 0, 1, 0, 0}, []float64{0, 0}))
	_, ds := circuittest.TryCircuit(t, relu, "params="+params+" input-type=fixed<8,3>")
	if want := "row 0 of the weight is zero beside elements that are no affine map of their codes"; !ds.HasErrors() || !strings.Contains(ds.Error(), want) {
		t.Errorf("got %v, want an error containing %q", ds, want)
	}
	rank3 := strings.NewReplacer("1x4", "1x1x4", "1x2", "1x1x2").Replace(selectionGraph)
	params = circuittest.WritePayload(t, t.TempDir(), selectionPayload([]float64{0, 1, 0, 1, 1, 0, 0, 0}, []float64{0, 0}))
	_, ds = circuittest.TryCircuit(t, rank3, "params="+params+" input-type=fixed<8,3>")
	if want := "an nn.linear of a rank-3 value is absorbed only when its weight rows each pick one element and its bias is 0"; !ds.HasErrors() || !strings.Contains(ds.Error(), want) {
		t.Errorf("got %v, want an error containing %q", ds, want)
	}
}
