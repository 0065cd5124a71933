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

// typedCases holds one array of every dtype, with its extreme values.
func typedCases() []*Array {
	return []*Array{
		{DType: Bool, Shape: []int{2, 2}, Bools: []bool{true, false, false, true}},
		{DType: Int8, Shape: []int{3}, Ints: []int64{math.MinInt8, -1, math.MaxInt8}},
		{DType: Int16, Shape: []int{3}, Ints: []int64{math.MinInt16, 0, math.MaxInt16}},
		{DType: Int32, Shape: []int{3}, Ints: []int64{math.MinInt32, 7, math.MaxInt32}},
		{DType: Int64, Shape: []int{3}, Ints: []int64{math.MinInt64, 1<<53 + 1, math.MaxInt64}},
		{DType: Uint8, Shape: []int{2}, Uints: []uint64{0, math.MaxUint8}},
		{DType: Uint16, Shape: []int{2}, Uints: []uint64{1, math.MaxUint16}},
		{DType: Uint32, Shape: []int{2}, Uints: []uint64{2, math.MaxUint32}},
		{DType: Uint64, Shape: []int{2}, Uints: []uint64{1<<63 + 1, math.MaxUint64}},
		{DType: Float16, Shape: []int{6}, Floats: []float64{0.0999755859375, -65504, math.Inf(1), math.Ldexp(1, -24), math.Copysign(0, -1), 1}},
		{DType: Float32, Shape: []int{1, 3}, Floats: []float64{float64(float32(math.Pi)), math.MaxFloat32, math.SmallestNonzeroFloat32}},
		{DType: Float64, Shape: []int{}, Floats: []float64{math.SmallestNonzeroFloat64}},
		{DType: Int32, Shape: []int{0, 4}, Ints: []int64{}},
	}
}

func TestArrayRoundTrip(t *testing.T) {
	for _, a := range typedCases() {
		var b bytes.Buffer
		if err := WriteArray(&b, a); err != nil {
			t.Fatalf("%s: %v", a.DType, err)
		}
		out := b.Bytes()
		hlen := int(binary.LittleEndian.Uint16(out[8:]))
		if (10+hlen)%64 != 0 || out[9+hlen] != '\n' {
			t.Errorf("%s: header of %d bytes is not padded to 64", a.DType, hlen)
		}
		if h := string(out[10 : 10+hlen]); !strings.HasPrefix(h, "{'descr': '"+a.DType.Descr()+"', 'fortran_order': False, 'shape': "+shapeText(a.Shape)+", }") {
			t.Errorf("%s: header %q", a.DType, h)
		}
		if got, want := len(out)-10-hlen, a.Len()*a.DType.Size; got != want {
			t.Errorf("%s: %d data bytes, want %d", a.DType, got, want)
		}
		back, err := ReadArray(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("%s: %v", a.DType, err)
		}
		if !reflect.DeepEqual(back, a) {
			t.Errorf("%s: wrote %+v, read %+v", a.DType, a, back)
		}
		if a.DType == Float16 && !math.Signbit(back.Floats[4]) {
			t.Error("float16 -0 lost its sign")
		}
	}
}

func TestDTypeNames(t *testing.T) {
	want := map[DType]string{Bool: "bool|b1", Int8: "int8|i1", Int64: "int64<i8", Uint16: "uint16<u2", Float16: "float16<f2", Float64: "float64<f8"}
	for d, w := range want {
		if got := d.Name() + d.Descr(); got != w {
			t.Errorf("%s: %q, want %q", d, got, w)
		}
	}
}

// swap reverses each size-byte element of data.
func swap(data []byte, size int) []byte {
	out := append([]byte(nil), data...)
	for i := 0; i+size <= len(out); i += size {
		for j, k := i, i+size-1; j < k; j, k = j+1, k-1 {
			out[j], out[k] = out[k], out[j]
		}
	}
	return out
}

// TestBigEndianAndFortran reads every dtype written big-endian and in
// Fortran order, as numpy.save writes arrays of dtype '>..' and order='F'.
func TestBigEndianAndFortran(t *testing.T) {
	for _, a := range typedCases() {
		var b bytes.Buffer
		if err := WriteArray(&b, a); err != nil {
			t.Fatal(err)
		}
		little := b.Bytes()
		hlen := int(binary.LittleEndian.Uint16(little[8:]))
		data := little[10+hlen:]
		descr := ">" + a.DType.String()
		h := "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shapeText(a.Shape) + ", }\n"
		back, err := ReadArray(bytes.NewReader(file(h, swap(data, a.DType.Size))))
		if err != nil {
			t.Fatalf("%s: %v", descr, err)
		}
		if !back.BigEndian {
			t.Errorf("%s: BigEndian not set", descr)
		}
		back.BigEndian = false
		if !reflect.DeepEqual(back, a) {
			t.Errorf("%s: got %+v, want %+v", descr, back, a)
		}
	}
	// [[1, 2, 3], [4, 5, 6]] as int16 in Fortran (column-major) order.
	var col []byte
	for _, v := range []uint16{1, 4, 2, 5, 3, 6} {
		col = binary.BigEndian.AppendUint16(col, v)
	}
	a, err := ReadArray(bytes.NewReader(file("{'descr': '>i2', 'fortran_order': True, 'shape': (2, 3), }\n", col)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Ints, []int64{1, 2, 3, 4, 5, 6}) {
		t.Errorf("Fortran order read as %v", a.Ints)
	}
	// A 2x2x2 array: C element [i][j][k] is at Fortran offset i + 2j + 4k.
	f := make([]byte, 8)
	for i := 0; i < 2; i++ {
		for j := 0; j < 2; j++ {
			for k := 0; k < 2; k++ {
				f[i+2*j+4*k] = byte(100*i + 10*j + k)
			}
		}
	}
	a, err = ReadArray(bytes.NewReader(file("{'descr': '|u1', 'fortran_order': True, 'shape': (2, 2, 2), }\n", f)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Uints, []uint64{0, 1, 10, 11, 100, 101, 110, 111}) {
		t.Errorf("3-d Fortran order read as %v", a.Uints)
	}
}

func TestFormatVersions(t *testing.T) {
	h := "{'descr': '<i2', 'fortran_order': False, 'shape': (1,), }\n"
	for _, v := range []byte{2, 3} {
		var b bytes.Buffer
		b.WriteString(magic)
		b.Write([]byte{v, 0})
		binary.Write(&b, binary.LittleEndian, uint32(len(h)))
		b.WriteString(h)
		b.Write([]byte{0xfe, 0xff})
		a, err := ReadArray(&b)
		if err != nil || !reflect.DeepEqual(a.Ints, []int64{-2}) {
			t.Errorf("version %d.0: %+v, %v", v, a, err)
		}
	}
}

func TestFloat16(t *testing.T) {
	cases := []struct {
		x    float64
		bits uint16
	}{
		{0, 0}, {1, 0x3c00}, {-2, 0xc000}, {65504, 0x7bff}, {65519.99, 0x7bff}, {65520, 0x7c00},
		{math.Inf(-1), 0xfc00}, {math.NaN(), 0x7e00}, {math.Ldexp(1, -24), 1}, {math.Ldexp(1, -25), 0},
		{math.Ldexp(3, -26), 1}, {math.Ldexp(1023, -24), 0x3ff}, {math.Ldexp(2047, -25), 0x400},
		{1 + math.Ldexp(1, -11), 0x3c00}, {1 + math.Ldexp(3, -11), 0x3c02}, {2047.5, 0x6800},
		{0.1, 0x2e66},
	}
	for _, c := range cases {
		if got := Float16Bits(c.x); got != c.bits {
			t.Errorf("Float16Bits(%g) = %#04x, want %#04x", c.x, got, c.bits)
		}
	}
	// Every non-NaN half decodes and re-encodes to itself.
	for h := 0; h < 1<<16; h++ {
		x := Float16FromBits(uint16(h))
		if math.IsNaN(x) {
			if h&0x7c00 != 0x7c00 || h&0x3ff == 0 {
				t.Fatalf("%#04x decoded to NaN", h)
			}
			continue
		}
		if got := Float16Bits(x); got != uint16(h) {
			t.Fatalf("%#04x -> %g -> %#04x", h, x, got)
		}
	}
}

func TestWriteArrayErrors(t *testing.T) {
	cases := []struct {
		a    *Array
		want string
	}{
		{&Array{DType: DType{'c', 8}, Shape: []int{1}}, "unsupported dtype"},
		{&Array{DType: Bool, Shape: []int{1}, Bools: []bool{}}, "holds 1 values, got 0"},
		{&Array{DType: Int16, Shape: []int{2}, Floats: []float64{1, 2}}, "got 0 int16 values"},
		{&Array{DType: Int8, Shape: []int{1}, Ints: []int64{128}}, "does not fit int8"},
		{&Array{DType: Int32, Shape: []int{1}, Ints: []int64{math.MinInt32 - 1}}, "does not fit int32"},
		{&Array{DType: Uint16, Shape: []int{1}, Uints: []uint64{1 << 16}}, "does not fit uint16"},
		{&Array{DType: Float32, Shape: []int{-1}}, "negative dimension"},
	}
	for _, c := range cases {
		var b bytes.Buffer
		err := WriteArray(&b, c.a)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want an error containing %q", c.a, err, c.want)
		}
		if err != nil && b.Len() != 0 {
			t.Errorf("%+v: wrote %d bytes before failing", c.a, b.Len())
		}
	}
}

func TestFloat64s(t *testing.T) {
	a := &Array{DType: Uint64, Shape: []int{2}, Uints: []uint64{3, 1 << 63}}
	if got := a.Float64s(); !reflect.DeepEqual(got, []float64{3, math.Ldexp(1, 63)}) {
		t.Errorf("Float64s = %v", got)
	}
	var b bytes.Buffer
	if err := WriteArray(&b, &Array{DType: Bool, Shape: []int{2}, Bools: []bool{true, false}}); err != nil {
		t.Fatal(err)
	}
	f, err := Read(&b)
	if err != nil || !reflect.DeepEqual(f, &Float64Array{Shape: []int{2}, Data: []float64{1, 0}}) {
		t.Errorf("Read of bools: %+v, %v", f, err)
	}
}
