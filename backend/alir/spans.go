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
	// spanOperand and known64 serve Span (NewSpanRanges).
	spanOperand func(int32) Span
	known64     func(int32) xrng
}

// NewRanges returns the rules for the ops of p, whose types are kif (read
// at every call: the caller may change them), the ranges of their operands
// given by operand.
func NewRanges(p *Program, kif []KIF, operand func(id int32) Range) *Ranges {
	r := &Ranges{p: p, inf: info{kif: kif, plain: true}, operand: operand}
	r.fn = func(_ int, id int32) rng { x := r.operand(id); return rng{Lo: x.Lo, Hi: x.Hi} }
	return r
}

// NewSpanRanges is NewRanges for a caller that holds its ranges as Spans:
// call Span, not Op.
func NewSpanRanges(p *Program, kif []KIF, operand func(id int32) Span) *Ranges {
	r := &Ranges{p: p, inf: info{kif: kif, plain: true}, spanOperand: operand}
	r.known64 = func(id int32) xrng { return r.spanOperand(id).x }
	r.fn = func(_ int, id int32) rng { return r.spanOperand(id).x.big() }
	return r
}

// Span is Op on Spans (the Ranges must come from NewSpanRanges): the
// int64 rules where the opcode table has them (no allocation while the
// bounds fit int64), else the big.Int ones; known is false where Op's Lo
// is nil.
func (r *Ranges) Span(i int) (s Span, e int, known bool) {
	x, e, _, unknown, ok := span64(r.p, &r.inf, i, r.known64)
	if ok {
		return Span{x}, e, !unknown
	}
	b, e, _ := r.p.Dialect.Info(r.p.Ops[i].Opcode).span(r.p, &r.inf, i, r.fn)
	if b.Lo == nil {
		return Span{}, e, false
	}
	return Span{xrngOf(b)}, e, true
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
	e, reason, linear := p.linearStep(p.Dialect.Info(p.Ops[i].Opcode), inf, i)
	if !linear {
		zero := func(int, int32) rng { return intrange.Point(new(big.Int)) }
		_, e, reason = p.Dialect.Info(p.Ops[i].Opcode).span(p, inf, i, zero)
	}
	return reason == "" && (e >= t.Fractionals || p.Ops[i].Opcode == OpSum)
}

// Span is a closed range of integers [lo, hi], as Range, held as two int64
// bounds while both fit (its arithmetic then allocates nothing) and as
// big.Ints otherwise; its operations are exact.
type Span struct{ x xrng }

// SpanOf returns r (whose bounds are known) as a Span.
func SpanOf(r Range) Span { return Span{xrngOf(rng{Lo: r.Lo, Hi: r.Hi})} }

// TypeSpan returns the range of every raw value of t.
func TypeSpan(t KIF) Span { return Span{typeRange64(t)} }

// Range returns s with big.Int bounds (fresh ones when s is narrow).
func (s Span) Range() Range { b := s.x.big(); return Range{b.Lo, b.Hi} }

// Int64 returns s's bounds when both fit int64.
func (s Span) Int64() (lo, hi int64, ok bool) {
	if s.x.wide != nil {
		if s.x.wide.Lo.IsInt64() && s.x.wide.Hi.IsInt64() { // (allWide)
			return s.x.wide.Lo.Int64(), s.x.wide.Hi.Int64(), true
		}
		return 0, 0, false
	}
	return s.x.lo, s.x.hi, true
}

// Add, Neg, Shl, Sar (floor of s/2^n) and Within are exact range
// arithmetic: the range of x+y, -x, x*2^n, floor(x/2^n) for x in s, y in
// o; and whether s lies in o.
func (s Span) Add(o Span) Span    { return Span{s.x.add(o.x)} }
func (s Span) Neg() Span          { return Span{s.x.neg()} }
func (s Span) Shl(n uint) Span    { return Span{s.x.shl(n)} }
func (s Span) Sar(n uint) Span    { return Span{s.x.sar(n)} }
func (s Span) Within(o Span) bool { return s.x.within(o.x) }
