package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/backend/tensor/tensortest"
)

const batchDir = "../../tests/nn/Inputs/batch"

// runOK runs otir-run and fails the test unless it exits 0; it returns
// stdout.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := mainCode(append([]string{"otir-run"}, args...), strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errb.String())
	}
	return out.String()
}

// TestRunGraphBatch: a batch's stacked outputs and --all-values are the
// per-sample runs' values, in sample order, on any number of workers; an
// empty batch writes [0, ...] arrays.
func TestRunGraphBatch(t *testing.T) {
	two, params := filepath.Join(batchDir, "two.mlir"), filepath.Join(batchDir, "params.npz")
	a, b := tensortest.Read(t, filepath.Join(batchDir, "a.npy")), tensortest.Read(t, filepath.Join(batchDir, "b.npy"))
	dir := t.TempDir()
	for _, j := range []string{"1", "2", "0"} {
		runOK(t, two, "--params", params, "--input", filepath.Join(batchDir, "a.npy"), "--input", filepath.Join(batchDir, "b.npy"),
			"-o", filepath.Join(dir, "sum"+j+".npy"), "-o", filepath.Join(dir, "relu"+j+".npy"), "--all-values", filepath.Join(dir, "all"+j), "-j", j)
	}
	for s := range 5 {
		one := func(x *tensor.Tensor, name string) string {
			size := len(x.Data) / 5
			p := filepath.Join(dir, name)
			tensor.WriteTensorFile(p, &tensor.Tensor{Shape: x.Shape[1:], Data: x.Data[s*size : (s+1)*size]})
			return p
		}
		sa, sb := one(a, "sample-a.npy"), one(b, "sample-b.npy")
		runOK(t, two, "--params", params, "--input", sa, "--input", sb, "-o", filepath.Join(dir, "s.npy"), "-o", filepath.Join(dir, "r.npy"), "--all-values", filepath.Join(dir, "one"))
		for _, j := range []string{"1", "2", "0"} {
			for _, f := range [][2]string{{"sum" + j + ".npy", "s.npy"}, {"relu" + j + ".npy", "r.npy"}, {"all" + j + "/lin.npy", "one/lin.npy"}, {"all" + j + "/a.npy", "one/a.npy"}} {
				got, want := tensortest.Read(t, filepath.Join(dir, f[0])), tensortest.Read(t, filepath.Join(dir, f[1]))
				if !slices.Equal(got.Shape, append([]int64{5}, want.Shape...)) {
					t.Fatalf("%s: shape %v, want [5]+%v", f[0], got.Shape, want.Shape)
				}
				size := len(want.Data)
				if !slices.Equal(got.Data[s*size:(s+1)*size], want.Data) {
					t.Errorf("%s sample %d: %v, the sample's own run %v", f[0], s, got.Data[s*size:(s+1)*size], want.Data)
				}
			}
		}
	}
	// N = 0: empty arrays of the outputs' and values' shapes.
	runOK(t, two, "--params", params, "--input", filepath.Join(batchDir, "empty-a.npy"), "--input", filepath.Join(batchDir, "empty-b.npy"),
		"-o", filepath.Join(dir, "e-sum.npy"), "-o", filepath.Join(dir, "e-relu.npy"), "--all-values", filepath.Join(dir, "e-all"))
	for f, want := range map[string][]int64{"e-sum.npy": {0, 1, 2}, "e-relu.npy": {0, 1, 3}, "e-all/lin.npy": {0, 1, 2}, "e-all/b.npy": {0, 1, 2}} {
		if got := tensortest.Read(t, filepath.Join(dir, f)); !slices.Equal(got.Shape, want) || len(got.Data) != 0 {
			t.Errorf("%s: shape %v, want %v", f, got.Shape, want)
		}
	}
}

// TestRunGraphBatchErrors: inputs that disagree, and batches beyond the
// evaluator's budgets, are input errors (exit 1) and write nothing.
func TestRunGraphBatchErrors(t *testing.T) {
	dir := t.TempDir()
	// 32x32 · 32x32: 32768 multiply-accumulates and 2049 values a sample.
	big := filepath.Join(dir, "big.mlir")
	os.WriteFile(big, []byte(`nn.graph @big(%x: tensor<1x1xf64>) -> tensor<32x32xf64> {
  %b = nn.broadcast_to %x : (tensor<1x1xf64>) -> tensor<32x32xf64>
  %m = nn.matmul %b, %b : (tensor<32x32xf64>, tensor<32x32xf64>) -> tensor<32x32xf64>
  nn.return %m : tensor<32x32xf64>
}
`), 0o644)
	batchOf := func(n int64) string {
		p := filepath.Join(dir, fmt.Sprintf("x%d.npy", n))
		tensor.WriteTensorFile(p, tensor.New([]int64{n, 1, 1}))
		return p
	}
	two, params := filepath.Join(batchDir, "two.mlir"), filepath.Join(batchDir, "params.npz")
	out := filepath.Join(dir, "y.npy")
	for _, c := range []struct {
		what string
		args []string
		want string
	}{
		{"disagree", []string{two, "--params", params, "--input", filepath.Join(batchDir, "a4.npy"), "--input", filepath.Join(batchDir, "b.npy")},
			"b.npy: error: input #1 (%b) is a batch of 5, but input #0 (%a) is a batch of 4"},
		{"mixed", []string{two, "--params", params, "--input", filepath.Join(batchDir, "a0.npy"), "--input", filepath.Join(batchDir, "b.npy")},
			"b.npy: error: input #1 (%b) is a batch of 5, but input #0 (%a) is one sample of the argument's shape"},
		{"rank", []string{two, "--params", params, "--input", filepath.Join(batchDir, "a.npy"), "--input", filepath.Join(batchDir, "a.npy")},
			"a.npy: error: input #1 (%b): shape [5, 1, 3] is neither the argument's [1, 2] nor a batch of it [N, 1, 2]"},
		{"work", []string{big, "--input", batchOf(131073), "-o", out},
			"big.mlir:1:1: error: 'nn.graph' op graph @big: a batch of 131073 samples takes 4295000064 multiply-accumulates (32768 a sample), more than the evaluator's budget of 4294967296; run it in smaller batches"},
		// Every value kept: 2049 a sample, 2^17 samples, 2^31 + 2^20 bytes.
		{"memory", []string{big, "--input", batchOf(131072), "--all-values", filepath.Join(dir, "all")},
			"error: 'nn.graph' op graph @big: a batch of 131072 samples holds 2149580800 bytes (its inputs, payload and results)"},
		{"too many", []string{big, "--input", batchOf(1<<20 + 1), "-o", out}, "x1048577.npy: error: input #0 (%x): 1048577 samples (at most 1048576)"},
	} {
		var stdout, errb bytes.Buffer
		code := mainCode(append([]string{"otir-run"}, c.args...), strings.NewReader(""), &stdout, &errb)
		if code != 1 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 and %q", c.what, code, errb.String(), c.want)
		}
		for _, p := range []string{out, filepath.Join(dir, "all")} {
			if _, err := os.Stat(p); err == nil {
				t.Errorf("%s: wrote %s", c.what, p)
			}
		}
	}
}
