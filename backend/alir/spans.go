package alir

import (
	"math/big"

	"github.com/otir-dev/otir/internal/intrange"
)

// Range is a closed range [Lo, Hi] of raw values; nil bounds: not known.
type Range struct{ Lo, Hi *big.Int }

// Ranges applies the opcode table's value-range rules (the ones
// Portability uses) to the ops of a valid program, for lower/daisopt's
// value-range analysis. Its rules are plain interval arithmetic: a repeated
// operand counts as two independent ones (a - a, a * a) and every bit
// operation gets the bound of XOR, and they give the raw result's range
// whatever the steps (a neg or mul copies its raw result, not portable).
// A Ranges is not safe for concurrent use.
type Ranges struct {
	p       *Program
	inf     info
	operand func(int32) Range
	fn      func(int, int32) rng // operand, as the rules call it
}

// NewRanges returns the rules for the ops of p, whose types are kif (read
// at every call: the caller may change them), the ranges of their operands
// given by operand.
func NewRanges(p *Program, kif []KIF, operand func(id int32) Range) *Ranges {
	r := &Ranges{p: p, inf: info{kif: kif, plain: true}, operand: operand}
	r.fn = func(_ int, id int32) rng { x := r.operand(id); return rng{Lo: x.Lo, Hi: x.Hi} }
	return r
}

// Op returns the range of op i's exact result, raw at fractional bits e
// (before the op brings it to its own step). Lo is nil when the result is
// not known: an input (any value of its type), a lookup of an empty table.
func (r *Ranges) Op(i int) (s Range, e int) {
	x, e, _ := r.p.Dialect.Info(r.p.Ops[i].Opcode).span(r.p, &r.inf, i, r.fn)
	return Range{x.Lo, x.Hi}, e
}

// StepOK reports whether op i, given type t, keeps the step rules of
// portable programs (the opcode table's shift and step rules, as
// Portability checks them): e.g. an add no finer than its exact result, a
// neg at its operand's step, a mul at the sum of its operands' fractional
// bits, a mux reaching its branches by left shifts, one of them 0.
func (r *Ranges) StepOK(i int, t KIF) bool {
	p, inf := r.p, &r.inf
	old := inf.kif[i]
	inf.kif[i] = t
	defer func() { inf.kif[i] = old }()
	if p.portableShift(inf, i) != "" {
		return false
	}
	e, reason, linear := p.linearStep(inf, i)
	if !linear {
		zero := func(int, int32) rng { return intrange.Point(new(big.Int)) }
		_, e, reason = p.Dialect.Info(p.Ops[i].Opcode).span(p, inf, i, zero)
	}
	return reason == "" && (e >= t.Fractionals || p.Ops[i].Opcode == OpSum)
}
