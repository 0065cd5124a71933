package npy

import (
	"bytes"
	"encoding/binary"
	"math"
	"reflect"
	"strings"
	"testing"
)

// file assembles a version 1.0 .npy file with header h and data.
func file(h string, data []byte) []byte {
	var b bytes.Buffer
	b.WriteString(magic)
	b.Write([]byte{1, 0})
	binary.Write(&b, binary.LittleEndian, uint16(len(h)))
	b.WriteString(h)
	b.Write(data)
	return b.Bytes()
}

func TestWriteMatchesNumPy(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, []int{2, 3}, []float64{0, 1, 2, 3, 4, 5}); err != nil {
		t.Fatal(err)
	}
	out := b.Bytes()
	// numpy.save(f, numpy.arange(6.0).reshape(2, 3)) writes a 128-byte
	// header: magic, version 1.0, length 118, the dict padded with spaces.
	want := "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }"
	if len(out) != 128+48 || string(out[10:10+len(want)]) != want || out[127] != '\n' || binary.LittleEndian.Uint16(out[8:]) != 118 {
		t.Fatalf("unexpected header %q", out[:128])
	}
	a, err := Read(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, &Float64Array{Shape: []int{2, 3}, Data: []float64{0, 1, 2, 3, 4, 5}}) {
		t.Fatalf("read back %+v", a)
	}
}

func TestRoundTrip(t *testing.T) {
	for _, c := range []struct {
		shape []int
		data  []float64
	}{
		{[]int{}, []float64{3.5}},
		{[]int{4}, []float64{1, -2, math.Inf(1), 0.1}},
		{[]int{0, 3}, []float64{}},
		{[]int{2, 2, 2}, []float64{1, 2, 3, 4, 5, 6, 7, 8}},
	} {
		var b bytes.Buffer
		if err := Write(&b, c.shape, c.data); err != nil {
			t.Fatal(err)
		}
		if b.Len()%64 != (8*len(c.data))%64 {
			t.Errorf("header of shape %v is not 64-byte aligned", c.shape)
		}
		a, err := Read(&b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.Shape, c.shape) || !reflect.DeepEqual(a.Data, c.data) {
			t.Errorf("shape %v: read back %+v", c.shape, a)
		}
	}
	if err := Write(&bytes.Buffer{}, []int{2}, []float64{1}); err == nil {
		t.Error("Write accepted a shape that does not match the data")
	}
}

func TestReadTypes(t *testing.T) {
	be := func(v ...int32) []byte {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			binary.BigEndian.PutUint32(b[4*i:], uint32(x))
		}
		return b
	}
	f4 := make([]byte, 8)
	binary.LittleEndian.PutUint32(f4, math.Float32bits(1.5))
	binary.LittleEndian.PutUint32(f4[4:], math.Float32bits(-0.25))
	cases := []struct {
		name, h string
		data    []byte
		want    *Float64Array
	}{
		{"big-endian int32", "{'descr': '>i4', 'fortran_order': False, 'shape': (3,), }", be(-1, 2, 1<<30), &Float64Array{[]int{3}, []float64{-1, 2, 1 << 30}}},
		{"fortran", "{'descr': '>i4', 'fortran_order': True, 'shape': (2, 3), }", be(1, 4, 2, 5, 3, 6), &Float64Array{[]int{2, 3}, []float64{1, 2, 3, 4, 5, 6}}},
		{"float32", "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", f4, &Float64Array{[]int{2}, []float64{1.5, -0.25}}},
		{"uint8", "{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }", []byte{255, 7}, &Float64Array{[]int{2}, []float64{255, 7}}},
		{"int8", "{'descr': '|i1', 'fortran_order': False, 'shape': (2,), }", []byte{255, 7}, &Float64Array{[]int{2}, []float64{-1, 7}}},
		{"bool", "{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", []byte{0, 1}, &Float64Array{[]int{2}, []float64{0, 1}}},
		{"key order", "{'shape': (1,), 'fortran_order': False, 'descr': '|u1'}", []byte{9}, &Float64Array{[]int{1}, []float64{9}}},
	}
	for _, c := range cases {
		a, err := Read(bytes.NewReader(file(c.h+"\n", c.data)))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !reflect.DeepEqual(a, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, a, c.want)
		}
	}
}

func TestReadErrors(t *testing.T) {
	h := "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\n"
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "too short"},
		{"magic", []byte("\x93NUMPZ\x01\x00\x00\x00"), "bad magic"},
		{"version", []byte("\x93NUMPY\x09\x00\x00\x00"), "version 9.0"},
		{"truncated header", file(h, nil)[:20], "truncated header"},
		{"truncated data", file(h, make([]byte, 15)), "truncated data"},
		{"trailing", file(h, make([]byte, 17)), "trailing"},
		{"dtype", file(strings.Replace(h, "<f8", "<c16", 1), make([]byte, 32)), "unsupported dtype"},
		{"string dtype", file(strings.Replace(h, "<f8", "<U3", 1), make([]byte, 24)), "unsupported dtype"},
		{"float128", file(strings.Replace(h, "<f8", "<f16", 1), make([]byte, 32)), "unsupported dtype"},
		{"bad bool", file(strings.Replace(h, "<f8", "|b1", 1), []byte{1, 7}), "bool element holds 7"},
		{"header not a dict", file("('descr', '<f8')\n", nil), "not a dictionary"},
		{"header length past the end", []byte("\x93NUMPY\x01\x00\xff\x00{'descr'"), "truncated header"},
		{"short length", []byte("\x93NUMPY\x02\x00\x10\x00"), "truncated header"},
		{"huge header", []byte("\x93NUMPY\x02\x00\xff\xff\xff\x7f"), "too long"},
		{"repeated key", file("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (1,), }\n", make([]byte, 8)), "repeated"},
		{"shape not a tuple", file("{'descr': '<f8', 'fortran_order': False, 'shape': [1], }\n", nil), "not a tuple"},
		{"unterminated shape", file("{'descr': '<f8', 'fortran_order': False, 'shape': (1, }\n", nil), "unterminated shape"},
		{"dimension text", file("{'descr': '<f8', 'fortran_order': False, 'shape': (x,), }\n", nil), "bad dimension"},
		{"fortran_order", file("{'descr': '<f8', 'fortran_order': 1, 'shape': (1,), }\n", nil), "not a boolean"},
		{"structured", file("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (1,), }\n", nil), "expected a string"},
		{"key", file("{'descr': '<f8', 'order': False, 'shape': (1,), }\n", nil), "unknown header key"},
		{"missing", file("{'descr': '<f8', 'shape': (1,), }\n", nil), "lacks"},
		{"dimension", file("{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }\n", nil), "bad dimension"},
		{"huge", file("{'descr': '<f8', 'fortran_order': False, 'shape': (100000, 100000), }\n", nil), "too large"},
	}
	for _, c := range cases {
		_, err := Read(bytes.NewReader(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

// FuzzRead checks that no input panics, that an accepted array is
// consistent with its shape, and that writing it and reading it back is
// stable.
func FuzzRead(f *testing.F) {
	var b bytes.Buffer
	Write(&b, []int{2, 2}, []float64{1, 2, 3, 4})
	f.Add(b.Bytes())
	f.Add(file("{'descr': '>i2', 'fortran_order': True, 'shape': (2, 1), }\n", []byte{0, 1, 0, 2}))
	f.Add(file("{'descr': '<f2', 'fortran_order': False, 'shape': (), }\n", []byte{0, 0x7e}))
	f.Add(file("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }\n", []byte{0, 1, 1}))
	f.Add(file("{'descr': '>u8', 'fortran_order': False, 'shape': (1, 1), }\n", []byte{255, 0, 0, 0, 0, 0, 0, 1}))
	f.Add([]byte("\x93NUMPY\x03\x00\x10\x00\x00\x00{'descr': '|i1'"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ReadArray(bytes.NewReader(data))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if a.values() != a.Len() {
			t.Fatalf("shape %v but %d values", a.Shape, a.values())
		}
		var w1, w2 bytes.Buffer
		if err := WriteArray(&w1, a); err != nil {
			t.Fatalf("cannot write back what was read: %v", err)
		}
		back, err := ReadArray(bytes.NewReader(w1.Bytes()))
		if err != nil {
			t.Fatalf("cannot read back what was written: %v", err)
		}
		if err := WriteArray(&w2, back); err != nil || !bytes.Equal(w1.Bytes(), w2.Bytes()) {
			t.Fatalf("write/read/write is not stable: %v", err)
		}
		fa, err := Read(bytes.NewReader(data))
		if err != nil || len(fa.Data) != a.Len() {
			t.Fatalf("Read disagrees with ReadArray: %v", err)
		}
	})
}
