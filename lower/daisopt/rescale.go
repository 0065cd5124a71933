package daisopt

import (
	"math"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// Rescale runs dais-rescale on one program: it moves constant shifts into
// the scales of the slots, so that they cost nothing. lower-tiles computes
// on integers, so a shift by a constant (x*2^s, floor(x*2^-s)) is an add
// of the constant zero, and a constant plus a shifted value (a bias added
// to a constant-matrix product's output) an add of a constant slot: constant
// adds (docs/alir.md#what-info-counts) that the da4ml cost model charges.
// ALIR values carry their own power-of-two scale, as alkaid's programs do:
// Rescale gives every slot a scale factor 2^e (its new value is the old
// times 2^e) and rewrites
//
//   - 0 + x*2^s at the step of x*2^s or coarser: x itself (e = e_x - s)
//     when x's type is the result's scaled, else a quantize of x to the
//     result's type scaled by 2^(e_x - s) (ALIR op 3, not an adder: it
//     floors a coarser step, and never wraps) when only wrapping ops (relu,
//     quantize, mux) read it, else x + 0 in that type (a constant add: it
//     floors too, and its interval stays exact for the adders that read
//     it, where a quantize's would be its whole type);
//   - c + x*2^s and x ± c*2^s, c a constant slot: a constant add (op 4);
//   - -(a - b*2^s), the negation of a sub that nothing else reads: the sub
//     b - a*2^-s (scale 2^-s), so the negation, an adder and a level of
//     depth, goes (lower-tiles writes a constant-matrix product's output
//     read negated this way when no bias absorbs it);
//   - every other op: its result type scaled by the scale of its first
//     operand (of the sum of both for a product), the shift of its second
//     operand (add, sub, mux, bit binary) adjusted, constant adds' exponents
//     adjusted;
//   - each output's shift by -e of its slot,
//
// so the program computes the same outputs, and every raw integer (what
// lookups, muxes' conditions and bit operations read) is unchanged: a slot
// whose raw bits an op reads is never replaced by x itself. Rescale
// returns the number of adds and subs removed; the ops no output reads any more
// are dropped (dais-dce).
func Rescale(prog *ir.Operation, annotate bool) (int, error) {
	// The rewrites keep every value, but the portability check proves some
	// ranges from the program's shape (a mux that is max(a, b) of its own
	// condition's operands) that a rescaled program may no longer show. A
	// program the check rejects is rescaled again without touching what
	// any mux reads, directly or not, and else left as it was.
	for _, spareMuxes := range []bool{false, true} {
		v, err := load(prog)
		if err != nil {
			return 0, err
		}
		before := v.d
		n := v.rescale(spareMuxes)
		if bad, err := v.p.Portability(); err != nil || len(bad) > 0 {
			dais.SetDense(prog, before)
			continue
		}
		if annotate {
			dais.AnnotateProgram(v.p, v.p.CarrySize, v.p.AdderSize)
		}
		v.commit()
		_, err = DCE(prog)
		return n, err
	}
	return 0, nil
}

// rescale rewrites v's program (see Rescale) and returns the number of
// adds and subs removed; with spareMuxes, no slot that a mux reads, directly or
// through other ops, is rewritten or rescaled.
func (v *view) rescale(spareMuxes bool) int {
	p := v.p
	// rawRead marks the slots whose raw integers an op reads beyond their
	// value: lookup indices, mux conditions, bit operations.
	rawRead := make([]bool, len(p.Ops))
	// exactUse marks the slots an op reads whose result does not wrap: the
	// portability check carries their intervals through it, so they must
	// keep an exact interval (a quantize's is its whole type).
	exactUse := make([]bool, len(p.Ops))
	for _, op := range p.Ops {
		switch op.Opcode {
		case alir.OpReLU, alir.OpQuantize, alir.OpMux:
		default:
			ids, n := args(op)
			for _, x := range ids[:n] {
				exactUse[x] = true
			}
		}
		switch op.Opcode {
		case alir.OpLookup, alir.OpBitUnary:
			rawRead[op.ID0] = true
		case alir.OpBitBinary:
			rawRead[op.ID0], rawRead[op.ID1] = true, true
		case alir.OpMux:
			rawRead[op.DataLow()] = true
		}
	}
	// keepSlot marks the slots never replaced by the slot they shift: those
	// whose raw bits an op reads, and the operands of a mux and of its
	// condition (the portability check bounds a mux max(a, b) by knowing
	// its condition is b - a of its own branches).
	keepSlot := append([]bool(nil), rawRead...)
	for _, op := range p.Ops {
		if op.Opcode != alir.OpMux {
			continue
		}
		keepSlot[op.ID0], keepSlot[op.ID1] = true, true
		if c := p.Ops[op.DataLow()]; c.Opcode == alir.OpAdd || c.Opcode == alir.OpSub {
			keepSlot[c.ID0], keepSlot[c.ID1] = true, true
		}
	}
	// spared: the slots muxes read, directly or not (a backward walk).
	spared := make([]bool, len(p.Ops))
	if spareMuxes {
		for i := len(p.Ops) - 1; i >= 0; i-- {
			if p.Ops[i].Opcode == alir.OpMux || spared[i] {
				ids, n := args(p.Ops[i])
				for _, x := range ids[:n] {
					spared[x] = true
				}
			}
		}
	}
	e := make([]int, len(p.Ops))
	// subs holds the subs kept as subs (rescaled), by slot: a negation of
	// one becomes a sub of its operands swapped.
	subs := map[int32]alir.Op{}
	uses := v.uses()
	r := v.rebuild()
	removed := 0
	isConst := func(x int32) bool { return p.Ops[x].Opcode == alir.OpConst }
	frac := func(x int32) int { return v.kif[x].Fractionals }
	for i, op := range p.Ops {
		if spared[i] { // its operands are spared too: all at scale 1
			r.keep(i, op)
			continue
		}
		switch op.Opcode {
		case alir.OpInput, alir.OpConst:
			r.keep(i, op)
		case alir.OpAdd, alir.OpSub:
			a, b, s := op.ID0, op.ID1, int(op.Data)
			switch {
			case isConst(a) && isConst(b):
				r.keep(i, op) // folded by dais-fold; kept as is
			case op.Opcode == alir.OpAdd && isConst(a) && p.Ops[a].Data == 0 && frac(int32(i)) <= frac(b)-s:
				// x*2^s at the step of x*2^s (exact) or coarser (a floor).
				e[i] = e[b] - s
				q := scaleQ(op.QInt, e[i])
				switch {
				case q == r.ops[r.ext[b]].QInt && !keepSlot[i]:
					r.alias(i, b) // x itself: the same type once scaled
				case !exactUse[i]:
					// A quantize to the result's scaled type: its raw bits
					// stay, it floors, and it never needs its wrap.
					r.keep(i, alir.Op{ID0: b, ID1: -1, Opcode: alir.OpQuantize, QInt: q})
				default: // x + 0 in that type: it floors and keeps the interval
					r.keep(i, constAdd(b, 0, frac(int32(i))-e[i], q))
				}
				removed++
			case op.Opcode == alir.OpAdd && isConst(a) && fitsConstAdd(p.Ops[a].Data, frac(a)+s-e[b]):
				// c + x*2^s = (x' + c*2^(e_x-s))*2^-(e_x-s).
				e[i] = e[b] - s
				r.keep(i, constAdd(b, p.Ops[a].Data, frac(a)+s-e[b], scaleQ(op.QInt, e[i])))
				removed++
			case isConst(b) && !isConst(a) && fitsConstAdd(signed(op.Opcode, p.Ops[b].Data), frac(b)-s-e[a]):
				// x ± c*2^s.
				e[i] = e[a]
				r.keep(i, constAdd(a, signed(op.Opcode, p.Ops[b].Data), frac(b)-s-e[a], scaleQ(op.QInt, e[i])))
				removed++
			default:
				e[i] = e[a]
				op.Data = int64(s + e[a] - e[b])
				op.QInt = scaleQ(op.QInt, e[i])
				r.keep(i, op)
				if op.Opcode == alir.OpSub {
					subs[int32(i)] = op
				}
			}
		case alir.OpBitBinary:
			e[i] = e[op.ID0]
			op.Data = alir.PackData(op.DataLow()+int32(e[op.ID0]-e[op.ID1]), int32(uint64(op.Data)>>32))
			op.QInt = scaleQ(op.QInt, e[i])
			r.keep(i, op)
		case alir.OpMux:
			e[i] = e[op.ID0]
			op.Data = alir.PackData(op.DataLow(), op.DataHigh()+int32(e[op.ID0]-e[op.ID1]))
			op.QInt = scaleQ(op.QInt, e[i])
			r.keep(i, op)
		case alir.OpConstAdd:
			e[i] = e[op.ID0]
			op.Data = alir.PackData(op.DataLow(), op.DataHigh()-int32(e[i]))
			op.QInt = scaleQ(op.QInt, e[i])
			r.keep(i, op)
		case alir.OpMul:
			e[i] = e[op.ID0] + e[op.ID1]
			op.QInt = scaleQ(op.QInt, e[i])
			r.keep(i, op)
		case alir.OpNeg:
			x := op.ID0
			if d, ok := subs[x]; ok && uses[x] == 1 && !keepSlot[i] {
				// -(a - b*2^d) = (b - a*2^-d)*2^d: the sub x, read only
				// here, becomes one at scale e_x - d with its operands
				// swapped, and the negation (an adder and a level) goes.
				e[i] = e[x] - int(d.Data)
				r.keep(i, alir.Op{ID0: d.ID1, ID1: d.ID0, Opcode: alir.OpSub, Data: -d.Data, QInt: scaleQ(op.QInt, e[i])})
				removed++
				break
			}
			e[i] = e[x]
			op.QInt = scaleQ(op.QInt, e[i])
			r.keep(i, op)
		case alir.OpReLU, alir.OpQuantize:
			e[i] = e[op.ID0]
			op.QInt = scaleQ(op.QInt, e[i])
			r.keep(i, op)
		case alir.OpBitUnary:
			if op.Data == alir.BitNot {
				e[i] = e[op.ID0]
				op.QInt = scaleQ(op.QInt, e[i])
			}
			r.keep(i, op)
		default: // lookups: the index is scale-free, the table's values unchanged
			r.keep(i, op)
		}
	}
	r.finish() // a new program: its outputs are copies
	for k, o := range p.Outputs {
		if o.Index >= 0 {
			r.v.p.Outputs[k].Shift -= int32(e[o.Index])
		}
	}
	return removed
}

// scaleQ scales an interval by 2^e.
func scaleQ(q alir.QInterval, e int) alir.QInterval {
	if e == 0 {
		return q
	}
	return alir.QInterval{Min: math.Ldexp(q.Min, e), Max: math.Ldexp(q.Max, e), Step: math.Ldexp(q.Step, e)}
}

// signed is a constant's raw value, negated for a subtraction.
func signed(opcode alir.Opcode, raw int64) int64 {
	if opcode == alir.OpSub {
		return -raw
	}
	return raw
}

// fitsConstAdd reports whether value*2^-exp is an ALIR spec 2 constant add
// (both in int32).
func fitsConstAdd(value int64, exp int) bool {
	return value == int64(int32(value)) && exp == int(int32(exp))
}

// constAdd is x + value*2^-exp of interval q.
func constAdd(x int32, value int64, exp int, q alir.QInterval) alir.Op {
	return alir.Op{ID0: x, ID1: -1, Opcode: alir.OpConstAdd, Data: alir.PackData(int32(value), int32(exp)), QInt: q}
}
