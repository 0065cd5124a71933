package onnximport

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/backend/tensor/tensortest"
)

// floatInputs is where tests/nn/Inputs/onnx-float/gen.py writes float32
// PyTorch models of the layers of issue 28 (BatchNorm, LeakyReLU, ReLU6,
// Hardtanh, clamp, HardSigmoid, HardSwish, GlobalAveragePool, Conv1d and
// the 1-D pools, Cast of constants), each with samples ([S, ...]) and
// PyTorch's float32 outputs.
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
