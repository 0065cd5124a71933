package alir

import (
	"math/big"

	"github.com/otir-dev/otir/internal/intrange"
)

// affine is an exact linear form c0 + Σ coef*x_sym over the raw values of
// source operations (inputs and every non-linear op), which Portability
// treats as independent, with the range it takes. Adder graphs
// (constant-matrix products above all) share subexpressions: an interval
// per value would count a shared input twice, a form counts it once, so its
// range is the exact range of a sum of independent inputs.
//
// Coefficients are int64; a form whose coefficients would overflow, or that
// would have more than maxAffineTerms terms, is not built (the op becomes a
// source of its own). The range is kept with the form: a sum of two forms
// over disjoint sources (a matmul's chain of products) adds the two ranges
// in O(1), so building a chain of k terms costs O(k) per op and O(k^2) in
// all, not O(k^2) big-integer operations per op.
type affine struct {
	c0    int64
	terms []aterm // sorted by sym, no zero coefficients
	r     xrng    // the range of the form's values
}

type aterm struct {
	sym  int32
	coef int64
}

// maxAffineTerms bounds a form; a longer one becomes a source of its own.
const maxAffineTerms = 128

func constForm(v int64) affine { return affine{c0: v, r: point64(v)} }

// shl returns f*2^s, or false on overflow.
func (f affine) shl(s uint) (affine, bool) {
	if s == 0 {
		return f, true
	}
	c0, ok := shl64(f.c0, s)
	if !ok {
		return affine{}, false
	}
	g := affine{c0: c0, terms: make([]aterm, len(f.terms)), r: f.r.shl(s)}
	for k, t := range f.terms {
		c, ok := shl64(t.coef, s)
		if !ok {
			return affine{}, false
		}
		g.terms[k] = aterm{t.sym, c}
	}
	return g, true
}

func shl64(v int64, s uint) (int64, bool) {
	if s >= 63 {
		return 0, v == 0
	}
	r := v << s
	return r, r>>s == v
}

// add returns f + sign*g, or false on overflow or when the result would
// have too many terms. src gives the range of a source, needed only when f
// and g share one.
func (f affine) add(g affine, sign int64, src func(int32) xrng) (affine, bool) {
	c0, ok := addMul64(f.c0, g.c0, sign)
	if !ok {
		return affine{}, false
	}
	h := affine{c0: c0, terms: make([]aterm, 0, len(f.terms)+len(g.terms))}
	shared := false
	i, j := 0, 0
	for i < len(f.terms) || j < len(g.terms) {
		switch {
		case j == len(g.terms) || (i < len(f.terms) && f.terms[i].sym < g.terms[j].sym):
			h.terms = append(h.terms, f.terms[i])
			i++
		case i == len(f.terms) || g.terms[j].sym < f.terms[i].sym:
			h.terms = append(h.terms, aterm{g.terms[j].sym, g.terms[j].coef * sign})
			j++
		default:
			shared = true
			c, ok := addMul64(f.terms[i].coef, g.terms[j].coef, sign)
			if !ok {
				return affine{}, false
			}
			if c != 0 {
				h.terms = append(h.terms, aterm{f.terms[i].sym, c})
			}
			i, j = i+1, j+1
		}
	}
	if len(h.terms) > maxAffineTerms {
		return affine{}, false
	}
	if shared {
		h.r = h.rangeOver(src)
		return h, true
	}
	gr := g.r
	if sign < 0 {
		gr = gr.neg()
	}
	// f + g over disjoint sources; the constants add once.
	h.r = f.r.add(gr)
	return h, true
}

// addMul64 returns a + sign*b (sign = ±1), or false on overflow.
func addMul64(a, b, sign int64) (int64, bool) {
	if sign < 0 {
		if b == -1<<63 {
			return 0, false
		}
		b = -b
	}
	r := a + b
	if (a >= 0) == (b >= 0) && (r >= 0) != (a >= 0) {
		return 0, false
	}
	return r, true
}

// sar returns f/2^s if every coefficient is a multiple of 2^s.
func (f affine) sar(s uint) (affine, bool) {
	if s == 0 {
		return f, true
	}
	if s >= 63 {
		return affine{}, false
	}
	mask := int64(1)<<s - 1
	if f.c0&mask != 0 {
		return affine{}, false
	}
	for _, t := range f.terms {
		if t.coef&mask != 0 {
			return affine{}, false
		}
	}
	g := affine{c0: f.c0 >> s, terms: make([]aterm, len(f.terms)), r: f.r.sar(s)}
	for k, t := range f.terms {
		g.terms[k] = aterm{t.sym, t.coef >> s}
	}
	return g, true
}

// rangeOver returns the exact range of f when each source sym ranges over
// src(sym), independently: in int64 while every partial sum fits, else on
// big.Ints.
func (f affine) rangeOver(src func(int32) xrng) xrng {
	lo, hi := f.c0, f.c0
	for _, t := range f.terms {
		r := src(t.sym)
		if r.wide != nil {
			return f.rangeOverBig(src)
		}
		a, b := r.lo, r.hi
		if t.coef < 0 {
			a, b = b, a
		}
		x, ok1 := intrange.MulInt64(t.coef, a)
		y, ok2 := intrange.MulInt64(t.coef, b)
		var ok3, ok4 bool
		lo, ok3 = intrange.AddInt64(lo, x)
		hi, ok4 = intrange.AddInt64(hi, y)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return f.rangeOverBig(src)
		}
	}
	return xrng{lo: lo, hi: hi}
}

// rangeOverBig is rangeOver on big.Ints.
func (f affine) rangeOverBig(src func(int32) xrng) xrng {
	lo, hi := big.NewInt(f.c0), big.NewInt(f.c0)
	var x, c big.Int
	for _, t := range f.terms {
		r := src(t.sym).big()
		a, b := r.Lo, r.Hi
		if t.coef < 0 {
			a, b = b, a
		}
		c.SetInt64(t.coef)
		lo.Add(lo, x.Mul(&c, a))
		hi.Add(hi, x.Mul(&c, b))
	}
	return xrngOf(rng{Lo: lo, Hi: hi})
}
