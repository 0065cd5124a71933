package rtl

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"os"
	"os/exec"
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

// needTool skips the test when a simulator is not installed.
func needTool(t *testing.T, tool string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Skipf("backend/rtl: %s not installed", tool)
	}
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
	if out, err := exec.Command("iverilog", "-g2001", "-o", simv, dtb, dv).CombinedOutput(); err != nil {
		t.Fatalf("iverilog: %v\n%s", err, out)
	}
	out, err := exec.Command("vvp", "-n", simv, "+in="+din).Output()
	if err != nil {
		t.Fatalf("vvp: %v\n%s", err, out)
	}
	return string(out)
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
	if _, err := exec.LookPath("verilator"); err != nil {
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
	if out, err := exec.Command("verilator", "--lint-only", "-Wall", f).CombinedOutput(); err != nil {
		t.Fatalf("verilator --lint-only -Wall: %v\n%s", err, out)
	}
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
	run := func(args ...string) []byte {
		cmd := exec.Command("ghdl", args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			msg := ""
			if ee, ok := err.(*exec.ExitError); ok {
				msg = string(ee.Stderr)
			}
			t.Fatalf("ghdl %s: %v\n%s%s", args[0], err, out, msg)
		}
		return out
	}
	run("-a", "--std=08", "design.vhd", "tb.vhd")
	run("-e", "--std=08", d.Name+"_tb")
	out := run("-r", "--std=08", d.Name+"_tb", "-ginfile=in.hex", "--ieee-asserts=disable")
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

func lookTool(tool string) (string, bool) {
	p, err := exec.LookPath(tool)
	return p, err == nil
}
