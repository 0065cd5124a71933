package qonnx

import (
	"math/big"
	"strings"
)

// fnStep is one step of an element's value: an affine map a·v + b, relu,
// an extremum of two functions of v, or an increasing float function
// (sigmoid, tanh), each monotone; or a product of two functions of v,
// which need not be (HardSwish's x·HardSigmoid(x), SiLU's x·sigmoid(x)).
type fnStep struct {
	relu  bool
	ext   *extremum
	curve *curve
	prod  *product
	a, b  *big.Rat
}

// product is f(v)·g(v), two functions of one code (the importer's
// HardSwish, x·HardSigmoid(x); SiLU, x·sigmoid(x)). A quantizer after it
// absorbs it (productSteps finds its thresholds).
type product struct {
	f, g elemFn
}

// curve is nn.sigmoid or nn.tanh: the evaluator's float64 function
// (nneval.UnaryFunc) of the float64 nearest v, read back exactly. Both are
// increasing; the quantizer after one decides on that float64 value
// exactly, as the evaluator's does.
type curve struct {
	name string
	f    func(float64) float64
}

func (c *curve) at(v *big.Rat) *big.Rat {
	x, _ := v.Float64()
	return new(big.Rat).SetFloat64(c.f(x))
}

// extremum is max(f(v), g(v)), or min: LeakyRelu's max(x, α·x) of one
// code. The absorber makes one only of two functions that move the same
// way (or of which one is constant), so that it is monotone.
type extremum struct {
	max  bool
	f, g elemFn
}

func (s fnStep) isAffine() bool { return !s.relu && s.ext == nil && s.curve == nil && s.prod == nil }

// elemFn is the exact value of one element as a function of its integer
// code: the steps applied in order to the code.
type elemFn []fnStep

// identityFn is the code itself times 2^-frac.
func scaleFn(a *big.Rat) elemFn { return elemFn{{a: a, b: new(big.Rat)}} }

// eval is the exact value at code x.
func (f elemFn) eval(x *big.Rat) *big.Rat {
	v := new(big.Rat).Set(x)
	for _, s := range f {
		switch {
		case s.relu:
			if v.Sign() < 0 {
				v.SetInt64(0)
			}
		case s.ext != nil:
			p, q := s.ext.f.eval(v), s.ext.g.eval(v)
			if (p.Cmp(q) >= 0) != s.ext.max {
				p = q
			}
			v = p
		case s.curve != nil:
			v = s.curve.at(v)
		case s.prod != nil:
			v = new(big.Rat).Mul(s.prod.f.eval(v), s.prod.g.eval(v))
		default:
			v.Mul(v, s.a).Add(v, s.b)
		}
	}
	return v
}

// then is f followed by a·v + b (merged into a last affine step).
func (f elemFn) then(a, b *big.Rat) elemFn {
	out := append(elemFn{}, f...)
	if n := len(out); n > 0 && out[n-1].isAffine() {
		last := out[n-1]
		out[n-1] = fnStep{a: new(big.Rat).Mul(last.a, a), b: new(big.Rat).Add(new(big.Rat).Mul(last.b, a), b)}
		return out
	}
	return append(out, fnStep{a: a, b: b})
}

// thenRelu is f followed by relu.
func (f elemFn) thenRelu() elemFn { return append(append(elemFn{}, f...), fnStep{relu: true}) }

// affine reports f as one affine map, when it has no relu, extremum or
// curve.
func (f elemFn) affine() (a, b *big.Rat, ok bool) {
	a, b = big.NewRat(1, 1), new(big.Rat)
	for _, s := range f {
		if !s.isAffine() {
			return nil, nil, false
		}
		a = new(big.Rat).Mul(a, s.a)
		b = new(big.Rat).Add(new(big.Rat).Mul(b, s.a), s.b)
	}
	return a, b, true
}

// withoutRelu is f's affine steps composed, the relus dropped (f has no
// extremum or curve).
func (f elemFn) withoutRelu() (a, b *big.Rat) {
	var g elemFn
	for _, s := range f {
		if !s.relu {
			g = append(g, s)
		}
	}
	a, b, _ = g.affine()
	return a, b
}

// nonlinear reports whether f holds an extremum, a curve or a product:
// steps no closed form or affine map carries, which only a quantizer
// after them absorbs.
func (f elemFn) nonlinear() bool {
	for _, s := range f {
		if s.ext != nil || s.curve != nil || s.prod != nil {
			return true
		}
	}
	return false
}

// monotone reports whether f has no product, so is monotone (direction
// says which way).
func (f elemFn) monotone() bool {
	for _, s := range f {
		if s.prod != nil || s.ext != nil && !(s.ext.f.monotone() && s.ext.g.monotone()) {
			return false
		}
	}
	return true
}

// bound is an interval holding f(v) for every v in [lo, hi] (lo <= hi):
// a monotone step maps the ends, an extremum or a product combines its
// functions' intervals (interval arithmetic), so it is exact for a
// monotone f and encloses a product's values.
func (f elemFn) bound(lo, hi *big.Rat) (*big.Rat, *big.Rat) {
	for _, s := range f {
		switch {
		case s.prod != nil:
			flo, fhi := s.prod.f.bound(lo, hi)
			glo, ghi := s.prod.g.bound(lo, hi)
			lo, hi = nil, nil
			for _, p := range []*big.Rat{new(big.Rat).Mul(flo, glo), new(big.Rat).Mul(flo, ghi), new(big.Rat).Mul(fhi, glo), new(big.Rat).Mul(fhi, ghi)} {
				if lo == nil || p.Cmp(lo) < 0 {
					lo = p
				}
				if hi == nil || p.Cmp(hi) > 0 {
					hi = p
				}
			}
		case s.ext != nil:
			flo, fhi := s.ext.f.bound(lo, hi)
			glo, ghi := s.ext.g.bound(lo, hi)
			if s.ext.max {
				lo, hi = maxRat(flo, glo), maxRat(fhi, ghi)
			} else {
				lo, hi = minRat(flo, glo), minRat(fhi, ghi)
			}
		default:
			one := elemFn{s}
			lo, hi = one.eval(lo), one.eval(hi)
			if lo.Cmp(hi) > 0 {
				lo, hi = hi, lo
			}
		}
	}
	return lo, hi
}

func (f elemFn) reluCount() int {
	n := 0
	for _, s := range f {
		if s.relu {
			n++
		}
	}
	return n
}

// key identifies f for memoising per-element work.
func (f elemFn) key() string {
	var sb strings.Builder
	for _, s := range f {
		if s.relu {
			sb.WriteString("relu;")
			continue
		}
		if s.ext != nil {
			sb.WriteString(map[bool]string{true: "max(", false: "min("}[s.ext.max] + s.ext.f.key() + "|" + s.ext.g.key() + ");")
			continue
		}
		if s.curve != nil {
			sb.WriteString(s.curve.name + ";")
			continue
		}
		if s.prod != nil {
			sb.WriteString("mul(" + s.prod.f.key() + "|" + s.prod.g.key() + ");")
			continue
		}
		sb.WriteString(s.a.RatString() + "," + s.b.RatString() + ";")
	}
	return sb.String()
}

// dyadic reports whether r is an integer over a power of two.
func dyadic(r *big.Rat) bool {
	d := r.Denom()
	return new(big.Int).And(d, new(big.Int).Sub(d, big.NewInt(1))).Sign() == 0
}
