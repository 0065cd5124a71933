package nncircuit_test

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/backend/tensor/tensortest"
	"github.com/otir-dev/otir/pipelines/nncircuit/circuittest"
)

// TestLayerNormToCircuit: float graphs holding nn.layer_norm go through
// nn-to-circuit (calibration=): nn-quantize decomposes the layer norm with
// its epsilon an inline nn.const, and the circuit's outputs equal the
// quantized evaluator's bit for bit on every calibration sample, samples
// with constant rows (deviation 0) included. (Over the whole tensor, a
// constant sample would make calibration size inv for 1/sqrt(1e-5) ≈ 316,
// and 8 bits at that range floor every other sample's inverse deviation to
// 0: the constant sample is only in the case by rows.)
func TestLayerNormToCircuit(t *testing.T) {
	for _, c := range []struct {
		name, node, eps string
		constant        bool
	}{
		{"rows", `{axis = 1, epsilon = 6.25e-02}`, "dense<[0.0625]>", true},
		{"whole", `{axis = 0}`, "dense<[1.0e-05]>", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := `nn.graph @ln(%x: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = nn.layer_norm %x ` + c.node + ` : (tensor<3x4xf64>) -> tensor<3x4xf64>
  nn.return %0 : tensor<3x4xf64>
}`
			dir := t.TempDir()
			params := circuittest.WritePayload(t, dir, map[string]*tensor.Tensor{})
			rng := rand.New(rand.NewPCG(7, 11))
			const samples, n = 24, 12
			in := make([]float64, samples*n)
			for i := range in {
				in[i] = float64(rng.IntN(128)-64) / 16
			}
			for k := range n { // sample 0: constant rows; sample 1: one value throughout
				in[k] = float64(k/4) - 1.5
				if c.constant {
					in[n+k] = 0.75
				}
			}
			calib := filepath.Join(dir, "x.npy")
			tensortest.Write(t, calib, &tensor.Tensor{Shape: []int64{samples, 3, 4}, Data: in})
			opts := "calibration=" + calib + " params=" + params
			text := circuittest.Lower(t, src, "builtin.module(nn-quantize{"+opts+"})").String()
			if !strings.Contains(text, "nn.const {value = "+c.eps+" : tensor<1xf64>}") {
				t.Fatalf("no epsilon constant %s in the quantized graph:\n%s", c.eps, text)
			}
			want := circuittest.Eval(t, circuittest.Graph(t, text), tensor.Payload{}, in, samples)
			got := circuittest.Run(t, circuittest.Circuit(t, src, "params="+params+" calibration="+calib), in, samples)
			if k := sameBits(got, want); k >= 0 {
				t.Fatalf("output value %d (sample %d): circuit %v, evaluator %v\n%s", k, k/n, got[k], want[k], text)
			}
			nonzero := 0
			for _, v := range want[2*n:] {
				if v != 0 {
					nonzero++
				}
			}
			if nonzero < len(want[2*n:])/2 {
				t.Fatalf("only %d of %d normalized values are nonzero:\n%s", nonzero, len(want[2*n:]), text)
			}
			for k := range 2 * n { // a deviation of 0 normalizes to 0
				if c.constant && want[k] != 0 {
					t.Fatalf("constant rows: %v, %v; want zeros", want[:n], want[n:2*n])
				}
			}
		})
	}
}
