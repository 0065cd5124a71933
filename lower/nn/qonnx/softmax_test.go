package qonnx_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/lower/nn/qonnx"
	"github.com/otir-dev/otir/pipelines/nncircuit/circuittest"
)

// The lookup-table softmax: the circuit equals the quantized evaluator
// (backend/nneval on nn-absorb-quant's graph) bit for bit, and is within
// qonnx.SoftmaxBound of the float softmax of the exact logits.

// softmaxRef is the softmax of one row of logits in float64 (the maximum
// subtracted; its error, about 1e-16, is far below the bounds tested).
func softmaxRef(x []float64) []float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = max(m, v)
	}
	p := make([]float64, len(x))
	s := 0.0
	for i, v := range x {
		p[i] = math.Exp(v - m)
		s += p[i]
	}
	for i := range p {
		p[i] /= s
	}
	return p
}

// circuitRows runs the circuit of text on rows of inputs, checks each
// output against the quantized evaluator bit for bit and returns them.
func circuitRows(t *testing.T, text, options string, inputs [][]float64) [][]float64 {
	t.Helper()
	var flat []float64
	for _, row := range inputs {
		flat = append(flat, row...)
	}
	got := circuittest.Run(t, circuittest.Circuit(t, text, options), flat, len(inputs))
	q := nn.Graphs(circuittest.Lower(t, text, "builtin.module(nn-absorb-quant{"+options+"})"))[0]
	want := circuittest.Eval(t, q, nil, flat, len(inputs))
	if len(got) != len(want) {
		t.Fatalf("circuit: %d outputs, quantized evaluator %d", len(got), len(want))
	}
	nout := len(got) / len(inputs)
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("row %d output %d: circuit %v, quantized evaluator %v", k/nout, k%nout, got[k], want[k])
		}
	}
	rows := make([][]float64, len(inputs))
	for r := range rows {
		rows[r] = got[r*nout : (r+1)*nout]
	}
	return rows
}

// softmaxCheck checks the circuit of text on rows of inputs against the
// quantized evaluator and, within the bound for k classes at bits, the
// softmax of each k logits; it returns the largest error seen.
func softmaxCheck(t *testing.T, text, options string, inputs, logits [][]float64, k, bits int) float64 {
	t.Helper()
	bound := qonnx.SoftmaxBound(int64(k), bits)
	worst := 0.0
	for r, y := range circuitRows(t, text, options, inputs) {
		var ref []float64
		for c := 0; c < len(y); c += k {
			ref = append(ref, softmaxRef(logits[r][c:c+k])...)
		}
		for j := range y {
			d := math.Abs(y[j] - ref[j])
			if d > bound {
				t.Fatalf("row %d output %d: circuit %v, softmax %v of logits %v: error %g above the bound %g", r, j, y[j], ref[j], logits[r], d, bound)
			}
			worst = max(worst, d)
		}
	}
	return worst
}

// softmaxGraph is an input of the given shape quantized to 16-bit codes
// at 2^-8 (logits in [-128, 128)), then its softmax over the last axis.
func softmaxGraph(shape ...int) string { return softmaxAxisGraph(len(shape)-1, shape...) }

// softmaxAxisGraph is softmaxGraph over the given axis.
func softmaxAxisGraph(axis int, shape ...int) string {
	tt := "tensor<"
	for _, n := range shape {
		tt += fmt.Sprintf("%dx", n)
	}
	tt += "f64>"
	return fmt.Sprintf(`nn.graph @sm(%%x: %[1]s) -> %[1]s {
  %%q = nn.quant %%x {params = "q", bits = 16} : (%[1]s) -> %[1]s
  %%y = nn.softmax %%q {axis = %[2]d} : (%[1]s) -> %[1]s
  nn.return %%y : %[1]s
}
`, tt, axis)
}

// TestSoftmaxRandomLogits: logits of every size up to ±128 at 2^-8, near
// ties, one class far above the rest, ±35, for several K and N.
func TestSoftmaxRandomLogits(t *testing.T) {
	dir := t.TempDir()
	params := circuittest.WritePayload(t, dir, map[string]*tensor.Tensor{
		"q.scale":      {Shape: []int64{}, Data: []float64{1.0 / 256}},
		"q.zero_point": {Shape: []int64{}, Data: []float64{0}},
	})
	for _, k := range []int{1, 2, 5, 10} {
		for _, bits := range []int{6, 10, 12} {
			t.Run(fmt.Sprintf("K%d_N%d", k, bits), func(t *testing.T) {
				codes, logits := randomLogits(rand.New(rand.NewPCG(uint64(k), uint64(bits))), 400, k)
				worst := softmaxCheck(t, softmaxGraph(1, k), "params="+params+" softmax-bits="+strconv.Itoa(bits), codes, logits, k, bits)
				t.Logf("K=%d N=%d: max abs error %.6g, bound %.6g", k, bits, worst, qonnx.SoftmaxBound(int64(k), bits))
			})
		}
	}
}

// randomLogits are rows of k codes at 2^-8 and their logits: spreads from
// 0.01 to 127, ties, ±35.
func randomLogits(rng *rand.Rand, rows, k int) (codes, logits [][]float64) {
	for r := range rows {
		spread := []float64{0.01, 0.5, 2, 8, 35, 127}[r%6]
		row := make([]float64, k)
		base := (rng.Float64()*2 - 1) * (127 - spread)
		for j := range row {
			row[j] = math.Floor((base + (rng.Float64()*2-1)*spread) * 256)
			if r%7 == 0 && j > 0 {
				row[j] = row[0] // ties
			}
			if r%11 == 1 {
				row[j] = []float64{35, -35}[j%2] * 256
			}
		}
		codes = append(codes, row)
		lrow := make([]float64, k)
		for j, c := range row {
			lrow[j] = c / 256
		}
		logits = append(logits, lrow)
	}
	return codes, logits
}

// TestSoftmaxShapes: a softmax of a vector [K] and of a batch [3, K] (three
// rows, one run), at the default bits.
func TestSoftmaxShapes(t *testing.T) {
	params := circuittest.WritePayload(t, t.TempDir(), map[string]*tensor.Tensor{
		"q.scale":      {Shape: []int64{}, Data: []float64{1.0 / 256}},
		"q.zero_point": {Shape: []int64{}, Data: []float64{0}},
	})
	const k = 6
	codes, logits := randomLogits(rand.New(rand.NewPCG(6, 3)), 300, k)
	softmaxCheck(t, softmaxGraph(k), "params="+params, codes, logits, k, qonnx.DefaultSoftmaxBits)
	var bc, bl [][]float64
	for r := 0; r+3 <= len(codes); r += 3 {
		bc = append(bc, append(append(append([]float64{}, codes[r]...), codes[r+1]...), codes[r+2]...))
		bl = append(bl, append(append(append([]float64{}, logits[r]...), logits[r+1]...), logits[r+2]...))
	}
	softmaxCheck(t, softmaxGraph(3, k), "params="+params, bc, bl, k, qonnx.DefaultSoftmaxBits)
	// The same rows as the columns of [K, 3], a softmax over axis 0: the
	// axis permuted last and back, the same probabilities.
	want := circuitRows(t, softmaxGraph(3, k), "params="+params, bc)
	for r, y := range circuitRows(t, softmaxAxisGraph(0, k, 3), "params="+params, transposed(bc, 3, k)) {
		if got := transposed([][]float64{y}, k, 3)[0]; !slices.Equal(got, want[r]) {
			t.Fatalf("row %d: axis 0 gives %v, the last axis of the transpose %v", r, got, want[r])
		}
	}
}

// transposed is each row, an [n, m] matrix, transposed.
func transposed(rows [][]float64, n, m int) [][]float64 {
	out := make([][]float64, len(rows))
	for r, row := range rows {
		out[r] = make([]float64, len(row))
		for i := range n {
			for j := range m {
				out[r][j*n+i] = row[i*m+j]
			}
		}
	}
	return out
}

// TestSoftmaxThenQuant: a softmax that is not the last node: its
// probabilities quantized again (4 bits at 2^-4, ROUND) by the step forms,
// the circuit equal to the quantized evaluator bit for bit.
func TestSoftmaxThenQuant(t *testing.T) {
	params := circuittest.WritePayload(t, t.TempDir(), map[string]*tensor.Tensor{
		"q.scale":      {Shape: []int64{}, Data: []float64{1.0 / 256}},
		"q.zero_point": {Shape: []int64{}, Data: []float64{0}},
		"p.scale":      {Shape: []int64{}, Data: []float64{1.0 / 16}},
		"p.zero_point": {Shape: []int64{}, Data: []float64{0}},
	})
	text := strings.Replace(softmaxGraph(1, 5), "  nn.return %y", "  %p = nn.quant %y {params = \"p\", bits = 5, signed = false} : (tensor<1x5xf64>) -> tensor<1x5xf64>\n  nn.return %p", 1)
	codes, logits := randomLogits(rand.New(rand.NewPCG(5, 4)), 200, 5)
	for r, y := range circuitRows(t, text, "params="+params, codes) {
		ref := softmaxRef(logits[r])
		for j := range y {
			// ROUND to 2^-4 of a value within the bound of ref.
			if d := math.Abs(y[j] - ref[j]); d > 1.0/32+qonnx.SoftmaxBound(5, qonnx.DefaultSoftmaxBits) {
				t.Fatalf("row %d class %d: %v against softmax %v", r, j, y[j], ref[j])
			}
		}
	}
}

// TestSoftmaxQONNXMLP: the jet-tagger-like MLP of tests/nn/Inputs/qonnx-mlp
// with its final softmax, on its 64 inputs; expected.txt holds the exact
// logits (gen.py's exact model).
func TestSoftmaxQONNXMLP(t *testing.T) {
	const dir = "../../../tests/nn/Inputs/qonnx-mlp/"
	text, err := os.ReadFile(dir + "graph.mlir")
	if err != nil {
		t.Fatal(err)
	}
	inputs, logits := readRows(t, dir+"inputs.txt"), readRows(t, dir+"expected.txt")
	worst := softmaxCheck(t, string(text), "params="+dir+"params.npz input-type=fixed<16,6>", inputs, logits, 4, qonnx.DefaultSoftmaxBits)
	t.Logf("qonnx-mlp: max abs error %.6g, bound %.6g", worst, qonnx.SoftmaxBound(4, qonnx.DefaultSoftmaxBits))
}

func readRows(t *testing.T, path string) [][]float64 {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]float64
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var row []float64
		for _, f := range strings.Fields(line) {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatal(err)
			}
			row = append(row, v)
		}
		rows = append(rows, row)
	}
	return rows
}

// TestSoftmaxEmpty: a softmax of no elements is a constant of none.
func TestSoftmaxEmpty(t *testing.T) {
	params := circuittest.WritePayload(t, t.TempDir(), map[string]*tensor.Tensor{
		"q.scale":      {Shape: []int64{}, Data: []float64{1.0 / 256}},
		"q.zero_point": {Shape: []int64{}, Data: []float64{0}},
	})
	m := circuittest.Lower(t, softmaxGraph(2, 0), "builtin.module(nn-absorb-quant{params="+params+"})")
	if s := m.String(); strings.Contains(s, "nn.softmax") || !strings.Contains(s, "nn.const") {
		t.Fatalf("the softmax of no elements is not a constant:\n%s", s)
	}
}
