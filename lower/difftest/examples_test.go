package difftest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/lower/tiles"
)

// TestExamples checks every bundled example (examples/*.otir): the
// executor and the ALIR interpreter agree on random inputs.
func TestExamples(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.otir")
	if err != nil || len(files) < 3 {
		t.Fatalf("expected the bundled examples, found %v (%v)", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m := prepare(t, string(src))
			for _, k := range otir.Kernels(m) {
				r, err := Check(m, k, tiles.Options{}, 64, 7)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%d inputs, %d outputs, %d ALIR operations", r.Inputs, r.Outputs, r.Ops)
			}
		})
	}
}
