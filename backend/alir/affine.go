package alir

import (
	"math/big"
	"math/bits"
	"slices"

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
//
// An affine's terms are a view: of a form kept in a formStore, or of one
// of portCtx's scratch buffers, where forms are built without allocating.
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

// formStore keeps the linear forms of a program's ops while they have uses
// ahead: the terms of all of them in one arena, in blocks of 2^k terms
// that a dropped form returns to a free list of its size for the next form
// of that size. Nothing is allocated per op and nothing holds a pointer the
// garbage collector must trace; for each block size the arena holds at
// most as many blocks as forms of that size were ever live at once (a
// chain of adders keeps one live), each under twice its form's terms.
type formStore struct {
	slot     []int32   // per op: 1 + its form's index in refs, 0 if none
	refs     []formRef // the live forms and free entries
	terms    []aterm
	free     [formClasses][]int // free blocks' offsets in terms, by class
	freeRefs []int32            // free entries of refs
}

// formRef is where a form lies: terms[off:off+n] with constant c0. Its
// range is its op's known range.
type formRef struct {
	off int
	c0  int64
	n   int
}

// formClasses are the block sizes 1, 2, 4, ..., maxAffineTerms.
const formClasses = 8

func init() {
	if 1<<(formClasses-1) != maxAffineTerms {
		panic("formClasses does not match maxAffineTerms")
	}
}

// formClass is the class of a block of n >= 1 terms: ceil(log2 n).
func formClass(n int) int { return bits.Len(uint(n - 1)) }

// get returns op id's form (the range is the caller's to set), if it has
// one; its terms are a view of the arena.
func (s *formStore) get(id int32) (affine, bool) {
	k := s.slot[id]
	if k == 0 {
		return affine{}, false
	}
	ref := &s.refs[k-1]
	end := ref.off + ref.n
	return affine{c0: ref.c0, terms: s.terms[ref.off:end:end]}, true
}

// put keeps f/2^sh (which f.divides(sh) said exact) as op id's form.
func (s *formStore) put(id int32, f affine, sh uint) {
	n, off := len(f.terms), 0
	if n > 0 {
		c := formClass(n)
		if l := s.free[c]; len(l) > 0 {
			off, s.free[c] = l[len(l)-1], l[:len(l)-1]
		} else {
			off = len(s.terms)
			s.terms = slices.Grow(s.terms, 1<<c)[:off+1<<c]
		}
		for k, t := range f.terms {
			s.terms[off+k] = aterm{t.sym, t.coef >> sh}
		}
	}
	ref := formRef{off: off, c0: f.c0 >> sh, n: n}
	if l := s.freeRefs; len(l) > 0 {
		s.slot[id], s.freeRefs = l[len(l)-1], l[:len(l)-1]
		s.refs[s.slot[id]-1] = ref
		return
	}
	s.refs = append(s.refs, ref)
	s.slot[id] = int32(len(s.refs))
}

// drop forgets op id's form, if it has one.
func (s *formStore) drop(id int32) {
	k := s.slot[id]
	if k == 0 {
		return
	}
	if n := s.refs[k-1].n; n > 0 {
		c := formClass(n)
		s.free[c] = append(s.free[c], s.refs[k-1].off)
	}
	s.freeRefs = append(s.freeRefs, k)
	s.slot[id] = 0
}

// shl returns f*2^s with its terms in dst (f's own terms, or a buffer at
// least as long), or false on overflow.
func (f affine) shl(s uint, dst []aterm) (affine, bool) {
	if s == 0 {
		return f, true
	}
	c0, ok := shl64(f.c0, s)
	if !ok {
		return affine{}, false
	}
	g := affine{c0: c0, terms: dst[:len(f.terms)], r: f.r.shl(s)}
	for k, t := range f.terms {
		c, ok := shl64(t.coef, s)
		if !ok {
			return affine{}, false
		}
		g.terms[k] = aterm{t.sym, c}
	}
	return g, true
}

// shl64 returns v*2^s, or false on overflow (intrange's checked shift, for
// a shift that may be any uint).
func shl64(v int64, s uint) (int64, bool) {
	if s > 63 {
		return 0, v == 0
	}
	return intrange.ShlInt64(v, int(s))
}

// add returns f + sign*g with its terms in dst (maxAffineTerms long, apart
// from f's and g's terms), or false on overflow or when the result would
// have too many terms. src gives the range of a source, needed only when f
// and g share one.
func (f affine) add(g affine, sign int64, src func(int32) xrng, dst []aterm) (affine, bool) {
	c0, ok := addMul64(f.c0, g.c0, sign)
	if !ok {
		return affine{}, false
	}
	dst = dst[:maxAffineTerms]
	n := 0 // terms written
	shared := false
	ft, gt := f.terms, g.terms
	i, j := 0, 0
	for i < len(ft) || j < len(gt) {
		var t aterm
		switch {
		case j == len(gt) || (i < len(ft) && ft[i].sym < gt[j].sym):
			t = ft[i]
			i++
		case i == len(ft) || gt[j].sym < ft[i].sym:
			t = aterm{gt[j].sym, gt[j].coef * sign}
			j++
		default:
			shared = true
			c, ok := addMul64(ft[i].coef, gt[j].coef, sign)
			if !ok {
				return affine{}, false
			}
			t = aterm{ft[i].sym, c}
			i, j = i+1, j+1
			if c == 0 {
				continue
			}
		}
		if n == len(dst) {
			return affine{}, false // more than maxAffineTerms
		}
		dst[n] = t
		n++
	}
	h := affine{c0: c0, terms: dst[:n]}
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
		return intrange.SubInt64(a, b)
	}
	return intrange.AddInt64(a, b)
}

// divides reports whether 2^s divides f's constant and every coefficient
// (f/2^s is then exact: see formStore.put).
func (f affine) divides(s uint) bool {
	if s == 0 {
		return true
	}
	if s >= 63 {
		return false
	}
	mask := int64(1)<<s - 1
	if f.c0&mask != 0 {
		return false
	}
	for _, t := range f.terms {
		if t.coef&mask != 0 {
			return false
		}
	}
	return true
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
