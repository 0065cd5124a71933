package nncircuit_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/dialect/nn"
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
			text, _, _ := calibratedCircuit(t, dir, name, false)
			if got := strings.Count(text, nn.WeightTypeAttr+" = !quant.uniform<i8:"); got == 0 {
				t.Fatalf("no 8-bit weight_type written:\n%s", text)
			}
		})
	}
}
