package nncircuit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
)

// TestAlkaidMLPFigures prints the table of BENCHMARKS.md from alkaid's
// program of alkaid-mlp and otir's (the file OTIR_NNCIRCUIT_PROGRAM, which
// bench/nn-to-circuit.sh makes with otir-opt; without it only alkaid's
// row). Run: bench/nn-to-circuit.sh.
func TestAlkaidMLPFigures(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "conformance", "alir", "alkaid-mlp")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no conformance files beside the module: %v", err)
	}
	ref, _, err := alir.ReadFile(filepath.Join(dir, "model-v4.json.gz"), alir.FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	a := Count(ref)
	// alkaid's README: 4314 adders, 133 constant adds, depth 35 (39).
	if a.Adders != 4314 || a.ConstAdds != 133 || a.Depth != 35 || a.DepthWithConstAdds != 39 {
		t.Errorf("alkaid's program counts %+v; its README says 4314 adders, 133 constant adds, depth 35 (39)", a)
	}
	t.Log("| program | adders (0, 1, -2) | constant adds (4) | lookups (8) | adder depth | ops |")
	t.Log("|---|---|---|---|---|---|")
	t.Log(a.Row("alkaid 5ad1e53 (model-v4.json.gz)"))
	if path := os.Getenv("OTIR_NNCIRCUIT_PROGRAM"); path != "" {
		p, _, err := alir.ReadFile(path, alir.FormatAuto)
		if err != nil {
			t.Fatal(err)
		}
		t.Log(Count(p).Row("otir nn-to-circuit"))
	}
}
