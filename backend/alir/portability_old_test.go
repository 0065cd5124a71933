package alir

// Portability's linear forms as they were before they lived in one arena
// (issue 31: a form allocated per op, copied by value), kept as the
// reference that TestPortabilityMatchesOld and FuzzPortabilityMatchesOld
// hold Portability to: the same non-portable ops, reasons and needed
// intervals, and the same error, on every program. The rest of the
// analysis (span rules, mux narrowing, validation) is shared.

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"testing"
)

// oldPortability is Portability with the old forms.
func (p *Program) oldPortability() ([]NonPortable, error) {
	inf, err := p.analyze()
	if err != nil {
		return nil, err
	}
	var out []NonPortable
	pc := &oldPortCtx{portCtx: &portCtx{p: p, inf: inf, known: newRanges(len(p.Ops))},
		form: make([]affine, len(p.Ops)), hasForm: make([]bool, len(p.Ops)), self: make([]aterm, len(p.Ops))}
	pc.operandFn = pc.operand
	pc.knownFn = pc.src
	last := make([]int32, len(p.Ops))
	var ids []int32
	for i := range p.Ops {
		ids = p.Ops[i].appendOperands(ids[:0], p.Dialect)
		for _, id := range ids {
			last[id] = int32(i)
		}
	}
	for i := range p.Ops {
		op := &p.Ops[i]
		if reason, need := pc.check(i); reason != "" {
			out = append(out, NonPortable{i, op.Opcode, p.Dialect.OpName(op.Opcode), reason, need})
		}
		ids = op.appendOperands(ids[:0], p.Dialect)
		for _, id := range ids {
			if last[id] == int32(i) {
				pc.form[id], pc.hasForm[id] = affine{}, false
			}
		}
	}
	return out, nil
}

// oldPortCtx is the old portCtx: the new one's ranges and mux narrowing,
// with a form per op.
type oldPortCtx struct {
	*portCtx
	form    []affine
	hasForm []bool
	self    []aterm
}

func (pc *oldPortCtx) formOf(id int32) affine {
	if pc.hasForm[id] {
		return pc.form[id]
	}
	pc.self[id] = aterm{id, 1}
	return affine{terms: pc.self[id : id+1 : id+1], r: pc.known.get(id)}
}

func (pc *oldPortCtx) check(i int) (reason string, need QInterval) {
	t := pc.inf.kif[i]
	tr := typeRange64(t)
	pc.known.set(i, tr)
	var r xrng
	e, reason, linear := pc.p.linearStep(pc.p.Dialect.Info(pc.p.Ops[i].Opcode), pc.inf, i)
	if reason != "" {
		return reason, need
	}
	var f affine
	if linear {
		f, linear = pc.linear(i, e)
		r = f.r
	}
	if !linear {
		var unknown, ok bool
		if r, e, reason, unknown, ok = span64(pc.p, pc.inf, i, pc.knownFn); !ok {
			var rb rng
			rb, e, reason = pc.p.exact(pc.inf, i, pc.operandFn)
			unknown = rb.Lo == nil
			if reason == "" && !unknown {
				r = xrngOf(rb)
			}
		}
		if reason != "" || unknown {
			return reason, need
		}
	}
	if e < t.Fractionals && pc.p.Ops[i].Opcode == OpSum {
		r = r.shl(uint(t.Fractionals - e))
		if linear {
			f, linear = f.oldShl(uint(t.Fractionals - e))
		}
		e = t.Fractionals
		if linear {
			r = f.r
		}
	}
	if e < t.Fractionals {
		return fmt.Sprintf("has step 2^%d, finer than its exact result's 2^%d (the original interpreter shifts by a negative amount)", -t.Fractionals, -e), need
	}
	r = r.sar(uint(e - t.Fractionals))
	if !r.within(tr) {
		if pc.p.Dialect.Wraps(pc.p.Ops[i].Opcode) {
			return "", need
		}
		rb := r.big()
		lo, _ := new(big.Float).SetMantExp(new(big.Float).SetInt(rb.Lo), -t.Fractionals).Float64()
		hi, _ := new(big.Float).SetMantExp(new(big.Float).SetInt(rb.Hi), -t.Fractionals).Float64()
		need = QInterval{lo, hi, math.Ldexp(1, -t.Fractionals)}
		return fmt.Sprintf("its exact result lies in %v but its type %v holds %v: it does not wrap", scaled(rb, t.Fractionals), t, scaled(tr.big(), t.Fractionals)), need
	}
	pc.known.set(i, r)
	if linear {
		if g, ok := f.oldSar(uint(e - t.Fractionals)); ok {
			g.r = r
			pc.form[i], pc.hasForm[i] = g, true
		}
	}
	return "", need
}

// linear is the old opcode table's form rule of op i.
func (pc *oldPortCtx) linear(i, e int) (affine, bool) {
	op := pc.p.Ops[i]
	switch pc.p.Dialect.Info(op.Opcode).step {
	case nil:
		return affine{}, false
	}
	switch {
	case op.Opcode == OpConst:
		return constForm(op.Data), true
	case op.Opcode == OpNeg && pc.p.Dialect == ALIR:
		return constForm(0).oldAdd(pc.formOf(op.ID0), -1, pc.src)
	case op.Opcode == OpAdd || op.Opcode == OpSub:
		s := int64(1)
		if op.Opcode == OpSub {
			s = -1
		}
		a, ok := pc.at(op.ID0, pc.fr(op.ID0), e)
		if !ok {
			return affine{}, false
		}
		b, ok := pc.at(op.ID1, pc.fr(op.ID1)-int(op.Data), e)
		if !ok {
			return affine{}, false
		}
		return a.oldAdd(b, s, pc.src)
	case op.Opcode == OpConstAdd:
		k, ek := int64(op.DataLow()), int(op.DataHigh())
		if pc.p.Dialect == DAIS {
			k, ek = op.Data, pc.inf.kif[i].Fractionals
		}
		a, ok := pc.at(op.ID0, pc.fr(op.ID0), e)
		if !ok {
			return affine{}, false
		}
		c, ok := shl64(k, uint(e-ek))
		if !ok {
			return affine{}, false
		}
		return a.oldAdd(constForm(c), 1, pc.src)
	case op.Opcode == OpSum:
		acc := constForm(0)
		for _, tm := range op.Terms {
			x, ok := pc.at(tm.ID, pc.fr(tm.ID)-int(tm.Shift), e)
			if !ok {
				return affine{}, false
			}
			s := int64(1)
			if tm.Neg {
				s = -1
			}
			if acc, ok = acc.oldAdd(x, s, pc.src); !ok {
				return affine{}, false
			}
		}
		return acc, true
	}
	panic(fmt.Sprintf("oldPortCtx.linear: opcode %d has a step but no form", op.Opcode))
}

func (pc *oldPortCtx) at(id int32, f, e int) (affine, bool) { return pc.formOf(id).oldShl(uint(e - f)) }

func (f affine) oldShl(s uint) (affine, bool) {
	if s == 0 {
		return f, true
	}
	c0, ok := shl64(f.c0, s)
	if !ok {
		return affine{}, false
	}
	g := affine{c0: c0, terms: make([]aterm, len(f.terms)), r: f.r.shl(s)}
	for k, t := range f.terms {
		c, ok := shl64(t.coef, s)
		if !ok {
			return affine{}, false
		}
		g.terms[k] = aterm{t.sym, c}
	}
	return g, true
}

func (f affine) oldAdd(g affine, sign int64, src func(int32) xrng) (affine, bool) {
	c0, ok := addMul64(f.c0, g.c0, sign)
	if !ok {
		return affine{}, false
	}
	h := affine{c0: c0, terms: make([]aterm, 0, len(f.terms)+len(g.terms))}
	shared := false
	i, j := 0, 0
	for i < len(f.terms) || j < len(g.terms) {
		switch {
		case j == len(g.terms) || (i < len(f.terms) && f.terms[i].sym < g.terms[j].sym):
			h.terms = append(h.terms, f.terms[i])
			i++
		case i == len(f.terms) || g.terms[j].sym < f.terms[i].sym:
			h.terms = append(h.terms, aterm{g.terms[j].sym, g.terms[j].coef * sign})
			j++
		default:
			shared = true
			c, ok := addMul64(f.terms[i].coef, g.terms[j].coef, sign)
			if !ok {
				return affine{}, false
			}
			if c != 0 {
				h.terms = append(h.terms, aterm{f.terms[i].sym, c})
			}
			i, j = i+1, j+1
		}
	}
	if len(h.terms) > maxAffineTerms {
		return affine{}, false
	}
	if shared {
		h.r = h.rangeOver(src)
		return h, true
	}
	gr := g.r
	if sign < 0 {
		gr = gr.neg()
	}
	h.r = f.r.add(gr)
	return h, true
}

func (f affine) oldSar(s uint) (affine, bool) {
	if s == 0 {
		return f, true
	}
	if s >= 63 {
		return affine{}, false
	}
	mask := int64(1)<<s - 1
	if f.c0&mask != 0 {
		return affine{}, false
	}
	for _, t := range f.terms {
		if t.coef&mask != 0 {
			return affine{}, false
		}
	}
	g := affine{c0: f.c0 >> s, terms: make([]aterm, len(f.terms)), r: f.r.sar(s)}
	for k, t := range f.terms {
		g.terms[k] = aterm{t.sym, t.coef >> s}
	}
	return g, true
}

// linearProgram builds a random valid program of dialect d made mostly of
// the ops that have linear forms (add, sub, const_add, const; ALIR's neg
// and sum), over nIn inputs, with some sources among them (mul, quantize)
// and types mostly wide enough to hold their values: forms that share
// sources, grow past maxAffineTerms, overflow their coefficients, need a
// shift to their type's step, and die and leave their blocks to others.
func linearProgram(r *rand.Rand, d Dialect, nIn, nOps int) *Program {
	p := &Program{Dialect: d, InShifts: make([]int32, nIn), CarrySize: -1, AdderSize: -1}
	typ := func(wide bool) QInterval {
		w := 4 + r.IntN(12)
		if wide {
			w = 64 - r.IntN(24)
		}
		f := r.IntN(9) - 2
		return KIF{Signed: true, Integers: w - 1 - f, Fractionals: f}.QInterval()
	}
	shift := func() int {
		if r.IntN(30) == 0 {
			return r.IntN(121) - 60 // coefficients that overflow
		}
		return r.IntN(7) - 3
	}
	for j := range nIn {
		p.Ops = append(p.Ops, Op{Opcode: OpInput, ID0: int32(j), ID1: -1, QInt: typ(false)})
	}
	window := 1 + r.IntN(64)
	for i := nIn; i < nOps; i++ {
		earlier := func() int32 {
			if r.IntN(4) > 0 {
				return int32(i - 1 - r.IntN(min(window, i)))
			}
			return int32(r.IntN(i))
		}
		op := Op{ID0: -1, ID1: -1, QInt: typ(r.IntN(8) > 0)}
		switch k := r.IntN(20); {
		case k < 9:
			op.Opcode, op.ID0, op.ID1, op.Data = OpAdd, earlier(), earlier(), int64(shift())
			if k < 3 {
				op.Opcode = OpSub
			}
			if k == 0 {
				op.ID1 = op.ID0
			}
		case k < 11:
			op.Opcode, op.ID0 = OpConstAdd, earlier()
			op.Data = PackData(int32(r.IntN(2001)-1000), int32(shift()))
			if d == DAIS {
				op.Data = int64(r.IntN(2001) - 1000)
			}
		case k < 12:
			op.Opcode, op.Data = OpConst, r.Int64()>>r.IntN(64)
		case k < 13:
			op.Opcode, op.ID0, op.ID1 = OpMul, earlier(), earlier()
		case k < 14:
			op.Opcode, op.ID0 = OpQuantize, earlier()
		case k < 16 && d == ALIR:
			op.Opcode, op.ID0 = OpNeg, earlier()
		case d == ALIR:
			op.Opcode = OpSum
			op.Terms = make([]Term, 2+r.IntN(5))
			for t := range op.Terms {
				op.Terms[t] = Term{ID: earlier(), Shift: int32(shift()), Neg: r.IntN(2) == 0}
			}
		default:
			op.Opcode, op.ID0, op.ID1 = OpAdd, earlier(), earlier()
		}
		p.Ops = append(p.Ops, op)
	}
	p.Outputs = []Output{{Index: int32(nOps - 1)}}
	return p
}

// samePortability reports how p's Portability differs from the old
// forms' verdict ("" if not at all).
func samePortability(p *Program) string {
	got, err1 := p.Portability()
	want, err2 := p.oldPortability()
	if fmt.Sprint(err1) != fmt.Sprint(err2) || !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("Portability: %v (%v)\nthe old forms: %v (%v)", got, err1, want, err2)
	}
	return ""
}

// Portability gives the old forms' verdicts, reasons, needed intervals and
// errors: on random programs of every opcode, on programs of linear ops
// over few or many shared inputs, on long shift-and-add graphs, with the
// int64 fast path and on big.Ints only.
func TestPortabilityMatchesOld(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 2))
	iters := 1000
	if testing.Short() {
		iters = 200
	}
	stored := 0
	for it := range iters {
		d := Dialect(it % 2)
		nIn := 1 + r.IntN(6)
		var p *Program
		switch it % 5 {
		case 0:
			p = RandomProgram(r, d, nIn, 1+r.IntN(40), d == ALIR && it%4 == 0)
		case 1:
			p = referenceProgramOf(r, d, nIn, nIn+1+r.IntN(20), d == ALIR && it%4 == 1)
		case 2:
			p = RandomShiftAdd(ShiftAddConfig{Seed: uint64(it), Inputs: 1 + r.IntN(200), Ops: 300 + r.IntN(1500), Window: 1 + r.IntN(300)})
		default:
			nIn = 1 + r.IntN(150)
			p = linearProgram(r, d, nIn, nIn+1+r.IntN(600))
		}
		allWide = it%7 == 6
		diff := samePortability(p)
		allWide = false
		if diff != "" {
			t.Fatalf("iteration %d: %s\n%+v", it, diff, p)
		}
		if bad, _ := p.Portability(); len(bad) < len(p.Ops)/2 {
			stored++
		}
	}
	if stored < iters/4 {
		t.Errorf("only %d programs mostly portable: the test checks too few forms", stored)
	}
}

// FuzzPortabilityMatchesOld is TestPortabilityMatchesOld on the programs
// of a fuzzed seed and sizes.
func FuzzPortabilityMatchesOld(f *testing.F) {
	f.Add(uint64(1), uint8(4), uint16(200), uint8(0))
	f.Add(uint64(2), uint8(150), uint16(900), uint8(1))
	f.Add(uint64(3), uint8(3), uint16(40), uint8(2))
	f.Fuzz(func(t *testing.T, seed uint64, nIn uint8, nOps uint16, kind uint8) {
		r := rand.New(rand.NewPCG(seed, uint64(kind)))
		d := Dialect(kind & 1)
		in, n := 1+int(nIn), 1+int(nIn)+int(nOps%2048)
		var p *Program
		switch kind % 3 {
		case 0:
			p = linearProgram(r, d, in, n)
		case 1:
			p = RandomShiftAdd(ShiftAddConfig{Seed: seed, Inputs: in, Ops: n, Window: 1 + int(kind)})
		default:
			p = RandomProgram(r, d, in, n%200, d == ALIR && kind&4 != 0)
		}
		if diff := samePortability(p); diff != "" {
			t.Fatal(diff)
		}
	})
}
