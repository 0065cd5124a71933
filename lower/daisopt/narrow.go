package daisopt

import (
	"math"

	"otir/backend/alir"
	"otir/ir"
	"otir/lower/dais"
)

// Narrow runs dais-narrow on one program: the value-range analysis (see
// analyze) gives every slot the exact range of its values, and a slot whose
// op does not wrap (its exact range fits its declared type) gets the type of
// that range when that is narrower than the declared one: a subinterval, or
// fewer bits. The step is kept, so raw values do not change, and since the
// op did not wrap it does not wrap in the new type either: every slot keeps
// its values and the adders shrink to the bits their values need. A slot
// that wraps keeps its type (the wrap is its meaning), and so do inputs,
// slots whose width a use reads (a lookup's operand, a bit operation's
// operand, a mux condition unless it stays signed: see pins) and a value
// that would become zero-width (step 1) under an output at another step.
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
)

// pins returns, per slot, the ways its uses depend on its type.
func (v *view) pins() []uint8 {
	pin := make([]uint8, len(v.p.Ops))
	for _, op := range v.p.Ops {
		switch op.Opcode {
		case alir.OpLookup, alir.OpBitUnary:
			pin[op.ID0] |= pinWidth
		case alir.OpBitBinary:
			pin[op.ID0] |= pinWidth
			pin[op.ID1] |= pinWidth
		case alir.OpMux:
			pin[op.DataLow()] |= pinCond
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
	for i, op := range v.p.Ops {
		if r.wraps[i] || op.Opcode == alir.OpInput || pin[i]&pinWidth != 0 {
			continue
		}
		old := v.kif[i]
		if old.Width() == 0 {
			continue // nothing is narrower
		}
		if exactAlready(r.span[i], op.QInt, old.Fractionals) {
			continue
		}
		q, k, ok := spanInterval(r.span[i], old.Fractionals)
		if !ok {
			continue
		}
		inside := q.Min >= op.QInt.Min && q.Max <= op.QInt.Max
		if q == op.QInt || !(inside || k.Width() < old.Width()) {
			continue
		}
		if pin[i]&pinCond != 0 && !(old.Signed && k.Signed) {
			continue // the condition bit would move
		}
		if pin[i]&pinOutput != 0 && k.Fractionals != old.Fractionals {
			continue // zero width has step 1: the output's scale would change
		}
		v.ops[i].Results[0].Type = dais.Fixed(q)
		n++
	}
	return n
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
