package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/tensor"
)

// FuzzCommandLine runs otir-run in-process on combinations of flags and
// small inputs (kernels, ALIR programs, samples). Whatever the command
// line, otir-run must not panic, must exit 0, 1 or 2, and a usage error
// (2) is one line on stderr.
func FuzzCommandLine(f *testing.F) {
	dir := f.TempDir()
	for _, name := range []string{"small.otir", "small.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	small, _ := os.ReadFile(filepath.Join("testdata", "small.otir"))
	os.WriteFile(filepath.Join(dir, "k.mlir"), small, 0o644)
	os.WriteFile(filepath.Join(dir, "x.txt"), []byte("1 2 3\n4 5 6\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.txt"), []byte("1 2\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "cr.otir"), bytes.ReplaceAll(small, []byte("\n"), []byte("\r")), 0o644)
	os.WriteFile(filepath.Join(dir, "junk.bin"), []byte{0, 1, 2, 3, 4, 5, 6, 7}, 0o644)
	os.WriteFile(filepath.Join(dir, "big.otir"), []byte("otir.kernel @k(%a: !otir.tile<1048576x1048576xi8, #global>) attributes {grid = [1]} {\n  otir.return\n}\n"), 0o644)
	// An nn graph and batches of its argument (issue 28): [2, 1, 3], [0, 1, 3],
	// one sample [1, 3], and [2, 2], neither.
	os.WriteFile(filepath.Join(dir, "g.mlir"), []byte("nn.graph @g(%x: tensor<1x3xf64>) -> tensor<1x3xf64> {\n  %y = nn.relu %x : (tensor<1x3xf64>) -> tensor<1x3xf64>\n  nn.return %y : tensor<1x3xf64>\n}\n"), 0o644)
	for name, shape := range map[string][]int64{"b.npy": {2, 1, 3}, "e.npy": {0, 1, 3}, "s.npy": {1, 3}, "w.npy": {2, 2}} {
		tensor.WriteTensorFile(filepath.Join(dir, name), tensor.New(shape))
	}
	p := func(name string) string { return filepath.Join(dir, name) }
	// The vocabulary: each byte of the input picks one word.
	words := []string{
		"info", "convert", "--json", "--to", "json", "dais-v1", "alir-bytecode",
		p("small.otir"), p("small.json"), p("k.mlir"), p("cr.otir"), p("junk.bin"), p("big.otir"), p("missing.json"),
		"--input", "-i", p("x.txt"), p("bad.txt"), "-", "--output", "-o", p("out.txt"), p("out.npy"),
		"--format", "-f", "auto", "yaml", "--workers", "-j", "0", "1", "2", "-1", "--exact",
		"--kernel", "k", "nope", "--arg", "s=1", "a=[1, 2]", "a=[1]", "s=true", "a=1.5", "x", "s=", "=",
		"--out-dir", dir, "--print", "--check-races", "--max-steps", "--max-elements", "--max-input-bytes",
		"10", "1000000", "99999999999999999999", "--", "--help", "-h", "--bogus", "--arg=s=2",
		p("g.mlir"), p("b.npy"), p("e.npy"), p("s.npy"), p("w.npy"), "quant-error", "--all-values", p("vals"),
	}
	f.Add([]byte{7, 37, 38})         // small.otir --arg s=1
	f.Add([]byte{8, 14, 16})         // small.json --input x.txt
	f.Add([]byte{0, 8})              // info small.json
	f.Add([]byte{9, 37, 38, 52})     // k.mlir --arg s=1 --print
	f.Add([]byte{12})                // big.otir
	f.Add([]byte{7, 14, 16})         // kernel with --input
	f.Add([]byte{8, 14, 16, 37})     // ALIR with --arg
	f.Add([]byte{7, 37, 38, 37, 40}) // a=[1]
	f.Add([]byte{0, 60, 59, 8})      // info --max-input-bytes 10 small.json
	// Outputs over inputs, repeated flags, values out of range (issue 26).
	f.Add([]byte{8, 14, 16, 19, 16})         // small.json --input x.txt --output x.txt
	f.Add([]byte{1, 8, 8})                   // convert small.json small.json
	f.Add([]byte{8, 14, 16, 28, 30, 28, 31}) // -j 1 -j 2
	f.Add([]byte{8, 14, 16, 28, 32})         // -j -1
	f.Add([]byte{8, 33, 33})                 // --exact --exact
	// Batches of a graph (issue 28).
	f.Add([]byte{61, 14, 62})         // g.mlir --input b.npy
	f.Add([]byte{61, 14, 63, 67, 68}) // g.mlir --input e.npy --all-values vals
	f.Add([]byte{61, 14, 65, 28, 30}) // g.mlir --input w.npy -j 1
	f.Add([]byte{61, 14, 62, 14, 64}) // g.mlir --input b.npy --input s.npy
	f.Add([]byte{66, 61, 14, 62})     // quant-error g.mlir --input b.npy
	f.Add([]byte{8, 14, 62})          // small.json --input b.npy
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 12 {
			data = data[:12]
		}
		args := []string{"otir-run"}
		for _, b := range data {
			args = append(args, words[int(b)%len(words)])
		}
		// Files the command writes (convert's OUT, --output, --out-dir) land
		// in dir, not in the source tree.
		t.Chdir(dir)
		var out, errb bytes.Buffer
		code := mainCode(args, strings.NewReader("1 2 3\n"), &out, &errb)
		switch code {
		case 0, 1:
		case 2:
			if n := strings.Count(errb.String(), "\n"); n != 1 {
				t.Fatalf("%q: usage error of %d lines: %q", args, n, errb.String())
			}
		default:
			t.Fatalf("%q: exit code %d", args, code)
		}
		if strings.Contains(errb.String(), "internal error") || strings.Contains(errb.String(), "panic") {
			t.Fatalf("%q: %s", args, errb.String())
		}
	})
}
