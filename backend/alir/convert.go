package alir

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/otir-dev/otir/internal/intrange"
)

// Convert returns p in dialect to, computing what p computes in its own
// dialect (as alkaid's and da4ml's interpreters define them). An operation
// becomes one operation of the other dialect where that means the same, and
// a few where it does not:
//
//   - ALIR -2 (-a, exact) is DAIS -3 (quantize(-a)); DAIS -3 is ALIR -2 when
//     -a lies in the result's type at the operand's step, else an ALIR -2
//     into a type that holds -a, then a quantize (3);
//   - ALIR 4 adds DataLow*2^-DataHigh and floors to the result's step; DAIS
//     4 adds Data in units of the result's step and cannot floor: where the
//     result is coarser than the operand or the constant, the DAIS form adds
//     at the finer step and a quantize (3) follows;
//   - an ALIR mux reads the most significant bit of its condition, da4ml's
//     DAIS reads the sign of a signed condition but compares an unsigned one
//     with 2^(W-2): an unsigned condition is first quantized to the signed
//     type of the same width (the bits stay; the sign is the msb);
//   - a constant-zero output (-1) reads, in DAIS, a constant zero op (da4ml's
//     interpreter reads every output op's type);
//   - DAIS -2 (relu(-a)), -6, -9, a bitwise op with negation flags and a mux
//     with an unsigned condition have no ALIR equivalent: an error.
//
// Conversion needs a portable program (see Portability): the dialects'
// -2/-3, 4 and mux conditions differ only on values that leave their type.
// Inserted operations make the indices of the later ones shift; outputs
// follow. If p already is in dialect to, Convert returns p itself.
func Convert(p *Program, to Dialect) (*Program, error) {
	if p.Dialect == to {
		return p, nil
	}
	if to != ALIR && to != DAIS {
		return nil, fmt.Errorf("unknown dialect %d", to)
	}
	if to == DAIS { // DAIS has neither sums nor relative shifts
		var err error
		if p, err = ToSpec2(p); err != nil {
			return nil, err
		}
	}
	inf, err := p.analyze()
	if err != nil {
		return nil, err
	}
	bad, err := p.Portability()
	if err != nil {
		return nil, err
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("cannot convert %v to %v: the program is not portable (%s), and the two compute such operations differently: %v", p.Dialect, to, plural(len(bad), "operation", "operations"), bad[0])
	}
	q := p.Clone()
	q.Dialect = to
	if to == DAIS {
		q.Spec = 0
	}
	q.Ops = make([]Op, 0, len(p.Ops))
	at := make([]int32, len(p.Ops)) // new index of every old op
	emit := func(op Op) int32 {
		q.Ops = append(q.Ops, op)
		return int32(len(q.Ops) - 1)
	}
	for i, src := range p.Ops {
		op := src
		fail := func(why string) error {
			return fmt.Errorf("cannot convert %v to %v: %w", p.Dialect, to, p.opErr(i, "%s", why))
		}
		// Operands to their new indices.
		op = op.mapOperands(p.Dialect, func(id int32) int32 { return at[id] })
		t := inf.kif[i]
		f := t.Fractionals
		switch {
		case to == DAIS && op.Opcode == OpNeg:
			op.Opcode = OpNegQuantize
		case to == ALIR && op.Opcode == OpNegQuantize:
			ta := inf.kif[src.ID0]
			lo, hi := ta.rawRange()
			nr := rng{Lo: lo, Hi: hi}.Neg()
			if ta.Fractionals == f && nr.Within(typeRange(t)) {
				op.Opcode = OpNeg
				break
			}
			nt := intervalOf(nr, ta.Fractionals)
			if _, err := nt.KIF(); err != nil {
				return nil, fail(fmt.Sprintf("-a needs the type of %v: %v", nt, err))
			}
			op.ID0 = emit(Op{ID0: op.ID0, ID1: -1, Opcode: OpNeg, QInt: nt})
			op.Opcode = OpQuantize
		case to == ALIR && (op.Opcode == OpNegReLU || op.Opcode == OpNegMux || op.Opcode == OpNegBitUnary):
			return nil, fail("no ALIR equivalent")
		case to == ALIR && op.Opcode == OpBitBinary && op.DataHigh()&3 != 0:
			return nil, fail("its operand negation flags have no ALIR equivalent")
		case to == ALIR && op.Opcode == OpMux:
			if tc := inf.kif[src.DataLow()]; !tc.Signed && tc.Width() > 0 {
				return nil, fail("DAIS compares an unsigned mux condition with 2^(W-2): no ALIR equivalent")
			}
		case to == DAIS && op.Opcode == OpMux:
			if tc := inf.kif[src.DataLow()]; !tc.Signed && tc.Width() > 0 {
				st := KIF{Signed: true, Integers: tc.Integers - 1, Fractionals: tc.Fractionals}
				c := emit(Op{ID0: at[src.DataLow()], ID1: -1, Opcode: OpQuantize, QInt: st.QInterval()})
				op.Data = PackData(c, src.DataHigh())
			}
		case to == DAIS && op.Opcode == OpConstAdd:
			// a*2^-fa + c*2^-e, exact at step 2^-g with g = max(f, fa, e):
			// d = c*2^(g-e) in units of 2^-g.
			fa := inf.kif[src.ID0].Fractionals
			g := max(f, fa, int(op.DataHigh()))
			d := new(big.Int).Lsh(big.NewInt(int64(op.DataLow())), uint(g-int(op.DataHigh())))
			if !d.IsInt64() {
				return nil, fail("constant does not fit 64 bits")
			}
			op.Data = d.Int64()
			if g > f { // add at the finer step, then floor to the result's
				lo, hi := inf.kif[src.ID0].rawRange()
				sum := rng{Lo: lo, Hi: hi}.Shl(uint(g - fa)).Add(intrange.Point(d))
				it := intervalOf(sum, g)
				if _, err := it.KIF(); err != nil {
					return nil, fail(fmt.Sprintf("the exact sum needs %v: %v", it, err))
				}
				op.QInt = it
				op.ID0 = emit(op)
				op = Op{ID0: op.ID0, ID1: -1, Opcode: OpQuantize, QInt: src.QInt, Latency: src.Latency, Cost: src.Cost}
			}
		case to == ALIR && op.Opcode == OpConstAdd:
			if op.Data != int64(int32(op.Data)) {
				return nil, fail("constant does not fit 32 bits")
			}
			if f < -MaxShift || f > MaxShift {
				return nil, fail("constant exponent out of range")
			}
			op.Data = PackData(int32(op.Data), int32(f))
		}
		at[i] = emit(op)
	}
	zero := int32(-1)
	for j, o := range q.Outputs {
		switch {
		case o.Index >= 0:
			q.Outputs[j].Index = at[o.Index]
		case to == DAIS:
			// da4ml's interpreter reads the type of every output's op, so a
			// constant-zero output (-1) crashes it: point it at a zero.
			if zero < 0 {
				zero = emit(Op{ID0: -1, ID1: -1, Opcode: OpConst, QInt: QInterval{0, 0, 1}})
			}
			q.Outputs[j].Index = zero
		}
	}
	if err := q.Validate(); err != nil {
		return nil, fmt.Errorf("cannot convert %v to %v: %w", p.Dialect, to, err)
	}
	return q, nil
}

// intervalOf returns the interval of the raw values r at f fractional bits.
func intervalOf(r rng, f int) QInterval {
	v := func(x *big.Int) float64 {
		y, _ := new(big.Float).SetMantExp(new(big.Float).SetInt(x), -f).Float64()
		return y
	}
	return QInterval{v(r.Lo), v(r.Hi), v(big.NewInt(1))}
}

// ToSpec2 returns p with what only ALIR spec 3/4 expresses rewritten into
// spec-2 operations that compute the same, exactly (p itself if there is
// nothing to rewrite):
//
//   - a quantize with a relative shift r, quantize(x*2^r), becomes
//     add(z, x, r) into the type of x*2^r (z a constant zero at that step),
//     then a plain quantize;
//   - a sum Σ ±x_k*2^s_k becomes a chain of adds and subs that starts from
//     its first positive unshifted term (or a constant zero) and adds one
//     term at a time; every partial sum gets the type that holds its exact
//     value at the sum's finest step, and the last one the sum's type, so
//     it floors once, as the sum does.
//
// Inserted operations shift the indices of the later ones; outputs follow.
// A partial sum wider than 64 bits is an error.
func ToSpec2(p *Program) (*Program, error) {
	if p.Dialect != ALIR || !p.NeedsV4() {
		return p, nil
	}
	inf, err := p.analyze()
	if err != nil {
		return nil, err
	}
	q := p.Clone()
	q.Ops = make([]Op, 0, len(p.Ops)+len(p.Ops)/4)
	q.Spec = SpecVersion
	at := make([]int32, len(p.Ops))
	emit := func(op Op) int32 {
		q.Ops = append(q.Ops, op)
		return int32(len(q.Ops) - 1)
	}
	kifOf := func(id int32) KIF { t, _ := q.Ops[id].QInt.KIF(); return t }
	zeros := map[int]int32{}
	zeroAt := func(f int) int32 { // a 1-bit unsigned zero of step 2^-f
		if z, ok := zeros[f]; ok {
			return z
		}
		s := math.Ldexp(1, -f)
		z := emit(Op{ID0: -1, ID1: -1, Opcode: OpConst, QInt: QInterval{0, s, s}})
		zeros[f] = z
		return z
	}
	for i, src := range p.Ops {
		op := src.mapOperands(ALIR, func(id int32) int32 { return at[id] })
		fail := func(format string, args ...any) error {
			return fmt.Errorf("cannot write ALIR spec 2: %w", p.opErr(i, format, args...))
		}
		switch {
		case op.Opcode == OpQuantize && op.Data != 0:
			x, r := op.ID0, int(op.Data)
			qx := q.Ops[x].QInt
			sc := math.Ldexp(1, r)
			qy := QInterval{qx.Min * sc, qx.Max * sc, qx.Step * sc}
			ty, err := qy.KIF()
			if err != nil {
				return nil, fail("x*2^%d has no type: %v", r, err)
			}
			y := emit(Op{ID0: zeroAt(ty.Fractionals), ID1: x, Opcode: OpAdd, Data: int64(r), QInt: qy, Latency: src.Latency})
			op.ID0, op.Data = y, 0
		case op.Opcode == OpSum:
			t := inf.kif[i]
			c := math.MinInt
			for _, tm := range op.Terms {
				c = max(c, kifOf(tm.ID).Fractionals-int(tm.Shift))
			}
			fz := max(c, t.Fractionals)
			// A term of width 0 is the constant 0: it adds nothing, and a
			// partial sum of width 0 would be the first operand of the
			// next add, which alkaid's spec 2 interpreter then gets wrong.
			var terms []Term
			for _, tm := range op.Terms {
				if kifOf(tm.ID).Width() > 0 {
					terms = append(terms, tm)
				}
			}
			if len(terms) == 0 {
				op = Op{ID0: -1, ID1: -1, Opcode: OpConst, QInt: src.QInt, Latency: src.Latency}
				break
			}
			acc := int32(-1)
			var r rng
			if len(terms) > 1 {
				for k, tm := range terms {
					if !tm.Neg && tm.Shift == 0 && kifOf(tm.ID).Fractionals == fz {
						acc = tm.ID
						lo, hi := kifOf(tm.ID).rawRange()
						r = rng{Lo: lo, Hi: hi}
						terms = append(append([]Term(nil), terms[:k]...), terms[k+1:]...)
						break
					}
				}
			}
			if acc < 0 {
				acc = zeroAt(fz)
				r = intrange.Point(new(big.Int))
			}
			for k, tm := range terms {
				code := OpAdd
				if tm.Neg {
					code = OpSub
				}
				tx := kifOf(tm.ID)
				lo, hi := tx.rawRange()
				xr := rng{Lo: lo, Hi: hi}.Shl(uint(fz - (tx.Fractionals - int(tm.Shift))))
				if tm.Neg {
					xr = xr.Neg()
				}
				r = r.Add(xr)
				next := Op{ID0: acc, ID1: tm.ID, Opcode: code, Data: int64(tm.Shift), Latency: src.Latency}
				if k == len(terms)-1 {
					op = next
					op.QInt, op.Cost = src.QInt, src.Cost
					break
				}
				next.QInt = intervalOf(r, fz)
				if _, err := next.QInt.KIF(); err != nil {
					return nil, fail("a partial sum needs the type of %v: %v", next.QInt, err)
				}
				acc = emit(next)
			}
		}
		at[i] = emit(op)
	}
	for j, o := range q.Outputs {
		if o.Index >= 0 {
			q.Outputs[j].Index = at[o.Index]
		}
	}
	dropUnused(q)
	if err := q.Validate(); err != nil {
		return nil, fmt.Errorf("cannot write ALIR spec 2: %w", err)
	}
	return q, nil
}

// dropUnused removes the ops of q that no output depends on, inputs kept:
// alkaid's spec 2 interpreter (its last spec 2 commit) crashes on a
// program with an op nothing reads, and the sums ToSpec2 expands can leave
// one (a term of width 0, the constant 0, which it drops).
func dropUnused(q *Program) {
	used := make([]bool, len(q.Ops))
	for _, o := range q.Outputs {
		if o.Index >= 0 {
			used[o.Index] = true
		}
	}
	for i, op := range q.Ops {
		used[i] = used[i] || op.Opcode == OpInput
	}
	MarkLive(q.Dialect, q.Ops, used)
	if !slices.Contains(used, false) {
		return
	}
	at := make([]int32, len(q.Ops))
	ops := q.Ops[:0]
	for i, op := range q.Ops {
		if used[i] {
			at[i] = int32(len(ops))
			ops = append(ops, op.mapOperands(q.Dialect, func(id int32) int32 { return at[id] }))
		}
	}
	q.Ops = ops
	for j, o := range q.Outputs {
		if o.Index >= 0 {
			q.Outputs[j].Index = at[o.Index]
		}
	}
}
