package rtl

import (
	"bytes"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/otir-dev/otir/backend/alir"
)

// Verilator simulation. A Verilator build takes seconds (C++ compilation),
// so every test builds all its designs into one simulation: design k is
// named v<k> (the prefix of all its names), its own testbench (the one
// WriteVerilogTestbench writes, turned into a task: see vlTestbench) runs
// its rows, and a top module calls the testbenches one after another,
// printing a marker line before each.

type vlCase struct {
	what string
	p    *alir.Program
	o    Options
	in   []float64
}

// vlTestbench turns design d's testbench into a module whose task run
// does what the testbench's initial block does, reading its rows from the
// plusarg +in<k>=FILE, without finishing the simulation.
func vlTestbench(t *testing.T, d *Design, k int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := d.WriteVerilogTestbench(&b); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, r := range []struct {
		old, new string
		n        int
	}{
		{"    initial begin\n", "    task run;\n    begin\n", 1},
		{"        $fclose(fd);\n        $finish;\n    end\nendmodule\n", "        $fclose(fd);\n    end\n    endtask\nendmodule\n", 1},
		{"$finish;", "$stop;", 1}, // the file cannot be opened: fail
		{`$value$plusargs("in=%s"`, fmt.Sprintf(`$value$plusargs("in%d=%%s"`, k), 1},
	} {
		if c := strings.Count(s, r.old); c != r.n {
			t.Fatalf("testbench of %s: %d times %q, want %d", d.Name, c, r.old, r.n)
		}
		s = strings.Replace(s, r.old, r.new, 1)
	}
	return []byte(s)
}

// checkVerilator builds every case's design (named v<k>, so they share one
// simulation), simulates all of them in one Verilator build and compares
// every output bit of every row with the exact semantics and the
// interpreter, as check does for Icarus Verilog.
func checkVerilator(t *testing.T, cases []vlCase) {
	t.Helper()
	needTool(t, "verilator")
	dir := t.TempDir()
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var designs []*Design
	var want [][][]*big.Int
	var files, args []string
	var top bytes.Buffer
	fmt.Fprintf(&top, "`timescale 1ns/1ps\n\nmodule vl_top;\n")
	start := time.Now()
	for k, c := range cases {
		o := c.o
		o.Name = fmt.Sprintf("v%d", k)
		d, err := Build(c.p, o)
		if err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		var v, rows bytes.Buffer
		if err := d.WriteVerilog(&v); err != nil {
			t.Fatal(err)
		}
		if err := d.EncodeInputs(&rows, c.p.InShifts, c.in); err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		write(d.Name+".v", v.Bytes())
		write(d.Name+"_tb.v", vlTestbench(t, d, k))
		write(d.Name+".hex", rows.Bytes())
		files = append(files, d.Name+"_tb.v", d.Name+".v")
		args = append(args, fmt.Sprintf("+in%d=%s.hex", k, d.Name))
		fmt.Fprintf(&top, "    %s_tb t%d ();\n", d.Name, k)
		designs = append(designs, d)
		want = append(want, reference(t, c.p, d, c.in, len(c.in)/c.p.NumInputs()))
	}
	t.Logf("%d designs written, reference computed in %.1f s", len(cases), time.Since(start).Seconds())
	fmt.Fprintf(&top, "    initial begin\n")
	for k := range cases {
		fmt.Fprintf(&top, "        $display(\"== %d\");\n        t%d.run;\n", k, k)
	}
	fmt.Fprintf(&top, "        $finish;\n    end\nendmodule\n")
	write("vl_top.v", top.Bytes())

	// -O0: the C++ compiler's optimizations cost far more than they save
	// on a few hundred rows.
	bargs := append([]string{"--binary", "--timing", "-j", fmt.Sprint(runtime.NumCPU()),
		"-MAKEFLAGS", "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0",
		"--top-module", "vl_top", "-o", "vl_sim", "vl_top.v"}, files...)
	start = time.Now()
	runStep(t, dir, "verilator", bargs...)
	t.Logf("verilator --binary: %d designs built in %.1f s", len(cases), time.Since(start).Seconds())
	out := output(t, dir, filepath.Join(dir, "obj_dir", "vl_sim"), args...)
	// Split the output at the markers: design k's rows follow "== k".
	parts := strings.Split("\n"+string(out), "\n== ")
	if len(parts) != len(cases)+1 {
		t.Fatalf("%d designs' outputs in the simulation's output, want %d", len(parts)-1, len(cases))
	}
	for k, c := range cases {
		part := parts[k+1]
		head, rest, _ := strings.Cut(part, "\n")
		if head != fmt.Sprint(k) {
			t.Fatalf("output of design %s where %d's should be", head, k)
		}
		got := decodeRows(t, designs[k], rest)
		compare(t, fmt.Sprintf("%s (Verilator, latency %d)", c.what, designs[k].Latency), want[k], got)
	}
}

// TestConformanceVerilator runs every conformance program's design,
// combinational and pipelined, in Verilator (one build) on the rows
// TestConformanceIverilog uses; the large programs (alkaid's) pipelined
// only, and alkaid-cmvm64's spec 2 file not at all, unless OTIR_RTL_FULL=1.
func TestConformanceVerilator(t *testing.T) {
	needTool(t, "verilator")
	var cases []vlCase
	full := os.Getenv("OTIR_RTL_FULL") != ""
	for _, c := range conformanceCases {
		if c.model == "model-v2.json.gz" && c.dir == "alkaid-cmvm64" && !full {
			continue // the spec 4 program is the same product (OTIR_RTL_FULL=1 runs it)
		}
		name := c.dir + "/" + c.model
		t.Run(name, func(t *testing.T) { // collects the cases (readConformance may skip one)
			p, in := readConformance(t, c.dir, c.model, 300)
			lat := maxLatency(p)
			// The large ones: pipelined only by default (the same nets and
			// registers; their C++ takes seconds to compile).
			if lat == 0 || len(p.Ops) <= 2000 || full {
				cases = append(cases, vlCase{name + " combinational", p, Options{}, in})
			}
			if lat > 0 {
				cases = append(cases, vlCase{name + " pipelined", p, Options{LatencyCutoff: lat / 3}, in})
			}
		})
	}
	if len(cases) == 0 {
		t.Skip("no conformance programs")
	}
	checkVerilator(t, cases)
}

// TestKernelsVerilator runs the lowered kernels of TestKernelsIverilog,
// combinational and pipelined, in Verilator (one build).
func TestKernelsVerilator(t *testing.T) {
	needTool(t, "verilator")
	var cases []vlCase
	for k, kn := range kernelCases(t) {
		p := lowerKernel(t, kn.src)
		if p.NumInputs() == 0 {
			continue
		}
		in := kernelInputs(p, k)
		cases = append(cases, vlCase{kn.name + " combinational", p, Options{}, in})
		if cut := maxLatency(p) / 3; cut > 0 {
			cases = append(cases, vlCase{kn.name + " pipelined", p, Options{LatencyCutoff: cut}, in})
		}
	}
	checkVerilator(t, cases)
}

// TestRandomVerilator runs TestRandomIverilog's random programs (every
// opcode of both dialects), combinational and pipelined, in Verilator (one
// build).
func TestRandomVerilator(t *testing.T) {
	needTool(t, "verilator")
	var cases []vlCase
	for _, c := range randomCases(t, randomCount(t, 40), rand.New(rand.NewPCG(17, 2001)), 24) {
		for _, cut := range []float64{0, 0.5} {
			cases = append(cases, vlCase{fmt.Sprintf("%s/cut%g", c.name, cut), c.p, Options{LatencyCutoff: cut}, c.in})
		}
	}
	checkVerilator(t, cases)
}
