package nncircuit_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/backend/onnximport"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/backend/tensor/tensortest"
	"github.com/otir-dev/otir/passes/passtest"
	"github.com/otir-dev/otir/pipelines/nncircuit/circuittest"
)

// TestFloatLayersToCircuit: the float32 PyTorch models of
// tests/nn/Inputs/onnx-float (gen.py: the BatchNorm MLP, BatchNorms that
// stay nodes, LeakyReLU/ReLU6/Hardtanh/clamp, HardSigmoid/HardSwish/
// Sigmoid/Tanh, GlobalAveragePool, Conv1d and the 1-D pools, Cast of
// constants), imported, typed by calibration on their samples with
// weight-bits=8, lowered by nn-to-circuit: on every sample the circuit's
// outputs equal the quantized evaluator's bit for bit (and are not one
// constant).
func TestFloatLayersToCircuit(t *testing.T) {
	dir := filepath.Join("..", "..", "tests", "nn", "Inputs", "onnx-float")
	for _, name := range []string{"bn_mlp", "bn_nodes", "acts", "acts9", "hard", "gap_cnn", "conv1d", "hand"} {
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
