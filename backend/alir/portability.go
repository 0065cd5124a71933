package alir

import (
	"fmt"
	"math"
	"math/big"
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

// Portability lists the operations of p (which must be valid) that are not
// portable. A program without any means the same in otir, in alkaid's and
// da4ml's interpreters and in RTL whose wires have the declared widths:
// every value lies in its operation's type, so no operation relies on
// wrap-around that only quantizing operations do.
//
// The check is a value-range analysis: inputs, and ops that wrap, may hold
// any value of their type unless their exact result fits it; the other
// ops hold their exact result, whose range follows from their operands'
// (adders as exact linear forms over independent sources, so that shared
// subexpressions count once; a mux that clamps a value narrows it), and
// must lie in their type. The declared [min, max] is not trusted.
func (p *Program) Portability() ([]NonPortable, error) {
	inf, err := p.analyze()
	if err != nil {
		return nil, err
	}
	var out []NonPortable
	pc := &portCtx{p: p, inf: inf, known: make([]rng, len(p.Ops)), form: make([]*affine, len(p.Ops))}
	// A form is dropped after its op's last use: a chain keeps one live.
	last := make([]int32, len(p.Ops))
	for i, op := range p.Ops {
		for _, id := range op.operands(p.Dialect) {
			last[id] = int32(i)
		}
	}
	for i, op := range p.Ops {
		if reason, need := pc.check(i); reason != "" {
			out = append(out, NonPortable{i, op.Opcode, p.Dialect.OpName(op.Opcode), reason, need})
		}
		for _, id := range op.operands(p.Dialect) {
			if last[id] == int32(i) {
				pc.form[id] = nil
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
	known []rng
	form  []*affine // the linear form of every op; nil: a source (itself)
}

// formOf returns the linear form of op id.
func (pc *portCtx) formOf(id int32) affine {
	if f := pc.form[id]; f != nil {
		return *f
	}
	return sourceForm(id, pc.known[id])
}

// check returns why op i is not portable, or "", and records known[i]:
// the exact range of its values where it lies in op i's type, else (an op
// that wraps or is not portable) the type's whole range.
func (pc *portCtx) check(i int) (reason string, need QInterval) {
	t := pc.inf.kif[i]
	tr := typeRange(t)
	pc.known[i] = tr
	// A linear op's range is its form's: no interval arithmetic needed.
	var r rng
	e, reason, linear := pc.p.linearStep(pc.inf, i)
	if reason != "" {
		return reason, need
	}
	var f affine
	if linear {
		f, linear = pc.linear(i, e)
		r = f.r
	}
	if !linear {
		if r, e, reason = pc.p.exact(pc.inf, i, pc.operand); reason != "" || r.lo == nil {
			return reason, need
		}
	}
	if e < t.Fractionals && pc.p.Ops[i].Opcode == OpSum {
		// alkaid's sum shifts its exact result left to a finer step.
		r = r.shl(uint(t.Fractionals - e))
		if linear {
			f, linear = f.shl(uint(t.Fractionals - e))
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
		lo, _ := new(big.Float).SetMantExp(new(big.Float).SetInt(r.lo), -t.Fractionals).Float64()
		hi, _ := new(big.Float).SetMantExp(new(big.Float).SetInt(r.hi), -t.Fractionals).Float64()
		need = QInterval{lo, hi, math.Ldexp(1, -t.Fractionals)}
		return fmt.Sprintf("its exact result lies in %v but its type %v holds %v: it does not wrap", r.scaled(t.Fractionals), t, tr.scaled(t.Fractionals)), need
	}
	pc.known[i] = r
	if linear {
		if g, ok := f.sar(uint(e - t.Fractionals)); ok {
			g.r = r
			pc.form[i] = &g
		}
	}
	return "", need
}

// linear returns the linear form of op i's exact result at fractional bits
// e, if op i is linear (const, add, sub, const_add, ALIR neg) and the form
// can be built (see affine).
func (pc *portCtx) linear(i, e int) (affine, bool) {
	p, op := pc.p, pc.p.Ops[i]
	fr := func(id int32) int { return pc.inf.kif[id].Fractionals }
	src := func(s int32) rng { return pc.known[s] }
	at := func(id int32, f int) (affine, bool) { return pc.formOf(id).shl(uint(e - f)) }
	switch op.Opcode {
	case OpConst:
		return constForm(op.Data), true
	case -2:
		if p.Dialect == ALIR {
			return constForm(0).add(pc.formOf(op.ID0), -1, src)
		}
	case OpAdd, OpSub:
		s := int64(1)
		if op.Opcode == OpSub {
			s = -1
		}
		a, ok := at(op.ID0, fr(op.ID0))
		if !ok {
			return affine{}, false
		}
		b, ok := at(op.ID1, fr(op.ID1)-int(op.Data))
		if !ok {
			return affine{}, false
		}
		return a.add(b, s, src)
	case OpConstAdd:
		k, ek := int64(op.DataLow()), int(op.DataHigh())
		if p.Dialect == DAIS {
			k, ek = op.Data, pc.inf.kif[i].Fractionals
		}
		a, ok := at(op.ID0, fr(op.ID0))
		if !ok {
			return affine{}, false
		}
		c, ok := shl64(k, uint(e-ek))
		if !ok {
			return affine{}, false
		}
		return a.add(constForm(c), 1, src)
	case OpSum:
		acc := constForm(0)
		for _, tm := range op.Terms {
			x, ok := at(tm.ID, fr(tm.ID)-int(tm.Shift))
			if !ok {
				return affine{}, false
			}
			s := int64(1)
			if tm.Neg {
				s = -1
			}
			if acc, ok = acc.add(x, s, src); !ok {
				return affine{}, false
			}
		}
		return acc, true
	}
	return affine{}, false
}

// operand returns the known range of op id as an operand of op i, narrowed
// further where op i is a mux that tests id's sign (see muxBranch).
func (pc *portCtx) operand(i int, id int32) rng {
	op := pc.p.Ops[i]
	if (op.Opcode == OpMux || op.Opcode == OpNegMux) && (id == op.ID0 || id == op.ID1) && op.ID0 != op.ID1 {
		if r, ok := pc.muxBranch(i, id == op.ID0); ok {
			return r
		}
	}
	return pc.known[id]
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
	rx := pc.known[x]
	if first {
		hi := minBig(rx.hi, new(big.Int).Sub(b, big.NewInt(1)))
		if hi.Cmp(rx.lo) < 0 {
			return rng{}, false
		}
		rx = rng{rx.lo, hi}
	} else {
		lo := maxBig(rx.lo, b)
		if lo.Cmp(rx.hi) > 0 {
			return rng{}, false
		}
		rx = rng{lo, rx.hi}
	}
	if br == x {
		return rx, true
	}
	bop := p.Ops[br]
	switch bop.Opcode {
	case OpConstAdd, -2, OpBitUnary, OpQuantize, OpReLU:
	default:
		return rng{}, false
	}
	if bop.ID0 != x || (bop.Opcode == -2 && p.Dialect == DAIS) {
		return rng{}, false
	}
	r, e, reason := p.exact(pc.inf, int(br), func(_ int, id int32) rng {
		if id == x {
			return rx
		}
		return pc.known[id]
	})
	fb := pc.inf.kif[br].Fractionals
	if reason != "" || r.lo == nil || e < fb {
		return rng{}, false
	}
	r = r.sar(uint(e - fb))
	if !r.within(typeRange(pc.inf.kif[br])) {
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
	rp, rq := pc.known[p], pc.known[q]
	one := big.NewInt(1)
	var r rng
	switch {
	case first && br == p: // p < q
		r = rng{rp.lo, minBig(rp.hi, new(big.Int).Sub(rq.hi, one))}
	case first: // q > p
		r = rng{maxBig(rq.lo, new(big.Int).Add(rp.lo, one)), rq.hi}
	case br == p: // p >= q
		r = rng{maxBig(rp.lo, rq.lo), rp.hi}
	default: // q <= p
		r = rng{rq.lo, minBig(rq.hi, rp.hi)}
	}
	if r.lo.Cmp(r.hi) > 0 {
		return rng{}, false
	}
	return r, true
}

// linearStep reports whether op i is linear (const, add, sub, sum,
// const_add, ALIR neg), and if so the fractional bits e of its exact result, or why
// it is not portable whatever its operands.
func (p *Program) linearStep(inf *info, i int) (e int, reason string, linear bool) {
	op := p.Ops[i]
	t := inf.kif[i]
	fr := func(id int32) int { return inf.kif[id].Fractionals }
	switch op.Opcode {
	case OpConst:
		return t.Fractionals, "", true
	case -2:
		if p.Dialect == DAIS {
			return 0, "", false
		}
		if fr(op.ID0) != t.Fractionals {
			return 0, fmt.Sprintf("negates a value of step 2^%d into step 2^%d (the raw value is copied, not rescaled)", -fr(op.ID0), -t.Fractionals), true
		}
		return t.Fractionals, "", true
	case OpAdd, OpSub:
		return max(fr(op.ID0), fr(op.ID1)-int(op.Data)), "", true
	case OpSum:
		e = math.MinInt
		for _, tm := range op.Terms {
			e = max(e, fr(tm.ID)-int(tm.Shift))
		}
		return e, "", true
	case OpConstAdd:
		fa := fr(op.ID0)
		if p.Dialect == DAIS {
			if fa > t.Fractionals {
				return 0, fmt.Sprintf("has step 2^%d, coarser than its operand's 2^%d (da4ml's interpreter shifts by a negative amount)", -t.Fractionals, -fa), true
			}
			return t.Fractionals, "", true
		}
		return max(fa, int(op.DataHigh())), "", true
	}
	return 0, "", false
}

// exact returns the range r of op i's exact result, raw at fractional bits
// e, for operands in the ranges that operand(i, id) gives; or why op i is
// not portable whatever its operands. r.lo is nil for an op whose result
// is not known (an input: any value of its type; a lookup of an empty
// table). Mux gives the union of its branches; for the ops that wrap, the
// result before the wrap.
func (p *Program) exact(inf *info, i int, operand func(int, int32) rng) (r rng, e int, reason string) {
	op := p.Ops[i]
	t := inf.kif[i]
	e = t.Fractionals
	fr := func(id int32) int { return inf.kif[id].Fractionals }
	dec := func(id int32) rng { return operand(i, id) }
	dais := p.Dialect == DAIS
	if reason = p.portableShift(inf, i); reason != "" {
		return
	}
	switch op.Opcode {
	case OpReLU, OpQuantize, OpNegQuantize:
		e, r = fr(op.ID0)-op.RelShift(), dec(op.ID0)
		if op.Opcode == OpNegQuantize {
			r = r.neg()
		}
		if op.Opcode == OpReLU {
			r = r.relu()
		}
	case -2:
		if dais { // relu(-a)
			e, r = fr(op.ID0), dec(op.ID0).neg().relu()
			break
		}
		// ALIR neg: the raw value negated
		if e, reason, _ = p.linearStep(inf, i); reason != "" {
			return
		}
		r = dec(op.ID0).neg()
	case OpAdd, OpSub:
		fa, fb := fr(op.ID0), fr(op.ID1)-int(op.Data)
		e, _, _ = p.linearStep(inf, i)
		if op.ID0 == op.ID1 { // a ± a*2^s: one value, scaled
			ca := new(big.Int).Lsh(big.NewInt(1), uint(e-fa))
			cb := new(big.Int).Lsh(big.NewInt(1), uint(e-fb))
			if op.Opcode == OpSub {
				cb.Neg(cb)
			}
			r = dec(op.ID0).mul(pointRange(ca.Add(ca, cb)))
			return
		}
		b := dec(op.ID1).shl(uint(e - fb))
		if op.Opcode == OpSub {
			b = b.neg()
		}
		r = dec(op.ID0).shl(uint(e - fa)).add(b)
	case OpConstAdd:
		k, ek := big.NewInt(int64(op.DataLow())), int(op.DataHigh())
		fa := fr(op.ID0)
		if dais {
			k, ek = big.NewInt(op.Data), t.Fractionals
		}
		if e, reason, _ = p.linearStep(inf, i); reason != "" {
			return
		}
		r = dec(op.ID0).shl(uint(e - fa)).add(pointRange(k.Lsh(k, uint(e-ek))))
	case OpConst:
		r = pointRange(big.NewInt(op.Data))
	case OpSum:
		e = math.MinInt
		for _, tm := range op.Terms {
			e = max(e, fr(tm.ID)-int(tm.Shift))
		}
		r = pointRange(new(big.Int)) // shared operands: the linear form is exact
		for _, tm := range op.Terms {
			x := dec(tm.ID).shl(uint(e - (fr(tm.ID) - int(tm.Shift))))
			if tm.Neg {
				x = x.neg()
			}
			r = r.add(x)
		}
	case OpMul:
		if fa, fb := fr(op.ID0), fr(op.ID1); fa+fb != t.Fractionals {
			reason = fmt.Sprintf("multiplies steps 2^%d and 2^%d into step 2^%d (the raw product is copied, not rescaled)", -fa, -fb, -t.Fractionals)
			return
		}
		if op.ID0 == op.ID1 { // a square is never negative
			a := dec(op.ID0)
			r = a.mul(a)
			if a.lo.Sign() < 0 && a.hi.Sign() > 0 {
				r.lo = new(big.Int)
			}
			return
		}
		r = dec(op.ID0).mul(dec(op.ID1))
	case OpMux, OpNegMux:
		fa, fb := fr(op.ID0), fr(op.ID1)-int(op.DataHigh())
		e = max(fa, fb)
		b := dec(op.ID1)
		if op.Opcode == OpNegMux {
			b = b.neg()
		}
		r = dec(op.ID0).shl(uint(e - fa)).union(b.shl(uint(e - fb)))
	case OpLookup:
		vals := p.Tables[op.Data].Values
		if len(vals) == 0 {
			return
		}
		r = pointRange(big.NewInt(int64(vals[0])))
		for _, v := range vals[1:] {
			r = r.union(pointRange(big.NewInt(int64(v))))
		}
	case OpBitUnary, OpNegBitUnary:
		a := dec(op.ID0)
		if op.Opcode == OpNegBitUnary {
			a = a.neg()
		}
		switch {
		case op.Data != BitNot:
			r = rng{big.NewInt(0), big.NewInt(1)}
		case t.Signed:
			r = a.not()
		default: // ^a masked to a's width: ^a itself when that is in range
			w := inf.kif[op.ID0].Width()
			mask := rng{new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1))}
			if r = a.not(); !r.within(mask) {
				r = mask
			}
		}
	case OpBitBinary:
		sh := int(op.DataLow()) + fr(op.ID0) - fr(op.ID1)
		a, b := dec(op.ID0), dec(op.ID1)
		if dais && op.DataHigh()&1 != 0 {
			a = a.neg()
		}
		if dais && op.DataHigh()&2 != 0 {
			b = b.neg()
		}
		if sh > 0 {
			b = b.shl(uint(sh))
		} else {
			a = a.shl(uint(-sh))
		}
		r = a.bitwise(b, uint64(op.Data)>>56)
	}
	return
}

// portableShift checks the shifts of the wrapping ops that alkaid's
// interpreter can only make one way.
func (p *Program) portableShift(inf *info, i int) string {
	op := p.Ops[i]
	f := inf.kif[i].Fractionals
	fr := func(id int32) int { return inf.kif[id].Fractionals }
	switch op.Opcode {
	case OpReLU, OpQuantize, OpNegQuantize:
		if e := fr(op.ID0) - op.RelShift(); e < f {
			return fmt.Sprintf("has step 2^%d, finer than its operand's 2^%d (the original interpreter shifts by a negative amount)", -f, -e)
		}
	case OpMux, OpNegMux:
		s0, s1 := f-fr(op.ID0), f-fr(op.ID1)+int(op.DataHigh())
		if s0 < 0 || s1 < 0 || (s0 != 0 && s1 != 0) {
			return fmt.Sprintf("brings its operands to its step by shifts %d and %d: the original interpreter needs both >= 0 and one of them 0", s0, s1)
		}
	}
	return ""
}

// scaled formats r as real values at fractional bits f.
func (r rng) scaled(f int) string {
	v := func(x *big.Int) string {
		return new(big.Float).SetMantExp(new(big.Float).SetInt(x), -f).Text('g', 10)
	}
	return "[" + v(r.lo) + ", " + v(r.hi) + "]"
}
