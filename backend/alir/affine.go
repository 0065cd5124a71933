package alir

import (
	"math/big"
)

// affine is an exact linear form c0 + Σ coef*x_sym over the raw values of
// source operations (inputs and every non-linear op), which Portability
// treats as independent. Adder graphs (constant-matrix products above all)
// share subexpressions: an interval per value would count a shared input
// twice, a form counts it once, so its range is the exact range of a sum
// of independent inputs.
type affine struct {
	c0    *big.Int
	terms []aterm // sorted by sym, no zero coefficients
}

type aterm struct {
	sym  int32
	coef *big.Int
}

// maxAffineTerms bounds a form; a longer one becomes a source of its own.
const maxAffineTerms = 256

func sourceForm(sym int32) affine {
	return affine{c0: new(big.Int), terms: []aterm{{sym, big.NewInt(1)}}}
}

func constForm(v *big.Int) affine { return affine{c0: new(big.Int).Set(v)} }

// shl multiplies f by 2^s.
func (f affine) shl(s uint) affine {
	g := affine{c0: new(big.Int).Lsh(f.c0, s), terms: make([]aterm, len(f.terms))}
	for k, t := range f.terms {
		g.terms[k] = aterm{t.sym, new(big.Int).Lsh(t.coef, s)}
	}
	return g
}

// scale multiplies f by c.
func (f affine) scale(c *big.Int) affine {
	if c.Sign() == 0 {
		return constForm(new(big.Int))
	}
	g := affine{c0: new(big.Int).Mul(f.c0, c), terms: make([]aterm, len(f.terms))}
	for k, t := range f.terms {
		g.terms[k] = aterm{t.sym, new(big.Int).Mul(t.coef, c)}
	}
	return g
}

// add returns f + s*g for s = ±1.
func (f affine) add(g affine, s int) affine {
	h := affine{c0: new(big.Int).Set(f.c0)}
	if s < 0 {
		h.c0.Sub(h.c0, g.c0)
	} else {
		h.c0.Add(h.c0, g.c0)
	}
	i, j := 0, 0
	for i < len(f.terms) || j < len(g.terms) {
		switch {
		case j == len(g.terms) || (i < len(f.terms) && f.terms[i].sym < g.terms[j].sym):
			h.terms = append(h.terms, f.terms[i])
			i++
		case i == len(f.terms) || g.terms[j].sym < f.terms[i].sym:
			c := new(big.Int).Set(g.terms[j].coef)
			if s < 0 {
				c.Neg(c)
			}
			h.terms = append(h.terms, aterm{g.terms[j].sym, c})
			j++
		default:
			c := new(big.Int)
			if s < 0 {
				c.Sub(f.terms[i].coef, g.terms[j].coef)
			} else {
				c.Add(f.terms[i].coef, g.terms[j].coef)
			}
			if c.Sign() != 0 {
				h.terms = append(h.terms, aterm{f.terms[i].sym, c})
			}
			i, j = i+1, j+1
		}
	}
	return h
}

// sar divides f by 2^s if every coefficient is a multiple of it.
func (f affine) sar(s uint) (affine, bool) {
	if s == 0 {
		return f, true
	}
	div := func(x *big.Int) bool { return x.Sign() == 0 || x.TrailingZeroBits() >= s }
	if !div(f.c0) {
		return affine{}, false
	}
	for _, t := range f.terms {
		if !div(t.coef) {
			return affine{}, false
		}
	}
	g := affine{c0: new(big.Int).Rsh(f.c0, s), terms: make([]aterm, len(f.terms))}
	for k, t := range f.terms {
		g.terms[k] = aterm{t.sym, new(big.Int).Rsh(t.coef, s)}
	}
	return g, true
}

// rangeOver returns the exact range of f when each source sym ranges over
// src(sym), independently.
func (f affine) rangeOver(src func(int32) rng) rng {
	lo, hi := new(big.Int).Set(f.c0), new(big.Int).Set(f.c0)
	var x big.Int
	for _, t := range f.terms {
		r := src(t.sym)
		a, b := r.lo, r.hi
		if t.coef.Sign() < 0 {
			a, b = b, a
		}
		lo.Add(lo, x.Mul(t.coef, a))
		hi.Add(hi, x.Mul(t.coef, b))
	}
	return rng{lo, hi}
}
