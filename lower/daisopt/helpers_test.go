package daisopt

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
	"github.com/otir-dev/otir/parse"
	"github.com/otir-dev/otir/passes/verify"
)

// genConfig shapes a random program.
type genConfig struct {
	inputs, ops, outputs int
	seed                 uint64
}

// gen builds random valid, portable ALIR programs that exercise every
// opcode and every rewrite: constants (0, 1, -1 among them), duplicated and
// commuted ops, quantizes to the operand's own type, double negations,
// muxes with constant conditions, long single-use add/sub chains, dead ops
// and unused tables, and result types that are exact, wider than needed (to
// narrow), narrower (so the op wraps) or coarser (so it floors).
//
// Only input, relu, quantize and mux wrap (alir.Dialect.Wraps), and only
// add, sub, const_add, relu and quantize may drop fraction bits portably
// (neg and mul give their raw result, a mux brings its branches to its step
// by left shifts only): a narrower or coarser type that an op cannot take is
// made explicit, the op keeping its exact type and a quantize to the varied
// type following it. Quantizes and relus never make the step finer than
// their operand's. The built program is then made portable (see
// makePortable).
type gen struct {
	rng *rand.Rand
	b   *alir.Builder
	ops []alir.Op
}

func randomProgram(c genConfig) *alir.Program {
	g := &gen{rng: rand.New(rand.NewPCG(c.seed, 0xda15)), b: alir.NewBuilder(alir.ALIR, c.inputs)}
	g.b.SetCostModel(int32(g.rng.IntN(3)*8-1), int32(g.rng.IntN(3)*8-1))
	for j := range c.inputs {
		g.b.SetInputShift(j, int32(g.rng.IntN(3)-1))
		w := 1 + g.rng.IntN(10)
		signed := g.rng.IntN(4) != 0
		f := g.rng.IntN(w+1) - 1
		i := w - f
		if signed {
			i--
		}
		q := alir.KIF{Signed: signed, Integers: i, Fractionals: f}.QInterval()
		if g.rng.IntN(4) == 0 && q.Max > q.Step {
			q.Max -= q.Step // a declared interval narrower than its type
		}
		g.emit(alir.Op{ID0: int32(j), ID1: -1, Opcode: alir.OpInput, QInt: q})
	}
	g.b.AddTable(alir.Table{Values: []int32{1, 2, 3}}) // never read: dais-dce drops it
	for g.b.Len() < c.inputs+c.ops {
		g.step()
	}
	n := g.b.Len()
	for j := range c.outputs {
		s := int32(n - 1 - j)
		if j%3 == 2 {
			s = int32(g.rng.IntN(n))
		}
		if j == 4 {
			s = -1
		}
		g.b.Output(s, int32(g.rng.IntN(5)-2), g.rng.IntN(3) == 0)
	}
	p, err := g.b.Build()
	if err != nil {
		panic(err)
	}
	g.makePortable(p)
	return p
}

// makePortable widens every op that p.Portability reports to the interval
// its exact result needs (NonPortable.Need, at the op's own step, so its
// value does not change) until none is left. The types are built from
// declared intervals, which Portability does not trust (an input may hold
// any value of its type), so a few ops need this. An op whose need is over
// 64 bits, or that is not portable for another reason (a shift), is
// replaced by a quantize of its first operand (or, for a constant, by a
// constant of a wide type); a quantize or relu, which can only have a step
// finer than its (replaced) operand's, gets that step at its own width
// instead.
func (g *gen) makePortable(p *alir.Program) {
	for range 100 {
		bad, err := p.Portability()
		if err != nil {
			panic(err)
		}
		if len(bad) == 0 {
			return
		}
		for _, np := range bad {
			op := &p.Ops[np.Index]
			if k, err := np.Need.KIF(); np.Need.Step > 0 && err == nil && k.Width() <= alir.MaxWidth {
				op.QInt = np.Need
				continue
			}
			switch op.Opcode {
			case alir.OpQuantize, alir.OpReLU:
				// Finer than its operand, which was replaced: the same width
				// (a lookup may read it) at the operand's step.
				op.QInt = notFiner(op.QInt, p.Ops[op.ID0].QInt)
			case alir.OpConst:
				op.QInt = q16
				op.Data = int64(int16(op.Data))
			default:
				// 8 bits at the op's step, if a quantize of its operand may
				// have it, so that the ops reading it keep their steps.
				k, _ := op.QInt.KIF()
				k.Integers = 8 - k.Fractionals
				*op = quant(op.ID0, notFiner(k.QInterval(), p.Ops[op.ID0].QInt))
			}
		}
		if err := p.Validate(); err != nil {
			panic(err)
		}
	}
	panic("randomProgram: could not make the program portable")
}

// emit appends op and returns its slot. An interval of the value 0 alone
// at a step other than 1 becomes [0, step]: the zero-width type has step
// 1, and the intervals of the ops built on this one follow its step.
func (g *gen) emit(op alir.Op) int32 {
	if q := op.QInt; q.Min == 0 && q.Max == 0 && q.Step != 1 {
		op.QInt = alir.QInterval{Min: 0, Max: q.Step, Step: q.Step}
	}
	g.ops = append(g.ops, op)
	return g.b.Op(op)
}

// mk returns an op with operands a and c (-1: none).
func mk(code alir.Opcode, a, c int32, data int64, q alir.QInterval) alir.Op {
	return alir.Op{ID0: a, ID1: c, Opcode: code, Data: data, QInt: q}
}

// pick returns an earlier slot, usually a recent one.
func (g *gen) pick() int32 {
	n := g.b.Len()
	if g.rng.IntN(4) != 0 {
		return int32(max(0, n-1-g.rng.IntN(min(n, 12))))
	}
	return int32(g.rng.IntN(n))
}

// fits reports whether q is a valid interval at most 40 bits wide.
func fits(q alir.QInterval) bool {
	k, err := q.KIF()
	return err == nil && k.Width() <= 40 && k.Fractionals <= 16 && k.Fractionals >= -8
}

// Ways an op may vary from its exact interval.
const (
	exact    = iota
	wider    // dais-narrow shrinks it
	narrower // the op wraps
	coarser  // the op floors
)

// vary returns the exact interval q, or one wider, narrower or coarser, and
// which.
func (g *gen) vary(q alir.QInterval) (alir.QInterval, int) {
	switch g.rng.IntN(8) {
	case 0:
		return alir.QInterval{Min: math.Min(q.Min*4, -q.Step*8), Max: q.Max*4 + q.Step*8, Step: q.Step}, wider
	case 1:
		lo := math.Floor(q.Min/4/q.Step) * q.Step
		hi := math.Floor(q.Max/4/q.Step) * q.Step
		return alir.QInterval{Min: lo, Max: math.Max(lo, hi), Step: q.Step}, narrower
	case 2:
		s := q.Step * 4
		return alir.QInterval{Min: math.Floor(q.Min/s) * s, Max: math.Floor(q.Max/s) * s, Step: s}, coarser
	}
	return q, exact
}

// small returns a random interval of a few bits.
func (g *gen) small() alir.QInterval {
	w := 1 + g.rng.IntN(7)
	signed := g.rng.IntN(2) == 0
	f := g.rng.IntN(5) - 1
	i := w - f
	if signed {
		i--
	}
	return alir.KIF{Signed: signed, Integers: i, Fractionals: f}.QInterval()
}

// smallFor returns a random interval of a few bits for a quantize of a
// value of interval qa: its step is not finer than qa's.
func (g *gen) smallFor(qa alir.QInterval) alir.QInterval { return notFiner(g.small(), qa) }

// notFiner returns q, or, when its step is finer than that of operand
// interval qa, the type of the same width at qa's step: a quantize or relu
// may only drop fraction bits (alkaid's interpreter shifts right only).
func notFiner(q, qa alir.QInterval) alir.QInterval {
	k, _ := q.KIF()
	ka, _ := qa.KIF()
	if k.Fractionals <= ka.Fractionals {
		return q
	}
	w := max(k.Width(), 1)
	k.Fractionals = ka.Fractionals
	k.Integers = w - k.Fractionals
	if k.Signed {
		k.Integers--
	}
	return k.QInterval()
}

// How an op treats a type narrower or coarser than its exact result.
const (
	canWrap  = 1 << iota // the op wraps to its type (relu, mux)
	canFloor             // the op may drop fraction bits (add, sub, const_add, relu)
)

// op appends the op mk(q) of the exact interval q, or, when q is too wide,
// a quantize of a to a small interval.
func (g *gen) op(q alir.QInterval, a int32, mk func(q alir.QInterval) alir.Op) int32 {
	if !fits(q) {
		return g.emit(quant(a, g.smallFor(g.ops[a].QInt)))
	}
	return g.emit(mk(q))
}

// varied is op with the interval q varied (see vary) when the op can take
// the varied interval (how: canWrap, canFloor); otherwise it appends mk(q) and
// a quantize of it to the varied interval: the wrap or floor made explicit.
func (g *gen) varied(q alir.QInterval, a int32, how int, mk func(q alir.QInterval) alir.Op) int32 {
	if !fits(q) {
		return g.op(q, a, mk)
	}
	v, kind := g.vary(q)
	if kind == narrower && how&canWrap == 0 || kind == coarser && how&canFloor == 0 {
		return g.emit(quant(g.emit(mk(q)), v))
	}
	return g.emit(mk(v))
}

func quant(a int32, q alir.QInterval) alir.Op { return mk(alir.OpQuantize, a, -1, 0, q) }

func addSub(sub bool, a, c, shift int32, q alir.QInterval) alir.Op {
	if sub {
		return mk(alir.OpSub, a, c, int64(shift), q)
	}
	return mk(alir.OpAdd, a, c, int64(shift), q)
}

func (g *gen) step() {
	a, c := g.pick(), g.pick()
	qa, qc := g.ops[a].QInt, g.ops[c].QInt
	switch g.rng.IntN(20) {
	case 0, 1: // constants, often 0 or +-1
		q := g.small()
		raw := int64(g.rng.IntN(9) - 4)
		k, _ := q.KIF()
		if k.Fractionals >= 0 && g.rng.IntN(2) == 0 {
			raw = int64(1) << k.Fractionals // the constant 1
			if k.Signed && g.rng.IntN(2) == 0 {
				raw = -raw
			}
		}
		// A constant is its raw value, which must lie in its type: one that
		// does not is wrapped into it here.
		g.emit(mk(alir.OpConst, -1, -1, k.Wrap(big.NewInt(raw)).Int64(), q))
	case 2, 3, 4: // add / sub
		shift := int32(g.rng.IntN(7) - 3)
		sub := g.rng.IntN(2) == 0
		g.varied(alir.AddQInt(qa, qc, int(shift), sub), a, canFloor, func(q alir.QInterval) alir.Op {
			return addSub(sub, a, c, shift, q)
		})
	case 5: // a chain of single-use adds and subs
		acc := a
		for range 3 + g.rng.IntN(8) {
			l := g.pick()
			shift := int32(g.rng.IntN(5) - 2)
			sub := g.rng.IntN(3) == 0
			q := alir.AddQInt(g.ops[acc].QInt, g.ops[l].QInt, int(shift), sub)
			if !fits(q) {
				break
			}
			acc = g.emit(addSub(sub, acc, l, shift, q))
		}
	case 6: // neg, sometimes twice
		x := g.varied(alir.NegQInt(qa), a, 0, func(q alir.QInterval) alir.Op { return mk(alir.OpNeg, a, -1, 0, q) })
		if g.rng.IntN(2) == 0 {
			g.op(alir.NegQInt(g.ops[x].QInt), x, func(q alir.QInterval) alir.Op { return mk(alir.OpNeg, x, -1, 0, q) })
		}
	case 7:
		g.varied(alir.ReLUQInt(qa), a, canWrap|canFloor, func(q alir.QInterval) alir.Op { return mk(alir.OpReLU, a, -1, 0, q) })
	case 8: // quantize, often to the operand's own interval
		q := g.smallFor(qa)
		if g.rng.IntN(2) == 0 {
			q = qa
		}
		g.emit(quant(a, q))
	case 9: // const_add, sometimes of 0
		k := int32(g.rng.IntN(7) - 3)
		e := int32(g.rng.IntN(4))
		v := math.Ldexp(float64(k), -int(e))
		kq := alir.QInterval{Min: v, Max: v, Step: math.Ldexp(1, -int(e))}
		g.varied(alir.AddQInt(qa, kq, 0, false), a, canFloor, func(q alir.QInterval) alir.Op {
			return mk(alir.OpConstAdd, a, -1, alir.PackData(k, e), q)
		})
	case 10, 11: // mux, its condition sometimes a constant, its branches sometimes equal
		cond := g.pick()
		shift := int32(g.rng.IntN(5) - 2)
		if g.rng.IntN(3) == 0 {
			c, qc, shift = a, qa, 0
		}
		// The step of the finer branch: both branches reach it by a left
		// shift, one of them by none (alkaid's rule).
		s := math.Ldexp(1, int(shift))
		q := alir.QInterval{Min: math.Min(qa.Min, qc.Min*s), Max: math.Max(qa.Max, qc.Max*s), Step: math.Min(qa.Step, qc.Step*s)}
		g.varied(q, a, canWrap, func(q alir.QInterval) alir.Op {
			return mk(alir.OpMux, a, c, alir.PackData(cond, shift), q)
		})
	case 12:
		g.varied(alir.MulQInt(qa, qc), a, 0, func(q alir.QInterval) alir.Op { return mk(alir.OpMul, a, c, 0, q) })
	case 13: // lookup of a small full-range value
		k := alir.KIF{Signed: g.rng.IntN(2) == 0, Integers: g.rng.IntN(4), Fractionals: g.rng.IntN(3)}
		kq := notFiner(k.QInterval(), qa)
		x := g.emit(quant(a, kq))
		k, _ = kq.KIF()
		vals := make([]int32, 1<<k.Width())
		for j := range vals {
			vals[j] = int32(g.rng.IntN(16) - 8)
		}
		t := g.b.AddTable(alir.Table{Values: vals})
		q := alir.QInterval{Min: -8, Max: 7, Step: 1}
		if g.rng.IntN(2) == 0 {
			q = alir.QInterval{Min: -64, Max: 63, Step: 0.5}
		}
		g.emit(mk(alir.OpLookup, x, -1, int64(t), q))
	case 14: // bit operations
		ka, _ := qa.KIF()
		if g.rng.IntN(2) == 0 {
			sub := int64(g.rng.IntN(3))
			q := ka.QInterval()
			if sub != alir.BitNot {
				q = alir.QInterval{Min: 0, Max: 1, Step: 1}
			}
			g.emit(mk(alir.OpBitUnary, a, -1, sub, q))
		} else {
			data := alir.BitBinaryData(int32(g.rng.IntN(3)-1), uint8(g.rng.IntN(3)))
			g.emit(mk(alir.OpBitBinary, a, c, data, ka.QInterval()))
		}
	case 15, 16: // a duplicate of an earlier op, sometimes commuted
		op := g.ops[g.pick()]
		if (op.Opcode == alir.OpAdd && op.Data == 0 || op.Opcode == alir.OpMul) && g.rng.IntN(2) == 0 {
			op.ID0, op.ID1 = op.ID1, op.ID0
		}
		g.emit(op)
	default: // plain exact add
		g.op(alir.AddQInt(qa, qc, 0, false), a, func(q alir.QInterval) alir.Op { return addSub(false, a, c, 0, q) })
	}
}

// toDais converts p to a dais.program inside a module.
func toDais(t testing.TB, p *alir.Program) (*ir.Module, *ir.Operation) {
	t.Helper()
	prog, err := dais.FromALIR(p, "r")
	if err != nil {
		t.Fatal(err)
	}
	m := ir.NewModule(ir.Location{})
	m.Body().Append(prog)
	return m, prog
}

// check verifies the module, prints and re-parses it (so the rewritten IR is
// well formed as text too) and returns the program as ALIR.
func check(t testing.TB, m *ir.Module) *alir.Program {
	t.Helper()
	if ds := verify.Verify(m); len(ds) > 0 {
		t.Fatalf("verifier: %v", ds)
	}
	text := text(m)
	m2, err := parse.Parse("after.otir", []byte(text), parse.Options{Workers: 1})
	if err != nil {
		t.Fatalf("re-parse: %v\n%s", err, head(text))
	}
	p, err := dais.ToALIR(dais.Programs(m2)[0])
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func head(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "..."
	}
	return s
}

// sameOutputs runs both programs on n random input rows with the ALIR
// interpreter and fails unless every output is bit-identical.
func sameOutputs(t testing.TB, before, after *alir.Program, n int, seed uint64) {
	t.Helper()
	in := alir.RandomInputs(before, n, seed)
	want := run(t, before, in, n)
	got := run(t, after, in, n)
	for k := range want {
		if math.Float64bits(want[k]) != math.Float64bits(got[k]) {
			nOut := before.NumOutputs()
			t.Fatalf("row %d output %d: got %v, want %v", k/nOut, k%nOut, got[k], want[k])
		}
	}
}

func run(t testing.TB, p *alir.Program, in []float64, n int) []float64 {
	t.Helper()
	m, err := alir.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	m.Workers = 1
	out, err := m.Run(in, n)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// opNames lists the slot ops of a program by short name ("add", "const").
func opNames(prog *ir.Operation) string {
	var names []string
	for _, op := range body(prog).Ops {
		if isSlot(op) {
			names = append(names, strings.TrimPrefix(op.Name, "dais."))
		}
	}
	return strings.Join(names, " ")
}

// Small programs for the rewrite tests, written as ALIR op lists.

var (
	q8  = alir.QInterval{Min: -128, Max: 127, Step: 1}
	u4  = alir.QInterval{Min: 0, Max: 15, Step: 1}
	q16 = alir.QInterval{Min: -32768, Max: 32767, Step: 1}
)

func in(j int32, q alir.QInterval) alir.Op { return mk(alir.OpInput, j, -1, 0, q) }
func cst(raw int64, q alir.QInterval) alir.Op {
	return mk(alir.OpConst, -1, -1, raw, q)
}
func un(code alir.Opcode, a int32, q alir.QInterval) alir.Op { return mk(code, a, -1, 0, q) }
func bin(code alir.Opcode, a, b int32, data int64, q alir.QInterval) alir.Op {
	return mk(code, a, b, data, q)
}
func mux(c, a, b, shift int32, q alir.QInterval) alir.Op {
	return mk(alir.OpMux, a, b, alir.PackData(c, shift), q)
}

// rewriteCase is one table-driven test of a pass on a small program.
type rewriteCase struct {
	name   string
	ops    []alir.Op
	tables [][]int32
	outs   []int32 // output slots (default: the last op)
	want   string  // the slot ops left, by short name
	// check, when set, inspects the rewritten program.
	check func(t *testing.T, prog *ir.Operation)
	// failsAtRunTime marks a program the interpreter rejects (a lookup out
	// of its table): its outputs are not compared.
	failsAtRunTime bool
}

// program builds a valid, portable program of c's ops (with at least two
// inputs): only its quantizes, relus and muxes may wrap.
func (c rewriteCase) program(t *testing.T) *alir.Program {
	t.Helper()
	nIn := int32(2)
	for _, op := range c.ops {
		if op.Opcode == alir.OpInput {
			nIn = max(nIn, op.ID0+1)
		}
	}
	p := &alir.Program{Dialect: alir.ALIR, InShifts: make([]int32, nIn), CarrySize: -1, AdderSize: -1, Ops: c.ops}
	for _, vals := range c.tables {
		p.Tables = append(p.Tables, alir.Table{Values: vals})
	}
	outs := c.outs
	if outs == nil {
		outs = []int32{int32(len(c.ops) - 1)}
	}
	for _, s := range outs {
		p.Outputs = append(p.Outputs, alir.Output{Index: s})
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if bad, err := p.Portability(); err != nil || len(bad) > 0 {
		t.Fatalf("the test program is not portable: %v %v", bad, err)
	}
	return p
}

// runCases runs a pass on every case, checks the ops left and that the
// outputs are unchanged on random inputs.
func runCases(t *testing.T, cases []rewriteCase, pass func(*ir.Operation) (int, error)) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.program(t)
			m, prog := toDais(t, p)
			if _, err := pass(prog); err != nil {
				t.Fatal(err)
			}
			if got := opNames(prog); got != c.want {
				t.Errorf("ops: got %q, want %q\n%s", got, c.want, m)
			}
			if c.check != nil {
				c.check(t, prog)
			}
			after := check(t, m)
			if !c.failsAtRunTime {
				sameOutputs(t, p, after, 500, 1)
			}
		})
	}
}

// slotOp returns the i-th slot op of a program.
func slotOp(prog *ir.Operation, i int) *ir.Operation {
	for _, op := range body(prog).Ops {
		if isSlot(op) {
			if i == 0 {
				return op
			}
			i--
		}
	}
	return nil
}

// wantAttr checks an integer attribute of slot op i.
func wantAttr(i int, name string, want int64) func(t *testing.T, prog *ir.Operation) {
	return func(t *testing.T, prog *ir.Operation) {
		t.Helper()
		if got, ok := slotOp(prog, i).IntAttr(name); !ok || got != want {
			t.Errorf("slot %d: %s = %d (present %v), want %d", i, name, got, ok, want)
		}
	}
}

// wantType checks the result type of slot op i.
func wantType(i int, want string) func(t *testing.T, prog *ir.Operation) {
	return func(t *testing.T, prog *ir.Operation) {
		t.Helper()
		if got := slotOp(prog, i).Results[0].Type.String(); got != want {
			t.Errorf("slot %d: type %s, want %s", i, got, want)
		}
	}
}

// body returns a program's block, its ops made first when it is dense
// (dais.Materialize: the textual view the tests inspect).
func body(prog *ir.Operation) *ir.Block {
	if err := dais.Materialize(prog); err != nil {
		panic(err)
	}
	return prog.Body(0)
}

// isSlot reports whether a block op is a slot op (not a table or the output).
func isSlot(op *ir.Operation) bool { return op.Name != dais.OpTable && op.Name != dais.OpOutput }

// text prints a module, its dense programs made into ops first.
func text(m *ir.Module) string {
	if err := dais.MaterializeAll(m); err != nil {
		panic(err)
	}
	return m.String()
}
