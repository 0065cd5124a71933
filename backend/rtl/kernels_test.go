package rtl

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/lower/dais"
	"github.com/otir-dev/otir/lower/daisopt"
	"github.com/otir-dev/otir/lower/difftest"
	"github.com/otir-dev/otir/lower/tiles"
	"github.com/otir-dev/otir/passes/passtest"
	_ "github.com/otir-dev/otir/passes/promote"
)

// lowerKernel runs promote-types, lower-tiles and dais-optimize on the
// only kernel of src and returns its program.
func lowerKernel(t *testing.T, src string) *alir.Program {
	t.Helper()
	m := passtest.Parse(t, "k.otir", src)
	passtest.MustRun(t, m, "builtin.module(promote-types)", src)
	prog, err := tiles.LowerKernel(otir.Kernels(m)[0], tiles.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := daisopt.Optimize(prog, true); err != nil {
		t.Fatal(err)
	}
	p, err := dais.ToALIR(prog)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestKernelsIverilog simulates lowered kernels: the bundled examples and
// generated kernels (lower/difftest.Generate), combinational and
// pipelined, in Icarus Verilog (and their VHDL in GHDL when installed),
// against the interpreter.
func TestKernelsIverilog(t *testing.T) {
	needTool(t, "iverilog")
	_, ghdl := lookTool("ghdl")
	for k, kn := range kernelCases(t) {
		t.Run(kn.name, func(t *testing.T) {
			p := lowerKernel(t, kn.src)
			if p.NumInputs() == 0 {
				t.Skip("no inputs")
			}
			in := kernelInputs(p, k)
			check(t, kn.name, p, Options{Name: "k"}, in)
			cut := maxLatency(p) / 3
			if cut > 0 {
				check(t, kn.name, p, Options{Name: "k", LatencyCutoff: cut}, in)
			}
			if ghdl {
				checkVHDL(t, kn.name, p, Options{Name: "k", LatencyCutoff: cut}, in)
			}
		})
	}
}

type kernel struct{ name, src string }

// kernelCases returns the bundled examples, the kernels of the table
// lookup tests (whose ROMs read slices of their tables) and generated
// kernels.
func kernelCases(t *testing.T) []kernel {
	t.Helper()
	files, err := filepath.Glob("../../examples/*.otir")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	var ks []kernel
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ks = append(ks, kernel{filepath.Base(f), string(b)})
	}
	for _, f := range []string{"../../tests/exec/lookup.otir", "../../tests/lower/Inputs/lookup.otir"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ks = append(ks, kernel{filepath.Base(filepath.Dir(f)) + "-" + filepath.Base(f), string(b)})
	}
	for k := range randomCount(t, 12) {
		ks = append(ks, kernel{fmt.Sprintf("gen%d", k), difftest.Generate(9100 + uint64(k))})
	}
	return ks
}

// kernelInputs returns the input rows kernel k is simulated on.
func kernelInputs(p *alir.Program, k int) []float64 {
	return alir.RandomInputs(p, min(64, rowsFor(p)), uint64(k))
}
