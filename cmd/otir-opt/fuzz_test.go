package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/cmd/otir-opt/internal/optmain"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/parse"
	"github.com/otir-dev/otir/passes/verify"
)

// FuzzCommandLine runs otir-opt in-process on combinations of flags, passes
// and small inputs. Whatever the command line, it must not crash, must exit
// 0, 1 or 2, and a usage error (2) is one line on stderr.
func FuzzCommandLine(f *testing.F) {
	dir := f.TempDir()
	// Outputs named by the fuzzer (-o FILE) land here, not in the source
	// tree.
	f.Chdir(dir)
	kernel := "otir.kernel @k(%a: !otir.tile<4xi8, #global>) attributes {grid = [2]} {\n" +
		"  %v = otir.load %a : !otir.tile<4xi8, #global> -> !otir.tile<4xi8, #private>\n" +
		"  %w = otir.add %v, %v : !otir.tile<4xi8, #private>, !otir.tile<4xi8, #private>\n" +
		"  %x = otir.cast %w : !otir.tile<4xi9, #private> -> !otir.tile<4xi8, #private>\n" +
		"  otir.store %x, %a : !otir.tile<4xi8, #private>, !otir.tile<4xi8, #global>\n" +
		"  otir.return\n}\n"
	os.WriteFile(filepath.Join(dir, "k.otir"), []byte(kernel), 0o644)
	os.WriteFile(filepath.Join(dir, "cr.otir"), []byte(strings.ReplaceAll("// c\n"+kernel, "\n", "\r")), 0o644)
	os.WriteFile(filepath.Join(dir, "split.otir"), []byte(kernel+"// -----\n// expected-error @+1 {{custom op}}\notir.foo\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "big.otir"), []byte("otir.kernel @k(%a: !otir.tile<1048576x1048576xi8, #global>) {\n  otir.return\n}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"meta": "ALIRModel", "spec_version": "2", "model": []}`), 0o644)
	p := func(name string) string { return filepath.Join(dir, name) }
	words := []string{
		p("k.otir"), p("cr.otir"), p("split.otir"), p("big.otir"), p("missing.otir"), "-",
		"--cse", "--dce", "--promote-types", "--promote-types=style=cpp", "--promote-types=style=x",
		"--lower-tiles", "--lower-tiles=max-ops=10", "--lower-tiles=max-ops=0", "--dais-optimize", "--dais-fold",
		"--pass-pipeline=builtin.module(cse,dce)", "--pass-pipeline=builtin.module(lower-tiles{max-ops=5})", "--pass-pipeline=(",
		"--split-input-file", "--verify-diagnostics", "--verify-each=false", "--print-op-generic",
		"--print-ir-after-all", "--print-ir-before=cse", "--print-ir-after=nope", "--dump-pass-pipeline", "--timing",
		"--list-passes", "--help", "-o", p("out.otir"), p("out.json"), "--emit=alir-json", "--emit=bogus",
		"--import-alir", p("bad.json"), "--bogus", "--", "extra",
		"--progress=always", "--progress-delay=0", "--progress=bogus",
	}
	f.Add([]byte{0, 6})
	f.Add([]byte{1, 11})
	f.Add([]byte{2, 19, 20})
	f.Add([]byte{3, 11})
	f.Add([]byte{35, 36})
	f.Add([]byte{0, 11, 33, 31, 32})
	f.Add([]byte{0, 18})
	f.Add([]byte{0, 30, 31, 30, 32}) // -o out.otir -o out.json (issue 26)
	f.Add([]byte{0, 30, 0})          // k.otir -o k.otir
	f.Add([]byte{0, 19, 19})         // --split-input-file twice
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 10 {
			data = data[:10]
		}
		args := []string{"otir-opt"}
		for _, b := range data {
			args = append(args, words[int(b)%len(words)])
		}
		var out, errb bytes.Buffer
		env := optmain.Env{
			Stdin: strings.NewReader("otir.kernel @s() {\n  otir.return\n}\n"), Stdout: &out, Stderr: &errb,
			Parse: func(filename, src string, lineOffset int) (*ir.Module, error) {
				return parse.ParseString(filename, src, parse.Options{LineOffset: lineOffset})
			},
			Verify: verify.Verify,
		}
		code := optmain.Main(args, env)
		switch code {
		case 0, 1:
		case 2:
			if n := strings.Count(errb.String(), "\n"); n < 1 {
				t.Fatalf("%q: usage error without a message", args)
			}
			if first, _, _ := strings.Cut(errb.String(), "\n"); !strings.HasPrefix(first, "otir-opt: ") {
				t.Fatalf("%q: usage error %q", args, errb.String())
			}
		default:
			t.Fatalf("%q: exit code %d", args, code)
		}
		if s := errb.String(); strings.Contains(s, "internal error") || strings.Contains(s, "crashed") || strings.Contains(s, "panic") {
			t.Fatalf("%q: %s", args, s)
		}
	})
}
