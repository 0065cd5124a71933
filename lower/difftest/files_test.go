package difftest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/tiles"
)

// TestExamples checks every bundled example (examples/*.otir): the
// executor and the ALIR interpreter agree on random inputs.
func TestExamples(t *testing.T) {
	checkFiles(t, "../../examples/*.otir", 3, func(t *testing.T, m *ir.Module) {
		for _, k := range otir.Kernels(m) {
			r, err := Check(m, k, tiles.Options{}, 64, 7)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d inputs, %d outputs, %d ALIR operations", r.Inputs, r.Outputs, r.Ops)
		}
	})
}

// TestRegressions checks the kernels in testdata/: each once made the
// executor and the lowered program disagree.
func TestRegressions(t *testing.T) {
	checkFiles(t, "testdata/*.otir", 1, func(t *testing.T, m *ir.Module) {
		if _, err := Check(m, otir.Kernels(m)[0], tiles.Options{}, 256, 794); err != nil {
			t.Fatal(err)
		}
	})
}

// checkFiles runs check, in a subtest named by the file, on the prepared
// module of each file that pattern matches; fewer than least files fail.
func checkFiles(t *testing.T, pattern string, least int, check func(t *testing.T, m *ir.Module)) {
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) < least {
		t.Fatalf("%s: expected at least %d files, found %v (%v)", pattern, least, files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			check(t, prepare(t, string(src)))
		})
	}
}
