package npy

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestNPZRoundTrip(t *testing.T) {
	z := &NPZ{Names: []string{"fc1.weight", "fc1.bias", "k"}, Arrays: map[string]*Array{
		"fc1.weight": {DType: Float64, Shape: []int{2, 3}, Floats: []float64{1, 2, 3, 4, 5, 6}},
		"fc1.bias":   {DType: Float32, Shape: []int{2}, Floats: []float64{0.5, -0.25}},
		"k":          {DType: Int64, Shape: []int{}, Ints: []int64{7}},
	}}
	var b bytes.Buffer
	if err := WriteNPZ(&b, z); err != nil {
		t.Fatal(err)
	}
	got, err := ReadNPZ(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Names, z.Names) {
		t.Fatalf("names %v, want %v", got.Names, z.Names)
	}
	for _, n := range z.Names {
		if !reflect.DeepEqual(got.Arrays[n].Float64s(), z.Arrays[n].Float64s()) || !reflect.DeepEqual(got.Arrays[n].Shape, z.Arrays[n].Shape) {
			t.Errorf("%s: got %+v, want %+v", n, got.Arrays[n], z.Arrays[n])
		}
	}
}

// TestNPZCompressed reads a deflated member, as numpy.savez_compressed
// writes it.
func TestNPZCompressed(t *testing.T) {
	var arr bytes.Buffer
	if err := Write(&arr, []int{3}, []float64{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, 9) })
	fw, _ := zw.CreateHeader(&zip.FileHeader{Name: "x.npy", Method: zip.Deflate})
	fw.Write(arr.Bytes())
	zw.Close()
	z, err := ReadNPZ(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if got := z.Arrays["x"].Float64s(); !reflect.DeepEqual(got, []float64{1, 2, 3}) {
		t.Fatalf("got %v", got)
	}
}

func TestNPZErrors(t *testing.T) {
	member := func(name string, data []byte) []byte {
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		fw, _ := zw.Create(name)
		fw.Write(data)
		zw.Close()
		return b.Bytes()
	}
	var arr bytes.Buffer
	Write(&arr, []int{1}, []float64{1})
	for _, c := range []struct {
		what string
		data []byte
		want string
	}{
		{"not zip", []byte("hello"), "not an .npz archive"},
		{"not npy name", member("x.txt", arr.Bytes()), `member "x.txt" is not an .npy array`},
		{"bad member", member("x.npy", []byte("junk")), `member "x.npy"`},
		{"truncated member", member("x.npy", arr.Bytes()[:arr.Len()-3]), `member "x.npy"`},
	} {
		_, err := ReadNPZ(bytes.NewReader(c.data), int64(len(c.data)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.what, err, c.want)
		}
	}
}

// FuzzReadNPZ: any bytes read as an .npz archive give an archive that
// writes back and reads back to the same arrays, or an error; never a panic
// or an allocation beyond what the archive can hold.
func FuzzReadNPZ(f *testing.F) {
	var b bytes.Buffer
	if err := WriteNPZ(&b, &NPZ{Names: []string{"w", "b/x"}, Arrays: map[string]*Array{
		"w":   {DType: DType{Kind: 'f', Size: 8}, Shape: []int{2, 2}, Floats: []float64{1, 2, 3, 4}},
		"b/x": {DType: DType{Kind: 'i', Size: 4}, Shape: []int{3}, Ints: []int64{-1, 0, 7}},
	}}); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add([]byte("PK\x05\x06" + string(make([]byte, 18))))
	f.Fuzz(func(t *testing.T, data []byte) {
		z, err := ReadNPZ(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		var w bytes.Buffer
		if err := WriteNPZ(&w, z); err != nil {
			t.Fatalf("cannot write back what was read: %v", err)
		}
		back, err := ReadNPZ(bytes.NewReader(w.Bytes()), int64(w.Len()))
		if err != nil {
			t.Fatalf("cannot read back what was written: %v", err)
		}
		if len(back.Names) != len(z.Names) {
			t.Fatalf("%d arrays read back, want %d", len(back.Names), len(z.Names))
		}
		for i, n := range z.Names {
			if back.Names[i] != n || back.Arrays[n].Len() != z.Arrays[n].Len() {
				t.Fatalf("array %q changed in a round trip", n)
			}
		}
	})
}
