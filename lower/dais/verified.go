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
	ops   []opKey
	qints []alir.QInterval // the distinct intervals (by their bits) of ops
	terms []alir.Term      // the terms of every op, in order
}

// opKey is an op's alir.OpKey in 24 bytes, not 48: its interval is an
// index in verified.qints (a program has few; the copy of a 528k-op one
// is 12 MB of fresh memory, not 25).
type opKey struct {
	data     int64
	id0, id1 int32
	q        int32
	opcode   alir.Opcode
}

// qBits is an interval's bits: the exact identity same compares.
type qBits [3]uint64

func bitsOf(q alir.QInterval) qBits {
	return qBits{math.Float64bits(q.Min), math.Float64bits(q.Max), math.Float64bits(q.Step)}
}

// verifiedCopy records p as verified.
func verifiedCopy(p *alir.Program) *verified {
	v := &verified{prog: *p, ops: make([]opKey, len(p.Ops))}
	v.prog.Ops = nil
	v.prog.InShifts = slices.Clone(p.InShifts)
	v.prog.Outputs = slices.Clone(p.Outputs)
	v.prog.Tables = make([]alir.Table, len(p.Tables))
	for i, t := range p.Tables {
		t.Values = slices.Clone(t.Values)
		v.prog.Tables[i] = t
	}
	index := map[qBits]int32{}
	var q int32
	for i := range p.Ops {
		op := &p.Ops[i]
		// Runs of ops of one interval need no lookup.
		if i == 0 || !sameQ(op.QInt, p.Ops[i-1].QInt) {
			b := bitsOf(op.QInt)
			k, ok := index[b]
			if !ok {
				k = int32(len(v.qints))
				index[b] = k
				v.qints = append(v.qints, op.QInt)
			}
			q = k
		}
		v.ops[i] = opKey{data: op.Data, id0: op.ID0, id1: op.ID1, q: q, opcode: op.Opcode}
		v.terms = append(v.terms, op.Terms...)
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
		k := &v.ops[i]
		if op.Opcode != k.opcode || op.ID0 != k.id0 || op.ID1 != k.id1 || op.Data != k.data ||
			!sameQ(op.QInt, v.qints[k.q]) || len(op.Terms) > len(terms) ||
			!slices.Equal(op.Terms, terms[:len(op.Terms)]) {
			return false
		}
		terms = terms[len(op.Terms):]
	}
	return len(terms) == 0
}

func sameQ(a, b alir.QInterval) bool {
	return math.Float64bits(a.Min) == math.Float64bits(b.Min) &&
		math.Float64bits(a.Max) == math.Float64bits(b.Max) &&
		math.Float64bits(a.Step) == math.Float64bits(b.Step)
}

func sameTable(a, b alir.Table) bool {
	return slices.Equal(a.Values, b.Values) && a.Hash == b.Hash && sameQ(a.OutQInt, b.OutQInt) && a.InpWidth == b.InpWidth
}
