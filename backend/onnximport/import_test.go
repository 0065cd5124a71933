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

// floatInputs is where tests/nn/Inputs/onnx-float/gen.py writes float32
// PyTorch models of the layers of issue 28 (BatchNorm, LeakyReLU, ReLU6,
// Hardtanh, clamp, HardSigmoid, HardSwish, GlobalAveragePool, Conv1d and
// the 1-D pools, Cast of constants; padding on some sides only, auto_pad,
// average pools excluding their padding, dilated convolutions, nearest
// upsampling, transposed convolutions, ceil_mode pools, Keras's Conv1D as
// a [1, k] kernel of strides [1, s]; strides that differ between H and
// W; ELU, SELU, PReLU, Softsign), each
// with samples ([S, ...])
// and PyTorch's float32 outputs.
const floatInputs = "../../tests/nn/Inputs/onnx-float"

// floatModels are gen.py's models, with what their imported graphs must
// and must not hold (the folded batch norms leave no nn.sub behind; the
// ones that cannot fold stay nodes).
var floatModels = []struct {
	name      string
	has, hasn []string
}{
	{"bn_mlp", []string{`nn.linear %arg0 {params = "fc1"}`, "nn.relu", `params = "fc3"`}, []string{"nn.sub", "nn.mul", "nn.add"}},
	{"bn_nodes", []string{"nn.sub", "nn.permute"}, nil},
	{"acts", []string{"nn.max", "nn.min"}, nil},
	{"acts9", []string{"nn.max", "nn.min"}, nil},
	{"hard", []string{"nn.min", "nn.max", "nn.tanh", "nn.sigmoid"}, nil},
	{"gap_cnn", []string{"nn.conv2d", "nn.avg_pool2d %1 {kernel = [6, 6], stride = 1}", "nn.reduce_mean"}, []string{"nn.sub"}},
	{"conv1d", []string{"nn.concat", "nn.max_pool2d", "nn.avg_pool2d"}, []string{"nn.sub"}},
	{"hand", []string{"nn.min", "nn.max"}, nil},
	{"mobile", []string{`params = "dw_Conv", stride = 2`, `params = "g2_Conv"`, `params = "c1d"`}, nil},
	{"pads", []string{"nn.concat", "nn.linear", "{kernel = [3, 3], padding = 1, stride = 1}", `_count"}`}, nil},
	{"pads1d", []string{"nn.concat", `_count"}`}, nil},
	{"dilated", []string{"{kernel = [5, 5], padding = 2, params = \"c2\", stride = 1}", "{kernel = [1, 9], params = \"c1\", stride = 1}"}, nil},
	{"upsample", []string{"nn.linear", "nn.permute"}, nil},
	{"resize", []string{"nn.linear", "nn.permute"}, nil},
	{"conv1x", []string{"{kernel = [1, 5], params = \"c\", stride = 2}", "nn.max_pool2d %1 {kernel = [1, 2], stride = 2}"}, nil},
	{"ceil", []string{"nn.max_pool2d", `_count"}`}, nil},
	{"deconv", []string{"nn.linear", "{kernel = [3, 3], params = \"d2\", stride = 1}", "{kernel = [1, 4], params = \"d1\", stride = 1}"}, []string{"padding"}},
	{"elus", []string{"nn.exp", "nn.abs", "nn.inv", "nn.max", "nn.min"}, nil},
	{"elus_hand", []string{"nn.exp", "nn.abs", "nn.inv"}, nil},
	{"deconv_groups", []string{"nn.linear", "nn.conv2d"}, nil},
	{"deconv_shapes", []string{"nn.conv2d"}, nil},
	{"strides", []string{"nn.conv2d", "stride = 1}", "nn.max_pool2d", "nn.linear", `_count"}`}, nil},
	{"same", []string{"nn.concat", "nn.max_pool2d %6 {kernel = [3, 3], padding = 1, stride = 2}", `_count"}`}, []string{"nn.linear"}},
}

// floatTol bounds |got − want| ≤ floatTol·(1 + |want|) against PyTorch's
// float32 outputs: the importer computes in float64 on the float32
// weights (and folds batch norms in float64), PyTorch in float32.
const floatTol = 1e-5

// TestFloatModels imports each of gen.py's float32 models, evaluates the
// graph on each sample (NAME.in0.npy, and NAME.calib.npy where there is
// one) and compares with PyTorch's output.
func TestFloatModels(t *testing.T) {
	for _, m := range floatModels {
		t.Run(m.name, func(t *testing.T) {
			res := importFile(t, filepath.Join(floatInputs, m.name+".onnx"))
			text := res.Module.String()
			checkContains(t, text, m.has)
			for _, s := range m.hasn {
				if strings.Contains(text, s) {
					t.Errorf("the graph has %q\n%s", s, text)
				}
			}
			p := tensor.PayloadOf(res.Payload)
			g := res.Module.Body().Ops[0]
			worst, samples := 0.0, int64(0)
			for _, pair := range [][2]string{{".in0.npy", ".out0.npy"}, {".calib.npy", ".calib.out.npy"}} {
				in := filepath.Join(floatInputs, m.name+pair[0])
				if _, err := os.Stat(in); err != nil && pair[0] != ".in0.npy" {
					continue
				}
				xs, ys := tensortest.Read(t, in), tensortest.Read(t, filepath.Join(floatInputs, m.name+pair[1]))
				samples += xs.Shape[0]
				for s := range xs.Shape[0] {
					x, want := sample(xs, s), sample(ys, s)
					r, err := nneval.Eval(g, []*tensor.Tensor{x}, p, nneval.Options{})
					if err != nil {
						t.Fatalf("eval: %v\n%s", err, text)
					}
					got := r.Outputs[0]
					if !slices.Equal(got.Shape, want.Shape) {
						t.Fatalf("output shape %v, PyTorch's %v", got.Shape, want.Shape)
					}
					for i := range got.Data {
						d := math.Abs(got.Data[i] - want.Data[i])
						if !(d <= floatTol*(1+math.Abs(want.Data[i]))) {
							t.Errorf("sample %d, output [%d] = %v, PyTorch's %v", s, i, got.Data[i], want.Data[i])
						}
						worst = max(worst, d/(1+math.Abs(want.Data[i])))
					}
				}
			}
			t.Logf("%s: %d samples, largest difference from PyTorch %.3g (relative to 1 + |y|)", m.name, samples, worst)
		})
	}
}

// sample is row s of a batch [S, ...].
func sample(b *tensor.Tensor, s int64) *tensor.Tensor {
	n := int64(len(b.Data)) / b.Shape[0]
	return &tensor.Tensor{Shape: b.Shape[1:], Data: b.Data[s*n : (s+1)*n]}
}

// TestErrors: each hand-made bad file is an error with the message given.
func TestErrors(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"bad-unsupported-op.onnx", "node 'Erf_0' (Erf): operator Erf is not supported"},
		{"bad-conv-group.onnx", "node 'Conv_3' (Conv): group=3 does not divide the 4 input and 4 output channels"},
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
