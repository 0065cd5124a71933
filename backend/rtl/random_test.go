package rtl

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/internal/testenv"
)

// The random programs are backend/alir's differential tests' generator
// (alir.RandomProgram): every opcode of both dialects, wide and zero-width
// types, large shifts, odd inputs.
func randomProgram(r *rand.Rand, d alir.Dialect, nIn, nOps int) *alir.Program {
	return alir.RandomProgram(r, d, nIn, nOps, false)
}

func randomProgramV4(r *rand.Rand, nIn, nOps int) *alir.Program {
	return alir.RandomProgram(r, alir.ALIR, nIn, nOps, true)
}

func randomInputValues(r *rand.Rand, nIn, n int) []float64 { return alir.RandomInputValues(r, nIn, n) }

// randomCount is the number of random programs TestRandomIverilog
// simulates: a sample by default (a quarter of def with -short),
// OTIR_RTL_RANDOM=n for more.
func randomCount(t testing.TB, def int) int {
	if testing.Short() {
		def /= 4
	}
	return testenv.Int(t, "OTIR_RTL_RANDOM", def)
}

// TestRandomIverilog is the differential test: random programs of both
// dialects with every opcode (ALIR spec 2 and spec 4, DAIS), each written
// combinational and pipelined, run in Icarus Verilog on random input rows
// (huge, tiny, negative zero, infinite, NaN) and compared bit for bit with
// the exact semantics and the interpreter. Only programs the interpreter
// refuses (alir.ErrTooWide) are left out.
func TestRandomIverilog(t *testing.T) {
	needTool(t, "iverilog")
	n := randomCount(t, 40)
	for _, c := range randomCases(t, n, rand.New(rand.NewPCG(17, 2001)), 24) {
		for _, o := range []Options{{}, {LatencyCutoff: 0.5}, {LatencyCutoff: 1.5}, {LatencyCutoff: 0.5, Delay: DelayProgram}} {
			t.Run(fmt.Sprintf("%s/cut%g/delay%d", c.name, o.LatencyCutoff, o.Delay), func(t *testing.T) {
				o.Name = "rnd"
				check(t, c.name, c.p, o, c.in)
			})
		}
	}
}

type randomCase struct {
	it   int // the attempt that drew it
	name string
	p    *alir.Program
	in   []float64
}

// randomCases returns n random programs (of both dialects, ALIR spec 2 and
// 4 and DAIS, that the interpreter accepts) with the given rows of inputs;
// with n >= 40 every opcode must occur.
func randomCases(t *testing.T, n int, r *rand.Rand, rows int) []randomCase {
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
		cs = append(cs, randomCase{it, fmt.Sprintf("it%d_%v", it, d), p, randomInputValues(r, nIn, rows)})
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
	for it := range randomCount(t, 8) {
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
	for _, c := range randomCases(t, randomCount(t, 12), rand.New(rand.NewPCG(23, 2008)), 16) {
		cut := float64(c.it%2) * 0.5
		t.Run(fmt.Sprintf("%s/cut%g", c.name, cut), func(t *testing.T) {
			checkVHDL(t, "random", c.p, Options{Name: "rnd", LatencyCutoff: cut}, c.in)
		})
	}
}
