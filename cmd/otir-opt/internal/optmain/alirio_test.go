package optmain

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/internal/readlimit"
	"github.com/otir-dev/otir/lower/dais"
)

// writeProgram writes a small ALIR program (y = 2*x0 - x1, and a zero
// output) to dir/name in the format the name selects.
func writeProgram(t *testing.T, dir, name string) *alir.Program {
	t.Helper()
	b := alir.NewBuilder(alir.ALIR, 2)
	q := alir.QInterval{Min: -8, Max: 7, Step: 1}
	x0, x1 := b.Input(0, q), b.Input(1, q)
	y := b.Sub(x1, x0, 1, alir.AddQInt(q, q, 1, true))
	b.Output(y, 0, true)
	b.Output(-1, 0, false)
	p, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if err := alir.WriteFile(filepath.Join(dir, name), p, alir.FormatAuto); err != nil {
		t.Fatal(err)
	}
	return p
}

// --import-alir prints the program as dais text; --emit writes it back.
func TestImportAndEmit(t *testing.T) {
	dir := t.TempDir()
	want := writeProgram(t, dir, "prog.json")
	writeProgram(t, dir, "prog.bc")
	const text = `module {
  "dais.program"() ({
    %0 = "dais.input"() {index = 0} : () -> !dais.q<-8, 7, 1>
    %1 = "dais.input"() {index = 1} : () -> !dais.q<-8, 7, 1>
    %2 = "dais.sub"(%1, %0) {shift = 1} : (!dais.q<-8, 7, 1>, !dais.q<-8, 7, 1>) -> !dais.q<-22, 23, 1>
    "dais.output"(%2) {negs = array<i64: 1, 0>, outputs = array<i64: 0, -1>, shifts = array<i64: 0, 0>} : (!dais.q<-22, 23, 1>) -> ()
  }) {adder_size = -1, carry_size = -1, inp_shifts = array<i64: 0, 0>, sym_name = "prog"} : () -> ()
}

`
	// The bytecode keeps only fixed-point types: intervals widen to them.
	bcText := strings.ReplaceAll(text, "!dais.q<-22, 23, 1>", "!dais.q<-32, 31, 1>")
	for f, want := range map[string]string{"prog.json": text, "prog.bc": bcText} {
		r := runOpt(t, dir, "", "--import-alir", f)
		if r.code != 0 || r.stdout != want {
			t.Errorf("--import-alir %s: code %d\nstdout:\n%s\nstderr: %s", f, r.code, r.stdout, r.stderr)
		}
	}
	for _, c := range []struct{ format, file string }{
		{"alir-json", "out.json"}, {"alir-json-gz", "out.json.gz"}, {"alir-bytecode", "out.bc"}, {"dais-binary", "out.bin"},
		{"alir-v4-json", "out4.json"}, {"alir-v4-json-gz", "out4.json.gz"}, {"alir-v4-bytecode", "out4.bc"},
	} {
		r := runOpt(t, dir, "", "--import-alir", "prog.json", "--emit="+c.format, "-o", c.file)
		if r.code != 0 || r.stdout != "" {
			t.Fatalf("--emit=%s: code %d stdout %q stderr %q", c.format, r.code, r.stdout, r.stderr)
		}
		got, f, err := alir.ReadFile(filepath.Join(dir, c.file), alir.FormatAuto)
		if err != nil {
			t.Fatalf("--emit=%s: %v", c.format, err)
		}
		if wantV4 := strings.HasPrefix(c.format, "alir-v4-"); wantV4 != (got.Spec == 4) {
			t.Errorf("--emit=%s wrote spec %d (%v)", c.format, got.Spec, f)
		}
		if c.format == "dais-binary" {
			if f != alir.FormatDAIS {
				t.Errorf("--emit=dais-binary wrote %v", f)
			}
			if got, err = alir.Convert(got, alir.ALIR); err != nil {
				t.Fatal(err)
			}
			// da4ml's interpreter reads every output op's type, so the
			// constant-zero output reads a constant zero op there.
			n := len(got.Ops) - 1
			if n < 0 || got.Ops[n].Opcode != alir.OpConst || got.Ops[n].Data != 0 || got.Outputs[1].Index != int32(n) {
				t.Fatalf("--emit=dais-binary: want a zero op for output 1, got %+v %+v", got.Ops, got.Outputs)
			}
			got.Ops, got.Outputs[1].Index = got.Ops[:n], -1
		}
		a, _ := alir.EncodeBytecode(want)
		b, _ := alir.EncodeBytecode(got)
		if !bytes.Equal(a, b) {
			t.Errorf("--emit=%s: the program changed", c.format)
		}
		if strings.HasSuffix(c.format, "-gz") {
			raw, _ := os.ReadFile(filepath.Join(dir, c.file))
			if len(raw) < 2 || raw[0] != 0x1f || raw[1] != 0x8b {
				t.Errorf("--emit=alir-json-gz did not compress")
			}
		}
	}
}

// Bad uses of --import-alir and --emit are usage errors or diagnostics.
func TestImportAndEmitErrors(t *testing.T) {
	dir := writeFiles(t, inputs)
	writeProgram(t, dir, "prog.json")
	os.WriteFile(filepath.Join(dir, "junk.json"), []byte("{not json"), 0o666)
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"emit needs a file", []string{"--import-alir", "prog.json", "--emit=alir-json"}, ExitUsage, "otir-opt: --emit=alir-json needs an output file: -o FILE\n"},
		{"unknown format", []string{"--import-alir", "prog.json", "--emit=systemc", "-o", "x"}, ExitUsage, "otir-opt: unknown --emit format 'systemc' (want one of alir-json, alir-json-gz, alir-bytecode, alir-v4-json, alir-v4-json-gz, alir-v4-bytecode, dais-binary, verilog, vhdl, dot)\n"},
		{"import and input", []string{"dup.otir", "--import-alir", "prog.json"}, ExitUsage, "otir-opt: --import-alir reads its own file; do not also give an input file (dup.otir)\n"},
		{"split", []string{"--import-alir", "prog.json", "--split-input-file"}, ExitUsage, "otir-opt: --split-input-file cannot be combined with --emit or --import-alir\n"},
		{"missing file", []string{"--import-alir", "nope.json"}, ExitError, "nope.json: error: cannot import the program: no such file or directory\n"},
		{"bad file", []string{"--import-alir", "junk.json"}, ExitError, "junk.json:1:2: error: cannot import the program: json:"},
		{"no program", []string{"dup.otir", "--emit=alir-json", "-o", "x.json"}, ExitError, "otir-opt: --emit=alir-json needs exactly one dais.program after the pipeline, found 0 (run --lower-tiles on a module with one kernel)\n"},
	}
	for _, c := range cases {
		r := runOpt(t, dir, "", c.args...)
		if r.code != c.code || !strings.HasPrefix(r.stderr, c.stderr) {
			t.Errorf("%s: code %d, stderr %q; want %d, %q", c.name, r.code, r.stderr, c.code, c.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.json")); err == nil {
		t.Errorf("a failed --emit wrote its file")
	}
}

// The importer names the program after the file.
func TestImportName(t *testing.T) {
	dir := t.TempDir()
	writeProgram(t, dir, "my-model.json.gz")
	m, err := importALIR(filepath.Join(dir, "my-model.json.gz"), readlimit.Default)
	if err != nil {
		t.Fatal(err)
	}
	ps := dais.Programs(m)
	if name, _ := ps[0].StringAttr("sym_name"); len(ps) != 1 || name != "my-model" {
		t.Errorf("got %d programs named %q", len(ps), name)
	}
}
