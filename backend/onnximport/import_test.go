package onnximport

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/backend/tensor/tensortest"
	"github.com/otir-dev/otir/ir"
)

// inputs is where tests/onnx/Inputs/gen.py writes the models, their inputs
// and PyTorch's outputs.
const inputs = "../../tests/onnx/Inputs"

// goldenTol bounds |got − want| ≤ tol + tol·|want| against PyTorch's
// float64 outputs (the bar; the sums and the layer norm's
// variance are computed in another order than PyTorch's).
const goldenTol = 1e-9

// TestGolden imports every model gen.py writes, verifies the graph,
// writes and reads back the payload, evaluates the graph with nneval and
// compares each output with PyTorch's (NumPy's for the onnx.helper model
// "ops"; for the float32 export "cnn32", PyTorch's in float64 on the
// float32 weights and input).
func TestGolden(t *testing.T) {
	for _, name := range []string{"mlp", "cnn", "padconv", "attention13", "attention17", "misc", "ops", "cnn32", "misc15", "padconv16"} {
		t.Run(name, func(t *testing.T) {
			res := importFile(t, filepath.Join(inputs, name+".onnx"))
			checkReference(t, res, inputs, name)
		})
	}
}

// checkReference writes and reads back res's payload, evaluates the graph
// with nneval on dir/NAME.in0.npy and compares each output with
// dir/NAME.outK.npy within goldenTol.
func checkReference(t *testing.T, res *Result, dir, name string) {
	t.Helper()
	var buf bytes.Buffer
	if err := npy.WriteNPZ(&buf, res.Payload); err != nil {
		t.Fatal(err)
	}
	z, err := npy.ReadNPZ(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	p := tensor.PayloadOf(z)
	x := tensortest.Read(t, filepath.Join(dir, name+".in0.npy"))
	g := res.Module.Body().Ops[0]
	r, err := nneval.Eval(g, []*tensor.Tensor{x}, p, nneval.Options{})
	if err != nil {
		t.Fatalf("eval: %v\n%s", err, res.Module)
	}
	worst := 0.0
	for k, got := range r.Outputs {
		want := tensortest.Read(t, filepath.Join(dir, fmt.Sprintf("%s.out%d.npy", name, k)))
		if !slices.Equal(got.Shape, want.Shape) {
			t.Fatalf("output #%d has shape %v, the reference's %v", k, got.Shape, want.Shape)
		}
		for i := range got.Data {
			d := math.Abs(got.Data[i] - want.Data[i])
			if !(d <= goldenTol+goldenTol*math.Abs(want.Data[i])) {
				t.Errorf("output #%d [%d] = %v, the reference's %v", k, i, got.Data[i], want.Data[i])
			}
			worst = max(worst, d)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("%s.out%d.npy", name, len(r.Outputs)))); err == nil {
		t.Errorf("the graph has %d outputs, the reference more", len(r.Outputs))
	}
	t.Logf("%s: largest difference from the reference %.3g", name, worst)
}

func importFile(t *testing.T, path string) *Result {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Import(data, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestErrors: each hand-made bad file is an error with the message given.
func TestErrors(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"bad-unsupported-op.onnx", "node 'Erf_0' (Erf): operator Erf is not supported"},
		{"bad-conv-group.onnx", "node 'Conv_3' (Conv): group=2 is not supported"},
		{"bad-dynamic-shape.onnx", "graph input 'x': dimension 0 is dynamic ('N'); shapes must be static"},
		{"bad-huge-tensor.onnx", "initializer 'k': shape [1048576, 1048576] holds more than 268435456 elements"},
		{"bad-truncated.onnx", "not an ONNX model"},
		{"bad-not-onnx.onnx", "not an ONNX model"},
	} {
		data, err := os.ReadFile(filepath.Join(inputs, c.file))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Import(data, c.file, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got error %v, want %q", c.file, err, c.want)
		}
	}
}

// TestPrintsFloatsMLIRReads: the layer norm's epsilon prints with a
// decimal point (1.0e-05), the spelling MLIR requires.
func TestPrintsFloatsMLIRReads(t *testing.T) {
	res := importFile(t, filepath.Join(inputs, "attention17.onnx"))
	var sb strings.Builder
	if err := ir.Print(&sb, res.Module, ir.PrintOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), "epsilon = 1.0e-05 : f64") {
		t.Errorf("no epsilon in MLIR's spelling:\n%s", sb.String())
	}
}
