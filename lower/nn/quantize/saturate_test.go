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
	"github.com/otir-dev/otir/pipelines/nncircuit/circuittest"
)

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
