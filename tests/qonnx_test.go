package tests

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/backend/rtl"
)

// The QONNX end-to-end tests (issue 27, docs/qonnx.md) run every model of
// tests/qonnx/Inputs (written by its gen.py: equivalents of the QONNX
// model zoo's MLPs, random QONNX MLPs, small CNNs, residual, MobileNet and
// gated blocks)
// the way a user does:
//
//  1. otir-translate --import-onnx MODEL.onnx;
//  2. otir-run on the imported graph, one sample at a time, must give the
//     generator's float64 reference (NAME.ref.npy) bit for bit (a final
//     softmax: its operand bit for bit, see checkQONNXEvaluator);
//  3. nn-to-circuit{input-type=T drop-final-softmax=true} (T from
//     models.json) and otir-run on the ALIR program must give the exact
//     outputs (NAME.exact.txt, rationals) bit for bit; with
//     OTIR_REFERENCE_BIN set (the reference tools' bin folder,
//     ../shared/reference-tools), alkaid's alir_v4_run must too; a graph
//     with a float tail (TFC) gives the float64 reference bit for bit
//     after the tail (checkQONNXTail);
//  4. for the jet tagger, the circuit's Verilog (backend/rtl) simulated in
//     Icarus Verilog and in Verilator must give the exact outputs too.

// qonnxModel is an entry of tests/qonnx/Inputs/models.json.
type qonnxModel struct {
	InputType        string `json:"input_type"`
	DropFinalSoftmax bool   `json:"drop_final_softmax"`
	// OutputULPs is how far the outputs may lie from the reference when
	// the graph ends in a float function (a final Sigmoid: Go's math.Exp
	// and NumPy's differ in the last bits).
	OutputULPs int64 `json:"output_ulps"`
}

// qonnxBin builds otir-translate, otir-opt and otir-run into a temporary
// folder and returns it.
func qonnxBin(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-o", dir+string(os.PathSeparator), "./cmd/otir-translate", "./cmd/otir-opt", "./cmd/otir-run")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

// tool is a command of the bin folder.
type tool struct{ bin string }

// run runs the command name with args (stdin when not nil) and returns
// its standard output and standard error.
func (b tool) run(stdin []byte, name string, args ...string) (stdout []byte, stderr string, err error) {
	cmd := exec.Command(filepath.Join(b.bin, name), args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var eb bytes.Buffer
	cmd.Stderr = &eb
	out, err := cmd.Output()
	return out, eb.String(), err
}

func readNPY(t *testing.T, path string) *npy.Float64Array {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a, err := npy.Read(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return a
}

func writeNPY(t *testing.T, path string, shape []int, data []float64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	err = npy.Write(f, shape, data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}

// readExact reads NAME.exact.txt: one sample per line, each value p/q.
func readExact(t *testing.T, path string) [][]*big.Rat {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]*big.Rat
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var row []*big.Rat
		for _, f := range strings.Fields(line) {
			r, ok := new(big.Rat).SetString(f)
			if !ok {
				t.Fatalf("%s: bad rational %q", path, f)
			}
			row = append(row, r)
		}
		rows = append(rows, row)
	}
	return rows
}

// exactMismatch returns the first index where got is not the exact
// value: bit for bit when the exact value is a float64, else got must be
// its nearest float64; -1 when all agree.
func exactMismatch(got []float64, want []*big.Rat) int {
	if len(got) != len(want) {
		return 0
	}
	for i, w := range want {
		f, exact := w.Float64()
		if exact {
			if math.Float64bits(got[i]) != math.Float64bits(f) && !(got[i] == 0 && f == 0) {
				return i
			}
		} else if got[i] != f {
			return i
		}
	}
	return -1
}

func TestQONNXModels(t *testing.T) {
	if testing.Short() {
		t.Skip("tests: the QONNX models build circuits (seconds each); skipped in -short")
	}
	inputs := filepath.Join("qonnx", "Inputs")
	data, err := os.ReadFile(filepath.Join(inputs, "models.json"))
	if err != nil {
		t.Fatal(err)
	}
	models := map[string]qonnxModel{}
	if err := json.Unmarshal(data, &models); err != nil {
		t.Fatal(err)
	}
	b := tool{qonnxBin(t)}
	names := make([]string, 0, len(models))
	for name := range models {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		m := models[name]
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			graph, params := filepath.Join(dir, "g.mlir"), filepath.Join(dir, "p.npz")
			if _, stderr, err := b.run(nil, "otir-translate", "--import-onnx", filepath.Join(inputs, name+".onnx"), "-o", graph, "--params-out", params); err != nil {
				t.Fatalf("import: %v\n%s", err, stderr)
			}
			xs := readNPY(t, filepath.Join(inputs, name+".in.npy"))
			t.Run("evaluate", func(t *testing.T) {
				checkQONNXEvaluator(t, b, dir, graph, params, filepath.Join(inputs, name), xs, m.OutputULPs)
			})
			t.Run("circuit", func(t *testing.T) {
				checkQONNXCircuit(t, b, dir, name, graph, params, m, xs, readNPY(t, filepath.Join(inputs, name+".ref.npy")), readExact(t, filepath.Join(inputs, name+".exact.txt")))
			})
		})
	}
}

// checkQONNXEvaluator runs the imported graph on each sample with otir-run
// and compares with the float64 reference (NAME.ref.npy) bit for bit. A
// graph that ends in a softmax is compared bit for bit on the softmax's
// operand (NAME.logits.npy, read from otir-run --all-values) and within
// 4 units in the last place on the softmax: its exp is Go's math.Exp in
// otir-run, the C library's in NumPy, which may differ in the last bit.
func checkQONNXEvaluator(t *testing.T, b tool, dir, graph, params, inputs string, xs *npy.Float64Array, outputULPs int64) {
	ref := readNPY(t, inputs+".ref.npy")
	var logits *npy.Float64Array
	var logitsName string
	if _, err := os.Stat(inputs + ".logits.npy"); err == nil {
		logits = readNPY(t, inputs+".logits.npy")
		text, err := os.ReadFile(graph)
		if err != nil {
			t.Fatal(err)
		}
		_, after, ok := strings.Cut(string(text), "= nn.softmax %")
		if !ok {
			t.Fatal("the reference has logits but the graph has no nn.softmax")
		}
		logitsName = strings.Fields(after)[0]
	}
	n := xs.Shape[0]
	inSize, outSize := len(xs.Data)/n, len(ref.Data)/n
	x, y, all := filepath.Join(dir, "x.npy"), filepath.Join(dir, "y.npy"), filepath.Join(dir, "values")
	for s := range n {
		writeNPY(t, x, xs.Shape[1:], xs.Data[s*inSize:(s+1)*inSize])
		if _, stderr, err := b.run(nil, "otir-run", graph, "--params", params, "--input", x, "--output", y, "--all-values", all); err != nil {
			t.Fatalf("sample %d: otir-run: %v\n%s", s, err, stderr)
		}
		ulps := outputULPs
		if logits != nil {
			ulps = 4
			want := logits.Data[s*outSize : (s+1)*outSize]
			for i, v := range readNPY(t, filepath.Join(all, logitsName+".npy")).Data {
				if math.Float64bits(v) != math.Float64bits(want[i]) {
					t.Errorf("sample %d logit %d: otir-run %v (%#x), reference %v (%#x)", s, i, v, math.Float64bits(v), want[i], math.Float64bits(want[i]))
				}
			}
		}
		want := ref.Data[s*outSize : (s+1)*outSize]
		for i, v := range readNPY(t, y).Data {
			if d := int64(math.Float64bits(v)) - int64(math.Float64bits(want[i])); d > ulps || d < -ulps {
				t.Errorf("sample %d output %d: otir-run %v (%#x), reference %v (%#x)", s, i, v, math.Float64bits(v), want[i], math.Float64bits(want[i]))
			}
		}
	}
}

// checkQONNXCircuit builds the circuit with nn-to-circuit, runs it with
// otir-run (and alkaid's alir_v4_run when OTIR_REFERENCE_BIN is set) on
// all samples, and compares with the exact outputs. When the graph ends in
// a float tail that no circuit holds exactly (FINN's TFC), nn-to-circuit
// writes it to tail=FILE (lower/nn/qonnx) and the circuit's outputs go
// through it as the host does (checkQONNXTail).
func checkQONNXCircuit(t *testing.T, b tool, dir, name, graph, params string, m qonnxModel, xs, ref *npy.Float64Array, exact [][]*big.Rat) {
	opts := "input-type=" + m.InputType
	if m.DropFinalSoftmax {
		opts += " drop-final-softmax=true"
	}
	prog, tail := filepath.Join(dir, "c.json"), filepath.Join(dir, "tail.mlir")
	if _, stderr, err := b.run(nil, "otir-opt", graph, "--params", params,
		"--pass-pipeline=builtin.module(nn-to-circuit{"+opts+" tail="+tail+"})", "--emit=alir-v4-json", "-o", prog); err != nil {
		t.Fatalf("nn-to-circuit{%s}: %v\n%s", opts, err, stderr)
	}
	_, err := os.Stat(tail)
	hasTail := err == nil
	n := xs.Shape[0]
	var rows bytes.Buffer
	if err := alir.WriteRows(&rows, xs.Data, len(xs.Data)/n); err != nil {
		t.Fatal(err)
	}
	compare := func(tool string, out []byte) {
		got, nr, cols, err := alir.ReadRows(bytes.NewReader(out))
		if err != nil || nr != n {
			t.Fatalf("%s: %d rows (want %d): %v", tool, nr, n, err)
		}
		if hasTail {
			checkQONNXTail(t, b, tool, dir, tail, params, got, cols, ref, m.OutputULPs)
			return
		}
		for s := range n {
			if k := exactMismatch(got[s*cols:(s+1)*cols], exact[s]); k >= 0 {
				want := "?"
				if k < len(exact[s]) {
					want = exact[s][k].RatString()
				}
				t.Errorf("%s: sample %d output %d: %v, exact %s", tool, s, k, got[s*cols+k], want)
			}
		}
	}
	out, stderr, err := b.run(rows.Bytes(), "otir-run", prog, "--input", "-")
	if err != nil {
		t.Fatalf("otir-run: %v\n%s", err, stderr)
	}
	compare("otir-run", out)
	if name == "jet_tagger" {
		for _, sim := range []string{"iverilog", "verilator"} {
			t.Run(sim, func(t *testing.T) { compare(sim, simulateQONNX(t, sim, prog, xs)) })
		}
	}
	if ref := os.Getenv("OTIR_REFERENCE_BIN"); ref != "" {
		cmd := exec.Command(filepath.Join(ref, "alir_v4_run"), prog, "-")
		cmd.Stdin = bytes.NewReader(rows.Bytes())
		var eb bytes.Buffer
		cmd.Stderr = &eb
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("alir_v4_run: %v\n%s", err, eb.String())
		}
		compare("alir_v4_run", out)
	}
}

// simulateQONNX writes the program's combinational Verilog with its
// testbench (backend/rtl, docs/rtl.md), simulates it on the samples in
// Icarus Verilog (sim "iverilog") or Verilator ("verilator") and returns
// the output rows as otir-run prints them (each lane read as its
// fixed-point value).
func simulateQONNX(t *testing.T, sim, prog string, xs *npy.Float64Array) []byte {
	if _, err := exec.LookPath(sim); err != nil {
		t.Skipf("tests: %s not installed (Debian package %s)", sim, map[string]string{"iverilog": "iverilog", "verilator": "verilator"}[sim])
	}
	p, _, err := alir.ReadFile(prog, alir.FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	d, err := rtl.Build(p, rtl.Options{Name: "qonnx"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var v, tb, rows bytes.Buffer
	if err := d.WriteVerilog(&v); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteVerilogTestbench(&tb); err != nil {
		t.Fatal(err)
	}
	if err := d.EncodeInputs(&rows, p.InShifts, xs.Data); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"qonnx.v": v.Bytes(), "qonnx_tb.v": tb.Bytes(), "in.hex": rows.Bytes()} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var cmds [][]string
	if sim == "iverilog" {
		cmds = [][]string{{"iverilog", "-g2001", "-o", "sim.vvp", "qonnx_tb.v", "qonnx.v"}, {"vvp", "-n", "sim.vvp", "+in=in.hex"}}
	} else { // -O0: the C++ compiler's optimizations cost more than they save on a few rows
		cmds = [][]string{{"verilator", "--binary", "--timing", "-MAKEFLAGS", "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0",
			"--top-module", "qonnx_tb", "-o", "sim", "qonnx_tb.v", "qonnx.v"}, {filepath.Join(dir, "obj_dir", "sim"), "+in=in.hex"}}
	}
	var out []byte
	for _, c := range cmds {
		cmd := exec.Command(c[0], c[1:]...)
		cmd.Dir = dir
		var eb bytes.Buffer
		cmd.Stderr = &eb
		if out, err = cmd.Output(); err != nil {
			t.Fatalf("%s: %v\n%s%s", c[0], err, out, eb.String())
		}
	}
	var vals []float64
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.Contains(line, "$finish") || strings.HasPrefix(line, "VCD") {
			continue
		}
		lanes, err := d.DecodeOutputs(line)
		if err != nil {
			t.Fatalf("%v (simulator output %q)", err, line)
		}
		for j, lane := range lanes {
			f, _ := new(big.Float).SetInt(lane).Float64()
			vals = append(vals, math.Ldexp(f, -d.Outputs[j].Frac))
		}
	}
	var text bytes.Buffer
	if err := alir.WriteRows(&text, vals, p.NumOutputs()); err != nil {
		t.Fatal(err)
	}
	return text.Bytes()
}

// checkQONNXTail applies the float tail (an nn graph, evaluated by otir-run
// with the model's payload) to each sample's circuit outputs got (cols a
// row), as the host does after the circuit, and compares with the float64
// reference bit for bit: the circuit's outputs are the exact values of the
// tensor the tail starts from, which the evaluator also holds exactly.
func checkQONNXTail(t *testing.T, b tool, what, dir, tail, params string, got []float64, cols int, ref *npy.Float64Array, ulps int64) {
	n := ref.Shape[0]
	outSize := len(ref.Data) / n
	x, y := filepath.Join(dir, "tail-x.npy"), filepath.Join(dir, "tail-y.npy")
	for s := range n {
		writeNPY(t, x, []int{1, cols}, got[s*cols:(s+1)*cols])
		if _, stderr, err := b.run(nil, "otir-run", tail, "--params", params, "--input", x, "--output", y); err != nil {
			t.Fatalf("%s: sample %d: otir-run on the tail: %v\n%s", what, s, err, stderr)
		}
		want := ref.Data[s*outSize : (s+1)*outSize]
		for i, v := range readNPY(t, y).Data {
			if d := int64(math.Float64bits(v)) - int64(math.Float64bits(want[i])); d > ulps || d < -ulps {
				t.Errorf("%s + tail: sample %d output %d: %v, reference %v", what, s, i, v, want[i])
			}
		}
	}
}
