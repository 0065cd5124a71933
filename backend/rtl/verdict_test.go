package rtl

import (
	"bytes"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
)

// verdictProgram has a signed input x0 with 2 fractional bits, an
// unsigned one x1 with 1, and three outputs: x0 + x1 (signed, 2
// fractional bits; latency 1), x1 and x0.
func verdictProgram() *alir.Program {
	p := &alir.Program{Dialect: alir.ALIR, InShifts: make([]int32, 2), CarrySize: -1, AdderSize: -1}
	p.Ops = []alir.Op{
		{ID0: 0, ID1: -1, Opcode: alir.OpInput, QInt: alir.QInterval{Min: -2, Max: 1.75, Step: 0.25}},
		{ID0: 1, ID1: -1, Opcode: alir.OpInput, QInt: alir.QInterval{Min: 0, Max: 7.5, Step: 0.5}},
		{ID0: 0, ID1: 1, Opcode: alir.OpAdd, QInt: alir.QInterval{Min: -2, Max: 9.25, Step: 0.25}, Latency: 1},
	}
	p.Outputs = []alir.Output{{Index: 2}, {Index: 1}, {Index: 0}}
	return p
}

// verdictRows: row 3 is x0 = -1.25, x1 = 0.5.
var verdictRows = []float64{0.5, 1, 1.75, 7.5, -2, 0, -1.25, 0.5, 0.3, 2.2, -0.75, 6}

// corrupt sets lane j of row r's expected model_out to raw.
func corrupt(d *Design, v *Vectors, r, j int, raw int64) {
	l := d.Outputs[j]
	m := new(big.Int).Lsh(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(l.Width)), big.NewInt(1)), uint(l.Offset))
	z := new(big.Int).AndNot(v.Out[r], m)
	x := new(big.Int).Mod(big.NewInt(raw), new(big.Int).Lsh(big.NewInt(1), uint(l.Width)))
	v.Out[r] = z.Or(z, x.Lsh(x, uint(l.Offset)))
}

// verdictCase is a design of verdictProgram with its vectors; edit
// changes the written design text (a broken design), corrupt the vectors.
type verdictCase struct {
	what    string
	cutoff  float64
	corrupt func(d *Design, v *Vectors)
	edit    [2]string // old, new: the first occurrence in the design
	want    string    // the verdict line
}

var verdictCases = []verdictCase{
	{"combinational", 0, nil, [2]string{}, "PASS 6/6"},
	{"pipelined", 1, nil, [2]string{}, "PASS 6/6"},
	{"unsigned lane", 1, func(d *Design, v *Vectors) { corrupt(d, v, 3, 1, 13) }, [2]string{}, "FAIL row 3 lane 1: expected 6.5, got 0.5"},
	{"signed lane", 0, func(d *Design, v *Vectors) { corrupt(d, v, 3, 2, 3) }, [2]string{}, "FAIL row 3 lane 2: expected 0.75, got -1.25"},
	{"broken design", 0, nil, [2]string{" + ", " - "}, "FAIL row 0 lane 0: expected 1.5, got -0.5"},
}

// build returns the design of c and its checking testbench's vectors.
func (c verdictCase) build(t *testing.T) (*Design, *Vectors) {
	t.Helper()
	p := verdictProgram()
	d, err := Build(p, Options{Name: "vd", LatencyCutoff: c.cutoff})
	if err != nil {
		t.Fatal(err)
	}
	if c.cutoff > 0 && d.Latency == 0 {
		t.Fatalf("%s: not pipelined", c.what)
	}
	v, err := d.Vectors(p, verdictRows)
	if err != nil {
		t.Fatal(err)
	}
	if c.corrupt != nil {
		c.corrupt(d, v)
	}
	return d, v
}

// writeVerdict writes design text (edited) and testbench to dir.
func writeVerdict(t *testing.T, dir, design, tb string, c verdictCase, write func(*bytes.Buffer) error, checker func(*bytes.Buffer) error) {
	t.Helper()
	var dv, tv bytes.Buffer
	if err := write(&dv); err != nil {
		t.Fatal(err)
	}
	if err := checker(&tv); err != nil {
		t.Fatal(err)
	}
	text := dv.String()
	if c.edit[0] != "" {
		if !strings.Contains(text, c.edit[0]) {
			t.Fatalf("%s: the design has no %q", c.what, c.edit[0])
		}
		text = strings.Replace(text, c.edit[0], c.edit[1], 1)
	}
	if err := os.WriteFile(filepath.Join(dir, design), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, tb), tv.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// verdictOf checks a simulation's output and exit: the verdict line, and
// a non-zero exit exactly when it is a FAIL.
func verdictOf(t *testing.T, tool string, c verdictCase, out []byte, err error) {
	t.Helper()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("%s %s: %v", tool, c.what, err)
	}
	if !strings.Contains(string(out), c.want+"\n") && !strings.Contains(string(out), c.want+" (") {
		t.Errorf("%s %s: output has no %q:\n%s", tool, c.what, c.want, out)
	}
	if fail := strings.HasPrefix(c.want, "FAIL"); fail != (err != nil) {
		t.Errorf("%s %s: exit %v, want a failure %v:\n%s", tool, c.what, err, fail, out)
	}
}

// TestVerdictIverilog: the self-checking Verilog testbench in Icarus
// Verilog passes a design and fails a corrupted expectation or design
// with the row, lane and both values, and a non-zero exit.
func TestVerdictIverilog(t *testing.T) {
	needTool(t, "iverilog")
	for _, c := range verdictCases {
		d, v := c.build(t)
		dir := t.TempDir()
		writeVerdict(t, dir, "vd.v", "vd_tb.v", c, func(b *bytes.Buffer) error { return d.WriteVerilog(b) },
			func(b *bytes.Buffer) error { return d.WriteVerilogChecker(b, v) })
		cmd := exec.Command("iverilog", "-g2001", "-o", "sim.vvp", "vd_tb.v", "vd.v")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("iverilog %s: %v\n%s", c.what, err, out)
		}
		cmd = exec.Command("vvp", "-n", "sim.vvp")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		verdictOf(t, "vvp", c, out, err)
	}
}

// TestVerdictGHDL: the same in VHDL and GHDL.
func TestVerdictGHDL(t *testing.T) {
	needTool(t, "ghdl")
	for _, c := range verdictCases {
		if c.edit[0] != "" {
			c.edit = [2]string{")) + unsigned", ")) - unsigned"}
		}
		d, v := c.build(t)
		dir := t.TempDir()
		writeVerdict(t, dir, "vd.vhd", "vd_tb.vhd", c, func(b *bytes.Buffer) error { return d.WriteVHDL(b) },
			func(b *bytes.Buffer) error { return d.WriteVHDLChecker(b, v) })
		for _, args := range [][]string{{"-a", "--std=08", "vd.vhd", "vd_tb.vhd"}, {"-e", "--std=08", "vd_tb"}} {
			cmd := exec.Command("ghdl", args...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("ghdl %s %s: %v\n%s", args[0], c.what, err, out)
			}
		}
		cmd := exec.Command("ghdl", "-r", "--std=08", "vd_tb", "--ieee-asserts=disable")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		verdictOf(t, "ghdl -r", c, out, err)
	}
}

// TestVerdictVerilator: two builds (Verilator's are slow): the pipelined
// design passes, the corrupted signed lane fails.
func TestVerdictVerilator(t *testing.T) {
	needTool(t, "verilator")
	for _, c := range []verdictCase{verdictCases[1], verdictCases[3]} {
		d, v := c.build(t)
		dir := t.TempDir()
		writeVerdict(t, dir, "vd.v", "vd_tb.v", c, func(b *bytes.Buffer) error { return d.WriteVerilog(b) },
			func(b *bytes.Buffer) error { return d.WriteVerilogChecker(b, v) })
		cmd := exec.Command("verilator", "--binary", "--timing", "-Wall", "-Wno-DECLFILENAME",
			"-MAKEFLAGS", "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0", "vd_tb.v", "vd.v")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("verilator %s: %v\n%s", c.what, err, out)
		}
		cmd = exec.Command(filepath.Join(dir, "obj_dir", "Vvd_tb"))
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		verdictOf(t, "Verilator", c, out, err)
	}
}

// TestVectorsErrors: a row the interpreter refuses (a lookup outside its
// table) is an error naming the sample; a design without inputs has no
// rows.
func TestVectorsErrors(t *testing.T) {
	p := namedProgram(t)
	d, err := Build(p, Options{Name: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Vectors(p, []float64{0.5, -1, 3, 0.25}); err == nil || !strings.Contains(err.Error(), "sample 1: op 18 (lookup): lookup index -112 out of range") {
		t.Errorf("refused row: got %v", err)
	}
	q := &alir.Program{Dialect: alir.ALIR, CarrySize: -1, AdderSize: -1}
	d, err = Build(q, Options{Name: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Vectors(q, nil); err == nil || err.Error() != "rtl: the design has no inputs" {
		t.Errorf("no inputs: got %v", err)
	}
}
