package exec

import (
	"bytes"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

func TestNpyDtypes(t *testing.T) {
	cases := map[string]string{"i2": "i1", "i8": "i1", "i9": "i2", "i16": "i2", "i17": "i4", "i33": "i8", "i64": "i8",
		"u1": "b1", "u2": "u1", "u8": "u1", "u9": "u2", "u63": "u8", "u64": "u8",
		"f16": "f2", "bf16": "f4", "f32": "f4", "f64": "f8", "index": "i8"}
	for typ, want := range cases {
		if got, err := NpyDtype(ty(t, typ)); err != nil || got != want {
			t.Errorf("dtype of %s = %q, %v; want %q", typ, got, err, want)
		}
	}
	if _, err := NpyDtype(ty(t, "i65")); err == nil || !strings.Contains(err.Error(), "wider than 64 bits") {
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
	code, err := NpyDtype(e)
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
