package nncircuit_test

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/lower/dais"
	"github.com/otir-dev/otir/passes/passtest"
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
	m := passtest.Parse(t, "graph.mlir", text)
	pipeline := "builtin.module(nn-to-circuit{params=" + params + " " + opts + "})"
	passtest.MustRun(t, m, pipeline, text)
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

// readRows reads a whitespace-separated text file of numbers.
func readRows(t testing.TB, path string) []float64 {
	v, _, _, err := alir.ReadRowsFile(path)
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
