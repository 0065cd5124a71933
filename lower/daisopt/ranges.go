package daisopt

import "github.com/otir-dev/otir/backend/alir"

// ranges is a value-range analysis of a program: for every slot, a range of
// raw values (at the slot's fractional bits) that holds every value the slot
// takes on any input.
type ranges struct {
	span []span
	// wraps marks slots whose span is their type's full range: the exact
	// result may not fit the type (so the op wraps, or the program is not
	// portable), or the op reads an input.
	wraps []bool
	// floors marks slots whose op drops fraction bits of its exact result.
	floors []bool
	// rules are alir's value-range and step rules of the program.
	rules *alir.Ranges
}

// exact reports whether slot i holds its op's exact result: neither floored
// nor wrapped.
func (r *ranges) exact(i int) bool { return !r.wraps[i] && !r.floors[i] }

// analyze computes the ranges of every slot in one forward walk (see
// spanner.op). Each span contains the range that alir.Program.Portability
// proves for the slot, which treats every op as this analysis does but adds
// linear forms where this adds intervals (never a wider range): so an op
// whose type holds its span is portable as far as its range goes.
func analyze(v *view) *ranges {
	n := len(v.p.Ops)
	r := &ranges{span: make([]span, n), wraps: make([]bool, n), floors: make([]bool, n)}
	sp := newSpanner(v, func(s int32) span { return r.span[s] })
	r.rules = sp.rules
	for i := range v.p.Ops {
		r.span[i], r.wraps[i], r.floors[i] = sp.op(i)
	}
	return r
}

// spanner computes the range of one op from its operands' ranges, by the
// value-range rules of alir's opcode table (alir.Ranges).
type spanner struct {
	v     *view
	rules *alir.Ranges
	full  map[alir.KIF]span
}

// newSpanner returns a spanner whose operands' ranges are given by of.
func newSpanner(v *view, of func(int32) span) *spanner {
	sp := &spanner{v: v, full: map[alir.KIF]span{}}
	sp.rules = alir.NewSpanRanges(v.p, v.kif, of)
	return sp
}

func (sp *spanner) fullOf(t alir.KIF) span {
	s, ok := sp.full[t]
	if !ok {
		s = alir.TypeSpan(t)
		sp.full[t] = s
	}
	return s
}

// op returns the range of the op in slot i (of type v.kif[i]). The exact
// result's range is the opcode table's (alir.Ranges: interval arithmetic
// on the operands' ranges, by the semantics of ERRATA, "Quantization"):
// the ops that bring it to the slot's step do so by floor (floored). When
// it is not known (an input) or does not fit the slot's type it is
// replaced by the type's full range (full): the op wraps, or, for an op
// that does not, the program is not portable.
func (sp *spanner) op(i int) (s span, full, floored bool) {
	t := sp.v.kif[i]
	s, e, known := sp.rules.Span(i)
	if known && e != t.Fractionals {
		s, floored = rescale(s, e, t.Fractionals)
	}
	if !known || !s.Within(sp.fullOf(t)) {
		return sp.fullOf(t), true, floored
	}
	return s, false, floored
}
