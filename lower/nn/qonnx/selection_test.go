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
		"q.zero_point": {Data: []float64{0}},
		"pick.weight":  {Shape: []int64{2, 4}, Data: weight},
		"pick.bias":    {Shape: []int64{2}, Data: bias},
	}
}

// TestSelection: an nn.linear whose rows each pick one element (the
// importer's edge copies that pad a max pool) takes each picked element's
// code and function, which differ here element by element: the circuit
// equals the evaluator on 200 random inputs. A weight row that sums two
// elements, or a bias, is an error naming the row.
func TestSelection(t *testing.T) {
	payload := selectionPayload([]float64{0, 0, 0, 1, 0, 1, 0, 0}, []float64{0, 0})
	params := circuittest.WritePayload(t, t.TempDir(), payload)
	p := circuittest.Circuit(t, selectionGraph, "params="+params+" input-type=fixed<8,3>")
	rng := rand.New(rand.NewPCG(5, 6))
	rows := 200
	in := make([]float64, 4*rows)
	for i := range in {
		in[i] = float64(rng.IntN(256)-128) / 32 // fixed<8,3>: 5 fraction bits
	}
	got := circuittest.Run(t, p, in, rows)
	want := circuittest.Eval(t, circuittest.Graph(t, selectionGraph), payload, in, rows)
	if !slices.Equal(got, want) {
		t.Fatalf("circuit %v\nevaluator %v", got[:8], want[:8])
	}
	for _, c := range []struct {
		weight, bias []float64
		want         string
	}{
		{[]float64{0, 1, 0, 1, 1, 0, 0, 0}, []float64{0, 0}, "row 0 is not one"},
		{[]float64{0, 0, 0, 1, 1, 0, 0, 0}, []float64{0, 0.5}, "row 1 is not one"},
	} {
		params := circuittest.WritePayload(t, t.TempDir(), selectionPayload(c.weight, c.bias))
		_, ds := circuittest.TryCircuit(t, selectionGraph, "params="+params+" input-type=fixed<8,3>")
		if !ds.HasErrors() || !strings.Contains(ds.Error(), c.want) {
			t.Errorf("weight %v bias %v: got %v, want an error containing %q", c.weight, c.bias, ds, c.want)
		}
	}
}
