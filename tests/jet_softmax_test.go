package tests

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/backend/tensor/tensortest"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/nn/qonnx"
	"github.com/otir-dev/otir/parse"
)

// TestJetSoftmax is issue 28's figure for the softmax (docs/nn.md
// "nn-quantize"): the trained jet MLP of tests/nn/Inputs/jet (gen.py:
// hls4ml's 16-64-32-32-5 ReLU MLP and a final softmax, trained in PyTorch
// until its logits reach about ±35), imported by otir-translate and
// quantized by nn-quantize at 8-bit weights and 10-bit activations, the
// input included (calibration on 512 training rows), on 256 held-out rows:
//
//   - otir-run quant-error: the probabilities within jetMaxError of the
//     quantized graph's float reading;
//   - the quantized evaluator within jetMaxError of PyTorch's probabilities,
//     within qonnx.SoftmaxBound(5, 10) of the exact softmax of its own
//     quantized logits z (the bound nn-quantize states), and on each row
//     within that bound plus (max_j Δz_j − min_j Δz_j)/4 of the softmax of
//     the float reading's logits, Δz = z − z_float;
//   - nn-to-circuit's program (thousands of operations, not the 0 of a
//     softmax that rounds to nothing) equals the quantized evaluator bit for
//     bit.
func TestJetSoftmax(t *testing.T) {
	const jetMaxError = 0.05
	bin := tool{qonnxBin(t)}
	dir := filepath.Join("nn", "Inputs", "jet")
	tmp := t.TempDir()
	graph, params, quantized, program := filepath.Join(tmp, "jet.mlir"), filepath.Join(tmp, "jet.npz"), filepath.Join(tmp, "jetq.mlir"), filepath.Join(tmp, "jet.json")
	test := filepath.Join(dir, "test.npy")
	options := "calibration=" + filepath.Join(dir, "calib.npy") + " weight-bits=8 act-bits=10 input-bits=10"
	must := func(name string, args ...string) string {
		t.Helper()
		out, stderr, err := bin.run(nil, name, args...)
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, stderr)
		}
		return string(out)
	}
	must("otir-translate", "--import-onnx", filepath.Join(dir, "model.onnx"), "--graph-name", "jet", "-o", graph, "--params-out", params)
	must("otir-opt", graph, "--params", params, "--pass-pipeline=builtin.module(nn-quantize{"+options+"})", "-o", quantized)
	must("otir-opt", graph, "--params", params, "--pass-pipeline=builtin.module(nn-to-circuit{"+options+"})", "--emit=alir-json", "-o", program)

	report := must("otir-run", "quant-error", quantized, "--params", params, "--input", test)
	m := regexp.MustCompile(`max abs error (\S+),`).FindStringSubmatch(report)
	if m == nil {
		t.Fatalf("quant-error printed no error:\n%s", report)
	}
	if e, err := strconv.ParseFloat(m[1], 64); err != nil || e > jetMaxError {
		t.Errorf("quant-error: max abs error %s against the float reading, want at most %v", m[1], jetMaxError)
	}

	text, err := os.ReadFile(quantized)
	if err != nil {
		t.Fatal(err)
	}
	mod, err := parse.ParseString(quantized, string(text), parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := nn.Graphs(mod)[0]
	payload, err := tensor.NewPayloads().Read(params)
	if err != nil {
		t.Fatal(err)
	}
	// The softmax's operand: the last linear's result, or the
	// nn.requantize that saturates it.
	var logits *ir.Value
	for _, op := range g.Body(0).Ops {
		switch {
		case op.Name == nn.OpLinear:
			logits = op.Results[0]
		case op.Name == nn.OpRequantize && op.Operands[0] == logits:
			logits = op.Results[0]
		}
	}
	rows := batchOf(t, test, g.Body(0).Args[0].Type.(*ir.TensorType).Shape)
	torch := batchOf(t, filepath.Join(dir, "probs.npy"), []int64{1, 5})
	bound := qonnx.SoftmaxBound(5, qonnx.DefaultSoftmaxBits)
	logitsOf := func(row *tensor.Tensor, float bool) (y, z []float64) {
		t.Helper()
		res, err := nneval.Eval(g, []*tensor.Tensor{row}, payload, nneval.Options{Float: float})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range res.Values {
			if v.Value == logits {
				z = v.Tensor.Data
			}
		}
		return res.Outputs[0].Data, z
	}
	sm, err := parse.ParseString("softmax.mlir", `nn.graph @s(%z: tensor<5xf64>) -> tensor<5xf64> {
  %p = nn.softmax %z {axis = 0} : (tensor<5xf64>) -> tensor<5xf64>
  nn.return %p : tensor<5xf64>
}`, parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	softmaxOf := func(z []float64) []float64 { // the float evaluator's softmax
		t.Helper()
		res, err := nneval.Eval(nn.Graphs(sm)[0], []*tensor.Tensor{{Shape: []int64{5}, Data: z}}, nil, nneval.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return res.Outputs[0].Data
	}
	var inputs, want []float64
	worstTorch, worstSoftmax, worstTotal, worstLogit, peak := 0.0, 0.0, 0.0, 0.0, 0.0
	for r, row := range rows {
		y, z := logitsOf(row, false)
		_, zf := logitsOf(row, true)
		for k := range y {
			worstTorch = max(worstTorch, math.Abs(y[k]-torch[r].Data[k]))
		}
		// The total error against the softmax of the float logits: the
		// bound plus osc(Δz)/4, Δz the logits' quantization error
		// (|∂p_k/∂z_j| summed over j is at most p_k(1 − p_k)·osc).
		lo, hi := math.Inf(1), math.Inf(-1)
		for k := range z {
			lo, hi = min(lo, z[k]-zf[k]), max(hi, z[k]-zf[k])
			worstLogit = max(worstLogit, math.Abs(z[k]-zf[k]))
			peak = max(peak, math.Abs(z[k]))
		}
		exact, float := softmaxOf(z), softmaxOf(zf)
		for k := range y {
			worstSoftmax = max(worstSoftmax, math.Abs(y[k]-exact[k]))
			worstTotal = max(worstTotal, math.Abs(y[k]-float[k]))
			if d := math.Abs(y[k] - float[k]); d > bound+(hi-lo)/4+1e-12 {
				t.Errorf("row %d, class %d: %v from the softmax of the float logits, above the bound %v + osc(Δz)/4 = %v", r, k, d, bound, bound+(hi-lo)/4)
			}
		}
		inputs = append(inputs, row.Data...)
		want = append(want, y...)
	}
	t.Logf("%d held-out rows, logits up to %.4g (quantization error up to %.4g): quant-error %s; against PyTorch %.4g; against the softmax of the quantized logits %.4g (bound %.4g); of the float logits %.4g",
		len(rows), peak, worstLogit, m[1], worstTorch, worstSoftmax, bound, worstTotal)
	if worstTorch > jetMaxError {
		t.Errorf("the quantized probabilities are %v from PyTorch's, want at most %v", worstTorch, jetMaxError)
	}
	if worstSoftmax > bound {
		t.Errorf("the lookup-table softmax is %v from the softmax of its logits, above its bound %v", worstSoftmax, bound)
	}
	if peak < 10 {
		t.Errorf("the logits reach only %v: the model no longer tests the softmax's range", peak)
	}

	p, _, err := alir.ReadFile(program, alir.FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(p.Ops); n < 1000 {
		t.Errorf("nn-to-circuit gives %d operations", n)
	}
	mc, err := alir.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := mc.Run(inputs, len(rows))
	if err != nil {
		t.Fatal(err)
	}
	if k := sameFloats(got, want); k >= 0 {
		t.Errorf("the circuit differs from the quantized evaluator at row %d, output %d", k/5, k%5)
	}
}

// batchOf reads an .npy batch of samples of the given shape.
func batchOf(t *testing.T, path string, shape []int64) []*tensor.Tensor {
	t.Helper()
	x := tensortest.Read(t, path)
	rows, err := tensor.SplitBatch(x, shape)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// sameFloats is the first index where got and want differ, or -1.
func sameFloats(got, want []float64) int {
	if len(got) != len(want) {
		return min(len(got), len(want))
	}
	for k := range want {
		if got[k] != want[k] {
			return k
		}
	}
	return -1
}
