package kernels

import (
	"math/big"

	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/internal/intrange"
	"github.com/otir-dev/otir/ir"
)

// requantizeNode is nn.requantize (nn.Requant.Code, element-wise): the
// operand's integers m at scale 2^-e brought to the result's scale 2^-F,
// by a left shift when F ≥ e, else rounded by the mode to
// ⌊(m + c + g)/2^k⌋, k = e - F (roundShift); then, saturating, max and
// min by the type's bounds where the operand's interval can leave them
// (comparisons and muxes in the circuit). Wrapping is the caller's cast to
// the type's storage.
func requantizeNode(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	r, err := nn.RequantOf(op)
	if err != nil {
		return nil, err
	}
	x, F := ins[0], r.Type.Frac
	q := l.shiftLeft(x, F)
	if x.frac > F {
		if q, err = l.roundShift(x, x.frac-F, r.Rounding); err != nil {
			return nil, err
		}
	}
	if !r.Wrap {
		q = l.clampTo(q, big.NewInt(r.Type.QMin()), big.NewInt(r.Type.QMax()))
	}
	return q, nil
}

// maxRoundShift bounds the bits roundShift drops: its constants are int64.
const maxRoundShift = 61

// roundShift is RoundMode(mode, m/2^k) of x's integers m, exactly, at the
// scale 2^-(x.frac-k): ⌊(m + c + g)/2^k⌋ with a constant c and a term g
// of m's sign s (-1 or 0, m shifted right by its width) or of its bit k:
//
//	FLOOR      c = 0            g = 0
//	CEIL       c = 2^k - 1      g = 0
//	ROUND      c = 2^(k-1) - 1  g = bit k of m (half to even; an and)
//	HALF_UP    c = 2^(k-1)      g = s          (half away from 0)
//	HALF_DOWN  c = 2^(k-1) - 1  g = -s         (half toward 0)
//	UP         c = 2^k - 1      g = s·(2^k-1)  (away from 0)
//	DOWN       c = 0            g = -s·(2^k-1) (toward 0)
//
// Dropping more bits than m has beyond its sign changes no mode's result,
// so k is first capped there.
func (l *lowerer) roundShift(x *fixedTile, k int, mode string) (*fixedTile, error) {
	w := max(signedBits(x.lo), signedBits(x.hi)) // m in [-2^(w-1), 2^(w-1))
	scale := x.frac - k                          // the result's
	k = min(k, w+1)
	if k > maxRoundShift {
		return nil, l.errf("rounds off %d bits of an exact value (at most %d): give its operand a narrower type", k, maxRoundShift)
	}
	frac := x.frac - k
	pow := new(big.Int).Lsh(big.NewInt(1), uint(k))
	half := new(big.Int).Rsh(pow, 1)
	ones := new(big.Int).Sub(pow, big.NewInt(1))
	// sign is s at x's scale (an integer -1 or 0), or nil when m ≥ 0.
	var sign *fixedTile
	if x.lo.Sign() < 0 {
		s := l.floorShift(x, x.frac-w)
		sign = &fixedTile{v: s.v, frac: x.frac, lo: s.lo, hi: s.hi}
	}
	var c *big.Int
	var g *fixedTile // added to m; nil: none
	neg := func(t *fixedTile) *fixedTile {
		return l.subT(&fixedTile{v: l.splat(shapeOf(t.v), elemOf(t.v), 0), frac: t.frac, lo: new(big.Int), hi: new(big.Int)}, t)
	}
	// times multiplies the sign s by 2^k - 1: s·2^k - s.
	times := func(s *fixedTile) *fixedTile { return l.subT(l.shiftBy(s, k), s) }
	switch mode {
	case "FLOOR":
		c = new(big.Int)
	case "CEIL":
		c = ones
	case "ROUND":
		c = new(big.Int).Sub(half, big.NewInt(1))
		n := l.floorShift(x, frac)
		b := l.withScalar("and", n.v, 1, elemOf(n.v))
		g = l.exact(b, x.frac, new(big.Int), big.NewInt(1)) // bit 0 of n = ⌊m/2^k⌋
	case "HALF_UP":
		c, g = half, sign
	case "HALF_DOWN":
		c = new(big.Int).Sub(half, big.NewInt(1))
		if sign != nil {
			g = neg(sign)
		}
	case "UP":
		c = ones
		if sign != nil {
			g = times(sign)
		}
	case "DOWN":
		c = new(big.Int)
		if sign != nil {
			g = neg(times(sign))
		}
	default:
		return nil, l.errf("unknown rounding mode '%s'", mode)
	}
	z := x
	if g != nil {
		z = l.addT(z, g)
	}
	if c.Sign() != 0 {
		lo, hi := new(big.Int).Add(z.lo, c), new(big.Int).Add(z.hi, c)
		v := l.withScalar("add", z.v, c.Int64(), intType(intrange.Min(lo, z.lo), intrange.Max(hi, z.hi, c)))
		z = l.exact(v, z.frac, lo, hi)
	}
	q := l.floorShift(z, frac)
	q.frac = scale
	return q, nil
}

// addT and subT are a + b and a - b exactly (one scale: the caller's).
func (l *lowerer) addT(a, b *fixedTile) *fixedTile {
	t, _ := addSub("add")(l, nil, []*fixedTile{a, b}, nil)
	return t
}

func (l *lowerer) subT(a, b *fixedTile) *fixedTile {
	t, _ := addSub("sub")(l, nil, []*fixedTile{a, b}, nil)
	return t
}

// shiftBy is t's integers times 2^k, at t's scale.
func (l *lowerer) shiftBy(t *fixedTile, k int) *fixedTile {
	s := l.shiftLeft(t, t.frac+k)
	s.frac = t.frac
	return s
}

// clampTo is max(min(t, hi), lo), each only where t's interval can leave
// [lo, hi]: a comparison and a mux per element and bound.
func (l *lowerer) clampTo(t *fixedTile, lo, hi *big.Int) *fixedTile {
	if t.lo.Cmp(lo) < 0 {
		nlo, nhi := lo, intrange.Max(t.hi, lo)
		v := l.withScalar("max", t.v, lo.Int64(), intType(intrange.Min(t.lo, lo), intrange.Max(t.hi, lo)))
		t = &fixedTile{v: l.cast(v, intType(nlo, nhi)), shape: t.shape, frac: t.frac, lo: nlo, hi: nhi}
	}
	if t.hi.Cmp(hi) > 0 {
		nlo, nhi := intrange.Min(t.lo, hi), hi
		v := l.withScalar("min", t.v, hi.Int64(), intType(intrange.Min(t.lo, hi), intrange.Max(t.hi, hi)))
		t = &fixedTile{v: l.cast(v, intType(nlo, nhi)), shape: t.shape, frac: t.frac, lo: nlo, hi: nhi}
	}
	return t
}
