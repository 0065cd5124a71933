package nncircuit_test

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
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

// readRows reads a whitespace-separated text file of numbers.
func readRows(t testing.TB, path string) []float64 {
	v, _, _, err := alir.ReadRowsFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return v
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
