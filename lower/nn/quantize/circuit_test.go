package quantize_test

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/backend/tensor/tensortest"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/lower/nn/qonnx"
	"github.com/otir-dev/otir/pipelines/nncircuit/circuittest"
)

// The tests below run graphs through nn-quantize and nn-to-circuit: the
// circuit equals the quantized evaluator bit for bit, and the quantized
// results stand in the stated relation to the exact ones.

// saturateSrc doubles its input: calibrated on [-1, 1], the result's type
// holds [-2, 2) (headroom-bits=0), and inputs up to ±1.99 (%x typed
// wider by a quant.json) leave it on both sides.
const saturateSrc = `nn.graph @g(%x: tensor<8xf64>) -> tensor<8xf64> {
  %y = nn.add %x, %x : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xf64>
  nn.return %y : tensor<8xf64>
}`

// TestSaturateIsQuant: nn-quantize's overflow=saturate with round=floor or
// nearest computes QONNX's Quant (nn.QuantSpec, the scalar rule nn.quant's
// evaluation uses) of the exact result, with the result type's bits,
// signedness and scale, rounding FLOOR or ROUND (half to even): in the
// quantized evaluator and, bit for bit, in nn-to-circuit's program. With
// overflow=wrap the out-of-range results wrap instead (some differ).
func TestSaturateIsQuant(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(28, 4))
	calib := make([]float64, 16*8)
	for i := range calib {
		calib[i] = rng.Float64()*2 - 1
	}
	calib[0], calib[1] = -1, 0.99
	calibPath := filepath.Join(dir, "calib.npy")
	tensortest.Write(t, calibPath, &tensor.Tensor{Shape: []int64{16, 8}, Data: calib})
	qjson := filepath.Join(dir, "q.json")
	if err := os.WriteFile(qjson, []byte(`{"tensors": {"%x": {"kif": [1, 1, 8]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	const samples = 64
	in := make([]float64, samples*8)
	for i := range in {
		in[i] = math.Floor((rng.Float64()*3.98-1.99)*256) / 256 // on %x's grid, in its range
	}
	for _, c := range []struct {
		opts     string
		rounding string // the Quant's rounding mode
		quantOf  bool   // the outputs are QONNX's Quant of the exact sum
	}{
		{"round=floor", "FLOOR", true},
		{"round=nearest", "ROUND", true},
		{"overflow=wrap", "FLOOR", false},
	} {
		options := "quant=" + qjson + " calibration=" + calibPath + " act-bits=6 headroom-bits=0 " + c.opts
		if c.opts != "overflow=wrap" {
			options += " overflow=saturate"
		}
		q := circuittest.Lower(t, saturateSrc, "builtin.module(nn-quantize{"+options+"})")
		g := nn.Graphs(q)[0]
		yt := quant.ElementOf(g.Body(0).Terminator().Operands[0].Type)
		spec := nn.QuantSpec{Bits: int64(yt.Width), Signed: yt.Signed, Rounding: c.rounding}
		scale := math.Ldexp(1, -yt.Frac)
		circuit := circuittest.Run(t, circuittest.Circuit(t, saturateSrc, options), in, samples)
		differ := 0
		for k, got := range circuittest.Eval(t, g, nil, in, samples) { // element k%8 of sample k/8
			if circuit[k] != got {
				t.Fatalf("%s: sample %d, element %d: circuit %v, quantized evaluator %v", c.opts, k/8, k%8, circuit[k], got)
			}
			want := spec.QuantValue(2*in[k], scale, 0)
			if got != want {
				differ++
				if c.quantOf {
					t.Fatalf("%s (%v): 2·%v gives %v, QONNX's Quant %v", c.opts, yt, in[k], got, want)
				}
			}
		}
		if !c.quantOf && differ == 0 {
			t.Errorf("%s: no result wrapped: the inputs do not leave the type's range", c.opts)
		}
	}
}

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
	tensortest.Write(t, calib, &tensor.Tensor{Shape: []int64{samples, 3, 4}, Data: data})
	qjson := filepath.Join(dir, "q.json")
	if err := os.WriteFile(qjson, []byte(`{"tensors": {"%x": {"kif": [1, 5, 6]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	float := circuittest.Graph(t, softmaxSrc) // the float evaluator's softmax: the reference
	ref := circuittest.Eval(t, float, nil, data, samples)
	for _, bits := range []string{"6", "10"} {
		n := map[string]int{"6": 6, "10": 10}[bits]
		options := "quant=" + qjson + " calibration=" + calib + " softmax-bits=" + bits
		q := circuittest.Lower(t, softmaxSrc, "builtin.module(nn-quantize{"+options+"})")
		g := nn.Graphs(q)[0]
		want := quant.Uniform(n+1, false, n)
		for i, r := range g.Body(0).Terminator().Operands {
			if got := quant.ElementOf(r.Type); got != want {
				t.Errorf("softmax-bits=%s: output #%d has type %v, want %v", bits, i, got, want)
			}
		}
		circuit := circuittest.Run(t, circuittest.Circuit(t, softmaxSrc, options), data, samples)
		y := circuittest.Eval(t, g, nil, data, samples) // each sample's 24: its two outputs, 12 each
		for k, v := range circuit {
			if v != y[k] {
				t.Fatalf("softmax-bits=%s, sample %d, output %d: circuit %v, quantized evaluator %v", bits, k/24, k%24, v, y[k])
			}
		}
		bound := map[int64]float64{3: qonnx.SoftmaxBound(3, n), 4: qonnx.SoftmaxBound(4, n)}
		classes := []int64{3, 4} // of each output
		worst := 0.0
		for k, p := range ref {
			s, o, e := k/24, k%24/12, k%12
			d := math.Abs(y[k] - p)
			worst = max(worst, d)
			if d > bound[classes[o]] {
				t.Fatalf("softmax-bits=%s, sample %d, output %d, element %d: %v, the softmax %v: error %v above the bound %v", bits, s, o, e, y[k], p, d, bound[classes[o]])
			}
		}
		t.Logf("softmax-bits=%s: max abs error %.4g (bounds %.4g for K=3, %.4g for K=4)", bits, worst, bound[3], bound[4])
	}
}
