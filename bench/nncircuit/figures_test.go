package nncircuit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/internal/testenv"
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
	a := count(t, ref)
	// alkaid's README: 4314 adders, 133 constant adds, depth 35 (39).
	if a.Adders != 4314 || a.ConstAdds != 133 || a.Depth != 35 || a.DepthWithConstAdds != 39 {
		t.Errorf("alkaid's program counts %+v; its README says 4314 adders, 133 constant adds, depth 35 (39)", a)
	}
	t.Log("| program | adders | constant adds | lookups | adder depth | ops |")
	t.Log("|---|---|---|---|---|---|")
	t.Log(a.Row("alkaid 5ad1e53 (model-v4.json.gz)"))
	path := os.Getenv("OTIR_NNCIRCUIT_PROGRAM")
	if path == "" {
		return
	}
	p, _, err := alir.ReadFile(path, alir.FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	o := count(t, p)
	t.Log(o.Row("otir nn-to-circuit"))
	// OTIR_NNCIRCUIT_SVG: the adders of both programs by adder depth.
	if svg := os.Getenv("OTIR_NNCIRCUIT_SVG"); svg != "" {
		f, err := os.Create(svg)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		err = WriteSVG(f, "alkaid-mlp (16-64-32-32-5): adders at each adder depth", []Series{
			{fmt.Sprintf("alkaid: %d adders, depth %d", a.Adders, a.Depth), "#d9822b", profile(t, ref)},
			{fmt.Sprintf("otir nn-to-circuit: %d adders, depth %d", o.Adders, o.Depth), "#4a7ebb", profile(t, p)},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestProgramFigures prints the figures of the programs named by
// OTIR_NNCIRCUIT_PROGRAMS (comma-separated NAME=PATH pairs) as rows of
// BENCHMARKS.md's tables; bench/qonnx-zoo.sh sets it. Without it the test
// does nothing.
func TestProgramFigures(t *testing.T) {
	list := testenv.Need(t, "OTIR_NNCIRCUIT_PROGRAMS", "set OTIR_NNCIRCUIT_PROGRAMS=NAME=PATH,... (bench/qonnx-zoo.sh does)")
	t.Log("| program | adders | constant adds | lookups | adder depth | ops |")
	t.Log("|---|---|---|---|---|---|")
	for _, pair := range strings.Split(list, ",") {
		name, path, ok := strings.Cut(pair, "=")
		if !ok {
			t.Fatalf("OTIR_NNCIRCUIT_PROGRAMS: %q is not NAME=PATH", pair)
		}
		p, _, err := alir.ReadFile(path, alir.FormatAuto)
		if err != nil {
			t.Fatal(err)
		}
		t.Log(count(t, p).Row(name))
	}
}

// count is Count, failing the test on an error.
func count(t *testing.T, p *alir.Program) Figures {
	t.Helper()
	f, err := Count(p)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// profile is Profile, failing the test on an error.
func profile(t *testing.T, p *alir.Program) []int {
	t.Helper()
	prof, err := Profile(p)
	if err != nil {
		t.Fatal(err)
	}
	return prof
}
