package alir

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// conformanceDir is shared/conformance/alir beside the repository.
const conformanceDir = "../../../shared/conformance/alir"

var conformanceCases = []struct {
	dir, model string
	format     Format
}{
	{"alir-v2-mixed", "model.json.gz", FormatJSON},
	{"dais-v1-example", "model.bin", FormatDAIS},
	{"alkaid-cmvm64", "model-v2.json.gz", FormatJSON},
	{"alkaid-cmvm64", "model-v4.json.gz", FormatJSONV4},
	{"alkaid-mlp", "model-v4.json.gz", FormatJSONV4},
}

func readConformance(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(conformanceDir, dir, name))
	if os.IsNotExist(err) {
		t.Skipf("conformance data not found: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestConformance reproduces expected.txt byte for byte from inputs.txt,
// with the fast interpreter and with the exact reference evaluator.
func TestConformance(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.dir+"/"+c.model, func(t *testing.T) {
			model := readConformance(t, c.dir, c.model)
			inputs := readConformance(t, c.dir, "inputs.txt")
			want := readConformance(t, c.dir, "expected.txt")
			p, f, err := Decode(model, FormatAuto)
			if err != nil {
				t.Fatal(err)
			}
			if f != c.format {
				t.Errorf("detected format %v, want %v", f, c.format)
			}
			in, n, cols, err := ReadRows(bytes.NewReader(inputs))
			if err != nil {
				t.Fatal(err)
			}
			if cols != p.NumInputs() {
				t.Fatalf("inputs.txt has %d columns, program has %d inputs", cols, p.NumInputs())
			}
			m, err := Compile(p)
			if err != nil {
				t.Fatal(err)
			}
			if m.NumExact() != 0 {
				t.Errorf("%d operations on the exact path", m.NumExact())
			}
			if !m.narrow {
				t.Error("program does not run with int32 slots")
			}
			// Both slot storages, serial and parallel, and the inputs
			// repeated over several blocks.
			var many []float64
			var wantMany []byte
			for range 7 {
				many = append(many, in...)
				wantMany = append(wantMany, want...)
			}
			for _, narrow := range []bool{true, false} {
				m.narrow = narrow
				for _, workers := range []int{1, 2} {
					m.Workers = workers
					out, err := m.Run(in, n)
					if err != nil {
						t.Fatal(err)
					}
					compareText(t, "fast", out, p.NumOutputs(), want)
					out, err = m.Run(many, 7*n)
					if err != nil {
						t.Fatal(err)
					}
					compareText(t, "fast, repeated", out, p.NumOutputs(), wantMany)
				}
			}
			ref, err := RunExact(p, in, n)
			if err != nil {
				t.Fatal(err)
			}
			compareText(t, "exact", ref, p.NumOutputs(), want)
		})
	}
}

func compareText(t *testing.T, what string, out []float64, cols int, want []byte) {
	t.Helper()
	var b bytes.Buffer
	if err := WriteRows(&b, out, cols); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(b.Bytes(), want) {
		return
	}
	got := bytes.Split(b.Bytes(), []byte("\n"))
	exp := bytes.Split(want, []byte("\n"))
	for i := range min(len(got), len(exp)) {
		if !bytes.Equal(got[i], exp[i]) {
			t.Fatalf("%s: line %d differs:\n got  %s\n want %s", what, i+1, got[i], exp[i])
		}
	}
	t.Fatalf("%s: %d lines, want %d", what, len(got), len(exp))
}

// TestConformanceV4RoundTrips runs every conformance program through the
// spec 4 writers and back: v2 -> v4 -> v2 and v4 -> bytecode -> v4 keep
// expected.txt byte for byte (a spec-2 reader's view of a v4 program has
// its relative shifts rewritten, see ToSpec2).
func TestConformanceV4RoundTrips(t *testing.T) {
	type step struct {
		name string
		enc  func(*Program) ([]byte, error)
		dec  func([]byte) (*Program, error)
	}
	v2 := step{"v2 json", EncodeJSON, DecodeJSON}
	v4 := step{"v4 json", EncodeJSONV4, DecodeJSON}
	bc4 := step{"v4 bytecode", EncodeBytecodeV4, DecodeBytecodeV4}
	bc2 := step{"v2 bytecode", EncodeBytecode, DecodeBytecode}
	for _, c := range conformanceCases {
		t.Run(c.dir+"/"+c.model, func(t *testing.T) {
			model := readConformance(t, c.dir, c.model)
			inputs := readConformance(t, c.dir, "inputs.txt")
			want := readConformance(t, c.dir, "expected.txt")
			in, n, _, err := ReadRows(bytes.NewReader(inputs))
			if err != nil {
				t.Fatal(err)
			}
			p0, _, err := Decode(model, FormatAuto)
			if err != nil {
				t.Fatal(err)
			}
			for _, path := range [][]step{{v4, v2}, {v2, v4, v2}, {v4, bc4, v4}, {bc4, v4}, {bc2, bc4, v2}} {
				p, what := p0, c.model
				for _, s := range path {
					data, err := s.enc(p)
					if err != nil {
						t.Fatalf("%s -> %s: %v", what, s.name, err)
					}
					if p, err = s.dec(data); err != nil {
						t.Fatalf("%s -> %s: read back: %v", what, s.name, err)
					}
					what += " -> " + s.name
				}
				m, err := Compile(p)
				if err != nil {
					t.Fatal(err)
				}
				out, err := m.Run(in, n)
				if err != nil {
					t.Fatal(err)
				}
				compareText(t, what, out, p.NumOutputs(), want)
			}
		})
	}
}
