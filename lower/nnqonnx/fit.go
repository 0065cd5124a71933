package nnqonnx

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

// maxCandidates bounds the multipliers tried at one k.
const maxCandidates = 64

// maxFitBits bounds |M·x + C|: the circuit's integers stay within 62 bits.
const maxFitBits = 62

// steps is a monotone step function on [lo, hi]: its value at lo and the
// thresholds t (n(t) != n(t-1)) with their values.
type steps struct {
	lo, hi     int64
	first      *big.Int
	last       *big.Int
	thresholds []int64
	values     []*big.Int // n(t)
	many       bool       // more than maxLevels thresholds (not listed)
}

// findSteps enumerates the thresholds of the monotone n on [lo, hi] by
// binary search between levels.
func findSteps(n func(int64) *big.Int, lo, hi int64) *steps {
	s := &steps{lo: lo, hi: hi, first: n(lo), last: n(hi)}
	dir := s.last.Cmp(s.first)
	if dir == 0 {
		return s
	}
	x, cur := lo, s.first
	for cur.Cmp(s.last) != 0 {
		if len(s.thresholds) == maxLevels {
			s.many, s.thresholds, s.values = true, nil, nil
			return s
		}
		// The smallest t in (x, hi] with n(t) != cur.
		a, b := x+1, hi
		for a < b {
			m := a + (b-a)/2
			if n(m).Cmp(cur) != 0 {
				b = m
			} else {
				a = m + 1
			}
		}
		cur = n(a)
		s.thresholds = append(s.thresholds, a)
		s.values = append(s.values, cur)
		x = a
	}
	return s
}

// constant reports whether n is one value on the whole range.
func (s *steps) constant() bool { return s.first.Cmp(s.last) == 0 }

// bounds are n's least and greatest values.
func (s *steps) bounds() (lo, hi *big.Int) {
	if s.first.Cmp(s.last) <= 0 {
		return s.first, s.last
	}
	return s.last, s.first
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
// monotone, clamped to n's range) on all of [lo, hi]. ok is false when no
// k up to the bound has one, or the steps were too many to list.
func fitLinear(s *steps) (linear, bool) {
	if s.many || s.constant() {
		return linear{}, false
	}
	var xs []int64
	var ns []*big.Int
	prev := s.first
	for i, t := range s.thresholds {
		xs = append(xs, t-1, t)
		ns = append(ns, prev, s.values[i])
		prev = s.values[i]
	}
	// Necessary: the extreme points p < q bound M to
	// [((n(q)-n(p))·2^k - 2^k + 1)/(q-p), ((n(q)-n(p))·2^k + 2^k - 1)/(q-p)].
	x0, x1 := xs[0], xs[len(xs)-1]
	dn := new(big.Int).Sub(ns[len(ns)-1], ns[0])
	dx := big.NewInt(x1 - x0)
	span := max(bitLen(s.lo), bitLen(s.hi))
	for k := uint(0); int(k)+span+2 < maxFitBits; k++ {
		p := new(big.Int).Lsh(big.NewInt(1), k)
		base := new(big.Int).Mul(dn, p)
		slack := new(big.Int).Sub(p, big.NewInt(1))
		mlo := ceilRat(new(big.Rat).SetFrac(new(big.Int).Sub(base, slack), dx))
		mhi := floorRat(new(big.Rat).SetFrac(new(big.Int).Add(base, slack), dx))
		for M, n := mlo, 0; M.Cmp(mhi) <= 0 && n < maxCandidates; M, n = new(big.Int).Add(M, big.NewInt(1)), n+1 {
			if C, ok := offsetFor(M, p, xs, ns); ok {
				l := linear{M: M, C: C, K: k}
				if l.fits(s) {
					return l, true
				}
			}
		}
	}
	return linear{}, false
}

// offsetFor is a C with n·p <= M·x + C <= n·p + p - 1 at every point, if
// one exists: the intersection of the intervals the points allow.
func offsetFor(M, p *big.Int, xs []int64, ns []*big.Int) (*big.Int, bool) {
	var lo, hi *big.Int
	for i, x := range xs {
		mx := new(big.Int).Mul(M, big.NewInt(x))
		a := new(big.Int).Sub(new(big.Int).Mul(ns[i], p), mx)
		b := new(big.Int).Add(a, new(big.Int).Sub(p, big.NewInt(1)))
		if lo == nil || a.Cmp(lo) > 0 {
			lo = a
		}
		if hi == nil || b.Cmp(hi) < 0 {
			hi = b
		}
		if lo.Cmp(hi) > 0 {
			return nil, false
		}
	}
	return lo, true
}

// fits checks the form at every threshold and its predecessor, and that
// M·x + C stays within the circuit's integers over [lo, hi].
func (l linear) fits(s *steps) bool {
	for _, x := range []int64{s.lo, s.hi} {
		v := new(big.Int).Mul(l.M, big.NewInt(x))
		if v.Add(v, l.C).BitLen() > maxFitBits-2 {
			return false
		}
	}
	prev := s.first
	for i, t := range s.thresholds {
		if l.at(t-1).Cmp(prev) != 0 || l.at(t).Cmp(s.values[i]) != 0 {
			return false
		}
		prev = s.values[i]
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
