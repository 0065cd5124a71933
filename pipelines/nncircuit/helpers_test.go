package nncircuit_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
	"github.com/otir-dev/otir/parse"
	"github.com/otir-dev/otir/passes"
	"github.com/otir-dev/otir/passes/verify"
)

// conformance is the directory of the shared conformance files, beside the
// module (../shared/conformance); the test is skipped without it.
func conformance(t testing.TB, parts ...string) string {
	dir := filepath.Join(append([]string{"..", "..", "..", "shared", "conformance"}, parts...)...)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no conformance files beside the module (%v): CI has them", err)
	}
	return dir
}

// circuit runs nn-to-circuit{params=FILE opts} on a graph's text and
// returns the ALIR program.
func circuit(t testing.TB, text, params, opts string) *alir.Program {
	t.Helper()
	m, err := parse.ParseString("graph.mlir", text, parse.Options{})
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, text)
	}
	if ds := verify.Verify(m); ds.HasErrors() {
		t.Fatalf("verify: %v\n%s", ds, text)
	}
	pipeline := "builtin.module(nn-to-circuit{params=" + params + " " + opts + "})"
	runPipeline(t, m, pipeline, text)
	progs := dais.Programs(m)
	if len(progs) != 1 {
		t.Fatalf("%d programs after %s", len(progs), pipeline)
	}
	p, err := dais.ProgramOf(progs[0])
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runPipeline runs a textual pass pipeline on m, verifying after each
// pass; text is the module's input, shown when a pass fails.
func runPipeline(t testing.TB, m *ir.Module, pipeline, text string) {
	t.Helper()
	pl, err := passes.ParsePipeline(pipeline)
	if err != nil {
		t.Fatal(err)
	}
	pm, err := passes.NewManager(pl)
	if err != nil {
		t.Fatal(err)
	}
	pm.Verify = verify.Verify
	if ds := pm.Run(m); ds.HasErrors() {
		t.Fatalf("%s: %v\n%s", pipeline, ds, text)
	}
}

// readRows reads a whitespace-separated text file of numbers.
func readRows(t testing.TB, path string) []float64 {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, _, _, err := alir.ReadRows(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// run runs a program on n samples with otir's ALIR interpreter.
func run(t testing.TB, p *alir.Program, in []float64, n int) []float64 {
	t.Helper()
	mc, err := alir.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	out, err := mc.Run(in, n)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameBits reports the first output that differs, or -1.
func sameBits(got, want []float64) int {
	if len(got) != len(want) {
		return min(len(got), len(want))
	}
	for k := range want {
		if math.Float64bits(got[k]) != math.Float64bits(want[k]) && !(got[k] == 0 && want[k] == 0) {
			return k
		}
	}
	return -1
}
