package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const model = "../../tests/onnx/Inputs/mlp.onnx"

func translateCode(args ...string) (int, string) {
	var out, errb bytes.Buffer
	code := mainCode(append([]string{"otir-translate"}, args...), strings.NewReader(""), &out, &errb)
	return code, errb.String()
}

// Usage errors (exit 2): a flag given twice, outputs that are one file or
// the model; nothing is written.
func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	out, params := filepath.Join(dir, "g.mlir"), filepath.Join(dir, "p.npz")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--import-onnx", model, "-o", out, "-o", params}, "otir-translate: for the --output option: may only occur zero or one times! (given as '-o " + out + "' and '-o " + params + "')"},
		{[]string{"--import-onnx", model, "--params-out", params, "--params-out=" + out}, "for the --params-out option: may only occur zero or one times!"},
		{[]string{"--import-onnx", "--import-onnx", model}, "for the --import-onnx option: may only occur zero or one times!"},
		{[]string{"--import-onnx", model, "-o", out, "--params-out", out}, "otir-translate: the output --params-out and the output -o are the same file (" + out + "): give them different names"},
		{[]string{"--import-onnx", model, "-o", model, "--params-out", params}, "otir-translate: the output -o and the input MODEL are the same file"},
	}
	for _, tc := range tests {
		code, stderr := translateCode(tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused run wrote %d files", len(entries))
	}
}

// A run writes both files completely; a failing one leaves an existing
// output as it was.
func TestOutputsReplacedOnSuccessOnly(t *testing.T) {
	dir := t.TempDir()
	out, params := filepath.Join(dir, "g.mlir"), filepath.Join(dir, "p.npz")
	if code, stderr := translateCode("--import-onnx", model, "-o", out, "--params-out", params); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "nn.graph") {
		t.Fatalf("%s holds no graph", out)
	}
	os.WriteFile(out, []byte("old"), 0o644)
	bad := filepath.Join(dir, "bad.onnx")
	os.WriteFile(bad, []byte("not a model"), 0o644)
	if code, _ := translateCode("--import-onnx", bad, "-o", out, "--params-out", params); code != exitError {
		t.Fatalf("exit %d for a bad model", code)
	}
	if b, _ := os.ReadFile(out); string(b) != "old" {
		t.Errorf("a failed run changed %s to %q", out, b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("the folder holds %d files, want g.mlir, p.npz and bad.onnx", len(entries))
	}
}
