package nncircuit_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/backend/onnximport"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/backend/tensor/tensortest"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/passes/passtest"
	"github.com/otir-dev/otir/pipelines/nncircuit/circuittest"
)

// TestFloatLayersToCircuit: the float32 PyTorch models of
// tests/nn/Inputs/onnx-float (gen.py: the BatchNorm MLP, BatchNorms that
// stay nodes, LeakyReLU/ReLU6/Hardtanh/clamp, HardSigmoid/HardSwish/
// Sigmoid/Tanh, GlobalAveragePool, Conv1d and the 1-D pools, Cast of
// constants, a MobileNet block's depthwise and grouped convolutions,
// padding on some sides only, auto_pad, averages excluding padding,
// dilated convolutions, nearest upsampling, transposed convolutions,
// ceil_mode pools, Keras's Conv1D as a 2-D layer, ELU, SELU, PReLU,
// Softsign),
// imported, typed by calibration on their samples with
// weight-bits=8, lowered by nn-to-circuit: on every sample the circuit's
// outputs equal the quantized evaluator's bit for bit (and are not one
// constant).
func TestFloatLayersToCircuit(t *testing.T) {
	dir := filepath.Join("..", "..", "tests", "nn", "Inputs", "onnx-float")
	for _, name := range []string{"bn_mlp", "bn_nodes", "acts", "acts9", "hard", "gap_cnn", "conv1d", "hand", "mobile", "pads", "pads1d", "same", "dilated", "upsample", "resize", "deconv", "ceil", "conv1x", "elus", "elus_hand", "strides", "deconv_groups", "deconv_shapes"} {
		t.Run(name, func(t *testing.T) {
			_, want, rows := calibratedCircuit(t, dir, name, true)
			// The signal survives quantization: the samples' outputs differ.
			n := len(want) / rows
			if slices.Equal(want[:n], want[len(want)-n:]) {
				t.Errorf("the first and the last sample give the same outputs %v", want[:n])
			}
			t.Logf("%s: %d samples, %d output values equal", name, rows, len(want))
		})
	}
}

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

// calibratedCircuit imports the float model dir/name.onnx, types it by
// calibration on dir/name.in0.npy with weight-bits=8 (nn-quantize), and
// checks that nn-to-circuit's circuit equals the quantized evaluator bit
// for bit on that input: rows samples when batched (its first axis), else
// one. It returns the quantized graph's text and the evaluator's outputs.
func calibratedCircuit(t *testing.T, dir, name string, batched bool) (text string, want []float64, rows int) {
	t.Helper()
	r, params := importONNX(t, filepath.Join(dir, name+".onnx"), name)
	input := filepath.Join(dir, name+".in0.npy")
	passtest.MustRun(t, r.Module, "builtin.module(nn-quantize{params="+params+" calibration="+input+" weight-bits=8})", name+".onnx, imported")
	text = r.Module.String()
	x := tensortest.Read(t, input)
	payload, err := tensor.NewPayloads().Read(params)
	if err != nil {
		t.Fatal(err)
	}
	rows = 1
	if batched {
		rows = int(x.Shape[0])
	}
	want = circuittest.Eval(t, circuittest.Graph(t, text), payload, x.Data, rows)
	got := circuittest.Run(t, circuittest.Circuit(t, text, "params="+params), x.Data, rows)
	if k := sameBits(got, want); k >= 0 {
		t.Fatalf("output value %d: circuit %v, evaluator %v", k, got[k], want[k])
	}
	return text, want, rows
}

// importONNX imports an ONNX model as graph @name and writes its payload
// to a temporary file, whose path it returns.
func importONNX(t *testing.T, path, name string) (*onnximport.Result, string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := onnximport.Import(data, filepath.Base(path), onnximport.Options{GraphName: name})
	if err != nil {
		t.Fatal(err)
	}
	params := filepath.Join(t.TempDir(), "p.npz")
	f, err := os.Create(params)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := npy.WriteNPZ(f, r.Payload); err != nil {
		t.Fatal(err)
	}
	return r, params
}
