package nneval

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/parse"
)

// goldenDir holds the PyTorch golden cases that tests/nn/Inputs/golden/gen.py
// writes: NAME.mlir, NAME.npz (inputs in0..., PyTorch's outputs out0...)
// and NAME.params.npz (the payload).
const goldenDir = "../../tests/nn/Inputs/golden"

// NNEVAL_EXACT=1 in the environment compares bit for bit, to see where
// PyTorch and the evaluator round differently.
//
// tolerance is the comparison of a case's kind: |got − want| ≤ tol +
// tol·|want|; 0 is bit-exact (NaN matches NaN, -0 matches +0). The kinds
// not listed are exact: shape kinds, copies, the random kinds and the
// correctly rounded IEEE operations (+, −, ·, 1/x, sqrt, abs, max, min).
// Sums differ from PyTorch's blocked orders in the last bits;
// transcendental functions differ between Go's math and glibc by an ulp or
// so.
var tolerance = map[string]float64{
	"tanh": 1e-15, "sin": 1e-15, "cos": 1e-15, "exp": 1e-15, "log": 1e-15, "sigmoid": 1e-15,
	"linear": 1e-12, "linear_batched": 1e-12, "matmul": 1e-12, "matmul_batched": 1e-12,
	"conv2d": 1e-12, "conv2d_batched": 1e-12, "conv2d_nopad": 1e-12,
	"avg_pool2d": 1e-12, "avg_pool2d_pad": 1e-12, "avg_pool2d_batched": 1e-12,
	"softmax": 1e-12, "layer_norm": 1e-12, "reduce_sum": 1e-12, "reduce_mean": 1e-12, "sum": 1e-12,
	"mse_loss": 1e-12, "mlp": 1e-12,
}

// kindsCovered: every node kind has at least one golden case whose name
// starts with the kind's (checked against the table). A kind of quantized
// graphs only (nn.requantize) has its case among the quantized ones
// (quantizedDir).
func TestGoldenCoversEveryKind(t *testing.T) {
	names := goldenCases(t)
	qs, _ := filepath.Glob(filepath.Join(quantizedDir, "*.mlir"))
	for _, m := range qs {
		if n := strings.TrimSuffix(filepath.Base(m), ".mlir"); nn.QuantRoleOf("nn."+n) == nn.QuantRequantize {
			names = append(names, n)
		}
	}
	for _, op := range ops.Names() {
		if ok, _ := Computes(op); !ok {
			continue
		}
		kind := strings.TrimPrefix(op, "nn.")
		found := false
		for _, n := range names {
			if n == kind || strings.HasPrefix(n, kind+"_") && !strings.HasPrefix(n, kind+"_pool") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s has no golden case in %s", op, goldenDir)
		}
	}
}

func goldenCases(t testing.TB) []string {
	t.Helper()
	ms, err := filepath.Glob(filepath.Join(goldenDir, "*.mlir"))
	if err != nil || len(ms) == 0 {
		t.Fatalf("no golden cases in %s: %v", goldenDir, err)
	}
	var names []string
	for _, m := range ms {
		names = append(names, strings.TrimSuffix(filepath.Base(m), ".mlir"))
	}
	sort.Strings(names)
	return names
}

func TestGolden(t *testing.T) {
	for _, name := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			g, io, ins, p := readCase(t, filepath.Join(goldenDir, name))
			res, err := Eval(g, ins, p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			tol := tolerance[name]
			if os.Getenv("NNEVAL_EXACT") != "" {
				tol = 0
			}
			forOutputs(t, res, io, func(i, k int, g, w float64) {
				if !close(g, w, tol) {
					t.Errorf("output #%d, element %d: got %v, PyTorch %v (difference %g, tolerance %g + %g·|want|)", i, k, g, w, math.Abs(g-w), tol, tol)
				}
			})
		})
	}
}

// forOutputs calls check on each element of each output with the case's
// expected value (out0, out1, ... of io), after checking the shapes.
func forOutputs(t *testing.T, res *Result, io *npy.NPZ, check func(output, element int, got, want float64)) {
	t.Helper()
	for i, got := range res.Outputs {
		a, ok := io.Arrays[fmt.Sprintf("out%d", i)]
		if !ok {
			t.Fatalf("no expected out%d", i)
		}
		want := tensor.FromNPY(a)
		if !slices.Equal(got.Shape, want.Shape) {
			t.Fatalf("output #%d: shape %v, expected %v", i, got.Shape, want.Shape)
		}
		for k, w := range want.Data {
			check(i, k, got.Data[k], w)
		}
	}
}

// readCase reads a generated case: the graph of base.mlir, base.npz (its
// inputs in0, in1, ... and expected outputs), and the payload
// base.params.npz (empty when absent).
func readCase(t testing.TB, base string) (*ir.Operation, *npy.NPZ, []*tensor.Tensor, tensor.Payload) {
	t.Helper()
	src, err := os.ReadFile(base + ".mlir")
	if err != nil {
		t.Fatal(err)
	}
	m, err := parse.Parse(base+".mlir", src, parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := FindGraph(m, "")
	if err != nil {
		t.Fatal(err)
	}
	io, err := npy.ReadNPZFile(base + ".npz")
	if err != nil {
		t.Fatal(err)
	}
	var ins []*tensor.Tensor
	for i := 0; ; i++ {
		a, ok := io.Arrays[fmt.Sprintf("in%d", i)]
		if !ok {
			break
		}
		ins = append(ins, tensor.FromNPY(a))
	}
	p := tensor.Payload{}
	if _, err := os.Stat(base + ".params.npz"); err == nil {
		if p, err = tensor.ReadPayloadFile(base + ".params.npz"); err != nil {
			t.Fatal(err)
		}
	}
	return g, io, ins, p
}

// close: g and w are equal within tol (absolute plus relative), NaN equals
// NaN, infinities must be equal.
func close(g, w, tol float64) bool {
	switch {
	case math.IsNaN(w) || math.IsNaN(g):
		return math.IsNaN(w) && math.IsNaN(g)
	case math.IsInf(w, 0) || math.IsInf(g, 0):
		return g == w
	}
	return math.Abs(g-w) <= tol+tol*math.Abs(w)
}
