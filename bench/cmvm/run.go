package cmvmbench

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/cmvm"
	"github.com/otir-dev/otir/lower/dais"
	"github.com/otir-dev/otir/lower/tiles"
	"github.com/otir-dev/otir/parse"
	"github.com/otir-dev/otir/passes"
	_ "github.com/otir-dev/otir/passes/promote"
	"github.com/otir-dev/otir/passes/verify"
)

// Result is one solver's circuit for one matrix, counted the way issue 15
// counts: on the final ALIR program, every op of opcode 0 (add), 1 (sub)
// or -2 (negation) is an adder; Depth is the longest chain of such ops from
// an input to an output.
type Result struct {
	Adders int // opcodes 0, 1 and -2
	Negs   int // of which opcode -2
	Depth  int
	// Time is the solver's time: cmvm.Solve for otir (the whole lowering,
	// parse to ALIR, is Pipeline), the solver call cmvm_cli reports for
	// the references.
	Time, Pipeline time.Duration
	// Exact is set once the program was checked against x @ W on random
	// int8 inputs (otir: otir's ALIR interpreter; references: the same on
	// their ALIR v4 JSON).
	Exact bool
}

// Count counts the adders, negations and adder depth of an ALIR program.
func Count(p *alir.Program) Result {
	var r Result
	for _, op := range p.Ops {
		if IsAdder(op.Opcode) {
			r.Adders++
		}
		if op.Opcode == alir.OpNeg {
			r.Negs++
		}
	}
	r.Depth = OutputDepth(p, Depths(p, func(i int) bool { return IsAdder(p.Ops[i].Opcode) }))
	return r
}

// IsAdder reports whether an ALIR opcode is an adder: add, sub or
// negation.
func IsAdder(c alir.Opcode) bool { return c == alir.OpAdd || c == alir.OpSub || c == alir.OpNeg }

// Depths returns, for every op of p, the most ops that step selects (by
// slot) on a path from an input to it, itself included.
func Depths(p *alir.Program, step func(i int) bool) []int {
	depth := make([]int, len(p.Ops))
	for i := range p.Ops {
		d := 0
		for _, id := range p.Operands(i) {
			if id >= 0 && int(id) < i {
				d = max(d, depth[id])
			}
		}
		if step(i) {
			d++
		}
		depth[i] = d
	}
	return depth
}

// OutputDepth is the largest depth of an output.
func OutputDepth(p *alir.Program, depth []int) int {
	d := 0
	for _, o := range p.Outputs {
		if o.Index >= 0 {
			d = max(d, depth[o.Index])
		}
	}
	return d
}

// kernel returns an OTIR module computing y = x @ w for x a row of
// len(w) int8 values and y int32 (a zero bias, so no constant absorbs an
// output's sign).
func kernel(w [][]int64) string {
	n, c := int64(len(w)), int64(len(w[0]))
	i8, i32 := ir.Int(8, true), ir.Int(32, true)
	welem := i8
	ws := make([]*big.Int, 0, n*c)
	for _, r := range w {
		for _, v := range r {
			if v < -128 || v > 127 {
				welem = ir.Int(16, true)
			}
			ws = append(ws, big.NewInt(v))
		}
	}
	zeros := make([]*big.Int, c)
	for j := range zeros {
		zeros[j] = new(big.Int)
	}
	xg, xp := ir.Tile([]int64{1, n}, i8, ir.Global), ir.Tile([]int64{1, n}, i8, ir.Private)
	yg, yp := ir.Tile([]int64{1, c}, i32, ir.Global), ir.Tile([]int64{1, c}, i32, ir.Private)
	wp := ir.Tile([]int64{n, c}, welem, ir.Private)
	var b strings.Builder
	fmt.Fprintf(&b, "module attributes {otir.typing_style = \"hls\"} {\n")
	fmt.Fprintf(&b, "  otir.kernel @cmvm(%%x: %s, %%y: %s) {\n", xg, yg)
	fmt.Fprintf(&b, "    %%vx = otir.load %%x : %s -> %s\n", xg, xp)
	fmt.Fprintf(&b, "    %%w = otir.constant %s\n", &ir.DenseAttr{Type: wp, Ints: ws})
	fmt.Fprintf(&b, "    %%b = otir.constant %s\n", &ir.DenseAttr{Type: yp, Ints: zeros})
	fmt.Fprintf(&b, "    %%out = otir.matmul %%vx, %%w, %%b : (%s, %s, %s) -> %s\n", xp, wp, yp, yp)
	fmt.Fprintf(&b, "    otir.store %%out, %%y : %s, %s\n", yp, yg)
	b.WriteString("    otir.return\n  }\n}\n")
	return b.String()
}

// Otir lowers y = x @ w through promote-types and lower-tiles (with the
// given max-adder-depth: 0 or cmvm.DepthMinimal) to ALIR and counts the
// program. It also times cmvm.Solve alone, with the options lower-tiles
// uses, and checks the program on random inputs.
func Otir(w [][]int64, maxDepth int) (Result, error) {
	t0 := time.Now()
	m, err := parse.Parse("cmvm.otir", []byte(kernel(w)), parse.Options{})
	if err != nil {
		return Result{}, err
	}
	if l := verify.Verify(m); l.HasErrors() {
		return Result{}, l
	}
	pl, err := passes.ParsePipeline("builtin.module(promote-types)")
	if err != nil {
		return Result{}, err
	}
	pm, err := passes.NewManager(pl)
	if err != nil {
		return Result{}, err
	}
	if l := pm.Run(m); l.HasErrors() {
		return Result{}, l
	}
	ks := otir.Kernels(m)
	prog, err := tiles.LowerKernel(ks[0], tiles.Options{MaxOps: 1 << 24, CarrySize: -1, AdderSize: -1, MaxAdderDepth: maxDepth})
	if err != nil {
		return Result{}, err
	}
	p, err := dais.ToALIR(prog)
	if err != nil {
		return Result{}, err
	}
	pipe := time.Since(t0)
	r := Count(p)
	r.Pipeline = pipe
	if r.Exact, err = exact(p, w); err != nil {
		return r, err
	}
	// The solver alone, as lower-tiles calls it (rows are outputs).
	prob := cmvm.Problem{Matrix: w, Transposed: true, Inputs: make([]cmvm.Interval, len(w))}
	for j := range prob.Inputs {
		prob.Inputs[j] = cmvm.Interval{Lo: -128, Hi: 127}
	}
	t1 := time.Now()
	if _, err := cmvm.Solve(prob, cmvm.Options{Restarts: -1, CarrySize: -1, AdderSize: -1, MaxDepth: maxDepth}); err != nil {
		return r, err
	}
	r.Time = time.Since(t1)
	return r, nil
}

// exact runs p on 64 random int8 rows (and the corners) and compares with
// x @ w.
func exact(p *alir.Program, w [][]int64) (bool, error) {
	n, c := len(w), len(w[0])
	if p.NumInputs() != n || p.NumOutputs() != c {
		return false, fmt.Errorf("program has %d inputs, %d outputs; want %d, %d", p.NumInputs(), p.NumOutputs(), n, c)
	}
	mach, err := alir.Compile(p)
	if err != nil {
		return false, err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const rows = 66
	in := make([]float64, rows*n)
	for s := range rows {
		for k := range n {
			switch s {
			case 0:
				in[s*n+k] = -128
			case 1:
				in[s*n+k] = 127
			default:
				in[s*n+k] = float64(rng.IntN(256) - 128)
			}
		}
	}
	out, err := mach.Run(in, rows)
	if err != nil {
		return false, err
	}
	for s := range rows {
		for j := range c {
			var want int64
			for k := range n {
				want += int64(in[s*n+k]) * w[k][j]
			}
			if out[s*c+j] != float64(want) {
				return false, fmt.Errorf("sample %d output %d: %v, want %d", s, j, out[s*c+j], want)
			}
		}
	}
	return true, nil
}

// Reference runs a reference solver (cmvm_cli or cmvm_cli_alkaid) on w
// with hard_dc = hardDC (-1: their default, unconstrained; 0: minimal
// depth), in dir, stopping it after timeout (then ok is false). It counts
// the program the solver wrote and checks it on random inputs.
func Reference(bin, dir string, w [][]int64, hardDC int, timeout time.Duration) (r Result, ok bool, err error) {
	wpath := filepath.Join(dir, "W.txt")
	if err := WriteMatrix(wpath, w); err != nil {
		return r, false, err
	}
	prefix := filepath.Join(dir, "out")
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	args := []string{wpath, prefix, "--quiet"}
	if hardDC >= 0 {
		args = append(args, "--hard-dc", strconv.Itoa(hardDC), "--no-search-all")
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	outb, err := cmd.Output()
	if ctx.Err() != nil {
		return r, false, nil
	}
	if err != nil {
		return r, false, fmt.Errorf("%s: %v", bin, err)
	}
	for _, line := range strings.Split(string(outb), "\n") {
		k, v, found := strings.Cut(line, ":")
		if found && strings.TrimSpace(k) == "time_ms" {
			f, _ := strconv.ParseFloat(strings.Fields(v)[0], 64)
			r.Time = time.Duration(f * float64(time.Millisecond))
		}
	}
	p, _, err := alir.ReadFile(prefix+".json", alir.FormatAuto)
	if err != nil {
		return r, false, err
	}
	c := Count(p)
	c.Time = r.Time
	c.Exact, err = exact(p, w)
	os.Remove(prefix + ".json")
	os.Remove(prefix + "stage0.json")
	os.Remove(prefix + "stage1.json")
	return c, true, err
}
