package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/backend/npy"
)

// hostileFiles writes the inputs of TestHostile into a temporary directory.
func hostileFiles(t testing.TB) string {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	small, err := os.ReadFile("testdata/small.otir")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := os.ReadFile("testdata/small.json")
	if err != nil {
		t.Fatal(err)
	}
	write("small.otir", string(small))
	write("k.mlir", string(small))     // a kernel whatever its name
	write("kernel.txt", string(small)) // likewise
	write("p.json", string(prog))
	write("x.txt", "1 2 3\n")
	write("bad.txt", "1 2 3\n1 2 three\n")
	// The first value of the shape, at column 12, is a string.
	write("value.json", strings.Replace(string(prog), `{"model":[[3,`, `{"model":[["one",`, 1))
	write("big.otir", "otir.kernel @k(%a: !otir.tile<1048576x1048576xi8, #global>) attributes {grid = [1]} {\n  otir.return\n}\n")
	write("splat.otir", "otir.kernel @k(%a: !otir.tile<4096x4096xi8, #global>) attributes {grid = [1]} {\n  otir.return\n}\n")
	write("loop.otir", `otir.kernel @k(%a: !otir.tile<4xi8, #global>) attributes {grid = [1]} {
  %c0 = otir.constant 0 : index
  %c1 = otir.constant 1 : index
  %n = otir.constant 1000000000000 : index
  scf.for %i = %c0 to %n step %c1 {
  }
  otir.return
}
`)
	write("cr.otir", "// a comment\rotir.kernel @k(%a: !otir.tile<2xi8, #global>) attributes {grid = [1]} {\r  %c = otir.constant dense<[7, 8]> : !otir.tile<2xi8, #private>\r  otir.store %c, %a : !otir.tile<2xi8, #private>, !otir.tile<2xi8, #global>\r  otir.return\r}\r")
	write("version.json", strings.Replace(string(prog), `"spec_version":2`, `"spec_version":"2"`, 1))
	write("shift.json", strings.Replace(string(prog), `[0,0,0],[5,6],[0,0]`, `[0,0,0],[5,6],[2147483647,0]`, 1))
	// A gzip stream of 64 MB of spaces in a small file.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("{"))
	zw.Write(bytes.Repeat([]byte(" "), 64<<20))
	zw.Close()
	write("bomb.json.gz", gz.String())
	f, err := os.Create(filepath.Join(dir, "x3.npy"))
	if err != nil {
		t.Fatal(err)
	}
	if err := npy.Write(f, []int{1, 3, 1}, []float64{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var x222 bytes.Buffer
	if err := npy.Write(&x222, []int{2, 2, 2}, make([]float64, 8)); err != nil {
		t.Fatal(err)
	}
	write("x222.npy", x222.String())
	return dir
}

// TestHostile runs the cases of the issue on hostile and odd inputs: each is
// a one-line-first error with the documented exit code (1: the input, 2:
// the command line), or works.
func TestHostile(t *testing.T) {
	// --max-ops and --max-input-bytes set the reader's limits (globals).
	defer func(n int, b int64) { alir.MaxOps, alir.MaxInflated = n, b }(alir.MaxOps, alir.MaxInflated)
	dir := hostileFiles(t)
	p := func(name string) string { return filepath.Join(dir, name) }
	version, _ := os.ReadFile(p("version.json")) // one line
	versionCol := strconv.Itoa(bytes.Index(version, []byte(`"2"`)) + 1)
	cases := []struct {
		name string
		args []string
		code int
		want string // in stderr (or stdout when code is 0)
	}{
		{"tile beyond --max-elements", []string{p("big.otir")}, 1, "big.otir:1:16: error: argument of type !otir.tile<1048576x1048576xi8, #global> holds 1099511627776 elements, more than the limit of 67108864 (raise it with --max-elements)"},
		{"--max-elements lowered", []string{p("splat.otir"), "--max-elements", "1000"}, 1, "(raise it with --max-elements)"},
		{"loop beyond --max-steps", []string{p("loop.otir"), "--max-steps", "1000"}, 1, "loop.otir:5:3: error: 'scf.for' op the run exceeds its limit of 1000 steps (raise it with --max-steps)"},
		{"bad --max-steps", []string{p("loop.otir"), "--max-steps", "0"}, 2, "--max-steps must be at least 1, got 0"},
		{"kernel named .mlir", []string{p("k.mlir"), "--arg", "s=1", "--print"}, 0, "%a = dense<[1, 1]>"},
		{"kernel named .txt", []string{p("kernel.txt"), "--arg", "s=1", "--arg", "a=[1, 2]", "--print"}, 0, "%a = dense<[2, 3]>"},
		{"CR line endings", []string{p("cr.otir"), "--print"}, 0, "%a = dense<[7, 8]>"},
		{"--input for a kernel", []string{p("small.otir"), "--input", p("x.txt")}, 2, "--input does not apply to an OTIR kernel"},
		{"--kernel for ALIR", []string{p("p.json"), "--input", p("x.txt"), "--kernel", "k"}, 2, "--kernel does not apply to an ALIR/DAIS program"},
		{"--arg for ALIR", []string{p("p.json"), "--input", p("x.txt"), "--arg", "a=1"}, 2, "--arg does not apply"},
		{"bracketed list is not a splat", []string{p("small.otir"), "--arg", "s=1", "--arg", "a=[1]"}, 2, "argument a: the list has 1 value for 2 elements"},
		{"true is not a number", []string{p("small.otir"), "--arg", "s=true"}, 2, `argument s: "true" is a boolean, but the elements are i8`},
		{"unknown --arg", []string{p("small.otir"), "--arg", "zz=1"}, 2, `the kernel has no argument "zz"`},
		{"3-D npy samples", []string{p("p.json"), "--input", p("x3.npy")}, 0, "4 5"}, // [N, ...] of 3 values: an nn graph's batch
		{"3-D npy of other samples", []string{p("p.json"), "--input", p("x222.npy")}, 1, p("x222.npy") + ": error: array of shape [2 2 2] does not hold samples of 3 inputs (want (n, 3), (3,), or (n, ...) of 3 values a sample)"},
		{"ALIR runs", []string{p("p.json"), "--input", p("x.txt")}, 0, "4 5"},
		{"--input missing", []string{p("p.json")}, 2, "--input is required"},
		{"gzip bomb", []string{"info", "--max-input-bytes", "1000000", p("bomb.json.gz")}, 1, p("bomb.json.gz") + ": error: gzip: decompressed data exceeds the limit of 1000000 bytes (--max-input-bytes raises it)\n"},
		{"spec_version string", []string{"info", p("version.json")}, 1, p("version.json") + ":1:" + versionCol + `: error: json: spec_version "2" is not supported (want the number 2, 3 or 4)` + "\n"},
		{"huge output shift", []string{"info", p("shift.json")}, 1, p("shift.json") + ": error: output 0: shift 2147483647 out of range"},
		{"unknown flag", []string{p("small.otir"), "--bogus"}, 2, "otir-run: flag provided but not defined: -bogus (see --help)\n"},
		{"unknown flag of info", []string{"info", "--bogus", p("p.json")}, 2, "otir-run: flag provided but not defined: -bogus (see --help)\n"},
		{"bad --format", []string{p("p.json"), "--format", "yaml", "--input", p("x.txt")}, 2, "unknown format"},
		{"missing program", []string{p("nope.json"), "--input", p("x.txt")}, 1, p("nope.json") + ": error: cannot open the file: no such file or directory\n"},
		{"missing kernel", []string{p("nope.otir")}, 1, p("nope.otir") + ": error: cannot open the file: no such file or directory\n"},
		{"missing samples", []string{p("p.json"), "--input", p("nope.txt")}, 1, p("nope.txt") + ": error: cannot open the file: no such file or directory\n"},
		{"bad sample", []string{p("p.json"), "--input", p("bad.txt")}, 1, p("bad.txt") + `:2:5: error: bad number "three"` + "\n"},
		{"bad JSON value", []string{"info", p("value.json")}, 1, p("value.json") + `:1:12: error: json: model[0][0]: want an integer, got "one"` + "\n"},
		{"too many arguments", []string{"info", p("p.json"), p("p.json")}, 2, "want one program argument"},
		{"OTIR text to info", []string{"info", p("small.otir")}, 1, p("small.otir") + ": error: info takes an ALIR or DAIS program, and this file is OTIR text"},
		{"a program to quant-error", []string{"quant-error", p("p.json"), "--input", p("x.txt")}, 1, p("p.json") + ": error: this file is an ALIR or DAIS program, not OTIR text (a kernel or an nn graph)\n"},
		{"kernel beyond --max-input-bytes", []string{p("small.otir"), "--max-input-bytes", "10"}, 1, p("small.otir") + ": error: input is larger than 10 bytes (--max-input-bytes raises it)\n"},
		{"graph beyond --max-input-bytes", []string{"quant-error", p("small.otir"), "--input", p("x.txt"), "--max-input-bytes", "10"}, 1, p("small.otir") + ": error: input is larger than 10 bytes (--max-input-bytes raises it)\n"},
		{"program beyond --max-input-bytes", []string{"report", p("p.json"), "--max-input-bytes", "10"}, 1, p("p.json") + ": error: input is larger than 10 bytes (--max-input-bytes raises it)\n"},
		{"/dev/zero as a program", []string{"info", "/dev/zero", "--max-input-bytes", "100000"}, 1, "/dev/zero: error: input is larger than 100000 bytes (--max-input-bytes raises it)\n"},
		{"/dev/zero as a graph", []string{"quant-error", "/dev/zero", "--input", p("x.txt"), "--max-input-bytes", "100000"}, 1, "/dev/zero: error: input is larger than 100000 bytes (--max-input-bytes raises it)\n"},
		{"/dev/zero as samples", []string{p("p.json"), "--input", "/dev/zero", "--max-input-bytes", "100000"}, 1, "/dev/zero: error: input is larger than 100000 bytes (--max-input-bytes raises it)\n"},
		{"bad --max-input-bytes", []string{p("small.otir"), "--max-input-bytes", "0"}, 2, "--max-input-bytes must be at least 1, got 0"},
		{"beyond --max-ops", []string{"info", "--max-ops", "1", p("p.json")}, 1, ": error: json: model[5] holds more operations than the limit of 1 (--max-ops raises it)\n"},
		{"bad --max-ops", []string{"info", "--max-ops", "0", p("p.json")}, 2, "--max-ops must be at least 1, got 0"},
		{"within --max-ops", []string{"info", "--max-ops", "1000", p("p.json")}, 0, "operations"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := mainCode(append([]string{"otir-run"}, c.args...), strings.NewReader(""), &out, &errb)
			got := errb.String()
			if c.code == 0 {
				got = out.String()
			}
			if code != c.code || !strings.Contains(got, c.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, out.String(), errb.String(), c.code, c.want)
			}
			if c.code == 2 && strings.Count(errb.String(), "\n") != 1 {
				t.Errorf("a usage error is one line, got %q", errb.String())
			}
		})
	}
}
