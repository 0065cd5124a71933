package nncircuit_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/passes/passtest"
)

// A float network (docs/nn-to-circuit.md "A float network"): the MLP and
// the CNN of tests/onnx/Inputs, as PyTorch exported them, imported, typed
// by calibration on their committed input with weight-bits=8
// (nn-quantize writes weight_type and bias_type), then lowered by
// nn-to-circuit: the circuit's outputs equal the quantized evaluator's bit
// for bit.
func TestFloatNetworkWithWeightBits(t *testing.T) {
	dir := filepath.Join("..", "..", "tests", "onnx", "Inputs")
	for _, name := range []string{"mlp", "cnn"} {
		t.Run(name, func(t *testing.T) {
			r, params := importONNX(t, filepath.Join(dir, name+".onnx"), name)
			input := filepath.Join(dir, name+".in0.npy")
			passtest.MustRun(t, r.Module, "builtin.module(nn-quantize{params="+params+" calibration="+input+" weight-bits=8})", name+".onnx, imported")
			text := r.Module.String()
			if got := strings.Count(text, nn.WeightTypeAttr+" = !quant.uniform<i8:"); got == 0 {
				t.Fatalf("no 8-bit weight_type written:\n%s", text)
			}
			x, err := tensor.ReadTensorFile(input)
			if err != nil {
				t.Fatal(err)
			}
			payload, err := tensor.NewPayloads().Read(params)
			if err != nil {
				t.Fatal(err)
			}
			want := evaluate(t, text, payload, x.Shape, x.Data, 1)
			p := circuit(t, text, params, "")
			got := run(t, p, x.Data, 1)
			if k := sameBits(got, want); k >= 0 {
				t.Fatalf("output value %d: circuit %v, evaluator %v", k, got[k], want[k])
			}
		})
	}
}
