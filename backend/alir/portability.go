package alir

import (
	"fmt"
	"math"
	"math/big"

	"github.com/otir-dev/otir/internal/intrange"
)

// NonPortable is an operation whose result, as the program declares it,
// means something else to another tool: a non-wrapping operation (see
// Dialect.Wraps) whose type cannot hold its exact result, or whose step the
// original interpreter would reach by a negative shift.
type NonPortable struct {
	Index  int    `json:"index"`
	Opcode Opcode `json:"opcode"`
	Name   string `json:"name"`
	Reason string `json:"reason"`
	// Need is the interval of the op's exact result at its step, when its
	// type is too narrow for it (zero otherwise): the interval that makes
	// the op portable, if no wider than 64 bits.
	Need QInterval `json:"need"`
}

func (n NonPortable) String() string {
	return fmt.Sprintf("op %d (%s): %s", n.Index, n.Name, n.Reason)
}

// Portability lists the operations of p that are not portable (an invalid p
// is Validate's error: Portability validates it first, so a caller needs
// no separate Validate). A program without any means the same in otir, in
// alkaid's and da4ml's interpreters and in RTL whose wires have the declared widths:
// every value lies in its operation's type, so no operation relies on
// wrap-around that only quantizing operations do.
//
// The check is a value-range analysis: inputs, and ops that wrap, may hold
// any value of their type unless their exact result fits it; the other
// ops hold their exact result, whose range follows from their operands'
// (adders as exact linear forms over independent sources, so that shared
// subexpressions count once; a mux that clamps a value narrows it, and a
// mux branch that its condition's range never selects adds nothing), and
// must lie in their type. The declared [min, max] is not trusted.
func (p *Program) Portability() ([]NonPortable, error) {
	inf, err := p.analyzeUses(true)
	if err != nil {
		return nil, err
	}
	var out []NonPortable
	pc := &portCtx{p: p, inf: inf, known: newRanges(len(p.Ops))}
	pc.forms.slot = make([]int32, len(p.Ops))
	pc.operandFn = pc.operand // one method value, not one per op
	pc.knownFn = pc.src
	// A form is dropped after its op's last use: a chain keeps one live.
	last := inf.last
	var ids []int32 // the operands of one op, reused
	for i := range p.Ops {
		op := &p.Ops[i]
		oi := p.Dialect.Info(op.Opcode) // not nil: analyze checked it
		if reason, need := pc.check(i, oi); reason != "" {
			out = append(out, NonPortable{i, op.Opcode, oi.Name, reason, need})
		}
		ids = op.appendOperandsOf(ids[:0], oi)
		for _, id := range ids {
			if last[id] == int32(i) {
				pc.forms.drop(id)
			}
		}
	}
	return out, nil
}

// portCtx holds what Portability knows of the values: known[i] is a range
// that holds every raw value of op i.
type portCtx struct {
	p     *Program
	inf   *info
	known ranges
	// forms holds the linear forms of the ops that have one and uses
	// ahead (any other op is a source: itself).
	forms formStore
	// scratch are the buffers an op's form is built in (see bufA):
	// an op reads at most two forms at a time and writes one.
	scratch [formBufs][maxAffineTerms]aterm
	// operandFn is pc.operand, made once: the opcode table's span rules
	// are called indirectly, so a method value made per call would escape.
	operandFn func(int, int32) rng
	knownFn   func(int32) xrng // pc.src, made once
}

// The scratch buffers: the two operands' forms (bufA, bufB), the form
// being built (bufC, and bufD where a sum's next partial sum is built from
// the last one) and a built form shifted (bufE).
const (
	bufA = iota
	bufB
	bufC
	bufD
	bufE
	formBufs
)

// buf returns scratch buffer k.
func (pc *portCtx) buf(k int) []aterm { return pc.scratch[k][:] }

// formOf returns the linear form of op id: its kept form, or (a source)
// the one term id itself, written in buf.
func (pc *portCtx) formOf(id int32, buf []aterm) affine {
	f, ok := pc.forms.get(id)
	if !ok {
		buf[0] = aterm{id, 1}
		f.terms = buf[:1:1]
	}
	f.r = pc.known.get(id)
	return f
}

// check returns why op i is not portable, or "", and records known[i]:
// the exact range of its values where it lies in op i's type, else (an op
// that wraps or is not portable) the type's whole range.
func (pc *portCtx) check(i int, oi *OpInfo) (reason string, need QInterval) {
	t := pc.inf.kif[i]
	tr := typeRange64(t)
	pc.known.set(i, tr)
	// A linear op's range is its form's: no interval arithmetic needed.
	var r xrng
	e, reason, linear := pc.p.linearStep(oi, pc.inf, i)
	if reason != "" {
		return reason, need
	}
	var f affine
	if linear && oi.form != nil {
		f, linear = oi.form(pc, i, e)
		r = f.r
	} else {
		linear = false
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
		// alkaid's sum shifts its exact result left to a finer step.
		r = r.shl(uint(t.Fractionals - e))
		if linear {
			f, linear = f.shl(uint(t.Fractionals-e), pc.buf(bufE))
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
	// A form is kept for the ops that read op i (none: last[i] is 0).
	if linear && pc.inf.last[i] != 0 && f.divides(uint(e-t.Fractionals)) {
		pc.forms.put(int32(i), f, uint(e-t.Fractionals))
	}
	return "", need
}

// at returns the form of op id, whose value is at fractional bits f, at
// e, its terms in buf or the store.
func (pc *portCtx) at(id int32, f, e int, buf []aterm) (affine, bool) {
	if e == f {
		return pc.formOf(id, buf), true
	}
	return pc.formOf(id, buf).shl(uint(e-f), buf)
}

func (pc *portCtx) src(s int32) xrng { return pc.known.get(s) }

func (pc *portCtx) fr(id int32) int { return pc.inf.kif[id].Fractionals }

// The linear forms of the opcode table.

func formConst(pc *portCtx, i, e int) (affine, bool) { return constForm(pc.p.Ops[i].Data), true }

// The forms are built in bufC (see portCtx.scratch).

func formNeg(pc *portCtx, i, e int) (affine, bool) {
	return constForm(0).add(pc.formOf(pc.p.Ops[i].ID0, pc.buf(bufA)), -1, pc.knownFn, pc.buf(bufC))
}

func formAddSub(pc *portCtx, i, e int) (affine, bool) {
	op := &pc.p.Ops[i]
	s := int64(1)
	if op.Opcode == OpSub {
		s = -1
	}
	var a, b affine
	ok := true
	if fa := pc.fr(op.ID0); fa == e { // (at's common case, without a call)
		a = pc.formOf(op.ID0, pc.buf(bufA))
	} else if a, ok = pc.at(op.ID0, fa, e, pc.buf(bufA)); !ok {
		return affine{}, false
	}
	if fb := pc.fr(op.ID1) - int(op.Data); fb == e {
		b = pc.formOf(op.ID1, pc.buf(bufB))
	} else if b, ok = pc.at(op.ID1, fb, e, pc.buf(bufB)); !ok {
		return affine{}, false
	}
	return a.add(b, s, pc.knownFn, pc.buf(bufC))
}

func formConstAdd(pc *portCtx, i, e int) (affine, bool) {
	op := &pc.p.Ops[i]
	k, ek := int64(op.DataLow()), int(op.DataHigh())
	if pc.p.Dialect == DAIS {
		k, ek = op.Data, pc.inf.kif[i].Fractionals
	}
	a, ok := pc.at(op.ID0, pc.fr(op.ID0), e, pc.buf(bufA))
	if !ok {
		return affine{}, false
	}
	c, ok := shl64(k, uint(e-ek))
	if !ok {
		return affine{}, false
	}
	return a.add(constForm(c), 1, pc.knownFn, pc.buf(bufC))
}

// formSum builds the partial sums in bufC and bufD by turns.
func formSum(pc *portCtx, i, e int) (affine, bool) {
	acc, next := constForm(0), bufC
	for _, tm := range pc.p.Ops[i].Terms {
		x, ok := pc.at(tm.ID, pc.fr(tm.ID)-int(tm.Shift), e, pc.buf(bufA))
		if !ok {
			return affine{}, false
		}
		s := int64(1)
		if tm.Neg {
			s = -1
		}
		if acc, ok = acc.add(x, s, pc.knownFn, pc.buf(next)); !ok {
			return affine{}, false
		}
		next = bufC + bufD - next
	}
	return acc, true
}

// operand returns the known range of op id as an operand of op i, narrowed
// further where op i is a mux that tests id's sign (see muxBranch). A mux
// branch that the condition's known range never selects gets the empty
// range (see never), which spanMux leaves out of the union.
func (pc *portCtx) operand(i int, id int32) rng {
	op := pc.p.Ops[i]
	if pc.p.Dialect.Info(op.Opcode).Operands == MuxOperands && (id == op.ID0 || id == op.ID1) && op.ID0 != op.ID1 {
		if pc.muxNever(i, id == op.ID0) {
			return never()
		}
		if r, ok := pc.muxBranch(i, id == op.ID0); ok {
			return r
		}
	}
	return pc.known.get(id).big()
}

// never returns the empty range of a mux branch that is never selected.
func never() rng { return rng{Lo: big.NewInt(1), Hi: big.NewInt(0)} }

// muxNever reports whether mux i never selects its first (or second)
// branch: its condition's known range holds only values that select the
// other one. The mux's exact result is then the other branch's alone (as
// with min(p, q) where p >= q always: the writer's intervals need not see
// it, the linear forms do).
func (pc *portCtx) muxNever(i int, first bool) bool {
	cond := pc.p.Ops[i].DataLow()
	rc := pc.known.get(cond).big()
	tc := pc.inf.kif[cond]
	// muxTrue is monotone in the raw value over the condition's type, so
	// it is constant over rc when it agrees at both ends.
	lo, hi := muxTrue(pc.p.Dialect, tc, rc.Lo), muxTrue(pc.p.Dialect, tc, rc.Hi)
	return lo == hi && lo != first
}

// muxBranch narrows the range of a mux branch when the condition is a
// value x itself or x plus a constant (x + k < 0 selects the first operand)
// and the branch is x or a one-operand function of x (x plus a constant,
// -x, NOT x, a quantize or relu of x): the clamps max(x, c), min(x, c),
// the absolute value and the rounding fix-ups that writers emit.
func (pc *portCtx) muxBranch(i int, first bool) (rng, bool) {
	p, op := pc.p, pc.p.Ops[i]
	br := op.ID1
	if first {
		br = op.ID0
	}
	cond := op.DataLow()
	c := p.Ops[cond]
	if !pc.inf.kif[cond].Signed || (!first && op.DataHigh() != 0) || (!first && op.Opcode == OpNegMux) {
		return rng{}, false
	}
	if c.Opcode == OpSub && c.ID0 != c.ID1 && c.DataLow() == 0 && (br == c.ID0 || br == c.ID1) {
		return pc.muxCompare(c.ID0, c.ID1, br, first)
	}
	// The condition is x*2^-fx + k*2^-ek < 0.
	x := int32(cond)
	k, ek := new(big.Int), 0
	switch {
	case c.Opcode == OpConstAdd && p.Dialect == ALIR:
		x, k, ek = c.ID0, big.NewInt(int64(c.DataLow())), int(c.DataHigh())
	case c.Opcode == OpConstAdd:
		x, k, ek = c.ID0, big.NewInt(c.Data), pc.inf.kif[cond].Fractionals
	}
	fx := pc.inf.kif[x].Fractionals
	if x == int32(cond) {
		ek = fx
	}
	// Raw bound b = ceil(-k*2^(fx-ek)): x >= b in the false branch.
	b := new(big.Int).Neg(k)
	if d := fx - ek; d >= 0 {
		b.Lsh(b, uint(d))
	} else {
		b.Neg(b.Rsh(b.Neg(b), uint(-d))) // ceil(y/2^n) = -floor(-y/2^n)
	}
	rx := pc.known.get(x).big()
	if first {
		hi := intrange.Min(rx.Hi, new(big.Int).Sub(b, big.NewInt(1)))
		if hi.Cmp(rx.Lo) < 0 {
			return rng{}, false
		}
		rx = rng{Lo: rx.Lo, Hi: hi}
	} else {
		lo := intrange.Max(rx.Lo, b)
		if lo.Cmp(rx.Hi) > 0 {
			return rng{}, false
		}
		rx = rng{Lo: lo, Hi: rx.Hi}
	}
	if br == x {
		return rx, true
	}
	bop := p.Ops[br]
	// Not a fact of the opcodes: the branch shapes this narrowing handles
	// (those writers emit), whose table span is then re-run on rx.
	switch bop.Opcode {
	case OpConstAdd, OpNeg, OpBitUnary, OpQuantize, OpReLU:
	default:
		return rng{}, false
	}
	if bop.ID0 != x || (bop.Opcode == OpNeg && p.Dialect == DAIS) { // DAIS neg_relu
		return rng{}, false
	}
	r, e, reason := p.exact(pc.inf, int(br), func(_ int, id int32) rng {
		if id == x {
			return rx
		}
		return pc.known.get(id).big()
	})
	fb := pc.inf.kif[br].Fractionals
	if reason != "" || r.Lo == nil || e < fb {
		return rng{}, false
	}
	r = r.Sar(uint(e - fb))
	if !r.Within(typeRange(pc.inf.kif[br])) {
		return rng{}, false // it wraps, or is not portable: no better bound
	}
	return r, true
}

// muxCompare narrows branch br, one of p and q, of a mux whose condition is
// p - q: the first branch is taken when p < q, the second when p >= q (the
// max and min that writers emit as mux(p - q, ., .)).
func (pc *portCtx) muxCompare(p, q, br int32, first bool) (rng, bool) {
	f := pc.inf.kif[p].Fractionals
	if pc.inf.kif[q].Fractionals != f || pc.inf.kif[br].Fractionals != f {
		return rng{}, false
	}
	rp, rq := pc.known.get(p).big(), pc.known.get(q).big()
	one := big.NewInt(1)
	var r rng
	switch {
	case first && br == p: // p < q
		r = rng{Lo: rp.Lo, Hi: intrange.Min(rp.Hi, new(big.Int).Sub(rq.Hi, one))}
	case first: // q > p
		r = rng{Lo: intrange.Max(rq.Lo, new(big.Int).Add(rp.Lo, one)), Hi: rq.Hi}
	case br == p: // p >= q
		r = rng{Lo: intrange.Max(rp.Lo, rq.Lo), Hi: rp.Hi}
	default: // q <= p
		r = rng{Lo: rq.Lo, Hi: intrange.Min(rq.Hi, rp.Hi)}
	}
	if r.Lo.Cmp(r.Hi) > 0 {
		return rng{}, false
	}
	return r, true
}

// linearStep reports whether op i, of table entry oi, is linear (the
// opcode table's step: const, add, sub, sum, const_add, ALIR neg), and if
// so the fractional bits e of its exact result, or why it is not portable
// whatever its operands.
func (p *Program) linearStep(oi *OpInfo, inf *info, i int) (e int, reason string, linear bool) {
	step := oi.step
	if step == nil {
		return 0, "", false
	}
	e, reason = step(p, inf, i)
	return e, reason, true
}

// The exact results' steps of the linear ops of the opcode table.

func stepConst(p *Program, inf *info, i int) (int, string) { return inf.kif[i].Fractionals, "" }

func stepNeg(p *Program, inf *info, i int) (int, string) {
	f, fa := inf.kif[i].Fractionals, inf.kif[p.Ops[i].ID0].Fractionals
	if fa != f {
		return 0, fmt.Sprintf("negates a value of step 2^%d into step 2^%d (the raw value is copied, not rescaled)", -fa, -f)
	}
	return f, ""
}

func stepAddSub(p *Program, inf *info, i int) (int, string) {
	op := p.Ops[i]
	return max(inf.kif[op.ID0].Fractionals, inf.kif[op.ID1].Fractionals-int(op.Data)), ""
}

func stepSum(p *Program, inf *info, i int) (int, string) {
	e := math.MinInt
	for _, tm := range p.Ops[i].Terms {
		e = max(e, inf.kif[tm.ID].Fractionals-int(tm.Shift))
	}
	return e, ""
}

func stepConstAdd(p *Program, inf *info, i int) (int, string) {
	op, f := p.Ops[i], inf.kif[i].Fractionals
	fa := inf.kif[op.ID0].Fractionals
	if p.Dialect == DAIS {
		if fa > f {
			return 0, fmt.Sprintf("has step 2^%d, coarser than its operand's 2^%d (da4ml's interpreter shifts by a negative amount)", -f, -fa)
		}
		return f, ""
	}
	return max(fa, int(op.DataHigh())), ""
}

// exact returns the range r of op i's exact result, raw at fractional bits
// e, for operands in the ranges that operand(i, id) gives; or why op i is
// not portable whatever its operands (the opcode table's span; neg and mul
// give their range even then, for Ranges). r.lo is nil
// for an op whose result is not known (an input: any value of its type; a
// lookup of an empty table). Mux gives the union of its branches; for the
// ops that wrap, the result before the wrap.
func (p *Program) exact(inf *info, i int, operand func(int, int32) rng) (r rng, e int, reason string) {
	if reason = p.portableShift(inf, i); reason != "" {
		return rng{}, inf.kif[i].Fractionals, reason
	}
	return p.Dialect.Info(p.Ops[i].Opcode).span(p, inf, i, operand)
}

// portableShift checks the shifts of the wrapping ops that alkaid's
// interpreter can only make one way (the opcode table's shift rule).
func (p *Program) portableShift(inf *info, i int) string {
	if shift := p.Dialect.Info(p.Ops[i].Opcode).shift; shift != nil {
		return shift(p, inf, i)
	}
	return ""
}

// shiftQuantize is the shift rule of relu, quantize and DAIS's
// neg_quantize: a right shift only.
func shiftQuantize(p *Program, inf *info, i int) string {
	op, f := p.Ops[i], inf.kif[i].Fractionals
	if e := inf.kif[op.ID0].Fractionals - op.RelShift(); e < f {
		return fmt.Sprintf("has step 2^%d, finer than its operand's 2^%d (the original interpreter shifts by a negative amount)", -f, -e)
	}
	return ""
}

// shiftMux is the shift rule of mux and DAIS's neg_mux: left shifts, one
// of them 0.
func shiftMux(p *Program, inf *info, i int) string {
	op, f := p.Ops[i], inf.kif[i].Fractionals
	s0, s1 := f-inf.kif[op.ID0].Fractionals, f-inf.kif[op.ID1].Fractionals+int(op.DataHigh())
	if s0 < 0 || s1 < 0 || (s0 != 0 && s1 != 0) {
		return fmt.Sprintf("brings its operands to its step by shifts %d and %d: the original interpreter needs both >= 0 and one of them 0", s0, s1)
	}
	return ""
}

// The value-range rules of the opcode table (see exact).

func spanInput(p *Program, inf *info, i int, operand func(int, int32) rng) (rng, int, string) {
	return rng{}, inf.kif[i].Fractionals, ""
}

// spanQuantize is relu, quantize and DAIS's neg_quantize.
func spanQuantize(p *Program, inf *info, i int, operand func(int, int32) rng) (r rng, e int, reason string) {
	dec := func(id int32) rng { return operand(i, id) }
	op := p.Ops[i]
	e = inf.kif[op.ID0].Fractionals - op.RelShift()
	r = dec(op.ID0)
	if op.Opcode == OpNegQuantize {
		r = r.Neg()
	}
	if op.Opcode == OpReLU {
		r = r.Relu()
	}
	return r, e, ""
}

// spanNegReLU is DAIS's relu(-a).
func spanNegReLU(p *Program, inf *info, i int, operand func(int, int32) rng) (rng, int, string) {
	dec := func(id int32) rng { return operand(i, id) }
	op := p.Ops[i]
	return dec(op.ID0).Neg().Relu(), inf.kif[op.ID0].Fractionals, ""
}

// spanNeg is ALIR's neg: the raw value negated (also when the steps
// differ, which is not portable).
func spanNeg(p *Program, inf *info, i int, operand func(int, int32) rng) (rng, int, string) {
	dec := func(id int32) rng { return operand(i, id) }
	_, reason := stepNeg(p, inf, i)
	return dec(p.Ops[i].ID0).Neg(), inf.kif[i].Fractionals, reason
}

func spanAddSub(p *Program, inf *info, i int, operand func(int, int32) rng) (r rng, e int, reason string) {
	dec := func(id int32) rng { return operand(i, id) }
	op := p.Ops[i]
	fr := func(id int32) int { return inf.kif[id].Fractionals }
	fa, fb := fr(op.ID0), fr(op.ID1)-int(op.Data)
	e, _ = stepAddSub(p, inf, i)
	if op.ID0 == op.ID1 && !inf.plain { // a ± a*2^s: one value, scaled
		ca := new(big.Int).Lsh(big.NewInt(1), uint(e-fa))
		cb := new(big.Int).Lsh(big.NewInt(1), uint(e-fb))
		if op.Opcode == OpSub {
			cb.Neg(cb)
		}
		return dec(op.ID0).Mul(intrange.Point(ca.Add(ca, cb))), e, ""
	}
	b := dec(op.ID1).Shl(uint(e - fb))
	if op.Opcode == OpSub {
		b = b.Neg()
	}
	return dec(op.ID0).Shl(uint(e - fa)).Add(b), e, ""
}

func spanConstAdd(p *Program, inf *info, i int, operand func(int, int32) rng) (r rng, e int, reason string) {
	dec := func(id int32) rng { return operand(i, id) }
	op := p.Ops[i]
	k, ek := big.NewInt(int64(op.DataLow())), int(op.DataHigh())
	fa := inf.kif[op.ID0].Fractionals
	if p.Dialect == DAIS {
		k, ek = big.NewInt(op.Data), inf.kif[i].Fractionals
	}
	if e, reason = stepConstAdd(p, inf, i); reason != "" {
		return rng{}, e, reason
	}
	return dec(op.ID0).Shl(uint(e - fa)).Add(intrange.Point(k.Lsh(k, uint(e-ek)))), e, ""
}

func spanConst(p *Program, inf *info, i int, operand func(int, int32) rng) (rng, int, string) {
	return intrange.Point(big.NewInt(p.Ops[i].Data)), inf.kif[i].Fractionals, ""
}

func spanSum(p *Program, inf *info, i int, operand func(int, int32) rng) (rng, int, string) {
	dec := func(id int32) rng { return operand(i, id) }
	op := p.Ops[i]
	e, _ := stepSum(p, inf, i)
	r := intrange.Point(new(big.Int)) // shared operands: the linear form is exact
	for _, tm := range op.Terms {
		x := dec(tm.ID).Shl(uint(e - (inf.kif[tm.ID].Fractionals - int(tm.Shift))))
		if tm.Neg {
			x = x.Neg()
		}
		r = r.Add(x)
	}
	return r, e, ""
}

func spanMul(p *Program, inf *info, i int, operand func(int, int32) rng) (r rng, e int, reason string) {
	dec := func(id int32) rng { return operand(i, id) }
	op, t := p.Ops[i], inf.kif[i]
	e = t.Fractionals
	if fa, fb := inf.kif[op.ID0].Fractionals, inf.kif[op.ID1].Fractionals; fa+fb != t.Fractionals {
		// The raw product, copied: the range holds, the op is not portable.
		reason = fmt.Sprintf("multiplies steps 2^%d and 2^%d into step 2^%d (the raw product is copied, not rescaled)", -fa, -fb, -t.Fractionals)
	}
	if op.ID0 == op.ID1 && !inf.plain { // a square is never negative
		a := dec(op.ID0)
		r = a.Mul(a)
		if a.Lo.Sign() < 0 && a.Hi.Sign() > 0 {
			r.Lo = new(big.Int)
		}
		return r, e, reason
	}
	return dec(op.ID0).Mul(dec(op.ID1)), e, reason
}

// spanMux is mux and DAIS's neg_mux: the union of the branches (of the
// branches ever selected, where the operand ranges say so: empty).
func spanMux(p *Program, inf *info, i int, operand func(int, int32) rng) (r rng, e int, reason string) {
	dec := func(id int32) rng { return operand(i, id) }
	op := p.Ops[i]
	fr := func(id int32) int { return inf.kif[id].Fractionals }
	fa, fb := fr(op.ID0), fr(op.ID1)-int(op.DataHigh())
	e = max(fa, fb)
	a, b := dec(op.ID0), dec(op.ID1)
	if a.Empty() && b.Empty() { // not from a sound analysis
		return rng{}, e, ""
	}
	if !b.Empty() {
		if op.Opcode == OpNegMux {
			b = b.Neg()
		}
		b = b.Shl(uint(e - fb))
	}
	if !a.Empty() {
		a = a.Shl(uint(e - fa))
	}
	// A branch never selected (empty) adds nothing to the union.
	switch {
	case a.Empty():
		return b, e, ""
	case b.Empty():
		return a, e, ""
	}
	return a.Union(b), e, ""
}

func spanLookup(p *Program, inf *info, i int, operand func(int, int32) rng) (r rng, e int, reason string) {
	e = inf.kif[i].Fractionals
	vals := p.Tables[p.Ops[i].Data].Values
	if len(vals) == 0 {
		return rng{}, e, ""
	}
	lo, hi := vals[0], vals[0]
	for _, v := range vals[1:] {
		lo, hi = min(lo, v), max(hi, v)
	}
	return rng{Lo: big.NewInt(int64(lo)), Hi: big.NewInt(int64(hi))}, e, ""
}

// spanBitUnary is bit_unary and DAIS's neg_bit_unary.
func spanBitUnary(p *Program, inf *info, i int, operand func(int, int32) rng) (r rng, e int, reason string) {
	dec := func(id int32) rng { return operand(i, id) }
	op, t := p.Ops[i], inf.kif[i]
	a := dec(op.ID0)
	if op.Opcode == OpNegBitUnary {
		a = a.Neg()
	}
	switch {
	case op.Data != BitNot:
		r = rng{Lo: big.NewInt(0), Hi: big.NewInt(1)}
	case t.Signed:
		r = a.Not()
	default: // ^a masked to a's width: ^a itself when that is in range
		w := inf.kif[op.ID0].Width()
		mask := rng{Lo: new(big.Int), Hi: new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1))}
		if r = a.Not(); inf.plain || !r.Within(mask) {
			r = mask
		}
	}
	return r, t.Fractionals, ""
}

func spanBitBinary(p *Program, inf *info, i int, operand func(int, int32) rng) (rng, int, string) {
	dec := func(id int32) rng { return operand(i, id) }
	op := p.Ops[i]
	dais := p.Dialect == DAIS
	sh := int(op.DataLow()) + inf.kif[op.ID0].Fractionals - inf.kif[op.ID1].Fractionals
	a, b := dec(op.ID0), dec(op.ID1)
	if dais && op.DataHigh()&1 != 0 {
		a = a.Neg()
	}
	if dais && op.DataHigh()&2 != 0 {
		b = b.Neg()
	}
	if sh > 0 {
		b = b.Shl(uint(sh))
	} else {
		a = a.Shl(uint(-sh))
	}
	sub := uint64(op.Data) >> 56
	if inf.plain {
		sub = BitXor // the bound that holds for all three
	}
	return bitwise(a, b, sub), inf.kif[i].Fractionals, ""
}

// scaled formats r as real values at fractional bits f.
func scaled(r rng, f int) string {
	v := func(x *big.Int) string {
		return new(big.Float).SetMantExp(new(big.Float).SetInt(x), -f).Text('g', 10)
	}
	return "[" + v(r.Lo) + ", " + v(r.Hi) + "]"
}
