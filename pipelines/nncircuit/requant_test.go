package nncircuit_test

import (
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/passes/passtest"
	"github.com/otir-dev/otir/pipelines/nncircuit/circuittest"
)

// TestRequantizingCircuits: the BatchNorm MLP of tests/nn/Inputs/onnx-float
// quantized by calibration with nn-quantize's saturation and rounding
// options (nn.requantize nodes), on the rows of tests/nn/Inputs/overflow
// whose hidden values leave their calibrated ranges by up to 8 times: the
// circuit equals the quantized evaluator bit for bit, and the options
// change the outputs.
func TestRequantizingCircuits(t *testing.T) {
	dir := filepath.Join("..", "..", "tests", "nn", "Inputs")
	calib := filepath.Join(dir, "onnx-float", "bn_mlp.calib.npy")
	var first []float64
	for _, opts := range []string{"", "round=nearest", "headroom-bits=0", "headroom-bits=0 round=nearest", "headroom-bits=0 overflow=wrap round=nearest"} {
		t.Run(opts, func(t *testing.T) {
			r, params := importONNX(t, filepath.Join(dir, "onnx-float", "bn_mlp.onnx"), "bn_mlp")
			passtest.MustRun(t, r.Module, "builtin.module(nn-quantize{params="+params+" calibration="+calib+" act-bits=6 "+opts+"})", "bn_mlp.onnx")
			text := r.Module.String()
			payload, err := tensor.NewPayloads().Read(params)
			if err != nil {
				t.Fatal(err)
			}
			p := circuittest.Circuit(t, text, "params="+params)
			var all []float64
			for _, rows := range []string{"big.npy", "huge.npy"} {
				xs, err := tensor.ReadTensorFile(filepath.Join(dir, "overflow", rows))
				if err != nil {
					t.Fatal(err)
				}
				n := int(xs.Shape[0])
				want := circuittest.Eval(t, circuittest.Graph(t, text), payload, xs.Data, n)
				got := circuittest.Run(t, p, xs.Data, n)
				if k := sameBits(got, want); k >= 0 {
					t.Fatalf("%s: output value %d: circuit %v, evaluator %v", rows, k, got[k], want[k])
				}
				all = append(all, want...)
			}
			if first == nil {
				first = all
			} else if sameBits(first, all) < 0 {
				t.Errorf("the outputs are those of the default options")
			}
		})
	}
}
