package qonnx

import (
	"fmt"
	"math/big"
)

// A quantizer (or relu) of an integer accumulator x in [lo, hi] is a
// monotone step function n(x). fit finds the cheapest exact integer form
// of it: a constant, or floor((M·x + C) / 2^k) clamped to [n(lo), n(hi)]
// (a multiplication by a constant, an addition and a floor shift), exact
// at every threshold of n and therefore everywhere (see steps).

// maxLevels bounds the thresholds enumerated per element.
const maxLevels = 1 << 12

// maxFitBits bounds |M·x + C|: the circuit's integers stay within 62 bits.
const maxFitBits = 62

// steps is a monotone step function on [lo, hi]: its values at lo and
// hi, and once listed (list), its thresholds t (n(t) != n(t-1)) with
// their values. A step function that need not be monotone (a quantizer
// of a product, productSteps) is listed from the start, wavy.
type steps struct {
	lo, hi     int64
	n          func(int64) *big.Int
	first      *big.Int
	last       *big.Int
	listed     bool
	thresholds []int64
	values     []*big.Int // n(t)
	many       bool       // more than maxLevels thresholds (not listed)
	wavy       bool       // not known to be monotone: its values may turn
}

// productSteps lists the thresholds of n(c) = code(f(c)) on [lo, hi] for
// f holding a product, which need not be monotone (code is a quantizer's,
// non-decreasing), by bisection: on an interval whose bound of f
// (elemFn.bound) the quantizer maps to one code, n is constant; otherwise
// it is split in two, down to single codes. The evaluations grow with
// the thresholds times log2 of the range, not with the range. More than
// maxLevels thresholds are too many (many).
func productSteps(f elemFn, code func(*big.Rat) *big.Int, lo, hi int64) *steps {
	n := func(c int64) *big.Int { return code(f.eval(ratInt(c))) }
	s := &steps{lo: lo, hi: hi, n: n, first: n(lo), last: n(hi), listed: true, wavy: true}
	// span lists the thresholds in (a, b], n(a) = na.
	var span func(a, b int64, na *big.Int)
	span = func(a, b int64, na *big.Int) {
		if a >= b || s.many {
			return
		}
		flo, fhi := f.bound(ratInt(a+1), ratInt(b))
		if code(flo).Cmp(na) == 0 && code(fhi).Cmp(na) == 0 {
			return
		}
		if b == a+1 {
			if nb := n(b); nb.Cmp(na) != 0 {
				if len(s.thresholds) == maxLevels {
					s.many = true
					return
				}
				s.thresholds = append(s.thresholds, b)
				s.values = append(s.values, nb)
			}
			return
		}
		m := a + (b-a)/2
		span(a, m, na)
		span(m, b, n(m))
	}
	span(lo, hi, s.first)
	if s.many {
		s.thresholds, s.values = nil, nil
	}
	return s
}

// findSteps is the step function n on [lo, hi], its thresholds not yet
// listed (a closed form needs only its ends).
func findSteps(n func(int64) *big.Int, lo, hi int64) *steps {
	return &steps{lo: lo, hi: hi, n: n, first: n(lo), last: n(hi)}
}

// list enumerates the thresholds by binary search between levels, at
// most maxLevels of them.
func (s *steps) list() {
	if s.listed {
		return
	}
	s.listed = true
	if s.constant() {
		return
	}
	x, cur := s.lo, s.first
	for cur.Cmp(s.last) != 0 {
		if len(s.thresholds) == maxLevels {
			s.many, s.thresholds, s.values = true, nil, nil
			return
		}
		// The smallest t in (x, hi] with n(t) != cur.
		a, b := x+1, s.hi
		for a < b {
			m := a + (b-a)/2
			if s.n(m).Cmp(cur) != 0 {
				b = m
			} else {
				a = m + 1
			}
		}
		cur = s.n(a)
		s.thresholds = append(s.thresholds, a)
		s.values = append(s.values, cur)
		x = a
	}
}

// constant reports whether n is one value on the whole range.
func (s *steps) constant() bool {
	return s.first.Cmp(s.last) == 0 && !(s.wavy && (s.many || len(s.thresholds) > 0))
}

// bounds are n's least and greatest values.
func (s *steps) bounds() (lo, hi *big.Int) {
	lo, hi = s.first, s.last
	if lo.Cmp(hi) > 0 {
		lo, hi = hi, lo
	}
	if s.wavy {
		for _, v := range s.values {
			if v.Cmp(lo) < 0 {
				lo = v
			}
			if v.Cmp(hi) > 0 {
				hi = v
			}
		}
	}
	return lo, hi
}

// linear is floor((M·x + C) / 2^K).
type linear struct {
	M, C *big.Int
	K    uint
}

// at is the linear form's value at x.
func (l linear) at(x int64) *big.Int {
	v := new(big.Int).Mul(l.M, big.NewInt(x))
	v.Add(v, l.C)
	return v.Rsh(v, l.K) // Rsh of a big.Int floors
}

// scaled is the same form at a larger K.
func (l linear) scaled(k uint) linear {
	d := k - l.K
	return linear{M: new(big.Int).Lsh(l.M, d), C: new(big.Int).Lsh(l.C, d), K: k}
}

// fitLinear finds the smallest k and an (M, C) with floor((M·x + C)/2^k)
// = n(x) at every threshold t and at t-1, hence (n monotone, the form
// monotone, clamped to n's range) on all of [lo, hi]. The first point
// (below the first threshold) and the last (the last threshold) need
// only lie beyond n's range there, which the clamp corrects: a plateau
// made by a saturation or a relu does not bind the form. ok is false when
// no k up to the bound has one, or the steps were too many to list.
func fitLinear(s *steps) (linear, bool) {
	s.list()
	if s.many || s.constant() {
		return linear{}, false
	}
	pts := s.points()
	// Feasibility only grows with k (floor((2M·x + 2C)/2^(k+1)) is the same
	// form), so a binary search finds the smallest k that has a form; the
	// width bound then decides.
	try := func(k uint) (linear, bool) {
		p := new(big.Int).Lsh(big.NewInt(1), k)
		mlo, mhi := multiplierRange(pts, p)
		if mlo.Cmp(mhi) > 0 {
			return linear{}, false
		}
		M, ok := bestMultiplier(pts, p, mlo, mhi)
		if !ok {
			return linear{}, false
		}
		C, _ := offsetFor(M, p, pts)
		return linear{M: M, C: C, K: k}, true
	}
	a, b := uint(0), uint(maxFitBits-1)
	if _, ok := try(b); !ok {
		return linear{}, false
	}
	for a < b {
		m := (a + b) / 2
		if _, ok := try(m); ok {
			b = m
		} else {
			a = m + 1
		}
	}
	l, _ := try(a)
	return l, l.fits(s, pts)
}

// point is a constraint on the form at x: value n (eq), or beyond n on
// one side (le: at most n, ge: at least n).
type point struct {
	x      int64
	n      *big.Int
	le, ge bool
}

// points are the constraints at every threshold and its predecessor.
func (s *steps) points() []point {
	up := s.last.Cmp(s.first) > 0
	var pts []point
	prev := s.first
	for i, t := range s.thresholds {
		pts = append(pts, point{x: t - 1, n: prev, le: true, ge: true}, point{x: t, n: s.values[i], le: true, ge: true})
		prev = s.values[i]
	}
	first, last := &pts[0], &pts[len(pts)-1]
	// increasing: below the first threshold at most n, at the last at least n
	first.le, first.ge = up, !up
	last.le, last.ge = !up, up
	return pts
}

// multiplierRange bounds M at scale p by the necessary conditions of
// consecutive points: between x_a < x_b the form rises by M·(x_b - x_a),
// at least n_b·p - (n_a·p + p - 1) and at most n_b·p + p - 1 - n_a·p
// where the points bound those sides. A side without a bound is the
// other's plus or minus 2p + 2.
func multiplierRange(pts []point, p *big.Int) (lo, hi *big.Int) {
	slack := new(big.Int).Sub(p, big.NewInt(1))
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		if b.x == a.x {
			continue
		}
		dx := big.NewInt(b.x - a.x)
		rise := new(big.Int).Mul(new(big.Int).Sub(b.n, a.n), p)
		if b.ge && a.le {
			m := ceilRat(new(big.Rat).SetFrac(new(big.Int).Sub(rise, slack), dx))
			if lo == nil || m.Cmp(lo) > 0 {
				lo = m
			}
		}
		if b.le && a.ge {
			m := floorRat(new(big.Rat).SetFrac(new(big.Int).Add(rise, slack), dx))
			if hi == nil || m.Cmp(hi) < 0 {
				hi = m
			}
		}
	}
	pad := new(big.Int).Add(new(big.Int).Lsh(p, 1), big.NewInt(2))
	switch {
	case lo == nil && hi == nil:
		return new(big.Int).Neg(pad), pad
	case lo == nil:
		return new(big.Int).Sub(hi, pad), hi
	case hi == nil:
		return lo, new(big.Int).Add(lo, pad)
	}
	return lo, hi
}

// offsetFor is a C with n·p <= M·x + C <= n·p + p - 1 at every point (one
// side for the one-sided ones), if one exists.
func offsetFor(M, p *big.Int, pts []point) (*big.Int, bool) {
	lo, hi := offsetBounds(M, p, pts)
	switch {
	case lo != nil && hi != nil && lo.Cmp(hi) > 0:
		return nil, false
	case lo != nil && hi != nil:
		return roundest(lo, hi), true
	case lo != nil:
		return lo, true
	case hi != nil:
		return hi, true
	}
	return new(big.Int), true
}

// roundest is the number of [lo, hi] with the most trailing zero bits
// (the fewest significant bits: an exact float64, a cheaper constant).
func roundest(lo, hi *big.Int) *big.Int {
	for b := max(lo.BitLen(), hi.BitLen()); b > 0; b-- {
		p := new(big.Int).Lsh(big.NewInt(1), uint(b))
		c := new(big.Int).Mul(ceilRat(new(big.Rat).SetFrac(lo, p)), p)
		if c.Cmp(hi) <= 0 {
			return c
		}
	}
	return lo
}

// offsetBounds is the interval of C the points allow for M (nil: no bound
// on that side).
func offsetBounds(M, p *big.Int, pts []point) (lo, hi *big.Int) {
	slack := new(big.Int).Sub(p, big.NewInt(1))
	a, mx, x := new(big.Int), new(big.Int), new(big.Int)
	for _, q := range pts {
		mx.Mul(M, x.SetInt64(q.x))
		a.Mul(q.n, p).Sub(a, mx)
		if q.ge && (lo == nil || a.Cmp(lo) > 0) {
			lo = new(big.Int).Set(a)
		}
		if q.le {
			a.Add(a, slack)
			if hi == nil || a.Cmp(hi) < 0 {
				hi = new(big.Int).Set(a)
			}
		}
	}
	return lo, hi
}

// bestMultiplier is an M in [mlo, mhi] that leaves a C, if any: the width
// hi(M) - lo(M) of the allowed interval of C is concave in M (a minimum of
// linear functions minus a maximum of them), so a ternary search over the
// integers finds its largest value.
func bestMultiplier(pts []point, p, mlo, mhi *big.Int) (*big.Int, bool) {
	width := func(M *big.Int) *big.Int {
		lo, hi := offsetBounds(M, p, pts)
		if lo == nil || hi == nil {
			return new(big.Int).Lsh(big.NewInt(1), 200) // unbounded
		}
		return new(big.Int).Sub(hi, lo)
	}
	a, b := new(big.Int).Set(mlo), new(big.Int).Set(mhi)
	two, three := big.NewInt(2), big.NewInt(3)
	for new(big.Int).Sub(b, a).Cmp(two) > 0 {
		d := new(big.Int).Quo(new(big.Int).Sub(b, a), three)
		m1, m2 := new(big.Int).Add(a, d), new(big.Int).Sub(b, d)
		if width(m1).Cmp(width(m2)) < 0 {
			a = m1.Add(m1, big.NewInt(1))
		} else {
			b = m2.Sub(m2, big.NewInt(1))
		}
	}
	var best *big.Int
	for M := a; M.Cmp(b) <= 0; M = new(big.Int).Add(M, big.NewInt(1)) {
		if w := width(M); w.Sign() >= 0 && (best == nil || w.Cmp(width(best)) > 0) {
			best = M
		}
	}
	return best, best != nil
}

// fits checks the form at every point and that M·x + C stays within the
// circuit's integers over [lo, hi].
func (l linear) fits(s *steps, pts []point) bool {
	for _, x := range []int64{s.lo, s.hi} {
		v := new(big.Int).Mul(l.M, big.NewInt(x))
		if v.Add(v, l.C).BitLen() > maxFitBits-2 {
			return false
		}
	}
	for _, q := range pts {
		c := l.at(q.x).Cmp(q.n)
		if c < 0 && q.ge || c > 0 && q.le {
			return false
		}
	}
	return true
}

func bitLen(x int64) int {
	if x < 0 {
		x = -x
	}
	return big.NewInt(x).BitLen()
}

func (l linear) String() string { return fmt.Sprintf("floor((%s·x + %s) / 2^%d)", l.M, l.C, l.K) }
