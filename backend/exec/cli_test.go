package exec

import (
	"bytes"
	"errors"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

func TestNpyDtypes(t *testing.T) {
	cases := map[string]string{"i2": "i1", "i8": "i1", "i9": "i2", "i16": "i2", "i17": "i4", "i33": "i8", "i64": "i8",
		"u1": "b1", "u2": "u1", "u8": "u1", "u9": "u2", "u63": "u8", "u64": "u8",
		"f16": "f2", "bf16": "f4", "f32": "f4", "f64": "f8", "index": "i8"}
	for typ, want := range cases {
		if got, err := npyDtype(ty(t, typ)); err != nil || got != want {
			t.Errorf("dtype of %s = %q, %v; want %q", typ, got, err, want)
		}
	}
	if _, err := npyDtype(ty(t, "i65")); err == nil || !strings.Contains(err.Error(), "wider than 64 bits") {
		t.Errorf("i65: %v", err)
	}
}

// TestNpyRoundTrip writes and reads back each kind of buffer.
func TestNpyRoundTrip(t *testing.T) {
	u64max, _ := new(big.Int).SetString("18446744073709551615", 10)
	bufs := []*Buffer{
		ints(t, "2x3xi7", -64, -1, 0, 1, 63, 5),
		ints(t, "4xi9", -256, 255, 0, -1),
		ints(t, "3xi1", 1, 0, 1),
		bigs(t, "2xu64", "0", u64max.String()),
		ints(t, "2xi64", math.MinInt64, math.MaxInt64),
		floats(t, "3xf16", 0.1, -65504, math.Inf(1)),
		floats(t, "2xbf16", math.Pi, -1e30),
		floats(t, "2xf64", math.Pi, math.SmallestNonzeroFloat64),
		ints(t, "i32", 42),
	}
	for _, b := range bufs {
		var buf bytes.Buffer
		if err := WriteNpy(&buf, b); err != nil {
			t.Fatal(err)
		}
		if buf.Len()%64 != (b.Len()*elemSize(t, b.Elem))%64 {
			t.Errorf("%s: header not padded to 64 bytes", b.Elem)
		}
		back, err := ReadNpy(&buf, b.Elem)
		if err != nil {
			t.Fatalf("%s: %v", b.Elem, err)
		}
		if !back.Equal(b) {
			t.Errorf("%s: wrote %s, read %s", b.Elem, b, back)
		}
	}
}

func elemSize(t *testing.T, e ir.Type) int {
	code, err := npyDtype(e)
	if err != nil {
		t.Fatal(err)
	}
	return int(code[1] - '0')
}

// npyBytes builds a version 1.0 .npy file as NumPy writes it.
func npyBytes(header string, data ...byte) []byte {
	h := header + strings.Repeat(" ", 64-(10+len(header)+1)%64) + "\n"
	out := append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), byte(len(h)>>8))
	return append(append(out, h...), data...)
}

func TestReadNpyFormats(t *testing.T) {
	// Written by numpy.save(np.array([[1, 2], [3, 4]], dtype='>i2', order='F')).
	be := npyBytes("{'descr': '>i2', 'fortran_order': True, 'shape': (2, 2), }", 0, 1, 0, 3, 0, 2, 0, 4)
	b, err := ReadNpy(bytes.NewReader(be), ir.Int(16, true))
	if err != nil {
		t.Fatal(err)
	}
	wantInts(t, "big-endian Fortran order", b, 1, 2, 3, 4)

	errs := []struct {
		file []byte
		elem string
		msg  string
	}{
		{npyBytes("{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }", 1, 0, 0, 0), "i8", "holds int32 (dtype '<i4') but i8 elements are read from int8"},
		{npyBytes("{'descr': '|i1', 'fortran_order': False, 'shape': (2,), }", 1, 100), "i7", "element [1] = 100 is not a value of i7"},
		{npyBytes("{'descr': '|b1', 'fortran_order': False, 'shape': (1,), }", 2), "i1", "bool element holds 2"},
		{npyBytes("{'descr': '|i1', 'fortran_order': False, 'shape': (4,), }", 1, 2), "i8", "holds 2 bytes of data"},
		{npyBytes("{'descr': '<i8', 'fortran_order': False, 'shape': (1,), }", 0, 0, 0, 0, 0, 0, 0, 0), "i128", "wider than 64 bits"},
		{[]byte("PK\x03\x04 not npy at all"), "i8", "not a .npy file"},
	}
	for _, e := range errs {
		_, err := ReadNpy(bytes.NewReader(e.file), ty(t, e.elem))
		if err == nil || !strings.Contains(err.Error(), e.msg) {
			t.Errorf("%s: got %v, want %q", e.elem, err, e.msg)
		}
	}
}

// TestRunFile drives the otir-run layer: a literal argument, a .npy
// argument, an output directory and --print.
func TestRunFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "vadd.otir")
	if err := os.WriteFile(path, []byte(vaddSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	bvals := make([]int64, 64)
	for i := range bvals {
		bvals[i] = int64(i) - 10
	}
	var npy bytes.Buffer
	if err := WriteNpy(&npy, ints(t, "64xi8", bvals...)); err != nil {
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
	c, err := ReadNpy(f, ir.Int(9, true))
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
