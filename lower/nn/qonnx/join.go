package qonnx

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/internal/intrange"
	"github.com/otir-dev/otir/ir"
)

// join is x + y or x - y of two values that both depend on the input (a
// residual join). Per element, with x = a_x·c_x + b_x and y = a_y·c_y + b_y
// over their integer codes (relus with their kink on an integer code
// become nn.max / nn.min first, as before a product), the sum is
//
//	s·(m_x·e_x·c_x + m_y·e_y·c_y) + (b_x ± b_y)
//
// where e_x = 2^(F - frac_x), e_y = 2^(F - frac_y) align the codes at the
// finer scale F, and s·m_x = a_x/e_x, s·m_y = ±a_y/e_y with m_x, m_y the
// smallest integers (factorColumn): the new code is m_x·X + m_y·Y of the
// code tensors X = c_x·2^-frac_x, Y = c_y·2^-frac_y, exact integers at
// 2^-F. Equal scales give m = ±1 (an add or a sub of the codes); scales a
// power of two apart, a shift; others, integer factors as large as the
// ratio of the scales needs (bounded by the circuit's integers).
func (a *absorber) join(kind string, x, y *val) (*val, error) {
	if !slices.Equal(x.shape, y.shape) {
		return nil, fmt.Errorf("the operands have shapes %v and %v: a join of two values that depend on the input needs equal shapes", x.shape, y.shape)
	}
	x, err := a.affineOnly(x)
	if err != nil {
		return nil, err
	}
	if y, err = a.affineOnly(y); err != nil {
		return nil, err
	}
	F := max(x.frac, y.frac)
	ex, ey := pow2(F-x.frac), pow2(F-y.frac)
	n := len(x.fn)
	mx, my := make([]*big.Rat, n), make([]*big.Rat, n)
	out := &val{shape: x.shape, frac: F, fn: make([]elemFn, n)}
	all := intrange.Point(new(big.Int)) // an empty tensor's range
	for i := range n {
		ax, bx, _ := x.fn[i].affine()
		ay, by, _ := y.fn[i].affine()
		if kind == kSub {
			ay, by = new(big.Rat).Neg(ay), new(big.Rat).Neg(by)
		}
		s, ms := factorColumn([]*big.Rat{new(big.Rat).Quo(ax, ex), new(big.Rat).Quo(ay, ey)})
		out.fn[i] = elemFn{{a: s, b: new(big.Rat).Add(bx, by)}}
		mx[i], my[i] = new(big.Rat).SetInt(ms[0]), new(big.Rat).SetInt(ms[1])
		if ms[0].BitLen() > maxConstBits || ms[1].BitLen() > maxConstBits {
			return nil, fmt.Errorf("element %d: the scales %s and %s need integer factors beyond float64's mantissa", i, ax.RatString(), ay.RatString())
		}
		// The new code's range: the sum of m·e·[lo, hi] over both codes.
		r := intrange.Point(new(big.Int))
		for _, t := range []struct {
			m      *big.Int
			e      *big.Rat // a whole power of two
			lo, hi int64
		}{{ms[0], ex, x.lo, x.hi}, {ms[1], ey, y.lo, y.hi}} {
			code := intrange.Range{Lo: big.NewInt(t.lo), Hi: big.NewInt(t.hi)}
			r = r.Add(code.Mul(intrange.Point(new(big.Int).Mul(t.m, t.e.Num()))))
		}
		if i == 0 {
			all = r
		} else {
			all = all.Union(r)
		}
	}
	if err := limitBits(all.Lo, all.Hi); err != nil {
		return nil, err
	}
	out.lo, out.hi = all.Lo.Int64(), all.Hi.Int64()
	tx, err := a.scaledCode(x, mx)
	if err != nil {
		return nil, err
	}
	ty, err := a.scaledCode(y, my)
	if err != nil {
		return nil, err
	}
	if out.code, err = nn.Node(a.b, kAdd, []*ir.Value{tx, ty}, ir.Tensor(x.shape, f64), nil); err != nil {
		return nil, err
	}
	return out, nil
}

// scaledCode is v's code tensor times the integers m (the tensor itself
// where every m is 1).
func (a *absorber) scaledCode(v *val, m []*big.Rat) (*ir.Value, error) {
	if allOne(m) {
		return v.code, nil
	}
	return a.binaryConst(kMul, v.code, v.shape, m, f64)
}
