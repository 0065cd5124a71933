package alir

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOpTableComplete walks every opcode of both dialects and fails when an
// entry lacks a field its kind of opcode needs: adding an opcode means
// adding its entry, and this test says what is missing.
func TestOpTableComplete(t *testing.T) {
	want := map[Dialect][]Opcode{
		ALIR: {-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
		DAIS: {-9, -6, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
	}
	for _, d := range []Dialect{ALIR, DAIS} {
		if got := Opcodes(d); !slices.Equal(got, want[d]) {
			t.Errorf("%v opcodes %v, want %v", d, got, want[d])
		}
		for _, c := range Opcodes(d) {
			e := d.Info(c)
			bad := func(what string) { t.Errorf("%v opcode %d (%s): %s", d, c, e.Name, what) }
			if e.Code != c || e.Dialect != d {
				bad("entry filed under the wrong opcode or dialect")
			}
			if e.exact == nil || e.compile == nil || e.span == nil {
				bad("needs exact, compile and span")
			}
			if e.Linear != (e.step != nil) || e.Linear != (e.form != nil) {
				bad("a linear op has step and form, no other op has them")
			}
			if e.Wraps && e.Linear {
				bad("a linear op computes exactly: it cannot wrap")
			}
			if e.Data != DataNone && e.Data != DataRaw && e.check == nil {
				bad("Data is used but not checked")
			}
			if e.Adder && !e.Linear {
				bad("an adder is linear")
			}
			if e.Kind == KindNone {
				bad("needs its Kind (the category Info counts it in)")
			}
			if e.Operands == MuxOperands && e.shift == nil {
				bad("a mux needs its shift rule")
			}
			if d == ALIR {
				if e.fromV4 == nil || e.toV4 == nil || e.MinSpec < 2 {
					bad("an ALIR opcode needs its spec-4 record mapping and MinSpec")
				}
				if e.Operands != TermOperands && e.V4Addr != map[Operands]int{NoOperands: 0, InputIndex: 0, Unary: 1, Binary: 2, MuxOperands: 3}[e.Operands] {
					bad("V4Addr does not match Operands")
				}
				if e.OriginalDAIS {
					bad("OriginalDAIS is a DAIS property")
				}
			} else if e.fromV4 != nil || e.toV4 != nil || e.MinSpec != 0 || e.V4Addr != 0 || e.V4Data != 0 {
				bad("DAIS has no spec-4 records")
			}
			if e.Name == "" || d.OpName(c) != e.Name {
				bad("needs its name")
			}
		}
	}
}

// TestOpTableFastMatchesExact ties the fast interpreter (compile.go's
// kernels, chosen by the entries' compile functions) to the entries' exact
// semantics, opcode by opcode: for every opcode of both dialects, random
// programs ending in a run of that opcode give the same outputs on both
// paths.
func TestOpTableFastMatchesExact(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 13))
	iters := 12
	if testing.Short() {
		iters = 4
	}
	for _, d := range []Dialect{ALIR, DAIS} {
		for _, c := range Opcodes(d) {
			ran := 0
			for it := 0; ran < iters && it < 50*iters; it++ {
				nIn := 1 + r.IntN(4)
				p := RandomProgram(r, d, nIn, 4+r.IntN(12), c == OpSum)
				// Keep only the programs that use c.
				if !slices.ContainsFunc(p.Ops, func(o Op) bool { return o.Opcode == c }) {
					continue
				}
				if err := p.Validate(); err != nil {
					t.Fatalf("%v %d: random program invalid: %v", d, c, err)
				}
				for k := range p.Outputs { // read every op
					p.Outputs[k].Index = int32(r.IntN(len(p.Ops)))
				}
				m, err := Compile(p)
				if err != nil {
					continue // too wide
				}
				n := 1 + r.IntN(2*blockSize)
				in := randomInputValues(r, nIn, n)
				want, werr := RunExact(p, in, n)
				got, gerr := m.Run(in, n)
				if (werr == nil) != (gerr == nil) {
					t.Fatalf("%v opcode %d: exact error %v, fast error %v", d, c, werr, gerr)
				}
				if werr == nil {
					if k := sameFloats(got, want); k >= 0 {
						t.Fatalf("%v opcode %d: output %d: fast %v, exact %v\nprogram %+v", d, c, k, got[k], want[k], p)
					}
				}
				ran++
			}
			if ran < iters {
				t.Errorf("%v opcode %d (%s): only %d random programs used it", d, c, d.OpName(c), ran)
			}
		}
	}
}
