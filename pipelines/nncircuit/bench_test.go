package nncircuit_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
	"github.com/otir-dev/otir/parse"
	"github.com/otir-dev/otir/passes/passtest"
	"github.com/otir-dev/otir/passes/verify"
	"github.com/otir-dev/otir/pipelines/nncircuit/circuittest"
)

// cnnGraph is a quantized CNN on an h×h image: conv2d 3×3 (1 → c channels,
// padding 1), relu to u6, max_pool2d 2×2, flatten, linear to 10; weights
// and biases on the 2^-3 grid (deterministic), so the payload is exact.
func cnnGraph(h, c int) (string, map[string]*tensor.Tensor) {
	rng := rand.New(rand.NewPCG(uint64(h), uint64(c)))
	grid := func(shape ...int64) *tensor.Tensor {
		n := int64(1)
		for _, d := range shape {
			n *= d
		}
		t := &tensor.Tensor{Shape: shape, Data: make([]float64, n)}
		for i := range t.Data {
			t.Data[i] = float64(rng.IntN(16)-8) / 8
		}
		return t
	}
	p, f := h/2, c*(h/2)*(h/2)
	payload := map[string]*tensor.Tensor{
		"c1.weight": grid(int64(c), 1, 3, 3), "c1.bias": grid(int64(c)),
		"fc.weight": grid(10, int64(f)), "fc.bias": grid(10),
	}
	q, u := "!quant.uniform<i8:f64, 0.0625>", "!quant.uniform<u6:f64, 0.125>"
	text := fmt.Sprintf(`nn.graph @cnn(%%x: tensor<1x1x%[1]dx%[1]dx%[3]s>) -> tensor<1x10xf64> {
  %%0 = nn.conv2d %%x {params = "c1", kernel = [3, 3], stride = 1, padding = 1} : (tensor<1x1x%[1]dx%[1]dx%[3]s>) -> tensor<1x%[2]dx%[1]dx%[1]dxf64>
  %%1 = nn.relu %%0 : (tensor<1x%[2]dx%[1]dx%[1]dxf64>) -> tensor<1x%[2]dx%[1]dx%[1]dx%[4]s>
  %%2 = nn.max_pool2d %%1 {kernel = [2, 2], stride = 2, padding = 0} : (tensor<1x%[2]dx%[1]dx%[1]dx%[4]s>) -> tensor<1x%[2]dx%[5]dx%[5]dx%[4]s>
  %%3 = nn.reshape %%2 : (tensor<1x%[2]dx%[5]dx%[5]dx%[4]s>) -> tensor<1x%[6]dx%[4]s>
  %%4 = nn.linear %%3 {params = "fc"} : (tensor<1x%[6]dx%[4]s>) -> tensor<1x10xf64>
  nn.return %%4 : tensor<1x10xf64>
}
`, h, c, q, u, p, f)
	return text, payload
}

// BenchmarkCNNToCircuit measures nn-to-circuit (parse excluded) on the
// quantized CNN as the image grows: the scalar operations grow 4× per
// step, and so should the time (BENCHMARKS.md):
//
//	go test ./lower/nn/kernels -run '^$' -bench CNNToCircuit -benchmem
func BenchmarkCNNToCircuit(b *testing.B) {
	for _, h := range []int{8, 16, 32} {
		text, payload := cnnGraph(h, 4)
		params := circuittest.WritePayload(b, b.TempDir(), payload)
		b.Run(fmt.Sprintf("h=%d", h), func(b *testing.B) {
			ops := 0
			for b.Loop() {
				b.StopTimer()
				m, err := parse.ParseString("cnn.mlir", text, parse.Options{})
				if err != nil || verify.Verify(m).HasErrors() {
					b.Fatalf("%v\n%s", err, text)
				}
				b.StartTimer()
				passtest.MustRun(b, m, "builtin.module(nn-to-circuit{params="+params+"})", text)
				b.StopTimer()
				ops = countOps(b, m)
				b.StartTimer()
			}
			b.ReportMetric(float64(ops), "ops")
		})
	}
}

// countOps is the number of operations of the module's one ALIR program.
func countOps(b *testing.B, m *ir.Module) int {
	progs := dais.Programs(m)
	if len(progs) != 1 {
		b.Fatalf("%d programs", len(progs))
	}
	p, err := dais.ProgramOf(progs[0])
	if err != nil {
		b.Fatal(err)
	}
	return len(p.Ops)
}
