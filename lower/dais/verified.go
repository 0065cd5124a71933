package dais

import (
	"math"
	"slices"

	"github.com/otir-dev/otir/backend/alir"
)

// verified is what the verifier proved valid and portable of a dense
// program (Dense.verified): a copy of everything of its alir.Program that
// validation and alir.Program.Portability read, which excludes the
// latency and cost annotations. The verifier checks a dense program again
// only when it differs from that copy, so after a pass that leaves a
// program unchanged (or changes only its annotations, as dais-optimize's
// annotate does when no step finds anything) the check costs one
// comparison, about a tenth of the analysis. A program that fails is never
// recorded: it is checked, and reported, every time.
type verified struct {
	prog  alir.Program // P's other fields: Ops nil, slices copied
	ops   []alir.OpKey
	terms []alir.Term // the terms of every op, in order
}

// verifiedCopy records p as verified.
func verifiedCopy(p *alir.Program) *verified {
	v := &verified{prog: *p, ops: make([]alir.OpKey, len(p.Ops))}
	v.prog.Ops = nil
	v.prog.InShifts = slices.Clone(p.InShifts)
	v.prog.Outputs = slices.Clone(p.Outputs)
	v.prog.Tables = make([]alir.Table, len(p.Tables))
	for i, t := range p.Tables {
		t.Values = slices.Clone(t.Values)
		v.prog.Tables[i] = t
	}
	for i := range p.Ops {
		v.ops[i] = alir.KeyOf(&p.Ops[i])
		v.terms = append(v.terms, p.Ops[i].Terms...)
	}
	return v
}

// same reports whether p is the program recorded, exactly (floats by
// their bits) in every field validation and portability read.
func (v *verified) same(p *alir.Program) bool {
	q := &v.prog
	if p.Dialect != q.Dialect || p.CarrySize != q.CarrySize || p.AdderSize != q.AdderSize ||
		p.Firmware != q.Firmware || p.Spec != q.Spec || len(p.Ops) != len(v.ops) ||
		!slices.Equal(p.InShifts, q.InShifts) || !slices.Equal(p.Outputs, q.Outputs) ||
		!slices.EqualFunc(p.Tables, q.Tables, sameTable) {
		return false
	}
	terms := v.terms
	for i := range p.Ops {
		op := &p.Ops[i]
		if !sameKey(alir.KeyOf(op), v.ops[i]) || len(op.Terms) > len(terms) ||
			!slices.Equal(op.Terms, terms[:len(op.Terms)]) {
			return false
		}
		terms = terms[len(op.Terms):]
	}
	return len(terms) == 0
}

func sameKey(a, b alir.OpKey) bool {
	return a.Opcode == b.Opcode && a.ID0 == b.ID0 && a.ID1 == b.ID1 && a.Data == b.Data && sameQ(a.QInt, b.QInt)
}

func sameQ(a, b alir.QInterval) bool {
	return math.Float64bits(a.Min) == math.Float64bits(b.Min) &&
		math.Float64bits(a.Max) == math.Float64bits(b.Max) &&
		math.Float64bits(a.Step) == math.Float64bits(b.Step)
}

func sameTable(a, b alir.Table) bool {
	return slices.Equal(a.Values, b.Values) && a.Hash == b.Hash && sameQ(a.OutQInt, b.OutQInt) && a.InpWidth == b.InpWidth
}
