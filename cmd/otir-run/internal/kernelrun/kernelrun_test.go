package kernelrun

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/exec"
	"github.com/otir-dev/otir/ir"
)

// Test kernels (copies of backend/exec's test helpers).
const (
	i8x4  = "!otir.tile<4xi8, #global>"
	priv4 = "!otir.tile<4xi8, #private>"
)

// k4 wraps a body into a kernel of two 4xi8 #global arguments %a and %c.
// The body starts on line 2.
func k4(grid, body string) string {
	return fmt.Sprintf("otir.kernel @k(%%a: %s, %%c: %s) attributes {grid = [%s]} {\n%s  otir.return\n}\n", i8x4, i8x4, grid, body)
}

// ints makes an integer buffer of shape n and element type elem.
func ints(t testing.TB, n int64, elem ir.Type, vals ...int64) *exec.Buffer {
	t.Helper()
	b, err := exec.FromInts(elem, []int64{n}, vals...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRunFile drives the otir-run layer: a literal argument, a .npy
// argument, an output directory and --print.
func TestRunFile(t *testing.T) {
	dir := t.TempDir()
	path := "../../../../examples/vadd.otir" // the same kernel as backend/exec's vaddSrc
	bvals := make([]int64, 64)
	for i := range bvals {
		bvals[i] = int64(i) - 10
	}
	var npy bytes.Buffer
	if err := exec.WriteNpy(&npy, ints(t, 64, ir.Int(8, true), bvals...)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.npy"), npy.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	fr := FileRun{Path: path, Args: []string{"a=100", "b=" + filepath.Join(dir, "b.npy")}, OutDir: filepath.Join(dir, "out"), Print: true}
	if err := RunFile(fr, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if !strings.HasPrefix(out.String(), "%c = dense<[90, 91, 92, ") || !strings.HasSuffix(out.String(), "153]> : !otir.tile<64xi9, #global>\n") {
		t.Fatalf("printed %q", out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "a.npy")); err == nil {
		t.Fatal("a.npy written, but the kernel does not write %a")
	}
	f, err := os.Open(filepath.Join(dir, "out", "c.npy"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := exec.ReadNpy(f, ir.Int(9, true))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := c.Int64s(); got[63] != 153 {
		t.Fatalf("c.npy = %s", c)
	}

	bad := []struct {
		args []string
		msg  string
	}{
		{[]string{"x=1"}, `the kernel has no argument "x" (it has a, b, c)`},
		{[]string{"a=1", "a=2"}, "argument a is given twice"},
		{[]string{"a=[1, 2]"}, "argument a: the list has 2 values for 64 elements"},
		{[]string{"a=300"}, "argument a: 300 is not a value of i8"},
		{[]string{"a=" + filepath.Join(dir, "out", "c.npy")}, "c.npy: error: argument a: holds int16 (dtype '<i2') but i8 elements are read from int8"},
		{[]string{"a=" + filepath.Join(dir, "nope.npy")}, "nope.npy: error: argument a: cannot open the file: no such file or directory"},
		{[]string{"a"}, `argument "a" is not NAME=VALUE`},
	}
	for _, b := range bad {
		errOut.Reset()
		err := RunFile(FileRun{Path: path, Args: b.args}, &out, &errOut)
		// Errors about files are rendered ("file: error: ..."), others returned.
		got := errOut.String()
		if err != nil && err != ErrReported {
			got = err.Error()
		}
		if err == nil || !strings.Contains(got, b.msg) {
			t.Errorf("%v: got %v %q, want %q", b.args, err, got, b.msg)
		}
	}
}

// TestRunFileDiagnostics: a run error is rendered with its source line and
// caret, and RunFile returns ErrReported.
func TestRunFileDiagnostics(t *testing.T) {
	path := filepath.Join(t.TempDir(), "div.otir")
	src := k4("1", `  %v = otir.load %a : `+i8x4+` -> `+priv4+`
  %q = otir.div_u %v, %v : `+priv4+`
  otir.store %q, %c : `+priv4+`, `+i8x4+`
`)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	err := RunFile(FileRun{Path: path, Args: []string{"a=[1, 0, 2, 3]"}}, &out, &errOut)
	if !errors.Is(err, ErrReported) {
		t.Fatalf("got %v", err)
	}
	want := "div.otir:3:3: error: 'otir.div_u' op division by zero (element [1])\n  %q = otir.div_u %v, %v : !otir.tile<4xi8, #private>\n  ^\n"
	if !strings.HasSuffix(errOut.String(), want) {
		t.Fatalf("stderr:\n%s\nwant suffix:\n%s", errOut.String(), want)
	}
}
