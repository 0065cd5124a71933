package daisopt

import (
	"math"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// Rescale runs dais-rescale on one program: it moves constant shifts into
// the scales of the slots, so that they cost nothing. lower-tiles computes
// on integers, so a shift by a constant (x*2^s, floor(x*2^-s)) is an adder
// from the constant zero, and a constant plus a shifted value (a bias added
// to a constant-matrix product's output) is an adder from a constant slot.
// ALIR values carry their own power-of-two scale, as alkaid's programs do:
// Rescale gives every slot a scale factor 2^e (its new value is the old
// times 2^e) and rewrites
//
//   - 0 + x*2^s, exact: x itself (e = e_x - s) when its type is the
//     result's scaled, else x + 0 in the result's scaled type (a constant
//     add); floored: a quantize of x to the result's type scaled by
//     2^(e_x - s) (ALIR op 3, not an adder);
//   - c + x*2^s and x ± c*2^s, c a constant slot: a constant add (op 4);
//   - every other op: its result type scaled by the scale of its first
//     operand (of the sum of both for a product), the shift of its second
//     operand (add, sub, mux, bit binary) adjusted, constant adds' exponents
//     adjusted;
//   - each output's shift by -e of its slot,
//
// so the program computes the same outputs, and every raw integer (what
// lookups, muxes' conditions and bit operations read) is unchanged: a slot
// whose raw bits an op reads is never replaced by x itself (an exact shift
// becomes x + 0 in the result's scaled type). Rescale
// returns the number of adders removed; the ops no output reads any more
// are dropped (dais-dce).
func Rescale(prog *ir.Operation, annotate bool) (int, error) {
	v, err := load(prog)
	if err != nil {
		return 0, err
	}
	n := v.rescale()
	if annotate {
		dais.AnnotateProgram(v.p, v.p.CarrySize, v.p.AdderSize)
	}
	v.commit()
	_, err = DCE(prog)
	return n, err
}

func (v *view) rescale() int {
	p := v.p
	// rawRead marks the slots whose raw integers an op reads beyond their
	// value: lookup indices, mux conditions, bit operations.
	rawRead := make([]bool, len(p.Ops))
	for _, op := range p.Ops {
		switch op.Opcode {
		case alir.OpLookup, alir.OpBitUnary:
			rawRead[op.ID0] = true
		case alir.OpBitBinary:
			rawRead[op.ID0], rawRead[op.ID1] = true, true
		case alir.OpMux:
			rawRead[op.DataLow()] = true
		}
	}
	e := make([]int, len(p.Ops))
	r := v.rebuild()
	removed := 0
	isConst := func(x int32) bool { return p.Ops[x].Opcode == alir.OpConst }
	frac := func(x int32) int { return v.kif[x].Fractionals }
	for i, op := range p.Ops {
		switch op.Opcode {
		case alir.OpInput, alir.OpConst:
			r.keep(i, op)
		case alir.OpAdd, alir.OpSub:
			a, b, s := op.ID0, op.ID1, int(op.Data)
			switch {
			case isConst(a) && isConst(b):
				r.keep(i, op) // folded by dais-fold; kept as is
			case op.Opcode == alir.OpAdd && isConst(a) && p.Ops[a].Data == 0:
				// x*2^s: exact when the result's step holds it.
				e[i] = e[b] - s
				q := scaleQ(op.QInt, e[i])
				switch exact := frac(int32(i)) >= frac(b)-s; {
				case frac(int32(i)) == frac(b)-s && !rawRead[i]:
					r.alias(i, b) // x itself: the same scaled type
				case exact: // keep the result's type (and raw bits): x + 0
					r.keep(i, constAdd(b, 0, frac(int32(i))-e[i], q))
				default: // a floor: a quantize, which keeps the raw bits too
					r.keep(i, alir.Op{ID0: b, ID1: -1, Opcode: alir.OpQuantize, QInt: q})
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
		case alir.OpNeg, alir.OpReLU, alir.OpQuantize:
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
	outs := v.p.Outputs
	for k, o := range outs {
		if o.Index >= 0 {
			outs[k].Shift -= int32(e[o.Index])
		}
	}
	r.finish()
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
