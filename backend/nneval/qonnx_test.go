package nneval

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/tensor"
)

// TestQONNXGoldenBits: the QONNX golden cases (tests/nn/Inputs/qonnx/gen.py,
// QONNX's reference in NumPy) hold bit for bit, signed zeros included.
func TestQONNXGoldenBits(t *testing.T) {
	n := 0
	for _, name := range goldenCases(t) {
		if !strings.HasPrefix(name, "quant_") && !strings.HasPrefix(name, "bipolar_quant") && !strings.HasPrefix(name, "trunc_") {
			continue
		}
		n++
		g, io, ins, p := readCase(t, filepath.Join(goldenDir, name))
		res, err := Eval(g, ins, p, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		forOutputs(t, res, io, func(i, k int, g, w float64) {
			if math.Float64bits(g) != math.Float64bits(w) {
				t.Errorf("%s: output #%d, element %d: got %v, QONNX %v", name, i, k, g, w)
			}
		})
	}
	if n < 3 {
		t.Fatalf("only %d QONNX golden cases", n)
	}
}

const qonnxGraph = `nn.graph @g(%x: tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>) {
  %q = nn.quant %x {params = "q", bits = 4} : (tensor<2x3xf64>) -> tensor<2x3xf64>
  %b = nn.bipolar_quant %x {params = "b"} : (tensor<2x3xf64>) -> tensor<2x3xf64>
  %t = nn.trunc %x {params = "t", in_bits = 8, out_bits = 4, version = 2} : (tensor<2x3xf64>) -> tensor<2x3xf64>
  nn.return %q, %b, %t : tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>
}
`

// TestQONNXEntries: the payload entries of the quantizers broadcast by
// NumPy's rules; a missing entry, a shape that does not broadcast, a scale
// that is not positive and finite, a zero point that is not a finite
// integer are errors at the node naming the key.
func TestQONNXEntries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.mlir")
	if err := os.WriteFile(path, []byte(qonnxGraph), 0o644); err != nil {
		t.Fatal(err)
	}
	g := readGraph(t, path)
	x := &tensor.Tensor{Shape: []int64{2, 3}, Data: []float64{1, -1, 2.5, 7, 0.3, -100}}
	one := func(v float64) *tensor.Tensor { return &tensor.Tensor{Shape: []int64{}, Data: []float64{v}} }
	good := func() tensor.Payload {
		return tensor.Payload{"q.scale": one(1), "q.zero_point": one(0), "b.scale": {Shape: []int64{1}, Data: []float64{2}},
			"t.scale": one(1), "t.zero_point": one(0), "t.output_scale": one(4)}
	}
	res, err := Eval(g, []*tensor.Tensor{x}, good(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][]float64{{1, -1, 2, 7, 0, -8}, {2, -2, 2, 2, 2, -2}, {0, -4, 0, 4, 0, -32}} {
		for k, w := range want {
			if got := res.Outputs[i].Data[k]; got != w {
				t.Errorf("output #%d, element %d: got %v, want %v", i, k, got, w)
			}
		}
	}
	// Per channel [3] and per row [2, 1].
	p := good()
	p["q.scale"] = &tensor.Tensor{Shape: []int64{3}, Data: []float64{1, 0.5, 2}}
	p["q.zero_point"] = &tensor.Tensor{Shape: []int64{2, 1}, Data: []float64{0, 1}}
	if res, err = Eval(g, []*tensor.Tensor{x}, p, Options{}); err != nil {
		t.Fatal(err)
	}
	// row 0: 1/1 -> 1; -1/0.5 -> -2 -> -1; 2.5/2 = 1.25 -> 1 -> 2. row 1 (zp 1): 7+1 -> 7 (Max) -> 6;
	// 0.3/0.5+1 = 1.6 -> 2 -> 0.5; -100/2+1 -> -8 -> -18.
	for k, w := range []float64{1, -1, 2, 6, 0.5, -18} {
		if got := res.Outputs[0].Data[k]; got != w {
			t.Errorf("per channel, element %d: got %v, want %v", k, got, w)
		}
	}
	for _, c := range []struct {
		what, key string
		entry     *tensor.Tensor
		want      string
	}{
		{"missing", "q.scale", nil, "g.mlir:2:3: error: 'nn.quant' op %q: the payload has no entry 'q.scale'"},
		{"no broadcast", "q.scale", &tensor.Tensor{Shape: []int64{2}, Data: []float64{1, 1}}, "'nn.quant' op %q: payload entry 'q.scale' has shape [2], which does not broadcast to the input's shape [2, 3]"},
		{"too many dims", "b.scale", &tensor.Tensor{Shape: []int64{1, 2, 3}, Data: make([]float64, 6)}, "'nn.bipolar_quant' op %b: payload entry 'b.scale' has shape [1, 2, 3], which does not broadcast"},
		{"empty", "q.zero_point", &tensor.Tensor{Shape: []int64{0}}, "payload entry 'q.zero_point' holds no values"},
		{"zero scale", "q.scale", one(0), "payload entry 'q.scale', element 0: a scale must be positive and finite, but got 0"},
		{"negative scale", "b.scale", &tensor.Tensor{Shape: []int64{3}, Data: []float64{1, -2, 1}}, "'nn.bipolar_quant' op %b: payload entry 'b.scale', element 1: a scale must be positive and finite, but got -2"},
		{"NaN scale", "t.scale", one(math.NaN()), "'nn.trunc' op %t: payload entry 't.scale', element 0: a scale must be positive and finite, but got NaN"},
		{"infinite output scale", "t.output_scale", one(math.Inf(1)), "payload entry 't.output_scale', element 0: a scale must be positive and finite, but got +Inf"},
		{"missing output scale", "t.output_scale", nil, "'nn.trunc' op %t: the payload has no entry 't.output_scale'"},
		{"fractional zero point", "q.zero_point", one(0.5), "payload entry 'q.zero_point', element 0: a zero point must be a finite integer, but got 0.5"},
		{"infinite zero point", "t.zero_point", one(math.Inf(-1)), "payload entry 't.zero_point', element 0: a zero point must be a finite integer, but got -Inf"},
	} {
		p := good()
		if c.entry == nil {
			delete(p, c.key)
		} else {
			p[c.key] = c.entry
		}
		if _, err := Eval(g, []*tensor.Tensor{x}, p, Options{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.what, err, c.want)
		}
	}
}
