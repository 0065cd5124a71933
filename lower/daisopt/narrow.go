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
	if n > 0 {
		v.commit()
	}
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

// pins returns, per slot, the ways its uses depend on its type, from
// alir's opcode table: an operand of an op that reads its bits
// (OperandBits: lookup, bit operations) keeps its type and a mux condition
// its most significant bit. The step matters when a value becomes
// zero-width, whose step is 1: an op that is StepFloor (add, sub,
// const_add, quantize, relu) stays portable if the operand's share of its
// exact result's step, 1 shifted by the op's shift for that operand, is no
// finer than the op's step, whatever the other operands' steps; the other
// ops (neg, mul, mux) keep their operands' steps.
func (v *view) pins() []uint8 {
	pin := make([]uint8, len(v.p.Ops))
	for i, op := range v.p.Ops {
		f := v.kif[i].Fractionals
		e := alir.ALIR.Info(op.Opcode)
		ids, n := args(op)
		vals := ids[:n]
		if e.Operands == alir.MuxOperands {
			pin[op.DataLow()] |= pinCond
			vals = vals[1:]
		}
		for j, x := range vals {
			switch {
			case e.OperandBits:
				pin[x] |= pinWidth
			case !e.StepFloor || f > -operandShift(op, e, j):
				pin[x] |= pinStep
			}
		}
	}
	for _, o := range v.p.Outputs {
		if o.Index >= 0 {
			pin[o.Index] |= pinOutput
		}
	}
	return pin
}

// operandShift returns the shift by which op (table entry e) brings its
// j-th operand towards its exact result: add and sub shift the second by
// the op's shift, quantize the first by its relative shift.
func operandShift(op alir.Op, e *alir.OpInfo, j int) int {
	if j == 1 && e.Data == alir.DataShift {
		return int(op.DataLow())
	}
	if j == 0 {
		return op.RelShift()
	}
	return 0
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
		if pin[i]&(pinOutput|pinStep) != 0 || !r.rules.StepOK(i, k) || old.Fractionals < 0 && isAdder(op.Opcode) {
			return false
		}
	}
	v.p.Ops[i].QInt, v.kif[i] = q, k
	return true
}

// exactAlready reports, cheaply, whether interval q is exactly the raw
// values s at f fractional bits (so there is nothing to narrow); false means
// "maybe not".
func exactAlready(s span, q alir.QInterval, f int) bool {
	const exact = 1 << 53 // integers float64 holds exactly
	lo, hi, ok := s.Int64()
	if !ok || lo < -exact || hi > exact || (lo == 0 && hi == 0) {
		return false
	}
	return math.Ldexp(float64(lo), -f) == q.Min && math.Ldexp(float64(hi), -f) == q.Max && math.Ldexp(1, -f) == q.Step
}
