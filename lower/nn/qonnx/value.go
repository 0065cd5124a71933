package qonnx

import (
	"math/big"
	"strings"
)

// fnStep is one monotone step of an element's value: an affine map
// a·v + b, relu, an extremum of two functions of v, or an increasing
// float function (sigmoid, tanh).
type fnStep struct {
	relu  bool
	ext   *extremum
	curve *curve
	a, b  *big.Rat
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

func (s fnStep) isAffine() bool { return !s.relu && s.ext == nil && s.curve == nil }

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

// nonlinear reports whether f holds an extremum or a curve: steps no
// closed form or affine map carries, which only a quantizer after them
// absorbs.
func (f elemFn) nonlinear() bool {
	for _, s := range f {
		if s.ext != nil || s.curve != nil {
			return true
		}
	}
	return false
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
		sb.WriteString(s.a.RatString() + "," + s.b.RatString() + ";")
	}
	return sb.String()
}

// dyadic reports whether r is an integer over a power of two.
func dyadic(r *big.Rat) bool {
	d := r.Denom()
	return new(big.Int).And(d, new(big.Int).Sub(d, big.NewInt(1))).Sign() == 0
}
