package daisopt

import (
	"math"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// Narrow runs dais-narrow on one program: the value-range analysis (see
// analyze) gives every slot a range that holds its values, and a slot whose
// op does not wrap (its range fits its declared type) gets the type of that
// range when that is narrower than the declared one: a subinterval, or
// fewer bits. The step is kept, so raw values do not change, and since the
// op did not wrap it does not wrap in the new type either: every slot keeps
// its values and the adders shrink to the bits their values need. The range
// holds the one alir.Program.Portability proves, so a portable program
// stays portable. A slot that wraps keeps its type (the wrap is its
// meaning), and so do inputs, bitwise results, slots whose width a use
// reads (a lookup's operand, a bit operation's operand, a mux condition
// unless it stays signed: see pins) and a value that would become
// zero-width, whose step is 1, where that changes its step and an output, a
// use or the op itself needs the step (see pins and portableStep), or the
// op is an adder at a step coarser than 1 (which floors, and would floor
// less).
//
// With annotate set, the latency and cost attributes of every op are then
// recomputed by the da4ml cost model (dais.Annotate): narrower adders cost
// less. Narrow returns the number of slots narrowed.
func Narrow(prog *ir.Operation, annotate bool) (int, error) {
	v, err := load(prog)
	if err != nil {
		return 0, err
	}
	n := v.narrow()
	if annotate {
		if err := dais.Annotate(prog); err != nil {
			return n, err
		}
	}
	return n, nil
}

// Ways a use may depend on a value's type beyond its value.
const (
	pinWidth  uint8 = 1 << iota // lookup or bit operation operand: keep the type
	pinCond                     // mux condition: keep the most significant bit
	pinOutput                   // output: keep the step (raw value and scale)
	pinStep                     // keep the step, for the use to stay portable
)

// pins returns, per slot, the ways its uses depend on its type. The step
// matters when a value becomes zero-width, whose step is 1: a neg, a mul
// and a mux must keep their operands' steps (neg and mul do not rescale, a
// mux shifts one way only), and an add, sub, const_add, quantize or relu
// whose step is finer than 1 might no longer have one no finer than its
// exact result's.
func (v *view) pins() []uint8 {
	pin := make([]uint8, len(v.p.Ops))
	for i, op := range v.p.Ops {
		f := v.kif[i].Fractionals
		switch op.Opcode {
		case alir.OpLookup, alir.OpBitUnary:
			pin[op.ID0] |= pinWidth
		case alir.OpBitBinary:
			pin[op.ID0] |= pinWidth
			pin[op.ID1] |= pinWidth
		case alir.OpMux:
			pin[op.DataLow()] |= pinCond
			pin[op.ID0] |= pinStep
			pin[op.ID1] |= pinStep
		case alir.OpNeg:
			pin[op.ID0] |= pinStep
		case alir.OpMul:
			pin[op.ID0] |= pinStep
			pin[op.ID1] |= pinStep
		case alir.OpAdd, alir.OpSub:
			// The exact result is at max(fa, fb - shift) fractional bits.
			if f > 0 {
				pin[op.ID0] |= pinStep
			}
			if f > -int(op.DataLow()) {
				pin[op.ID1] |= pinStep
			}
		case alir.OpConstAdd, alir.OpQuantize, alir.OpReLU:
			if f > 0 {
				pin[op.ID0] |= pinStep
			}
		}
	}
	for _, s := range v.outSlot {
		if s >= 0 {
			pin[s] |= pinOutput
		}
	}
	return pin
}

func (v *view) narrow() int {
	r := analyze(v)
	pin := v.pins()
	n := 0
	for i := range v.p.Ops {
		if v.narrowSlot(i, r, pin) {
			n++
		}
	}
	return n
}

// narrowSlot gives slot i the type of its range r.span[i] when that is
// narrower than its type and allowed (see Narrow), and reports whether it
// did.
func (v *view) narrowSlot(i int, r *ranges, pin []uint8) bool {
	op := v.p.Ops[i]
	bitwise := op.Opcode == alir.OpBitBinary || op.Opcode == alir.OpBitUnary && op.Data == alir.BitNot
	if r.wraps[i] || op.Opcode == alir.OpInput || bitwise || pin[i]&pinWidth != 0 {
		return false // (a bitwise result is kept: a NOT depends on its own signedness)
	}
	old := v.kif[i]
	if old.Width() == 0 {
		return false // nothing is narrower
	}
	if exactAlready(r.span[i], op.QInt, old.Fractionals) {
		return false
	}
	q, k, ok := spanInterval(r.span[i], old.Fractionals)
	if !ok {
		return false
	}
	inside := q.Min >= op.QInt.Min && q.Max <= op.QInt.Max
	if q == op.QInt || !(inside || k.Width() < old.Width()) {
		return false
	}
	if pin[i]&pinCond != 0 && !(old.Signed && k.Signed) {
		return false // the condition bit would move
	}
	if k.Fractionals != old.Fractionals {
		// Zero width has step 1: an output's scale would change, or the op
		// or a use would not be portable; and an adder at a coarser step,
		// which floors and does not wrap, would floor less.
		if pin[i]&(pinOutput|pinStep) != 0 || !v.portableStep(i, k.Fractionals) || old.Fractionals < 0 && isAdder(op.Opcode) {
			return false
		}
	}
	v.ops[i].Results[0].Type = dais.Fixed(q)
	v.p.Ops[i].QInt, v.kif[i] = q, k
	return true
}

// portableStep reports whether op i, given f fractional bits, keeps the
// step rules of portable programs (alir's Portability): an add, sub or
// const_add no finer than its exact result, a quantize or relu no finer than
// its operand, a neg at its operand's step and a mul at the sum of its
// operands' fractional bits, and a mux reaching both branches by left
// shifts, one of them by none.
func (v *view) portableStep(i, f int) bool {
	op := v.p.Ops[i]
	fr := func(s int32) int { return v.kif[s].Fractionals }
	switch op.Opcode {
	case alir.OpAdd, alir.OpSub:
		return f <= max(fr(op.ID0), fr(op.ID1)-int(op.DataLow()))
	case alir.OpConstAdd:
		return f <= max(fr(op.ID0), int(op.DataHigh()))
	case alir.OpQuantize, alir.OpReLU:
		return f <= fr(op.ID0)
	case alir.OpNeg:
		return f == fr(op.ID0)
	case alir.OpMul:
		return f == fr(op.ID0)+fr(op.ID1)
	case alir.OpMux:
		s0, s1 := f-fr(op.ID0), f-fr(op.ID1)+int(op.DataHigh())
		return s0 >= 0 && s1 >= 0 && (s0 == 0 || s1 == 0)
	}
	return true
}

// exactAlready reports, cheaply, whether interval q is exactly the raw
// values s at f fractional bits (so there is nothing to narrow); false means
// "maybe not".
func exactAlready(s span, q alir.QInterval, f int) bool {
	const exact = 1 << 53 // integers float64 holds exactly
	if !s.lo.IsInt64() || !s.hi.IsInt64() {
		return false
	}
	lo, hi := s.lo.Int64(), s.hi.Int64()
	if lo < -exact || hi > exact || (lo == 0 && hi == 0) {
		return false
	}
	return math.Ldexp(float64(lo), -f) == q.Min && math.Ldexp(float64(hi), -f) == q.Max && math.Ldexp(1, -f) == q.Step
}
