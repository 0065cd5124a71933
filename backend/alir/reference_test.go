package alir

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/internal/intrange"
	"github.com/otir-dev/otir/internal/testenv"
)

// The reference test runs random programs through the original
// interpreters, built by ../../../shared/reference-tools (alkaid's ALIR
// spec 2 interpreter and da4ml's DAIS v1 interpreter), and compares their
// outputs with this package's bit for bit. It needs those binaries, so it
// runs only when OTIR_REFERENCE_BIN names their folder:
//
//	OTIR_REFERENCE_BIN=/path/to/out/bin go test ./backend/alir -run Reference
//
// The programs are those the original interpreters define: every shift
// they make is non-negative and below 64, every value fits int64, lookups
// read only quantized values. Types are narrow and often narrower than
// the exact results, so the non-wrapping operations are tested where it
// shows.

func referenceBin(t *testing.T, name string) string {
	dir := testenv.Need(t, "OTIR_REFERENCE_BIN", "backend/alir: set OTIR_REFERENCE_BIN to the reference-tools bin folder to compare with alkaid and da4ml")
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("backend/alir: %v", err)
	}
	return p
}

// referenceProgram builds a random program that the original interpreter
// of dialect d defines.
func referenceProgram(r *rand.Rand, d Dialect, nIn, nOps int) *Program {
	return referenceProgramOf(r, d, nIn, nOps, false)
}

// referenceProgramOf is referenceProgram, with ALIR spec 4's sums and
// relative quantize shifts if v4.
func referenceProgramOf(r *rand.Rand, d Dialect, nIn, nOps int, v4 bool) *Program {
	codes := opcodes[d]
	if v4 {
		codes = append(append([]Opcode(nil), codes...), OpSum, OpSum, OpSum)
	}
	b := NewBuilder(d, nIn)
	for j := range nIn {
		b.SetInputShift(j, int32(r.IntN(5)-2))
	}
	typ := func(f int) QInterval {
		signed := r.IntN(3) > 0
		i := r.IntN(14) - 2
		k := 0
		if signed {
			k = 1
		}
		if k+i+f < 1 {
			i = 1 - k - f
		}
		return KIF{Signed: signed, Integers: i, Fractionals: f}.QInterval()
	}
	frac := func(id int32) int { t, _ := b.QInt(id).KIF(); return t.Fractionals }
	wraps := []int32{} // quantized values: safe lookup operands
	for j := range nIn {
		wraps = append(wraps, b.Input(j, typ(r.IntN(7)-2)))
	}
	for b.Len() < nOps {
		n := int32(b.Len())
		x := func() int32 { return int32(r.IntN(int(n))) }
		a, c := x(), x()
		fa, fc := frac(a), frac(c)
		s := int32(r.IntN(7) - 3)
		switch code := codes[r.IntN(len(codes))]; code {
		case OpSum:
			terms := make([]Term, 2+r.IntN(3))
			c := math.MinInt
			for k := range terms {
				terms[k] = Term{ID: x(), Shift: int32(r.IntN(7) - 3), Neg: r.IntN(2) == 0}
				c = max(c, frac(terms[k].ID)-int(terms[k].Shift))
			}
			b.Op(Op{ID0: -1, ID1: -1, Opcode: OpSum, Terms: terms, QInt: typ(c - r.IntN(4) + 1)})
		case OpInput:
			wraps = append(wraps, b.Input(r.IntN(nIn), typ(r.IntN(7)-2)))
		case OpAdd, OpSub:
			e := max(fa, fc-int(s))
			q := typ(e - r.IntN(3))
			if code == OpAdd {
				b.Add(a, c, s, q)
			} else {
				b.Sub(a, c, s, q)
			}
		case -2:
			if d == ALIR {
				b.Neg(a, typ(fa))
			} else {
				wraps = append(wraps, b.NegReLU(a, typ(fa-r.IntN(3))))
			}
		case OpReLU:
			wraps = append(wraps, b.ReLU(a, typ(fa-r.IntN(3))))
		case OpQuantize:
			if v4 && r.IntN(2) == 0 { // quantize(a*2^rel)
				rel := r.IntN(9) - 4
				wraps = append(wraps, b.Op(Op{ID0: a, ID1: -1, Opcode: OpQuantize, Data: int64(rel), QInt: typ(fa - rel - r.IntN(3))}))
				break
			}
			wraps = append(wraps, b.Quantize(a, typ(fa-r.IntN(3))))
		case OpNegQuantize:
			wraps = append(wraps, b.NegQuantize(a, typ(fa-r.IntN(3))))
		case OpConstAdd:
			k := int64(r.IntN(2001) - 1000)
			if d == ALIR {
				ek := int32(r.IntN(9) - 4)
				b.ConstAdd(a, k, ek, typ(max(fa, int(ek))-r.IntN(3)))
			} else {
				b.Op(Op{ID0: a, ID1: -1, Opcode: OpConstAdd, Data: k, QInt: typ(fa + r.IntN(3))})
			}
		case OpConst:
			b.Const(int64(r.IntN(4001)-2000), typ(r.IntN(7)-3))
		case OpMux, OpNegMux:
			cond := x()
			// One branch at the result's step, the other shifted up to it.
			f := max(fa, fc-int(s)) // shift0 = f - fa >= 0, shift1 = f - fc + s >= 0
			if r.IntN(2) == 0 {
				f, s = fa, int32(fa-fc) // shift1 = 0
			}
			if f-fa != 0 && f-fc+int(s) != 0 {
				s = int32(f - fc) // make shift1 zero
			}
			if f-fa < 0 || f-fc+int(s) < 0 {
				continue
			}
			if code == OpMux {
				wraps = append(wraps, b.Mux(cond, a, c, s, typ(f)))
			} else {
				wraps = append(wraps, b.NegMux(cond, a, c, s, typ(f)))
			}
		case OpMul:
			f := fa + fc
			if r.IntN(4) == 0 {
				f += r.IntN(5) - 2 // read at another step: raw product, not rescaled
			}
			b.Mul(a, c, typ(f))
		case OpLookup:
			w := wraps[r.IntN(len(wraps))]
			tw, _ := b.QInt(w).KIF()
			if tw.Width() > 10 {
				continue
			}
			vals := make([]int32, 1<<tw.Width())
			for k := range vals {
				vals[k] = int32(r.IntN(20001) - 10000)
			}
			tab := b.AddTable(Table{Values: vals})
			b.Lookup(w, tab, typ(r.IntN(7)-3))
		case OpBitUnary, OpNegBitUnary:
			q := typ(fa)
			if code == OpBitUnary {
				b.BitUnary(a, r.IntN(3), q)
			} else {
				b.Op(Op{ID0: a, ID1: -1, Opcode: OpNegBitUnary, Data: int64(r.IntN(3)), QInt: q})
			}
		case OpBitBinary:
			data := BitBinaryData(s, uint8(r.IntN(3)))
			if d == DAIS {
				data |= int64(r.IntN(4)) << 32 // negation flags
			}
			b.Op(Op{ID0: a, ID1: c, Opcode: OpBitBinary, Data: data, QInt: typ(max(fa, fc-int(s)))})
		}
	}
	// alkaid's spec 2 interpreter crashes on an op that nothing reads:
	// every op is read or an output.
	p, err := b.Build()
	if err != nil {
		panic(err)
	}
	used := make([]bool, len(p.Ops))
	for _, op := range p.Ops {
		for _, id := range op.operands(d) {
			used[id] = true
		}
	}
	for i := range p.Ops {
		if !used[i] || r.IntN(8) == 0 {
			b.Output(int32(i), int32(r.IntN(5)-2), r.IntN(2) == 0)
		}
	}
	p, err = b.Build()
	if err != nil {
		panic(err)
	}
	if r.IntN(2) == 0 {
		makePortable(p)
	}
	return p
}

// makePortable widens the type of every operation that is not portable to
// the interval its exact result needs, where that is at most 64 bits wide,
// until none is left or none can be widened.
func makePortable(p *Program) {
	for range 8 {
		bad, err := p.Portability()
		if err != nil || len(bad) == 0 {
			return
		}
		changed := false
		for _, np := range bad {
			if t, err := np.Need.KIF(); err == nil && np.Need.Step > 0 {
				p.Ops[np.Index].QInt = t.QInterval()
				changed = true
			}
		}
		if !changed {
			return
		}
	}
}

// referenceDefined reports whether the original interpreter computes p
// without overflow or undefined shifts: every slot fits int64 and every
// shift it makes lies in [0, 64).
func referenceDefined(p *Program) bool {
	keepRanges = true
	defer func() { keepRanges = false }()
	m, err := Compile(p)
	if err != nil || m.nWide > 0 {
		return false
	}
	for i, op := range p.Ops {
		if m.u64[i] || p.portableShift(m.inf, i) != "" {
			return false
		}
		for _, id := range op.operands(p.Dialect) {
			if m.inf.kif[id].Fractionals-m.inf.kif[i].Fractionals > 40 {
				return false
			}
		}
		switch op.Opcode {
		case OpAdd, OpSub:
			fa, fb := m.inf.kif[op.ID0].Fractionals, m.inf.kif[op.ID1].Fractionals-int(op.Data)
			if max(fa, fb) < m.inf.kif[i].Fractionals {
				return false
			}
			// Shifted operands must fit int64 in C++.
			if !m.rangeOf(op.ID0).Shl(uint(max(fa, fb)-fa)).FitsInt64() || !m.rangeOf(op.ID1).Shl(uint(max(fa, fb)-fb)).FitsInt64() {
				return false
			}
		case OpConstAdd:
			if p.Dialect == ALIR && max(m.inf.kif[op.ID0].Fractionals, int(op.DataHigh())) < m.inf.kif[i].Fractionals {
				return false
			}
		case OpBitBinary:
			sh := int(op.DataLow()) + m.inf.kif[op.ID0].Fractionals - m.inf.kif[op.ID1].Fractionals
			if sh > 40 || sh < -40 {
				return false
			}
		case OpSum:
			c := math.MinInt
			for _, tm := range op.Terms {
				c = max(c, m.inf.kif[tm.ID].Fractionals-int(tm.Shift))
			}
			sum := intrange.Point(new(big.Int))
			for _, tm := range op.Terms {
				x := m.rangeOf(tm.ID).Shl(uint(c - (m.inf.kif[tm.ID].Fractionals - int(tm.Shift))))
				if !x.FitsInt64() {
					return false
				}
				sum = sum.Add(x)
			}
			if f := m.inf.kif[i].Fractionals; !sum.FitsInt64() || (f > c && !sum.Shl(uint(f-c)).FitsInt64()) || c-f > 40 {
				return false
			}
		}
	}
	return true
}

const referencePrograms = 500

// refRun is one way of running a program in an original interpreter: the
// format it is written in and the interpreter's binary.
type refRun struct {
	format Format
	bin    string
}

// runReference writes p (already in the right dialect) in r's format,
// runs it in r's interpreter on rows and returns the outputs.
func runReference(t *testing.T, binDir, dir string, it int, r refRun, p *Program, rows []byte) ([]float64, string) {
	t.Helper()
	data, err := Encode(p, r.format)
	if err != nil {
		t.Fatalf("program %d: %v: %v", it, r.format, err)
	}
	name := filepath.Join(dir, fmt.Sprintf("p%d.%s", it, r.format))
	if r.format.IsJSON() {
		name += ".json"
	}
	os.WriteFile(name, data, 0o644)
	if d := os.Getenv("OTIR_REFERENCE_KEEP"); d != "" {
		os.WriteFile(filepath.Join(d, filepath.Base(name)), data, 0o644)
	}
	cmd := exec.Command(filepath.Join(binDir, r.bin), name, "-")
	cmd.Stdin = bytes.NewReader(rows)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("program %d (%s): %s: %v: %s", it, name, r.bin, err, stderr.String())
	}
	got, _, _, err := ReadRows(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	return got, name
}

// TestReferenceInterpreters runs random programs in alkaid's spec 2 and
// spec 4 interpreters and da4ml's DAIS v1 interpreter (spec 4: in JSON and
// in bytecode, with sums and relative quantize shifts), and each portable
// one converted to the other dialect (spec 4: rewritten as spec 2) in that
// one's interpreter, and compares every output with RunExact bit for bit.
func TestReferenceInterpreters(t *testing.T) {
	for _, c := range []struct {
		name  string
		d     Dialect
		v4    bool
		runs  []refRun
		other Dialect // the converted program's dialect
		orun  refRun
	}{
		{"ALIR", ALIR, false, []refRun{{FormatJSON, "alir_v2_run"}}, DAIS, refRun{FormatDAIS, "dais_v1_run"}},
		{"DAIS", DAIS, false, []refRun{{FormatDAIS, "dais_v1_run"}}, ALIR, refRun{FormatJSON, "alir_v2_run"}},
		{"ALIRv4", ALIR, true, []refRun{{FormatJSONV4, "alir_v4_run"}, {FormatBytecodeV4, "alir_v4_run"}}, ALIR, refRun{FormatJSON, "alir_v2_run"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			bin := referenceBin(t, c.runs[0].bin)
			binDir := filepath.Dir(bin)
			dir := t.TempDir()
			r := rand.New(rand.NewPCG(7, uint64(c.d)))
			if c.v4 {
				r = rand.New(rand.NewPCG(11, 4))
			}
			ran, nonPortable, converted, sums, rel, toDAIS := 0, 0, 0, 0, 0, 0
			for it := 0; ran < referencePrograms && it < 20*referencePrograms; it++ {
				nIn := 1 + r.IntN(4)
				p := referenceProgramOf(r, c.d, nIn, nIn+1+r.IntN(30), c.v4)
				if !referenceDefined(p) {
					continue
				}
				ran++
				for _, op := range p.Ops {
					if op.Opcode == OpSum {
						sums++
					}
					if op.Opcode == OpQuantize && op.Data != 0 {
						rel++
					}
				}
				if np, _ := p.Portability(); len(np) > 0 {
					nonPortable++
				}
				const n = 64
				in := make([]float64, n*nIn)
				for k := range in {
					in[k] = float64(r.IntN(1<<16)-1<<15) / float64(int(1)<<r.IntN(6))
				}
				want, err := RunExact(p, in, n)
				if err != nil {
					continue // a lookup out of its table: both throw
				}
				var rows bytes.Buffer
				if err := WriteRows(&rows, in, nIn); err != nil {
					t.Fatal(err)
				}
				for _, run := range c.runs {
					got, name := runReference(t, binDir, dir, it, run, p, rows.Bytes())
					if k := sameFloats(got, want); k >= 0 {
						nOut := p.NumOutputs()
						t.Fatalf("program %d (%s): sample %d output %d: %s %v, otir %v", it, name, k/nOut, k%nOut, run.bin, got[k], want[k])
					}
				}
				// The program converted to the other dialect (or written
				// as spec 2) computes the same in that one's interpreter.
				q, err := Convert(p, c.other)
				if err == nil && c.v4 {
					q, err = ToSpec2(p)
				}
				if err != nil {
					continue // not portable, or no equivalent: a clear error
				}
				if c.v4 && !p.NeedsV4() {
					continue
				}
				converted++
				got, name := runReference(t, binDir, dir, it, c.orun, q, rows.Bytes())
				if k := sameFloats(got, want); k >= 0 {
					nOut := p.NumOutputs()
					t.Fatalf("program %d converted (%s): sample %d output %d: %s %v, otir on the original %v", it, name, k/nOut, k%nOut, c.orun.bin, got[k], want[k])
				}
				if !c.v4 {
					continue
				}
				// And as DAIS (rewritten as spec 2, then converted).
				if q, err = Convert(p, DAIS); err != nil {
					continue // not portable
				}
				toDAIS++
				got, name = runReference(t, binDir, dir, it, refRun{FormatDAIS, "dais_v1_run"}, q, rows.Bytes())
				if k := sameFloats(got, want); k >= 0 {
					nOut := p.NumOutputs()
					t.Fatalf("program %d converted to DAIS (%s): sample %d output %d: dais_v1_run %v, otir on the original %v", it, name, k/nOut, k%nOut, got[k], want[k])
				}
			}
			if ran < referencePrograms {
				t.Fatalf("only %d programs were defined in the reference", ran)
			}
			if nonPortable < ran/4 {
				t.Errorf("only %d of %d programs have non-portable ops: the test misses the non-wrapping ops", nonPortable, ran)
			}
			if converted < 20 {
				t.Errorf("only %d programs were converted to the other dialect", converted)
			}
			what := "converted agree with the other dialect's interpreter"
			if c.v4 {
				what = fmt.Sprintf("rewritten as spec 2 agree with alir_v2_run, %d converted to DAIS with dais_v1_run; %d sums, %d relative quantize shifts", toDAIS, sums, rel)
			}
			t.Logf("%d random programs (%d not portable) agree with %s; %d %s", ran, nonPortable, c.runs[0].bin, converted, what)
		})
	}
}
