package quantize_test

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/lower/dais"
	"github.com/otir-dev/otir/lower/nn/qonnx"
	"github.com/otir-dev/otir/parse"
	_ "github.com/otir-dev/otir/pipelines/nncircuit" // nn-to-circuit
)

// softmaxSrc holds softmaxes over both axes of [3, 4] logits, the second
// flattened (a shape kind after it keeps its type).
const softmaxSrc = `nn.graph @g(%x: tensor<3x4xf64>) -> (tensor<3x4xf64>, tensor<12xf64>) {
  %s0 = nn.softmax %x {axis = 0} : (tensor<3x4xf64>) -> tensor<3x4xf64>
  %s1 = nn.softmax %x {axis = 1} : (tensor<3x4xf64>) -> tensor<3x4xf64>
  %f = nn.flatten %s1 : (tensor<3x4xf64>) -> tensor<12xf64>
  nn.return %s0, %f : tensor<3x4xf64>, tensor<12xf64>
}`

// TestQuantizeSoftmax: nn-quantize makes each softmax the lookup-table
// softmax of its typed operand (logits of ±32 at 2^-6, the case a softmax
// without its maximum subtracted rounds to 0): within
// qonnx.SoftmaxBound(K, N) of the exact softmax of the logits over
// either axis, the flatten after it of its type u(N+1) at 2^-N, and
// nn-to-circuit's program equal to the quantized evaluator bit for bit.
func TestQuantizeSoftmax(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(28, 3))
	const samples = 64
	data := make([]float64, samples*12)
	for i := range data {
		data[i] = math.Floor((rng.Float64()*64-32)*64) / 64 // on x's grid, in its range
	}
	calib := filepath.Join(dir, "x.npy")
	writeNPY(t, calib, []int{samples, 3, 4}, data)
	qjson := filepath.Join(dir, "q.json")
	if err := os.WriteFile(qjson, []byte(`{"tensors": {"%x": {"kif": [1, 5, 6]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fm, err := parse.ParseString("g.mlir", softmaxSrc, parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	float := nn.Graphs(fm)[0] // the float evaluator's softmax: the reference
	for _, bits := range []string{"6", "10"} {
		n := map[string]int{"6": 6, "10": 10}[bits]
		options := "quant=" + qjson + " calibration=" + calib + " softmax-bits=" + bits
		q := runOn(t, softmaxSrc, "builtin.module(nn-quantize{"+options+"})")
		g := nn.Graphs(q)[0]
		want := quant.Uniform(n+1, false, n)
		for i, r := range g.Body(0).Terminator().Operands {
			if got := quant.ElementOf(r.Type); got != want {
				t.Errorf("softmax-bits=%s: output #%d has type %v, want %v", bits, i, got, want)
			}
		}
		c := runOn(t, softmaxSrc, "builtin.module(nn-to-circuit{"+options+"})")
		p, err := dais.ProgramOf(dais.Programs(c)[0])
		if err != nil {
			t.Fatal(err)
		}
		mc, err := alir.Compile(p)
		if err != nil {
			t.Fatal(err)
		}
		circuit, err := mc.Run(data, samples)
		if err != nil {
			t.Fatal(err)
		}
		bound := map[int64]float64{3: qonnx.SoftmaxBound(3, n), 4: qonnx.SoftmaxBound(4, n)}
		worst := 0.0
		for s := range samples {
			x := data[s*12 : (s+1)*12]
			res, err := nneval.Eval(g, []*tensor.Tensor{{Shape: []int64{3, 4}, Data: x}}, nil, nneval.Options{})
			if err != nil {
				t.Fatal(err)
			}
			y := append(append([]float64{}, res.Outputs[0].Data...), res.Outputs[1].Data...)
			for k, v := range circuit[s*24 : (s+1)*24] {
				if v != y[k] {
					t.Fatalf("softmax-bits=%s, sample %d, output %d: circuit %v, quantized evaluator %v", bits, s, k, v, y[k])
				}
			}
			ref, err := nneval.Eval(float, []*tensor.Tensor{{Shape: []int64{3, 4}, Data: x}}, nil, nneval.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for o, k := range []int64{3, 4} { // the classes of each output
				for e, p := range ref.Outputs[o].Data {
					d := math.Abs(y[12*o+e] - p)
					worst = max(worst, d)
					if d > bound[k] {
						t.Fatalf("softmax-bits=%s, sample %d, output %d, element %d: %v, the softmax %v: error %v above the bound %v", bits, s, o, e, y[12*o+e], p, d, bound[k])
					}
				}
			}
		}
		t.Logf("softmax-bits=%s: max abs error %.4g (bounds %.4g for K=3, %.4g for K=4)", bits, worst, bound[3], bound[4])
	}
}

func writeNPY(t *testing.T, path string, shape []int, data []float64) {
	t.Helper()
	var b strings.Builder
	if err := npy.Write(&b, shape, data); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
