package qonnx

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/internal/intrange"
	"github.com/otir-dev/otir/ir"
)

// join is x + y, x - y or x·y of two values that both depend on the input
// (a residual join, a gate). Per element, with x = a_x·c_x + b_x and y =
// a_y·c_y + b_y over their integer codes (relus with their kink on an
// integer code become nn.max / nn.min first, as before a product):
//
//	x ± y = a_x·c_x ± a_y·c_y + (b_x ± b_y)
//	x · y = a_x·a_y·c_x·c_y + a_x·b_y·c_x + b_x·a_y·c_y + b_x·b_y
//
// a sum of integer terms with rational factors and an offset, which
// combine writes as one code.
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
	n := len(x.fn)
	ax, bx, ay, by := make([]*big.Rat, n), make([]*big.Rat, n), make([]*big.Rat, n), make([]*big.Rat, n)
	for i := range n {
		ax[i], bx[i], _ = x.fn[i].affine()
		ay[i], by[i], _ = y.fn[i].affine()
	}
	tx := codeTerm{code: x.code, frac: x.frac, lo: x.lo, hi: x.hi}
	ty := codeTerm{code: y.code, frac: y.frac, lo: y.lo, hi: y.hi}
	if kind != kMul {
		if kind == kSub {
			ay, by = negRats(ay), negRats(by)
		}
		tx.factor, ty.factor = ax, ay
		return a.combine(x.shape, []codeTerm{tx, ty}, elementwise(bx, by, (*big.Rat).Add))
	}
	p := intrange.Range{Lo: big.NewInt(x.lo), Hi: big.NewInt(x.hi)}.Mul(intrange.Range{Lo: big.NewInt(y.lo), Hi: big.NewInt(y.hi)})
	if err := limitBits(p.Lo, p.Hi); err != nil {
		return nil, err
	}
	prod, err := nn.Node(a.b, kMul, []*ir.Value{x.code, y.code}, ir.Tensor(x.shape, f64), nil)
	if err != nil {
		return nil, err
	}
	tp := codeTerm{code: prod, frac: x.frac + y.frac, lo: p.Lo.Int64(), hi: p.Hi.Int64(), factor: elementwise(ax, ay, (*big.Rat).Mul)}
	tx.factor, ty.factor = elementwise(ax, by, (*big.Rat).Mul), elementwise(bx, ay, (*big.Rat).Mul)
	return a.combine(x.shape, []codeTerm{tp, tx, ty}, elementwise(bx, by, (*big.Rat).Mul))
}

// codeTerm is a code tensor of the new graph (code holds c·2^-frac, c an
// integer in [lo, hi]) and, per element, the factor of c in a sum.
type codeTerm struct {
	code   *ir.Value
	frac   int
	lo, hi int64
	factor []*big.Rat
}

// combine writes Σ_t factor_t·c_t + offset, per element, as one code:
// with e_t = 2^(F - frac_t) aligning the codes at the finest scale F, the
// factors factor_t/e_t are s·m_t with m_t the smallest integers
// (factorColumn), the new code is Σ_t m_t·T_t of the code tensors (exact
// integers at 2^-F; an nn.mul by the integers where they are not all 1,
// a term whose integers are all 0 left out) and each element's value
// s·code + offset. Equal scales give m = ±1; scales a power of two apart,
// a shift; others, integer factors as large as the ratio of the scales
// needs (an error past float64's mantissa or the circuit's 62 bits).
func (a *absorber) combine(shape []int64, terms []codeTerm, offset []*big.Rat) (*val, error) {
	F := 0
	for _, t := range terms {
		F = max(F, t.frac)
	}
	n := len(offset)
	ms := make([][]*big.Rat, len(terms))
	for k := range ms {
		ms[k] = make([]*big.Rat, n)
	}
	out := &val{shape: shape, frac: F, fn: make([]elemFn, n)}
	all := intrange.Point(new(big.Int)) // an empty tensor's range
	for i := range n {
		col := make([]*big.Rat, len(terms))
		for k, t := range terms {
			col[k] = new(big.Rat).Quo(t.factor[i], pow2(F-t.frac))
		}
		s, m := factorColumn(col)
		out.fn[i] = elemFn{{a: s, b: offset[i]}}
		r := intrange.Point(new(big.Int))
		for k, t := range terms {
			if m[k].BitLen() > maxConstBits {
				return nil, fmt.Errorf("element %d: the factors %s need integers beyond float64's mantissa", i, ratsText(col))
			}
			ms[k][i] = new(big.Rat).SetInt(m[k])
			whole := new(big.Int).Mul(m[k], new(big.Int).Lsh(big.NewInt(1), uint(F-t.frac)))
			code := intrange.Range{Lo: big.NewInt(t.lo), Hi: big.NewInt(t.hi)}
			r = r.Add(code.Mul(intrange.Point(whole)))
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
	var sum *ir.Value
	for k, t := range terms {
		if allZeroRat(ms[k]) {
			continue
		}
		v := t.code
		if !allOne(ms[k]) {
			var err error
			if v, err = a.binaryConst(kMul, v, shape, ms[k], f64); err != nil {
				return nil, err
			}
		}
		if sum == nil {
			sum = v
			continue
		}
		var err error
		if sum, err = nn.Node(a.b, kAdd, []*ir.Value{sum, v}, ir.Tensor(shape, f64), nil); err != nil {
			return nil, err
		}
	}
	if sum == nil { // every factor 0: the code is 0
		out.konst = make([]*big.Rat, n)
		for i := range out.konst {
			out.konst[i] = offset[i]
		}
		out.fn, out.code = nil, nil
		return out, nil
	}
	out.code = sum
	return out, nil
}

func negRats(rs []*big.Rat) []*big.Rat {
	out := make([]*big.Rat, len(rs))
	for i, r := range rs {
		out[i] = new(big.Rat).Neg(r)
	}
	return out
}

// elementwise is op(a[i], b[i]) for each i.
func elementwise(a, b []*big.Rat, op func(z, x, y *big.Rat) *big.Rat) []*big.Rat {
	out := make([]*big.Rat, len(a))
	for i := range a {
		out[i] = op(new(big.Rat), a[i], b[i])
	}
	return out
}

func ratsText(rs []*big.Rat) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = r.RatString()
	}
	return fmt.Sprint(s)
}
