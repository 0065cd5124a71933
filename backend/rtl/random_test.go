package rtl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
)

// The random program generator of backend/alir's differential tests
// (backend/alir/random_test.go), copied: every opcode of both dialects,
// wide and zero-width types, large shifts, odd inputs.

// randomKIF returns a random valid type: often narrow, sometimes 64 bits
// wide or zero-width, with fractional bits between -8 and 8.
func randomKIF(r *rand.Rand) alir.KIF {
	var w int
	signed := r.IntN(2) == 0
	switch r.IntN(12) {
	case 0:
		return alir.KIF{}
	case 1, 2:
		w = 64
	case 3:
		w = 60 + r.IntN(4)
	default:
		w = 1 + r.IntN(34)
	}
	f := r.IntN(17) - 8
	k := 0
	if signed {
		k = 1
	}
	return alir.KIF{Signed: signed, Integers: w - k - f, Fractionals: f}
}

// randomQInt returns the interval of a random type, sometimes narrowed to
// a sub-range with the same type.
func randomQInt(r *rand.Rand) alir.QInterval {
	t := randomKIF(r)
	q := t.QInterval()
	if t.Width() > 2 && t.Width() < 50 && r.IntN(3) == 0 {
		// A min a few steps inside keeps the type; it moves lookup pads.
		q.Min += float64(r.IntN(3)) * q.Step
		if t.Signed && q.Min >= 0 {
			q.Min = -q.Step
		}
	}
	return q
}

var opcodes = map[alir.Dialect][]alir.Opcode{
	alir.ALIR: {-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
	alir.DAIS: {-9, -6, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
}

func randShift(r *rand.Rand) int32 {
	if r.IntN(20) == 0 {
		return int32(r.IntN(161) - 80)
	}
	return int32(r.IntN(13) - 6)
}

// randomProgram builds a valid random program using every opcode of d
// (ALIR spec 2: no sums, no relative quantize shifts).
func randomProgram(r *rand.Rand, d alir.Dialect, nIn, nOps int) *alir.Program {
	return randomProgramOf(r, d, nIn, nOps, false)
}

// randomProgramV4 builds a valid random ALIR program using every opcode of
// spec 4: sums and quantizes with relative shifts too.
func randomProgramV4(r *rand.Rand, nIn, nOps int) *alir.Program {
	return randomProgramOf(r, alir.ALIR, nIn, nOps, true)
}

func randomProgramOf(r *rand.Rand, d alir.Dialect, nIn, nOps int, v4 bool) *alir.Program {
	p := &alir.Program{Dialect: d, InShifts: make([]int32, nIn), CarrySize: int32(r.IntN(4) - 1), AdderSize: int32(r.IntN(4) - 1)}
	for j := range p.InShifts {
		p.InShifts[j] = int32(r.IntN(7) - 3)
	}
	codes := opcodes[d]
	for i := 0; i < nOps; i++ {
		q := randomQInt(r)
		earlier := func() int32 { return int32(r.IntN(i)) }
		c := codes[r.IntN(len(codes))]
		if v4 && r.IntN(len(codes)+1) == 0 {
			c = alir.OpSum
		}
		if i == 0 || (i < nIn && r.IntN(2) == 0) {
			c = alir.OpInput
		}
		if i == 0 && nIn == 0 {
			c = alir.OpConst
		}
		op := alir.Op{Opcode: c, ID0: -1, ID1: -1, QInt: q, Latency: float64(r.IntN(8)) / 4, Cost: float64(r.IntN(8)) / 2}
		switch c {
		case alir.OpInput:
			if nIn == 0 {
				op.Opcode, op.Data = alir.OpConst, r.Int64()
				break
			}
			op.ID0 = int32(r.IntN(nIn))
		case alir.OpConst:
			op.Data = r.Int64() >> r.IntN(64)
		case alir.OpAdd, alir.OpSub:
			op.ID0, op.ID1, op.Data = earlier(), earlier(), int64(randShift(r))
		case alir.OpMul:
			op.ID0, op.ID1 = earlier(), earlier()
		case alir.OpMux, alir.OpNegMux:
			op.ID0, op.ID1 = earlier(), earlier()
			op.Data = alir.PackData(earlier(), randShift(r))
		case alir.OpConstAdd:
			op.ID0 = earlier()
			if d == alir.ALIR {
				op.Data = alir.PackData(int32(r.Uint32())>>r.IntN(32), int32(r.IntN(21)-10))
			} else {
				op.Data = r.Int64() >> (20 + r.IntN(44))
			}
		case alir.OpLookup:
			// A narrow operand and a table covering all its values.
			a := earlier()
			ta, _ := p.Ops[a].QInt.KIF()
			if ta.Width() > 10 {
				op.Opcode, op.ID0 = alir.OpQuantize, a
				break
			}
			vals := make([]int32, 1<<ta.Width()+r.IntN(3))
			for k := range vals {
				vals[k] = int32(r.Uint32()) >> r.IntN(32)
			}
			p.Tables = append(p.Tables, alir.Table{Values: vals})
			op.ID0, op.Data = a, int64(len(p.Tables)-1)
		case alir.OpBitUnary, alir.OpNegBitUnary:
			op.ID0, op.Data = earlier(), int64(r.IntN(3))
		case alir.OpBitBinary:
			op.ID0, op.ID1 = earlier(), earlier()
			op.Data = alir.BitBinaryData(randShift(r), uint8(r.IntN(3)))
		case alir.OpSum:
			op.Terms = make([]alir.Term, 2+r.IntN(4))
			for k := range op.Terms {
				op.Terms[k] = alir.Term{ID: earlier(), Shift: randShift(r), Neg: r.IntN(2) == 0}
			}
		case alir.OpQuantize:
			op.ID0 = earlier()
			if v4 && r.IntN(2) == 0 {
				op.Data = int64(randShift(r))
			}
		default: // unary: neg, relu, quantize and the DAIS negated forms
			op.ID0 = earlier()
		}
		p.Ops = append(p.Ops, op)
	}
	nOut := 1 + r.IntN(6)
	for range nOut {
		o := alir.Output{Index: int32(r.IntN(nOps+1) - 1), Shift: int32(r.IntN(9) - 4), Neg: r.IntN(2) == 0}
		p.Outputs = append(p.Outputs, o)
	}
	return p
}

// randomInputValues returns n rows of inputs: mostly moderate values, some
// huge, tiny, negative zero, infinite or NaN.
func randomInputValues(r *rand.Rand, nIn, n int) []float64 {
	in := make([]float64, n*nIn)
	for i := range in {
		switch r.IntN(40) {
		case 0:
			in[i] = math.NaN()
		case 1:
			in[i] = math.Inf(1 - 2*r.IntN(2))
		case 2:
			in[i] = (r.Float64() - 0.5) * 1e30
		case 3:
			in[i] = math.Copysign(0, -1)
		case 4:
			in[i] = (r.Float64() - 0.5) * 0x1p70
		default:
			in[i] = (r.Float64() - 0.5) * math.Ldexp(1, r.IntN(40)-8)
		}
	}
	return in
}

// randomCount is the number of random programs TestRandomIverilog
// simulates: a sample by default, OTIR_RTL_RANDOM=n for more.
func randomCount(def int) int {
	if s := os.Getenv("OTIR_RTL_RANDOM"); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			return n
		}
	}
	if testing.Short() {
		return def / 4
	}
	return def
}

// TestRandomIverilog is the differential test: random programs of both
// dialects with every opcode (ALIR spec 2 and spec 4, DAIS), each written
// combinational and pipelined, run in Icarus Verilog on random input rows
// (huge, tiny, negative zero, infinite, NaN) and compared bit for bit with
// the exact semantics and the interpreter. Only programs the interpreter
// refuses (alir.ErrTooWide) are left out.
func TestRandomIverilog(t *testing.T) {
	needTool(t, "iverilog")
	n := randomCount(40)
	for _, c := range randomCases(t, n, rand.New(rand.NewPCG(17, 2001))) {
		for _, cut := range []float64{0, 0.5} {
			t.Run(fmt.Sprintf("%s/cut%g", c.name, cut), func(t *testing.T) {
				check(t, c.name, c.p, Options{Name: "rnd", LatencyCutoff: cut}, c.in)
			})
		}
	}
}

type randomCase struct {
	name string
	p    *alir.Program
	in   []float64
}

// randomCases returns n random programs (of both dialects, ALIR spec 2 and
// 4 and DAIS, that the interpreter accepts) with 24 rows of inputs each;
// with n >= 40 every opcode must occur.
func randomCases(t *testing.T, n int, r *rand.Rand) []randomCase {
	t.Helper()
	seen := map[string]bool{}
	var cs []randomCase
	for it := 0; len(cs) < n && it < 20*n+100; it++ {
		d := alir.Dialect(it % 2)
		nIn := 1 + r.IntN(4)
		p := randomProgram(r, d, nIn, 1+r.IntN(40))
		if it%4 == 2 {
			p = randomProgramV4(r, nIn, 1+r.IntN(40))
		}
		if _, err := alir.Compile(p); err != nil {
			continue // too wide for the interpreter
		}
		for _, op := range p.Ops {
			seen[p.Dialect.OpName(op.Opcode)+"/"+p.Dialect.String()] = true
		}
		cs = append(cs, randomCase{fmt.Sprintf("it%d_%v", it, d), p, randomInputValues(r, nIn, 24)})
	}
	if len(cs) < n {
		t.Errorf("only %d of %d random programs could run", len(cs), n)
	}
	if n >= 40 {
		for _, d := range []alir.Dialect{alir.ALIR, alir.DAIS} {
			for _, c := range alir.Opcodes(d) {
				if k := d.OpName(c) + "/" + d.String(); !seen[k] {
					t.Errorf("no random program had %s", k)
				}
			}
		}
	}
	return cs
}

// TestRandomLint runs verilator --lint-only -Wall on random designs.
func TestRandomLint(t *testing.T) {
	needTool(t, "verilator")
	r := rand.New(rand.NewPCG(5, 7))
	for it := range randomCount(8) {
		d := alir.Dialect(it % 2)
		p := randomProgram(r, d, 1+r.IntN(4), 1+r.IntN(40))
		if it%4 == 2 {
			p = randomProgramV4(r, 1+r.IntN(4), 1+r.IntN(40))
		}
		for _, cut := range []float64{0, 0.5} {
			des, err := Build(p, Options{Name: fmt.Sprintf("lint%d", it), LatencyCutoff: cut})
			if err != nil {
				t.Fatal(err)
			}
			lint(t, des)
		}
	}
}

// TestRandomGHDL is TestRandomIverilog's VHDL half, on fewer programs.
func TestRandomGHDL(t *testing.T) {
	needTool(t, "ghdl")
	n := randomCount(12)
	r := rand.New(rand.NewPCG(23, 2008))
	tested := 0
	for it := 0; tested < n && it < 20*n+100; it++ {
		d := alir.Dialect(it % 2)
		nIn := 1 + r.IntN(4)
		p := randomProgram(r, d, nIn, 1+r.IntN(40))
		if it%4 == 2 {
			p = randomProgramV4(r, nIn, 1+r.IntN(40))
		}
		if _, err := alir.Compile(p); err != nil {
			continue
		}
		in := randomInputValues(r, nIn, 16)
		cut := float64(it%2) * 0.5
		t.Run(fmt.Sprintf("it%d_%v/cut%g", it, d, cut), func(t *testing.T) {
			checkVHDL(t, "random", p, Options{Name: "rnd", LatencyCutoff: cut}, in)
		})
		tested++
	}
}
