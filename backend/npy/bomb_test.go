package npy

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"strconv"
	"strings"
	"testing"
	"time"
)

// deflatedZeros is a raw deflate stream (without its final block) of
// chunks·64 MiB of zeros, built from one compressed chunk repeated: each
// copy refers back only to zeros, so the copies make one valid stream. It
// compresses at deflate's ordinary ratio (about 800:1), so an honest
// archive holds it: nothing but the .npy header bounds its size.
func deflatedZeros(t *testing.T, fw *flate.Writer, out *bytes.Buffer, chunks int) {
	t.Helper()
	var chunk bytes.Buffer
	fw.Reset(&chunk)
	if _, err := fw.Write(make([]byte, 64<<20)); err != nil {
		t.Fatal(err)
	}
	if err := fw.Flush(); err != nil {
		t.Fatal(err)
	}
	for range chunks {
		out.Write(chunk.Bytes())
	}
}

// bombNPZ is an .npz archive of one member x.npy: a float64 .npy header
// declaring shape (elems,), followed by chunks·64 MiB of zeros, deflated.
// Its zip sizes and CRC-32 are the true ones.
func bombNPZ(t *testing.T, elems int, chunks int) []byte {
	t.Helper()
	var hdr bytes.Buffer
	if err := WriteArray(&hdr, &Array{DType: Float64, Shape: []int{0}}); err != nil {
		t.Fatal(err)
	}
	head := strings.Replace(hdr.String(), "(0,)", "("+strconv.Itoa(elems)+",)", 1)
	head = strings.Replace(head, strings.Repeat(" ", len(head)-hdr.Len())+"\n", "\n", 1) // keep the padded length
	var body bytes.Buffer
	fw, _ := flate.NewWriter(&body, flate.BestSpeed)
	fw.Write([]byte(head))
	fw.Flush()
	deflatedZeros(t, fw, &body, chunks)
	fw.Reset(&body)
	fw.Close() // the final (empty) block
	size := int64(len(head)) + int64(chunks)<<26
	crc := crc32.Update(0, crc32.IEEETable, []byte(head))
	zeros := make([]byte, 1<<20)
	for range int64(chunks) << 6 {
		crc = crc32.Update(crc, crc32.IEEETable, zeros)
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "x.npy", Method: zip.Deflate, CRC32: crc,
		CompressedSize64: uint64(body.Len()), UncompressedSize64: uint64(size)})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(body.Bytes())
	zw.Close()
	return b.Bytes()
}

// TestNPZBomb: a member that inflates to 4 GiB at deflate's ordinary ratio
// is refused after its header (when the header declares 4 GiB, beyond the
// archive's limit) or after the data its header declares (trailing data),
// within a second, never inflated.
func TestNPZBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 5 MB archive")
	}
	for _, c := range []struct {
		what  string
		elems int
		want  string
	}{
		{"header declares 4 GiB", 1 << 29, `member "x.npy": npy: shape (536870912,) of float64 needs 8589934592 bytes, which exceeds the memory limit of 1073741824 bytes for the archive's arrays together`},
		{"header declares 16 elements", 16, `member "x.npy": npy: trailing bytes after the 128 bytes of data its shape (16,) needs`},
	} {
		data := bombNPZ(t, c.elems, 64) // 4 GiB of zeros
		start := time.Now()
		_, err := ReadNPZ(bytes.NewReader(data), int64(len(data)))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v, want %s", c.what, err, c.want)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: took %v to refuse a %d-byte archive", c.what, d, len(data))
		}
	}
}

// TestNPZTotalLimit: the arrays of an archive take at most the limit
// together; the member that would exceed it is named.
func TestNPZTotalLimit(t *testing.T) {
	z := &NPZ{Names: []string{"a", "b"}, Arrays: map[string]*Array{
		"a": {DType: Float32, Shape: []int{100}, Floats: make([]float64, 100)},
		"b": {DType: Float32, Shape: []int{100}, Floats: make([]float64, 100)},
	}}
	var b bytes.Buffer
	if err := WriteNPZ(&b, z); err != nil {
		t.Fatal(err)
	}
	r := bytes.NewReader(b.Bytes())
	if _, err := ReadNPZLimit(r, int64(b.Len()), 2*(100*12+128)); err != nil {
		t.Fatalf("within the limit: %v", err)
	}
	_, err := ReadNPZLimit(r, int64(b.Len()), 2*100*12)
	want := `member "b.npy": npy: shape (100,) of float32 needs 1200 bytes, which exceeds the memory limit of 2400 bytes for the archive's arrays together`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}
