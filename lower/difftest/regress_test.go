package difftest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/lower/tiles"
)

// TestRegressions checks the kernels in testdata/: each once made the
// executor and the lowered program disagree.
func TestRegressions(t *testing.T) {
	files, err := filepath.Glob("testdata/*.otir")
	if err != nil || len(files) == 0 {
		t.Fatalf("no regression kernels: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m := prepare(t, string(src))
			if _, err := Check(m, otir.Kernels(m)[0], tiles.Options{}, 256, 794); err != nil {
				t.Fatal(err)
			}
		})
	}
}
