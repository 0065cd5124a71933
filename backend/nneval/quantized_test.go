package nneval

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/ir/optable"
	"github.com/otir-dev/otir/parse"
	"github.com/otir-dev/otir/passes/verify"
)

// quantizedDir holds the cases of tests/nn/Inputs/quantized/gen.py, whose
// expected values that script computes in exact rational arithmetic of its
// own (floor, wrap, floor division, NumPy's functions for the tables).
const quantizedDir = "../../tests/nn/Inputs/quantized"

// alkaidMLP is the quantized alkaid-mlp graph (the conformance case's
// graph.mlir with the types of its quant.json).
const alkaidMLP = "../../tests/nn/Inputs/alkaid-mlp-q.mlir"

// readGraph parses and verifies the file's only graph.
func readGraph(t testing.TB, path string) *ir.Operation {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g := parseGraph(t, path, string(src))
	if ds := verify.VerifyOp(g); ds.HasErrors() {
		t.Fatal(ds)
	}
	return g
}

// parseGraph parses src (named file in messages), which holds one graph.
func parseGraph(t testing.TB, file, src string) *ir.Operation {
	t.Helper()
	m, err := parse.Parse(file, []byte(src), parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := FindGraph(m, "")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestQuantizedGolden: every case evaluates bit for bit to the generator's
// values, for each output.
func TestQuantizedGolden(t *testing.T) {
	ms, _ := filepath.Glob(filepath.Join(quantizedDir, "*.mlir"))
	if len(ms) < 10 {
		t.Fatalf("found %d cases in %s, want at least 10", len(ms), quantizedDir)
	}
	for _, path := range ms {
		name := strings.TrimSuffix(filepath.Base(path), ".mlir")
		t.Run(name, func(t *testing.T) {
			readGraph(t, path) // verifies
			g, io, ins, p := readCase(t, strings.TrimSuffix(path, ".mlir"))
			res, err := Eval(g, ins, p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			forOutputs(t, res, io, func(i, k int, g, w float64) {
				if math.Float64bits(g) != math.Float64bits(w) && !(g == 0 && w == 0) {
					t.Errorf("output #%d, element %d: got %v, want %v", i, k, g, w)
				}
			})
		})
	}
}

// conformanceDir is ../shared/conformance beside the module root (present
// in CI next to the clone).
func conformanceDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.mod above the test's directory")
		}
		dir = parent
	}
	c := filepath.Join(dir, "..", "shared", "conformance")
	if _, err := os.Stat(c); err != nil {
		t.Skipf("the conformance files are not beside the module (%s): %v", c, err)
	}
	return c
}

// readRows reads a text file of whitespace-separated float64 rows.
func readRows(t *testing.T, path string) [][]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var row []float64
		for _, s := range strings.Fields(sc.Text()) {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("%s:%d: %v", path, len(rows)+1, err)
			}
			row = append(row, v)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestAlkaidMLP: the quantized alkaid-mlp graph computes alkaid's outputs
// (expected.txt, alir_v4_run's output of alkaid's program) bit for bit on
// all 1000 rows of inputs.txt, rows that wrap included.
func TestAlkaidMLP(t *testing.T) {
	dir := filepath.Join(conformanceDir(t), "alir", "alkaid-mlp")
	g := readGraph(t, alkaidMLP)
	p, err := tensor.ReadPayloadFile(filepath.Join(dir, "params.npz"))
	if err != nil {
		t.Fatal(err)
	}
	inputs := readRows(t, filepath.Join(dir, "inputs.txt"))
	expected := readRows(t, filepath.Join(dir, "expected.txt"))
	if len(inputs) != 1000 || len(expected) != 1000 {
		t.Fatalf("%d input rows and %d expected rows, want 1000 each", len(inputs), len(expected))
	}
	bad := 0
	for r, row := range inputs {
		res, err := Eval(g, []*tensor.Tensor{{Shape: []int64{16}, Data: row}}, p, Options{})
		if err != nil {
			t.Fatalf("row %d: %v", r, err)
		}
		got := res.Outputs[0].Data
		for k, w := range expected[r] {
			if math.Float64bits(got[k]) != math.Float64bits(w) {
				if bad++; bad <= 5 {
					t.Errorf("row %d, output %d: got %v, alkaid %v", r, k, got[k], w)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of 5000 outputs differ", bad)
	}
}

// TestRequantize: floor to the scale, then wrap to the width, from a finer
// and from a coarser scale.
func TestRequantize(t *testing.T) {
	u7 := quant.Uniform(7, false, 3)
	i5 := quant.Uniform(5, true, 1)
	for _, c := range []struct {
		t    *quant.UniformType
		m    int64
		f    int
		want int64
	}{
		{u7, 8 * 32, 8, 8},              // 1.0 at 2^-8 → 8 at 2^-3
		{u7, 17 * 32 * 8, 8, 136 - 128}, // 17.0 wraps modulo 16
		{u7, -1, 8, 127},                // floor(-1/256·8) = -1, wraps to 127
		{i5, -3, 2, -2},                 // floor(-0.75·2) = -2
		{i5, 3, -2, 24 - 32},            // 12 → 24 at 2^-1, wraps to -8
		{i5, 1, -70, 0},                 // 2^70 → multiple of 2^5: 0
		{i5, -5, 90, -1},                // tiny negative → floor -1
	} {
		got := Requantize(&Exact{Shape: []int64{1}, M: []int64{c.m}, F: c.f}, c.t)
		if got.M[0] != c.want || got.F != c.t.Frac {
			t.Errorf("Requantize(%d·2^-%d, %s) = %d·2^-%d, want %d", c.m, c.f, c.t, got.M[0], got.F, c.want)
		}
	}
}

// TestExactErrors: a value beyond 62 bits is an error at the node that
// suggests a quantized type; a payload entry that is not finite, or that
// needs more than 62 bits at one scale, an error naming the entry.
func TestExactErrors(t *testing.T) {
	src := `nn.graph @g(%x: tensor<2x!quant.uniform<i40:f64, 1.0>>) -> tensor<2xf64> {
  %0 = nn.mul %x, %x : (tensor<2x!quant.uniform<i40:f64, 1.0>>, tensor<2x!quant.uniform<i40:f64, 1.0>>) -> tensor<2xf64>
  nn.return %0 : tensor<2xf64>
}
nn.graph @h(%x: tensor<2x!quant.uniform<i8:f64, 1.0>>) -> tensor<1x!quant.uniform<i8:f64, 1.0>> {
  %0 = nn.linear %x {params = "fc"} : (tensor<2x!quant.uniform<i8:f64, 1.0>>) -> tensor<1x!quant.uniform<i8:f64, 1.0>>
  nn.return %0 : tensor<1x!quant.uniform<i8:f64, 1.0>>
}
`
	m, err := parse.ParseString("e.mlir", src, parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := FindGraph(m, "g")
	_, err = Eval(g, []*tensor.Tensor{{Shape: []int64{2}, Data: []float64{1 << 35, 3}}}, nil, Options{})
	want := "e.mlir:2:3: error: 'nn.mul' op %0: its exact value needs more than 62 bits at scale 2^0: give it a quantized result type (a circuit cannot hold it exactly)"
	if err == nil || err.Error() != want {
		t.Errorf("mul overflow: got %v\nwant %s", err, want)
	}
	h, _ := FindGraph(m, "h")
	x := &tensor.Tensor{Shape: []int64{2}, Data: []float64{1, 2}}
	for _, c := range []struct {
		w    []float64
		want string
	}{
		{[]float64{math.NaN(), 1}, "payload entry 'fc.weight' holds NaN, which has no exact value"},
		{[]float64{1e10, 1e-10}, "payload entry 'fc.weight' needs more than 62 bits at one scale"},
		{[]float64{1 << 40, 1 << 40}, "its exact value, before quantization to '!quant.uniform<i8:f64, 1.0>', needs more than 62 bits"},
	} {
		p := tensor.Payload{"fc.weight": {Shape: []int64{1, 2}, Data: c.w}, "fc.bias": {Shape: []int64{1}, Data: []float64{0.5}}}
		x.Data = []float64{1<<7 - 1, 1<<7 - 1}
		if c.w[0] == 1<<40 {
			x.Data = []float64{-128, -128} // 2^47 per product: fits; the sum fits; so scale the bias
			p["fc.bias"].Data[0] = math.Ldexp(1, -20)
		}
		_, err := Eval(h, []*tensor.Tensor{x}, p, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("weights %v: got %v, want an error containing %q", c.w, err, c.want)
		}
	}
}

// TestFloatReading: Options.Float evaluates a quantized graph as the float
// graph of the same nodes: nothing is quantized.
func TestFloatReading(t *testing.T) {
	g := readGraph(t, filepath.Join(quantizedDir, "relu.mlir"))
	x := &tensor.Tensor{Shape: []int64{16}, Data: make([]float64, 16)}
	x.Data[0] = 20.3
	res, err := Eval(g, []*tensor.Tensor{x}, nil, Options{Float: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outputs[0].Data[0] != 20.3 || res.Exact != nil {
		t.Errorf("float reading of relu(20.3) = %v (exact %v), want 20.3 and no exact values", res.Outputs[0].Data[0], res.Exact)
	}
	res, err = Eval(g, []*tensor.Tensor{x}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// i10 at 1/16 floors 20.3 to 20.25; relu into u5 at 1/4: 81 wraps to
	// 81 mod 32 = 17, 4.25.
	if got := res.Outputs[0].Data[0]; got != 4.25 {
		t.Errorf("quantized relu(20.3) = %v, want 4.25", got)
	}
}

// TestUnaryFunc: the function kinds, and only they, export their function.
func TestUnaryFunc(t *testing.T) {
	for _, name := range []string{"nn.exp", "nn.log", "nn.tanh", "nn.sigmoid", "nn.sqrt", "nn.inv", "nn.sin", "nn.cos"} {
		if f, ok := UnaryFunc(name); !ok || f == nil {
			t.Errorf("UnaryFunc(%s): no function", name)
		}
	}
	for _, name := range []string{"nn.relu", "nn.abs", "nn.add", "nn.nothing"} {
		if _, ok := UnaryFunc(name); ok {
			t.Errorf("UnaryFunc(%s) has a function", name)
		}
	}
	if f, _ := UnaryFunc("nn.sigmoid"); f(0) != 0.5 {
		t.Errorf("sigmoid(0) = %v", f(0))
	}
}

// randomQuantizedGraph builds the text of a graph from the bytes of b: a
// chain of element-wise and reduction nodes on [4] tensors, each result
// quantized (width, signedness, scale from b) or f64 when the kind allows.
func randomQuantizedGraph(b []byte) string {
	next := func() int {
		if len(b) == 0 {
			return 0
		}
		v := int(b[0])
		b = b[1:]
		return v
	}
	qtype := func() string {
		w := 2 + next()%20
		s := "i"
		if next()%2 == 0 && w > 1 {
			s = "u"
		}
		return fmt.Sprintf("!quant.uniform<%s%d:f64, %s>", s, w, quant.FormatScale(next()%16-4))
	}
	var lines []string
	vals := []struct{ name, elem string }{{"%x", qtype()}}
	kinds := []string{"add", "sub", "mul", "max", "min", "relu", "abs", "exp", "tanh", "sigmoid", "inv", "sqrt", "log", "sin", "cos", "detach", "reduce_mean"}
	for i := 0; i < 8 && len(b) > 0; i++ {
		kind := kinds[next()%len(kinds)]
		a := vals[next()%len(vals)]
		c := vals[next()%len(vals)]
		elem := "f64"
		if next()%3 != 0 {
			elem = qtype()
		}
		name := fmt.Sprintf("%%%d", i)
		ty := func(e string) string { return "tensor<4x" + e + ">" }
		switch kind {
		case "add", "sub", "mul", "max", "min":
			lines = append(lines, fmt.Sprintf("  %s = nn.%s %s, %s : (%s, %s) -> %s", name, kind, a.name, c.name, ty(a.elem), ty(c.elem), ty(elem)))
		case "reduce_mean":
			lines = append(lines, fmt.Sprintf("  %s = nn.broadcast_to %s : (%s) -> tensor<2x4x%s>", name+"b", a.name, ty(a.elem), a.elem))
			lines = append(lines, fmt.Sprintf("  %s = nn.reduce_mean %s {axis = 0} : (tensor<2x4x%s>) -> %s", name, name+"b", a.elem, ty(elem)))
		default:
			lines = append(lines, fmt.Sprintf("  %s = nn.%s %s : (%s) -> %s", name, kind, a.name, ty(a.elem), ty(elem)))
		}
		vals = append(vals, struct{ name, elem string }{name, elem})
	}
	last := vals[len(vals)-1]
	return fmt.Sprintf("nn.graph @g(%%x: tensor<4x%s>) -> tensor<4x%s> {\n%s\n  nn.return %s : tensor<4x%s>\n}\n",
		vals[0].elem, last.elem, strings.Join(lines, "\n"), last.name, last.elem)
}

// FuzzQuantized: random quantized graphs that verify evaluate without
// panicking to values in their types (each quantized value a stored integer
// of its type at its scale), or to an error naming a node.
func FuzzQuantized(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add([]byte{200, 7, 3, 0, 0, 1, 9, 9, 2, 16, 5, 5, 5, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte("quantized graphs, wrapped and floored"))
	f.Fuzz(func(t *testing.T, b []byte) {
		src := randomQuantizedGraph(b)
		m, err := parse.ParseString("f.mlir", src, parse.Options{})
		if err != nil || verify.Verify(m).HasErrors() {
			return
		}
		g, _ := FindGraph(m, "")
		x := &tensor.Tensor{Shape: []int64{4}, Data: []float64{-3.3, 0, 7.9, 1e300}}
		res, err := Eval(g, []*tensor.Tensor{x}, nil, Options{})
		if err != nil {
			if !strings.Contains(err.Error(), "error: ") {
				t.Fatalf("error without a location: %v", err)
			}
			return
		}
		for i, v := range res.Values {
			e := res.Exact[i]
			q := quant.ElementOf(v.Value.Type)
			if q == nil {
				continue
			}
			for _, m := range e.M {
				if e.F != q.Frac || m < q.QMin() || m > q.QMax() {
					t.Fatalf("%s\nvalue #%d: %d·2^-%d is not a stored integer of %s", src, i, m, e.F, q)
				}
			}
		}
	})
}

// TestExactOpsComplete: a kind has a quantized meaning (exactOps) exactly
// when the verifier allows it in a quantized graph; the function kinds
// (and only they) read a lookup table of their float function.
func TestExactOpsComplete(t *testing.T) {
	forbidden := map[string]string{nn.OpGraph: "is what Eval runs", nn.OpReturn: "names the outputs"}
	for _, d := range ir.DialectOps("nn") {
		if _, skip := forbidden[d.Name]; skip {
			continue
		}
		role := nn.QuantRoleOf(d.Name)
		if role == nn.QuantForbidden {
			forbidden[d.Name] = "is not allowed in a quantized graph (nn.QuantForbidden)"
		}
		if _, fn := UnaryFunc(d.Name); fn != (role == nn.QuantFunction) {
			t.Errorf("%s: role %d, but UnaryFunc gives a function: %v", d.Name, role, fn)
		}
	}
	for _, err := range exactOps.Complete(optable.Completeness[func(*node) (*Exact, error)]{
		Dialects: []string{"nn"}, NotInTable: forbidden,
	}) {
		t.Error(err)
	}
}
