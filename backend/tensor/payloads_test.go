package tensor

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/npy"
)

// Payloads reads each file once: a second Read of the same file (or of
// Default through "") gives the same payload even after the file is gone,
// no file at all is an empty payload, and an unreadable file's error names
// it.
func TestPayloadsReadEachFileOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.npz")
	var b bytes.Buffer
	a := &npy.Array{DType: npy.Float64, Shape: []int{2}, Floats: []float64{1, 2}}
	if err := npy.WriteNPZ(&b, &npy.NPZ{Names: []string{"w"}, Arrays: map[string]*npy.Array{"w": a}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ps := &Payloads{Default: path}
	p1, err := ps.Read("")
	if err != nil || len(p1["w"].Data) != 2 {
		t.Fatalf("Read(\"\") = %v, %v", p1, err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	p2, err := ps.Read(path)
	if err != nil || p2["w"] != p1["w"] {
		t.Errorf("a second Read of %s read again: %v, %v", path, p2, err)
	}
	if p, err := NewPayloads().Read(""); err != nil || len(p) != 0 {
		t.Errorf("no file: %v, %v; want an empty payload", p, err)
	}
	if _, err := ps.Read(filepath.Join(dir, "missing.npz")); err == nil || !strings.Contains(err.Error(), "reading the payload "+dir) {
		t.Errorf("a missing file: %v", err)
	}
}

// TestWritePayloadFile: a payload written is read back the same.
func TestWritePayloadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.npz")
	want := Payload{"fc.weight": {Shape: []int64{2, 2}, Data: []float64{1, -2, 0.5, 3}}, "fc.bias": {Shape: []int64{2}, Data: []float64{0, 7}}}
	if err := WritePayloadFile(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadPayloadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back %v, want %v", got, want)
	}
}
