package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/backend/tensor"
)

const golden = "../../tests/nn/Inputs/golden"

// graphInputs writes the inputs of a golden case as .npy files and returns
// them and the expected outputs (PyTorch's).
func graphInputs(t *testing.T, name string) (ins []string, outs []*tensor.Tensor) {
	t.Helper()
	z, err := npy.ReadNPZFile(filepath.Join(golden, name+".npz"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, k := range z.Names {
		if strings.HasPrefix(k, "in") {
			p := filepath.Join(dir, k+".npy")
			if err := tensor.WriteTensorFile(p, tensor.FromNPY(z.Arrays[k])); err != nil {
				t.Fatal(err)
			}
			ins = append(ins, p)
		} else {
			outs = append(outs, tensor.FromNPY(z.Arrays[k]))
		}
	}
	return ins, outs
}

func TestRunGraph(t *testing.T) {
	ins, want := graphInputs(t, "mlp")
	dir := t.TempDir()
	y, all := filepath.Join(dir, "y.npy"), filepath.Join(dir, "all")
	var out, errb bytes.Buffer
	args := []string{"otir-run", filepath.Join(golden, "mlp.mlir"), "--params", filepath.Join(golden, "mlp.params.npz"),
		"--input", ins[0], "--output", y, "--entry", "@mlp", "--all-values", all}
	if code := mainCode(args, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got, err := tensor.ReadTensorFile(y)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range want[0].Data {
		if math.Abs(got.Data[i]-w) > 1e-12+1e-12*math.Abs(w) {
			t.Errorf("element %d: got %v, PyTorch %v", i, got.Data[i], w)
		}
	}
	for _, v := range []string{"x0", "v0", "v1", "v2", "v3"} {
		if _, err := os.Stat(filepath.Join(all, v+".npy")); err != nil {
			t.Errorf("--all-values: %v", err)
		}
	}
	// Without --output, the outputs go to stdout as text.
	out.Reset()
	rand := filepath.Join(golden, "rand_uniform.mlir")
	x := filepath.Join(t.TempDir(), "x.npy")
	tensor.WriteTensorFile(x, &tensor.Tensor{Shape: []int64{2}, Data: []float64{0, 0}})
	if code := mainCode([]string{"otir-run", rand, "--input", x}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.HasPrefix(out.String(), "%v0 = [[") || !strings.Contains(out.String(), "] : tensor<5xf64>\n") {
		t.Errorf("stdout: %q", out.String())
	}
}

// TestRunGraphErrors: exit 1 for errors in the inputs (located at the node
// for payload entries), 2 for usage.
func TestRunGraphErrors(t *testing.T) {
	ins, _ := graphInputs(t, "mlp")
	mlp, params := filepath.Join(golden, "mlp.mlir"), filepath.Join(golden, "mlp.params.npz")
	wrong := filepath.Join(golden, "linear.params.npz")
	small := filepath.Join(t.TempDir(), "small.npy")
	tensor.WriteTensorFile(small, &tensor.Tensor{Shape: []int64{6}, Data: make([]float64, 6)})
	for _, c := range []struct {
		what string
		args []string
		code int
		want string
	}{
		{"missing key", []string{mlp, "--params", wrong, "--input", ins[0]}, 1,
			"mlp.mlir:2:3: error: 'nn.linear' op %v0: the payload has no entry 'fc1.weight'\n  %v0 = nn.linear"},
		{"no params", []string{mlp, "--input", ins[0]}, 1, "the payload has no entry 'fc1.weight' (no --params file was given)"},
		{"input shape", []string{mlp, "--params", params, "--input", small}, 1,
			"small.npy: error: input #0 (%x0): shape [6] is neither the argument's [4, 6] nor a batch of it [N, 4, 6]"},
		{"bad payload", []string{mlp, "--params", ins[0], "--input", ins[0]}, 1, "in0.npy: error: not an .npz archive"},
		{"no such input", []string{mlp, "--params", params, "--input", "nope.npy"}, 1, "nope.npy: error:"},
		{"two inputs", []string{mlp, "--params", params, "--input", ins[0], "--input", ins[0]}, 2,
			"graph @mlp takes 1 input, but 2 --input files were given"},
		{"two outputs", []string{mlp, "--params", params, "--input", ins[0], "-o", "a.npy", "-o", "b.npy"}, 2,
			"graph @mlp has 1 output, but 2 --output files were given"},
		{"no such entry", []string{mlp, "--params", params, "--input", ins[0], "--entry", "@other"}, 1, "has no graph @other (it has @mlp)"},
		{"kernel flag", []string{mlp, "--params", params, "--arg", "a=1"}, 2, "--arg does not apply to an nn graph"},
		{"alir flag", []string{mlp, "--params", params, "--exact"}, 2, "--exact does not apply to an nn graph"},
		{"graph flag on ALIR", []string{"testdata/small.json", "--input", ins[0], "--params", params}, 2, "--params does not apply to an ALIR/DAIS program"},
		{"graph flag on a kernel", []string{"testdata/small.otir", "--params", params}, 1, "small.otir: error: the file holds no nn graph"},
	} {
		var out, errb bytes.Buffer
		code := mainCode(append([]string{"otir-run"}, c.args...), strings.NewReader(""), &out, &errb)
		if code != c.code || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", c.what, code, errb.String(), c.code, c.want)
		}
	}
}
