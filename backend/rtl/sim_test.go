package rtl

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
)

// reference returns the raw value of every output lane for every row, by
// the exact semantics (alir.Evaluator), and checks that the lanes, read as
// fixed-point numbers, are the interpreter's outputs (alir.Machine.Run).
func reference(t *testing.T, p *alir.Program, d *Design, in []float64, n int) [][]*big.Int {
	t.Helper()
	ev, err := alir.NewEvaluator(p)
	if err != nil {
		t.Fatal(err)
	}
	m, err := alir.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	floats, ferr := m.Run(in, n)
	nIn, nOut := p.NumInputs(), p.NumOutputs()
	out := make([][]*big.Int, n)
	vals := make([]*big.Int, len(p.Ops))
	for r := range n {
		row := in[r*nIn : (r+1)*nIn]
		bad := false
		for i, op := range p.Ops {
			if op.Opcode == alir.OpInput {
				tk, _ := op.QInt.KIF()
				x := math.Floor(row[op.ID0] * math.Ldexp(1, int(p.InShifts[op.ID0])+tk.Fractionals))
				v := new(big.Int)
				if !math.IsNaN(x) && !math.IsInf(x, 0) {
					new(big.Float).SetFloat64(x).Int(v)
				}
				vals[i] = tk.Wrap(v)
				continue
			}
			z, err := ev.Eval(i, op, func(j int32) *big.Int { return vals[j] })
			if err != nil { // a lookup out of its table: the row fails
				bad = true
				break
			}
			vals[i] = z
		}
		if bad {
			continue
		}
		out[r] = make([]*big.Int, nOut)
		for j, o := range p.Outputs {
			v := new(big.Int)
			if o.Index >= 0 {
				v.Set(vals[o.Index])
				if o.Neg {
					v.Neg(v)
				}
			}
			out[r][j] = v
			if ferr == nil {
				f, _ := new(big.Float).SetInt(v).Float64()
				f *= math.Ldexp(1, -d.Outputs[j].Frac)
				if o.Index < 0 {
					f = 0
				}
				if g := floats[r*nOut+j]; math.Float64bits(f) != math.Float64bits(g) && !(f == 0 && g == 0) {
					t.Fatalf("row %d output %d: lane %v reads as %v, interpreter gives %v", r, j, v, f, g)
				}
			}
		}
	}
	return out
}

// simIverilog runs design d in Icarus Verilog on the input rows and
// returns the lanes of every output row.
func simIverilog(t *testing.T, d *Design, p *alir.Program, in []float64) [][]*big.Int {
	t.Helper()
	var rows bytes.Buffer
	if err := d.EncodeInputs(&rows, p.InShifts, in); err != nil {
		t.Fatal(err)
	}
	return decodeRows(t, d, runIverilog(t, d, rows.Bytes()))
}

// runIverilog writes design d, its testbench and the rows of model_inp (in
// hexadecimal, one a line) to a directory, runs them in Icarus Verilog and
// returns what the testbench prints.
func runIverilog(t *testing.T, d *Design, rows []byte) string {
	t.Helper()
	dir := t.TempDir()
	var v, tb bytes.Buffer
	if err := d.WriteVerilog(&v); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteVerilogTestbench(&tb); err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	dv, dtb, din := write("design.v", v.Bytes()), write("tb.v", tb.Bytes()), write("in.hex", rows)
	simv := filepath.Join(dir, "sim.vvp")
	runStep(t, dir, "iverilog", "-g2001", "-o", simv, dtb, dv)
	return string(output(t, dir, "vvp", "-n", simv, "+in="+din))
}

// outputLines returns the rows a testbench printed: its lines less blank
// ones and the simulator's own ($finish, VCD).
func outputLines(out string) []string {
	var rows []string
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.Contains(line, "$finish") || strings.HasPrefix(line, "VCD") {
			continue
		}
		rows = append(rows, line)
	}
	return rows
}

func decodeRows(t *testing.T, d *Design, out string) [][]*big.Int {
	t.Helper()
	var res [][]*big.Int
	for _, line := range outputLines(out) {
		lanes, err := d.DecodeOutputs(line)
		if err != nil {
			t.Fatalf("%v (simulator output %q)", err, line)
		}
		res = append(res, lanes)
	}
	return res
}

// compare checks the simulated rows against the reference bit for bit.
func compare(t *testing.T, what string, want, got [][]*big.Int) int {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows out of the simulator, want %d", what, len(got), len(want))
	}
	checked := 0
	for r := range want {
		if want[r] == nil {
			continue
		}
		for j := range want[r] {
			if want[r][j].Cmp(got[r][j]) != 0 {
				t.Fatalf("%s: row %d output %d: simulator %v, interpreter %v", what, r, j, got[r][j], want[r][j])
			}
		}
		checked++
	}
	return checked
}

func lint(t *testing.T, d *Design) {
	t.Helper()
	if _, ok := lookTool("verilator"); !ok {
		return
	}
	dir := t.TempDir()
	f := filepath.Join(dir, d.Name+".v")
	var v bytes.Buffer
	if err := d.WriteVerilog(&v); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, v.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	runStep(t, dir, "verilator", "--lint-only", "-Wall", f)
}

// check builds p with o, simulates it on the rows and compares.
func check(t *testing.T, what string, p *alir.Program, o Options, in []float64) {
	t.Helper()
	d, err := Build(p, o)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	n := len(in) / max(p.NumInputs(), 1)
	if p.NumInputs() == 0 {
		t.Skip("no inputs")
	}
	want := reference(t, p, d, in, n)
	got := simIverilog(t, d, p, in)
	compare(t, fmt.Sprintf("%s (latency %d)", what, d.Latency), want, got)
}

// simGHDL runs the design's VHDL in GHDL like simIverilog.
func simGHDL(t *testing.T, d *Design, p *alir.Program, in []float64) [][]*big.Int {
	t.Helper()
	dir := t.TempDir()
	var v, tb, rows bytes.Buffer
	if err := d.WriteVHDL(&v); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteVHDLTestbench(&tb); err != nil {
		t.Fatal(err)
	}
	if err := d.EncodeInputs(&rows, p.InShifts, in); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"design.vhd": v.Bytes(), "tb.vhd": tb.Bytes(), "in.hex": rows.Bytes()} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	output(t, dir, "ghdl", "-a", "--std=08", "design.vhd", "tb.vhd")
	output(t, dir, "ghdl", "-e", "--std=08", d.Name+"_tb")
	out := output(t, dir, "ghdl", "-r", "--std=08", d.Name+"_tb", "-ginfile=in.hex", "--ieee-asserts=disable")
	return decodeRows(t, d, string(out))
}

// checkVHDL builds p with o, simulates its VHDL in GHDL and compares.
func checkVHDL(t *testing.T, what string, p *alir.Program, o Options, in []float64) {
	t.Helper()
	d, err := Build(p, o)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	want := reference(t, p, d, in, len(in)/p.NumInputs())
	got := simGHDL(t, d, p, in)
	compare(t, fmt.Sprintf("%s (VHDL, latency %d)", what, d.Latency), want, got)
}

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
func verdictOf(t *testing.T, tool string, c verdictCase, out []byte, failed bool) {
	t.Helper()
	if !strings.Contains(string(out), c.want+"\n") && !strings.Contains(string(out), c.want+" (") {
		t.Errorf("%s %s: output has no %q:\n%s", tool, c.what, c.want, out)
	}
	if fail := strings.HasPrefix(c.want, "FAIL"); fail != failed {
		t.Errorf("%s %s: failed %v, want a failure %v:\n%s", tool, c.what, failed, fail, out)
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
		runStep(t, dir, "iverilog", "-g2001", "-o", "sim.vvp", "vd_tb.v", "vd.v")
		out, failed := simulate(t, dir, "vvp", "-n", "sim.vvp")
		verdictOf(t, "vvp", c, out, failed)
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
		runStep(t, dir, "ghdl", "-a", "--std=08", "vd.vhd", "vd_tb.vhd")
		runStep(t, dir, "ghdl", "-e", "--std=08", "vd_tb")
		out, failed := simulate(t, dir, "ghdl", "-r", "--std=08", "vd_tb", "--ieee-asserts=disable")
		verdictOf(t, "ghdl -r", c, out, failed)
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
		runStep(t, dir, "verilator", "--binary", "--timing", "-Wall", "-Wno-DECLFILENAME",
			"-MAKEFLAGS", "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0", "vd_tb.v", "vd.v")
		out, failed := simulate(t, dir, filepath.Join(dir, "obj_dir", "Vvd_tb"))
		verdictOf(t, "Verilator", c, out, failed)
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
