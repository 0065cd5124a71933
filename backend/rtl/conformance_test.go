package rtl

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
)

// conformanceDir is shared/conformance/alir beside the repository.
const conformanceDir = "../../../shared/conformance/alir"

var conformanceCases = []struct{ dir, model string }{
	{"alir-v2-mixed", "model.json.gz"},
	{"dais-v1-example", "model.bin"},
	{"alkaid-cmvm64", "model-v2.json.gz"},
	{"alkaid-cmvm64", "model-v4.json.gz"},
	{"alkaid-mlp", "model-v4.json.gz"},
}

// readConformance returns a conformance program and up to max rows of its
// inputs.txt.
func readConformance(t *testing.T, dir, model string, maxRows int) (*alir.Program, []float64) {
	t.Helper()
	path := filepath.Join(conformanceDir, dir, model)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("conformance data not found: %v", err)
	}
	p, _, err := alir.ReadFile(path, alir.FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() && len(p.Ops) > 2000 {
		t.Skip("large program: not in -short")
	}
	in, n, _, err := alir.ReadRowsFile(filepath.Join(conformanceDir, dir, "inputs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	n = min(n, maxRows, rowsFor(p))
	return p, in[:n*p.NumInputs()]
}

// TestConformanceIverilog runs every conformance program's design in
// Icarus Verilog, combinational and pipelined, on rows of its inputs.txt
// and compares every output bit with the interpreter.
func TestConformanceIverilog(t *testing.T) {
	needTool(t, "iverilog")
	eachConformance(t, 300, func(t *testing.T, p *alir.Program, in []float64) {
		simulateBoth(t, check, p, in)
	})
}

// eachConformance runs f on every conformance program, each in a parallel
// subtest, with up to maxRows rows of its inputs.txt.
func eachConformance(t *testing.T, maxRows int, f func(t *testing.T, p *alir.Program, in []float64)) {
	for _, c := range conformanceCases {
		t.Run(c.dir+"/"+c.model, func(t *testing.T) {
			t.Parallel()
			p, in := readConformance(t, c.dir, c.model, maxRows)
			f(t, p, in)
		})
	}
}

// simulateBoth simulates p's design with sim (check or checkVHDL)
// combinational and, when p has latency, pipelined at a third of it.
func simulateBoth(t *testing.T, sim func(t *testing.T, what string, p *alir.Program, o Options, in []float64), p *alir.Program, in []float64) {
	sim(t, "combinational", p, Options{Name: "conf"}, in)
	if lat := maxLatency(p); lat > 0 {
		sim(t, "pipelined", p, Options{Name: "conf", LatencyCutoff: lat / 3}, in)
	}
}

// TestConformanceLint runs verilator --lint-only -Wall on the designs.
func TestConformanceLint(t *testing.T) {
	needTool(t, "verilator")
	eachConformance(t, 1, func(t *testing.T, p *alir.Program, _ []float64) {
		cuts := []float64{0, maxLatency(p) / 3}
		if len(p.Ops) > 2000 && os.Getenv("OTIR_RTL_FULL") == "" {
			cuts = cuts[1:] // the large ones: pipelined only (the same nets and registers)
		}
		for _, cut := range cuts {
			d, err := Build(p, Options{Name: "conf", LatencyCutoff: cut})
			if err != nil {
				t.Fatal(err)
			}
			lint(t, d)
		}
	})
}

// rowsFor returns how many rows a simulation of p takes by default: event
// driven simulators take time in proportion to rows times ops, so large
// programs run fewer rows (all of them with OTIR_RTL_FULL=1).
func rowsFor(p *alir.Program) int {
	if os.Getenv("OTIR_RTL_FULL") != "" {
		return 1 << 30
	}
	return max(20, min(300, 100000/max(len(p.Ops), 1)))
}

func maxLatency(p *alir.Program) float64 {
	l := 0.0
	for _, op := range p.Ops {
		l = max(l, op.Latency)
	}
	return l
}

// TestConformanceGHDL runs every conformance program's VHDL in GHDL,
// combinational and pipelined.
func TestConformanceGHDL(t *testing.T) {
	needTool(t, "ghdl")
	for _, c := range conformanceCases {
		t.Run(c.dir+"/"+c.model, func(t *testing.T) {
			if c.model == "model-v2.json.gz" && c.dir == "alkaid-cmvm64" && os.Getenv("OTIR_RTL_FULL") == "" {
				t.Skip("the spec 4 program is the same product (OTIR_RTL_FULL=1 runs it)")
			}
			t.Parallel()
			p, in := readConformance(t, c.dir, c.model, 300)
			simulateBoth(t, checkVHDL, p, in)
		})
	}
}

// TestTwoDesigns compiles two designs into one simulation: every name
// carries the design's prefix, so nothing clashes (alkaid's generic module
// names do).
func TestTwoDesigns(t *testing.T) {
	needTool(t, "iverilog")
	dir := t.TempDir()
	var files []string
	for k, name := range []string{"first", "second"} {
		p, _ := readConformance(t, conformanceCases[k].dir, conformanceCases[k].model, 1)
		d, err := Build(p, Options{Name: name, LatencyCutoff: float64(k)})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := d.WriteVerilog(&b); err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, name+".v")
		if err := os.WriteFile(f, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	args := append([]string{"-g2001", "-o", filepath.Join(dir, "both.vvp")}, files...)
	runStep(t, "", "iverilog", args...)
}

// TestPipelineLatency checks the header's latency under DelayProgram: the
// number of stages of C units of latency the outputs need (alkaid's
// latencies grow along every path, so an op's stage is that of its own
// latency).
func TestPipelineLatency(t *testing.T) {
	p, _ := readConformance(t, "alkaid-cmvm64", "model-v4.json.gz", 1)
	lat := 0.0
	for _, o := range p.Outputs {
		lat = max(lat, p.Ops[o.Index].Latency)
	}
	for _, c := range []float64{0, 1, 2.5, 4, lat, 2 * lat} {
		d, err := Build(p, Options{LatencyCutoff: c, Delay: DelayProgram})
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		if c > 0 {
			want = max(int(math.Ceil(lat/c)), 1)
		}
		if d.Latency != want {
			t.Errorf("cutoff %g: latency %d, want %d", c, d.Latency, want)
		}
		var b bytes.Buffer
		if err := d.WriteVerilog(&b); err != nil {
			t.Fatal(err)
		}
		if line := fmt.Sprintf("// latency: %d\n", want); !bytes.Contains(b.Bytes(), []byte(line)) {
			t.Errorf("cutoff %g: no line %q", c, line)
		}
	}
}
