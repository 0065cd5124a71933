package nnqonnx

import (
	"fmt"
	"math/big"

	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/ir"
)

// The integer nodes of the new graph. Every value is exact (f64) or a
// quantized type at scale 1 whose floor is the rounding wanted; constants
// are inline nn.const of f64 numbers that float64 holds exactly.

var f64 = ir.Float(ir.F64)

// maxExactFloat bounds constants written as f64: integers below 2^53 and
// their power-of-two multiples are exact.
const maxConstBits = 53

// constant emits an inline nn.const of exact rationals (each dyadic and
// within float64's mantissa).
func (a *absorber) constant(shape []int64, rs []*big.Rat) (*ir.Value, error) {
	fs := make([]float64, len(rs))
	for i, r := range rs {
		f, exact := r.Float64()
		if !exact {
			return nil, fmt.Errorf("the constant %s has no exact float64 form", r.RatString())
		}
		fs[i] = f
	}
	return nn.Node(a.b, nn.OpConst, nil, ir.Tensor(shape, f64), nn.InlineConst(shape, fs))
}

// binaryConst emits kind(x, constant) with the given element type.
func (a *absorber) binaryConst(kind string, x *ir.Value, shape []int64, rs []*big.Rat, elem ir.Type) (*ir.Value, error) {
	c, err := a.constant(shape, rs)
	if err != nil {
		return nil, err
	}
	return nn.Node(a.b, kind, []*ir.Value{x, c}, ir.Tensor(shape, elem), nil)
}

// intType is the narrowest scale-1 quantized type holding [lo, hi].
func intType(lo, hi *big.Int) *quant.UniformType {
	if lo.Sign() >= 0 {
		return quant.Uniform(max(hi.BitLen(), 1), false, 0)
	}
	w := max(signedBits(lo), signedBits(hi))
	return quant.Uniform(max(w, 2), true, 0)
}

// signedBits is the two's-complement width of x.
func signedBits(x *big.Int) int {
	if x.Sign() >= 0 {
		return x.BitLen() + 1
	}
	return new(big.Int).Add(x, big.NewInt(1)).BitLen() + 1
}

func pow2(k int) *big.Rat {
	if k >= 0 {
		return new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(k)))
	}
	return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(-k)))
}

func allOne(rs []*big.Rat) bool {
	for _, r := range rs {
		if r.Cmp(big.NewRat(1, 1)) != 0 {
			return false
		}
	}
	return true
}

func allZeroRat(rs []*big.Rat) bool {
	for _, r := range rs {
		if r.Sign() != 0 {
			return false
		}
	}
	return true
}

// limitBits checks that an integer range fits the circuit's integers.
func limitBits(lo, hi *big.Int) error {
	if lo.BitLen() > maxFitBits || hi.BitLen() > maxFitBits {
		return fmt.Errorf("its integer range [%s, %s] exceeds %d bits", lo, hi, maxFitBits)
	}
	return nil
}

// plan is how one quantizer node becomes integer nodes.
type plan struct {
	first, last []*big.Int // per element: n(lo), n(hi)
	lin         []linear   // floor form per element (nil: half-even form)
	half        []linear   // half-even form: y = M·x + C, n = round_half_even(y / 2^K)
}

// step builds a quantizer of a non-constant value: per element the step
// function n(code), then its integer form.
func (a *absorber) step(x *val, qs []*quantizer) (*val, error) {
	n := len(qs)
	first, last := make([]*big.Int, n), make([]*big.Int, n)
	sts := make([]*steps, n)
	memo := map[string]*steps{}
	for i, q := range qs {
		f := x.fn[i]
		key := f.key() + "|" + q.key()
		s, ok := memo[key]
		if !ok {
			s = findSteps(func(c int64) *big.Int { return q.code(f.eval(ratInt(c))) }, x.lo, x.hi)
			memo[key] = s
		}
		sts[i], first[i], last[i] = s, s.first, s.last
	}
	nlo, nhi := new(big.Int).Set(first[0]), new(big.Int).Set(first[0])
	allConst := true
	for i := range sts {
		lo, hi := sts[i].bounds()
		if lo.Cmp(nlo) < 0 {
			nlo.Set(lo)
		}
		if hi.Cmp(nhi) > 0 {
			nhi.Set(hi)
		}
		allConst = allConst && sts[i].constant()
	}
	out := &val{shape: x.shape, fn: make([]elemFn, n), lo: nlo.Int64(), hi: nhi.Int64()}
	for i, q := range qs {
		out.fn[i] = elemFn{{a: q.outMul, b: q.outOff}}
	}
	if allConst {
		out.konst = make([]*big.Rat, n)
		for i := range qs {
			out.konst[i] = out.fn[i].eval(new(big.Rat).SetInt(first[i]))
		}
		out.fn = nil
		return out, nil
	}
	code, err := a.stepNodes(x, qs, sts, nlo, nhi)
	if err != nil {
		return nil, err
	}
	out.code = code
	return out, nil
}

func (q *quantizer) key() string {
	s := fmt.Sprintf("%s%v%s,%s", q.kind, q.spec, q.scale.RatString(), q.zp.RatString())
	if q.outScale != nil {
		s += "," + q.outScale.RatString()
	}
	return s
}

// stepNodes emits the integer nodes of per-element step functions: the
// floor form floor((M·x + C)/2^K) where every element has one, else the
// half-even form of dyadic ROUND quantizers; then the clamps to each
// element's range.
func (a *absorber) stepNodes(x *val, qs []*quantizer, sts []*steps, nlo, nhi *big.Int) (*ir.Value, error) {
	n := len(sts)
	lins := make([]linear, n)
	fitted := true
	var K uint
	for i, s := range sts {
		if s.constant() {
			lins[i] = linear{M: new(big.Int), C: new(big.Int).Lsh(s.first, 0), K: 0}
			continue
		}
		l, ok := fitLinear(s)
		if !ok {
			fitted = false
			break
		}
		lins[i] = l
		K = max(K, l.K)
	}
	half := false
	if !fitted {
		var err error
		if lins, K, err = halfEvenForms(x, qs, sts); err != nil {
			return nil, err
		}
		half = true
	}
	ms, cs := make([]*big.Rat, n), make([]*big.Rat, n)
	ylo, yhi := new(big.Int), new(big.Int)
	for i := range lins {
		l := lins[i].scaled(K)
		lins[i] = l
		ms[i] = new(big.Rat).Mul(new(big.Rat).SetInt(l.M), pow2(x.frac-int(K)))
		cs[i] = new(big.Rat).Mul(new(big.Rat).SetInt(l.C), pow2(-int(K)))
		for _, c := range []int64{x.lo, x.hi} {
			y := new(big.Int).Add(new(big.Int).Mul(l.M, big.NewInt(c)), l.C)
			if i == 0 && c == x.lo || y.Cmp(ylo) < 0 {
				ylo.Set(y)
			}
			if i == 0 && c == x.lo || y.Cmp(yhi) > 0 {
				yhi.Set(y)
			}
		}
	}
	if err := limitBits(ylo, yhi); err != nil {
		return nil, err
	}
	for _, m := range ms {
		if f, _ := m.Float64(); m.Num().BitLen() > maxConstBits || f == 0 && m.Sign() != 0 {
			return nil, fmt.Errorf("the multiplier %s of its integer form exceeds float64's mantissa", m.RatString())
		}
	}
	t := x.code
	var err error
	if !allOne(ms) {
		if t, err = a.binaryConst(nn.OpMul, t, x.shape, ms, f64); err != nil {
			return nil, err
		}
	}
	flo, fhi := new(big.Int).Rsh(ylo, K), new(big.Int).Rsh(yhi, K)
	var u *ir.Value
	if half {
		// y/2^K, its bit K (the floor's lowest bit), then
		// floor((y + 2^(K-1) - 1 + bit)/2^K).
		y, err := a.binaryConst(nn.OpAdd, t, x.shape, cs, f64)
		if err != nil {
			return nil, err
		}
		bit, err := nn.Node(a.b, nn.OpDetach, []*ir.Value{y}, ir.Tensor(x.shape, quant.Uniform(1, false, 0)), nil)
		if err != nil {
			return nil, err
		}
		bias := make([]*big.Rat, n)
		bitScale := make([]*big.Rat, n)
		for i := range bias {
			bias[i] = new(big.Rat).Mul(ratInt((int64(1)<<(K-1))-1), pow2(-int(K)))
			bitScale[i] = pow2(-int(K))
		}
		yb, err := a.binaryConst(nn.OpAdd, y, x.shape, bias, f64)
		if err != nil {
			return nil, err
		}
		bs, err := a.binaryConst(nn.OpMul, bit, x.shape, bitScale, f64)
		if err != nil {
			return nil, err
		}
		fhi.Add(fhi, big.NewInt(1))
		if u, err = nn.Node(a.b, nn.OpAdd, []*ir.Value{yb, bs}, ir.Tensor(x.shape, intType(flo, fhi)), nil); err != nil {
			return nil, err
		}
	} else if u, err = a.binaryConst(nn.OpAdd, t, x.shape, cs, intType(flo, fhi)); err != nil {
		return nil, err
	}
	return a.clamp(u, x.shape, sts, flo, fhi, nlo, nhi)
}

// clamp bounds each element to its step function's range, when the
// integer form can leave it.
func (a *absorber) clamp(u *ir.Value, shape []int64, sts []*steps, flo, fhi, nlo, nhi *big.Int) (*ir.Value, error) {
	los, his := make([]*big.Rat, len(sts)), make([]*big.Rat, len(sts))
	needLo, needHi := false, false
	for i, s := range sts {
		lo, hi := s.bounds()
		los[i], his[i] = new(big.Rat).SetInt(lo), new(big.Rat).SetInt(hi)
		needLo = needLo || flo.Cmp(lo) < 0
		needHi = needHi || fhi.Cmp(hi) > 0
	}
	var err error
	if needLo {
		if u, err = a.binaryConst(nn.OpMax, u, shape, los, intType(nlo, maxBig(fhi, nlo))); err != nil {
			return nil, err
		}
	}
	if needHi {
		if u, err = a.binaryConst(nn.OpMin, u, shape, his, intType(nlo, nhi)); err != nil {
			return nil, err
		}
	}
	return u, nil
}

func maxBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

// halfEvenForms is, for quantizers whose every element is an nn.quant
// with rounding ROUND on a dyadic affine function of the code, y = M·x + C
// with the value x/scale + zp = y/2^K (K >= 1, common).
func halfEvenForms(x *val, qs []*quantizer, sts []*steps) ([]linear, uint, error) {
	lins := make([]linear, len(qs))
	var K uint = 1
	for i, q := range qs {
		if q.kind != nn.OpQuant || q.spec.Rounding != "ROUND" || q.spec.Bipolar() || x.fn[i].reluCount() > 1 {
			return nil, 0, fmt.Errorf("element %d's quantizer (%s, rounding %s) has no exact integer form floor((M·x + C)/2^k) and no other form is implemented", i, q.kind, q.spec.Rounding)
		}
		a, b := x.fn[i].withoutRelu()
		al := new(big.Rat).Quo(a, q.scale)
		be := new(big.Rat).Add(new(big.Rat).Quo(b, q.scale), q.zp)
		if !dyadic(al) || !dyadic(be) {
			return nil, 0, fmt.Errorf("element %d: rounding ROUND of a non-dyadic map (%s·x + %s) has no exact integer form found", i, al.RatString(), be.RatString())
		}
		k := uint(max(al.Denom().BitLen(), be.Denom().BitLen()) - 1)
		k = max(k, 1)
		M := new(big.Int).Mul(al.Num(), new(big.Int).Quo(new(big.Int).Lsh(big.NewInt(1), k), al.Denom()))
		C := new(big.Int).Mul(be.Num(), new(big.Int).Quo(new(big.Int).Lsh(big.NewInt(1), k), be.Denom()))
		lins[i] = linear{M: M, C: C, K: k}
		K = max(K, k)
	}
	return lins, K, nil
}
