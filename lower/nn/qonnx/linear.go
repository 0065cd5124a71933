package qonnx

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/ir"
)

// affineOnly makes every element's function one affine map of a code: a
// relu whose kink falls on an integer code becomes nn.max / nn.min of the
// code (relu(a·x + b) = a·max(x, -b/a) + b for a > 0, a·min(x, -b/a) + b
// for a < 0); a relu of a constant element is folded.
func (a *absorber) affineOnly(x *val) (*val, error) {
	need := false
	for _, f := range x.fn {
		need = need || f.reluCount() > 0
		if f.nonlinear() {
			return nil, fmt.Errorf("an nn.max or nn.min of two functions of one code (LeakyRelu's), an nn.sigmoid or nn.tanh, or an nn.mul of two functions of one code (HardSwish's, SiLU's) reaches a product, a join, a pool or an output with no quantizer after it: a quantizer absorbs it (an output: give tail=FILE)")
		}
	}
	if !need {
		return x, nil
	}
	n := len(x.fn)
	out := *x
	out.fn = make([]elemFn, n)
	los, his := make([]*big.Rat, n), make([]*big.Rat, n)
	useLo, useHi := false, false
	scale := pow2(-x.frac)
	for i, f := range x.fn {
		los[i], his[i] = new(big.Rat).Mul(ratInt(x.lo), scale), new(big.Rat).Mul(ratInt(x.hi), scale)
		ri := -1
		for j, s := range f {
			if s.relu {
				if ri >= 0 {
					return nil, fmt.Errorf("element %d passes two relus with no quantizer after them", i)
				}
				ri = j
			}
		}
		if ri < 0 {
			out.fn[i] = f
			continue
		}
		pa, pb, _ := f[:ri].affine()
		rest := f[ri+1:]
		if pa.Sign() == 0 {
			c := maxRat(pb, new(big.Rat))
			out.fn[i] = elemFn{{a: new(big.Rat), b: c}}
			out.fn[i] = append(out.fn[i], rest...)
			continue
		}
		t := kink(pa, pb)
		if !t.IsInt() {
			return nil, fmt.Errorf("a relu of element %d has its kink between two codes (at %s): its result is not an affine map of integers; a quantizer after the relu absorbs it", i, t.RatString())
		}
		tv := new(big.Rat).Mul(t, scale)
		if pa.Sign() > 0 {
			los[i], useLo = tv, true
		} else {
			his[i], useHi = tv, true
		}
		out.fn[i] = append(f[:ri:ri], rest...)
	}
	var err error
	code := x.code
	elem := code.Type.(*ir.TensorType).Elem
	if useLo {
		if code, err = a.binaryConst(kMax, code, x.shape, los, elem); err != nil {
			return nil, err
		}
	}
	if useHi {
		if code, err = a.binaryConst(kMin, code, x.shape, his, elem); err != nil {
			return nil, err
		}
	}
	out.code = code
	return &out, nil
}

// kink is where the relu of a·x + b bends: x = -b/a.
func kink(a, b *big.Rat) *big.Rat { return new(big.Rat).Quo(new(big.Rat).Neg(b), a) }

// affinable reports whether affineOnly makes f one affine map of its
// code: no extremum, curve or product, and at most one relu, bending on
// an integer code.
func affinable(f elemFn) bool {
	if f.nonlinear() || f.reluCount() > 1 {
		return false
	}
	for j, s := range f {
		if s.relu {
			pa, pb, _ := f[:j].affine()
			return pa.Sign() == 0 || kink(pa, pb).IsInt()
		}
	}
	return true
}

// matmul is x·W by a constant W: per output column j, x's affine maps
// folded into W (W'_ij = a_i·W_ij), W' factored into an exact per-column
// factor s_j times the smallest integer column M_j, an nn.matmul of the
// codes by the integer matrix M, and the offsets Σ_i b_i·W_ij.
func (a *absorber) matmul(x, w *val, shape []int64) (*val, error) {
	if x.isConst() && w.isConst() && len(x.shape) == 2 {
		return constMatmul(x, w, shape), nil
	}
	if x.isConst() || !w.isConst() || len(x.shape) != 2 {
		return nil, fmt.Errorf("only x·W of a rank-2 value x by a constant W is absorbed")
	}
	x, err := a.affineOnly(x)
	if err != nil {
		return nil, err
	}
	m, k, p := x.shape[0], x.shape[1], w.shape[1]
	as, bs := make([]*big.Rat, m*k), make([]*big.Rat, m*k)
	for i, f := range x.fn {
		as[i], bs[i], _ = f.affine()
	}
	for r := int64(1); r < m; r++ {
		for i := range k {
			if as[r*k+i].Cmp(as[i]) != 0 {
				return nil, fmt.Errorf("the rows of x have different scales: the product has no common integer matrix")
			}
		}
	}
	ints := make([]*big.Rat, k*p)
	factor := make([]*big.Rat, p)
	lo, hi := new(big.Int), new(big.Int)
	for j := range p {
		col := make([]*big.Rat, k)
		for i := range k {
			col[i] = new(big.Rat).Mul(as[i], w.konst[i*p+j])
		}
		s, ms := factorColumn(col)
		factor[j] = s
		clo, chi := new(big.Int), new(big.Int)
		for i := range k {
			ints[i*p+j] = new(big.Rat).SetInt(ms[i])
			if ms[i].BitLen() > maxConstBits {
				return nil, fmt.Errorf("column %d's integer weights exceed float64's mantissa", j)
			}
			e1, e2 := new(big.Int).Mul(ms[i], big.NewInt(x.lo)), new(big.Int).Mul(ms[i], big.NewInt(x.hi))
			if e1.Cmp(e2) > 0 {
				e1, e2 = e2, e1
			}
			clo.Add(clo, e1)
			chi.Add(chi, e2)
		}
		if clo.Cmp(lo) < 0 {
			lo = clo
		}
		if chi.Cmp(hi) > 0 {
			hi = chi
		}
	}
	if err := limitBits(lo, hi); err != nil {
		return nil, err
	}
	c, err := a.constant([]int64{k, p}, ints)
	if err != nil {
		return nil, err
	}
	code, err := nn.Node(a.b, kMatmul, []*ir.Value{x.code, c}, ir.Tensor(shape, f64), nil)
	if err != nil {
		return nil, err
	}
	out := &val{shape: shape, code: code, frac: x.frac, lo: lo.Int64(), hi: hi.Int64(), fn: make([]elemFn, m*p)}
	for r := range m {
		for j := range p {
			off := new(big.Rat)
			for i := range k {
				off.Add(off, new(big.Rat).Mul(bs[r*k+i], w.konst[i*p+j]))
			}
			// The code holds Σ M_ij·code_i; the value is s_j·that + off.
			out.fn[r*p+j] = elemFn{{a: factor[j], b: off}}
		}
	}
	return out, nil
}

// linear is nn.linear, x·Wᵀ + b by its payload weight W [m, n] and bias b
// [m]: a constant matrix product (matmul) and a constant add for a rank-2
// x (a float Gemm or MatMul by a plain initializer: FINN's streamlined
// integer weights); for any x, a selection when every row of W picks one
// element (one 1, zeros elsewhere) or none (all zeros) and b is 0: the
// importer's copies of a row's end value, which pad a max pool on one side
// (Keras's 'same' pools, a padded MaxPool1d), its nearest upsampling, the
// zeros a ConvTranspose inserts. A selection takes each picked element's
// code and function: the new graph applies the same nn.linear to the
// codes (exact integers).
func (a *absorber) linear(op *ir.Operation, x *val, shape []int64) (*val, error) {
	key, _ := op.StringAttr("params")
	n, m := x.shape[len(x.shape)-1], shape[len(shape)-1]
	w, err := a.exactEntry(key+".weight", m*n)
	if err != nil {
		return nil, err
	}
	b, err := a.exactEntry(key+".bias", m)
	if err != nil {
		return nil, err
	}
	one := big.NewRat(1, 1)
	pick, picks := make([]int64, m), true
	for j := range m {
		pick[j] = -1
		for i, v := range w[j*n : (j+1)*n] {
			switch {
			case v.Cmp(one) == 0 && pick[j] == -1:
				pick[j] = int64(i)
			case v.Sign() != 0:
				pick[j] = -2
			}
		}
		picks = picks && pick[j] >= -1 && b[j].Sign() == 0 // -1: a row of zeros
	}
	if !picks || x.isConst() && len(x.shape) == 2 {
		if len(x.shape) != 2 {
			return nil, fmt.Errorf("an nn.linear of a rank-%d value is absorbed only when its weight rows each pick one element and its bias is 0", len(x.shape))
		}
		wt := &val{shape: []int64{n, m}, konst: make([]*big.Rat, n*m)} // Wᵀ
		for j := range m {
			for i := range n {
				wt.konst[i*m+j] = w[j*n+i]
			}
		}
		y, err := a.matmul(x, wt, shape)
		if err != nil {
			return nil, err
		}
		bias := &val{shape: shape, konst: make([]*big.Rat, 0, shape[0]*m)}
		for range shape[0] {
			bias.konst = append(bias.konst, b...)
		}
		return a.binary(kAdd, y, bias)
	}
	rows := int64(len(x.fn)) / n
	if x.isConst() {
		rows = int64(len(x.konst)) / n
	}
	at := func(r, j int64) int64 { return r*n + pick[j] }
	if x.isConst() {
		out := &val{shape: shape, konst: make([]*big.Rat, 0, rows*m)}
		for r := range rows {
			for j := range m {
				if pick[j] < 0 {
					out.konst = append(out.konst, new(big.Rat))
					continue
				}
				out.konst = append(out.konst, x.konst[at(r, j)])
			}
		}
		return out, nil
	}
	// A zero row's element (the zeros a ConvTranspose inserts) is code 0
	// times the factor of its row's picked elements, so that a convolution
	// after it still sees one factor per channel.
	some := slices.IndexFunc(pick, func(p int64) bool { return p >= 0 })
	out := *x
	out.shape = shape
	out.fn = make([]elemFn, 0, rows*m)
	for r := range rows {
		for j := range m {
			if pick[j] >= 0 {
				out.fn = append(out.fn, x.fn[at(r, j)])
				continue
			}
			zero := elemFn{{a: new(big.Rat), b: new(big.Rat)}}
			if some >= 0 {
				f := x.fn[at(r, int64(some))]
				fa, _, ok := f.affine()
				if !ok {
					return nil, fmt.Errorf("row %d of the weight is zero beside elements that are no affine map of their codes (a quantizer before the nn.linear makes them one)", j)
				}
				zero[0].a = fa
			}
			out.fn = append(out.fn, zero)
		}
	}
	out.code, err = nn.Node(a.b, kLinear, []*ir.Value{x.code}, ir.Tensor(shape, f64), op.Attrs)
	return &out, err
}

// constMatmul is the exact product of two constant matrices.
func constMatmul(x, w *val, shape []int64) *val {
	m, k, p := x.shape[0], x.shape[1], w.shape[1]
	out := &val{shape: shape, konst: make([]*big.Rat, m*p)}
	for r := range m {
		for j := range p {
			s := new(big.Rat)
			for i := range k {
				s.Add(s, new(big.Rat).Mul(x.konst[r*k+i], w.konst[i*p+j]))
			}
			out.konst[r*p+j] = s
		}
	}
	return out
}

// factorColumn writes a column of rationals as s·M with M the smallest
// integers: s = gcd(numerators)/lcm(denominators) (0 for a zero column).
func factorColumn(col []*big.Rat) (*big.Rat, []*big.Int) {
	g, l := new(big.Int), big.NewInt(1)
	for _, r := range col {
		if r.Sign() == 0 {
			continue
		}
		g.GCD(nil, nil, g, new(big.Int).Abs(r.Num()))
		d := r.Denom()
		l.Mul(l, new(big.Int).Quo(d, new(big.Int).GCD(nil, nil, l, d)))
	}
	ms := make([]*big.Int, len(col))
	if g.Sign() == 0 {
		for i := range ms {
			ms[i] = new(big.Int)
		}
		return new(big.Rat), ms
	}
	s := new(big.Rat).SetFrac(g, l)
	for i, r := range col {
		q := new(big.Rat).Quo(r, s)
		ms[i] = new(big.Int).Set(q.Num()) // an integer by construction
	}
	return s, ms
}

// emitExact emits a value's exact fixed-point form A·code + B, or says
// why it has none: a factor that is not dyadic (a division), or more than
// maxFitBits bits at the scale it needs.
func (a *absorber) emitExact(v *val) (*ir.Value, error) {
	if v.isConst() {
		return a.constant(v.shape, v.konst)
	}
	v, err := a.affineOnly(v)
	if err != nil {
		return nil, err
	}
	n := len(v.fn)
	ms, bs := make([]*big.Rat, n), make([]*big.Rat, n)
	fm, fb := 0, 0
	for i, f := range v.fn {
		am, b, _ := f.affine()
		if !dyadic(am) || !dyadic(b) {
			return nil, fmt.Errorf("its value %s·code + %s (element %d) is not a fixed-point number", am.RatString(), b.RatString(), i)
		}
		ms[i] = new(big.Rat).Mul(am, pow2(v.frac))
		bs[i] = b
		fm, fb = max(fm, ms[i].Denom().BitLen()-1), max(fb, b.Denom().BitLen()-1)
	}
	// The bits of the sum at the finest scale: the product at 2^-(frac+fm)
	// brought to 2^-F, plus the offsets.
	F := max(v.frac+fm, fb)
	width := 0
	for i := range ms {
		for _, c := range []int64{v.lo, v.hi} {
			y := new(big.Rat).Mul(ms[i], new(big.Rat).Mul(ratInt(c), pow2(-v.frac)))
			y.Add(y, bs[i]).Mul(y, pow2(F))
			width = max(width, y.Num().BitLen()+1, new(big.Rat).Mul(bs[i], pow2(F)).Num().BitLen()+1)
		}
	}
	if width > maxFitBits {
		return nil, fmt.Errorf("its exact value needs %d bits at scale 2^-%d (more than %d)", width, F, maxFitBits)
	}
	t := v.code
	if !allOne(ms) {
		if t, err = a.binaryConst(kMul, t, v.shape, ms, f64); err != nil {
			return nil, err
		}
	}
	if !allZeroRat(bs) {
		if t, err = a.binaryConst(kAdd, t, v.shape, bs, f64); err != nil {
			return nil, err
		}
	}
	if t == v.code {
		// The output keeps its own node (an argument cannot be returned
		// with an exact type).
		if t, err = nn.Node(a.b, kDetach, []*ir.Value{t}, ir.Tensor(v.shape, f64), nil); err != nil {
			return nil, err
		}
	}
	return t, nil
}
