package qonnx

import (
	"fmt"
	"math/big"

	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/internal/intrange"
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
	return inlineConst(a.b, shape, f64, rs)
}

// inlineConst emits an inline nn.const of element type elem and exact
// rationals (each dyadic and within float64's mantissa).
func inlineConst(b *ir.Builder, shape []int64, elem ir.Type, rs []*big.Rat) (*ir.Value, error) {
	fs := make([]float64, len(rs))
	for i, r := range rs {
		f, exact := r.Float64()
		if !exact {
			return nil, fmt.Errorf("the constant %s has no exact float64 form", r.RatString())
		}
		fs[i] = f
	}
	return nn.Node(b, kConst, nil, ir.Tensor(shape, elem), nn.InlineConst(shape, fs))
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

// step builds a quantizer of a non-constant value: per element the step
// function n(code), then its integer form.
func (a *absorber) step(x *val, qs []*quantizer) (*val, error) {
	n := len(qs)
	if n == 0 {
		return &val{shape: x.shape, konst: []*big.Rat{}}, nil // no elements: a constant of none
	}
	first, last := make([]*big.Int, n), make([]*big.Int, n)
	sts := make([]*steps, n)
	memo := map[string]*steps{}
	for i, q := range qs {
		f := x.fn[i]
		key := f.key() + "|" + q.key()
		s, ok := memo[key]
		if !ok {
			if f.monotone() {
				s = findSteps(func(c int64) *big.Int { return q.code(f.eval(ratInt(c))) }, x.lo, x.hi)
			} else {
				s = productSteps(f, q.code, x.lo, x.hi)
			}
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
	if q.cachedKey != "" { // a threshold row's is long, and shared by a channel
		return q.cachedKey
	}
	s := fmt.Sprintf("%s%v%s,%s", q.kind, q.spec, q.scale.RatString(), q.zp.RatString())
	if q.outScale != nil {
		s += "," + q.outScale.RatString()
	}
	if q.kind == kMultiThreshold {
		s += fmt.Sprint(q.multi, q.row)
	}
	q.cachedKey = s
	return s
}

// stepNodes emits the integer nodes of per-element step functions, by
// the first form that exists for every element: one floor form
// floor((M·x + C)/2^K) clamped to the element's range; the half-even form
// of dyadic ROUND quantizers; a sum of floor forms, each covering a run of
// consecutive thresholds (a sign-dependent rounding such as DOWN or
// HALF_UP breaks the run at zero).
func (a *absorber) stepNodes(x *val, qs []*quantizer, sts []*steps, nlo, nhi *big.Int) (*ir.Value, error) {
	n := len(sts)
	bounds := func() (los, his []*big.Int) {
		los, his = make([]*big.Int, n), make([]*big.Int, n)
		for i, s := range sts {
			los[i], his[i] = s.bounds()
		}
		return los, his
	}
	// The closed forms, unless a product of float32 scales makes them wider
	// than a fitted form (a multiplier beyond float64's mantissa, or a
	// range beyond 62 bits: floorForm checks both before it emits).
	if one, single := closedForms(x, qs); single && narrowForms(one) {
		if u, flo, fhi, err := a.floorForm(x, one, false); err == nil {
			los, his := bounds()
			return a.clamp(u, x.shape, los, his, flo, fhi)
		}
	}
	if one, single := fitAll(sts); single && !anyWavy(sts) {
		u, flo, fhi, err := a.floorForm(x, one, false)
		if err != nil {
			return nil, err
		}
		los, his := bounds()
		return a.clamp(u, x.shape, los, his, flo, fhi)
	}
	if lins, err := halfEvenForms(x, qs); err == nil {
		if u, flo, fhi, err := a.floorForm(x, lins, true); err == nil {
			los, his := bounds()
			return a.clamp(u, x.shape, los, his, flo, fhi)
		}
	}
	pieces := make([][]piece, n)
	count := 0
	for i, s := range sts {
		ps, ok := piecesOf(s, maxPieces)
		if qs[i].kind == kFloatQuant && !s.wavy {
			ps, ok = scaledPiecesOf(s, qs[i].maxPieces())
		}
		if !ok {
			return nil, fmt.Errorf("element %d's quantizer (%s, rounding %s) has no exact integer form found (at most %d runs of thresholds, each floor((M·x + C)/2^k) within %d bits)", i, qs[i].kind, qs[i].rounding(), qs[i].maxPieces(), maxFitBits)
		}
		pieces[i] = ps
		count = max(count, len(ps))
	}
	var sum *ir.Value
	offset := make([]*big.Rat, n)
	for i := range offset {
		offset[i] = new(big.Rat)
	}
	for i, ps := range pieces {
		if len(ps) > 0 && ps[0].jump != nil { // scaled runs start from the value before the first
			offset[i].SetInt(ps[0].start)
		}
	}
	for j := range count {
		lins := make([]linear, n)
		los, his := make([]*big.Int, n), make([]*big.Int, n)
		jumps := make([]*big.Rat, n)
		scaled := false
		for i, ps := range pieces {
			jumps[i] = big.NewRat(1, 1)
			if j >= len(ps) {
				lins[i], los[i], his[i] = linear{M: new(big.Int), C: new(big.Int)}, new(big.Int), new(big.Int)
				continue
			}
			lins[i], los[i], his[i] = ps[j].lin, ps[j].lo, ps[j].hi
			switch {
			case ps[j].jump != nil:
				jumps[i].SetInt(ps[j].jump)
				scaled = true
			case j > 0:
				offset[i].Sub(offset[i], new(big.Rat).SetInt(ps[j].start))
			}
		}
		u, flo, fhi, err := a.floorForm(x, lins, false)
		if err != nil {
			return nil, err
		}
		if u, err = a.clamp(u, x.shape, los, his, flo, fhi); err != nil {
			return nil, err
		}
		if scaled && !allOne(jumps) {
			if u, err = a.binaryConst(kMul, u, x.shape, jumps, f64); err != nil {
				return nil, err
			}
		}
		if sum == nil {
			sum = u
		} else if sum, err = nn.Node(a.b, kAdd, []*ir.Value{sum, u}, ir.Tensor(x.shape, f64), nil); err != nil {
			return nil, err
		}
	}
	return a.binaryConst(kAdd, sum, x.shape, offset, intType(nlo, nhi))
}

// anyWavy reports whether a step function may turn (productSteps'): one
// floor form, monotone, fits none that does.
func anyWavy(sts []*steps) bool {
	for _, s := range sts {
		if s.wavy && !s.constant() {
			return true
		}
	}
	return false
}

// fitAll is one fitted floor form per element, if every element has one.
func fitAll(sts []*steps) ([]linear, bool) {
	one := make([]linear, len(sts))
	fitted := map[*steps]linear{} // step's memo shares the steps of equal elements
	for i, s := range sts {
		if s.constant() {
			one[i] = linear{M: new(big.Int), C: new(big.Int).Set(s.first)}
			continue
		}
		l, ok := fitted[s]
		if !ok {
			if l, ok = fitLinear(s); !ok {
				return nil, false
			}
			fitted[s] = l
		}
		one[i] = l
	}
	return one, true
}

// maxPieces bounds the runs of thresholds of one element (a minifloat's
// more: quantizer.maxPieces), and maxRunThresholds the thresholds split
// into runs (the search fits many sub-runs).
const (
	maxPieces        = 16
	maxRunThresholds = 1024
)

// piece is one run of consecutive thresholds: its floor form, clamped to
// [lo, hi]; start is the value before the run. A scaled piece
// (scaledPiecesOf) counts its thresholds instead, from 0 to their number,
// and the circuit multiplies the count by jump, the run's common step.
type piece struct {
	lin           linear
	start, lo, hi *big.Int
	jump          *big.Int // nil: the floor form gives the values themselves
}

// piecesOf splits a step function into the fewest runs, greedily: the
// longest run from each threshold that one floor form fits (a subset of
// a fitting run fits, so a binary search finds it), at most limit runs.
func piecesOf(s *steps, limit int) ([]piece, bool) {
	s.list()
	if s.many || len(s.thresholds) > maxRunThresholds {
		return nil, false
	}
	if s.constant() {
		return []piece{{lin: linear{M: new(big.Int), C: new(big.Int).Set(s.first)}, start: s.first, lo: s.first, hi: s.first}}, true
	}
	var out []piece
	prev := s.first
	for i := 0; i < len(s.thresholds); {
		p, m := plainRun(s, i, prev)
		if m == 0 || len(out) == limit {
			return nil, false
		}
		out = append(out, p)
		prev, i = s.values[i+m-1], i+m
	}
	return out, true
}

// scaledPiecesOf is piecesOf for a minifloat: a minifloat's codes step by
// 2^(e − MinExp) in binade e, so a run of thresholds may also be one whose
// steps are all equal (jump), fitted by one floor form of the count of
// thresholds passed, which the circuit multiplies by the jump: one run a
// binade, where piecesOf needs one a threshold. From each threshold the
// longer of the two runs is taken (near zero, where the codes' steps are
// coarser than the format's, piecesOf's runs of varying steps are
// longer). At most limit runs.
func scaledPiecesOf(s *steps, limit int) ([]piece, bool) {
	s.list()
	if s.many || len(s.thresholds) > maxRunThresholds {
		return nil, false
	}
	if s.constant() {
		return piecesOf(s, limit)
	}
	var out []piece
	prev := s.first
	for i := 0; i < len(s.thresholds); {
		p, m := plainRun(s, i, prev)
		jump := new(big.Int).Sub(s.values[i], prev)
		run := 1
		for i+run < len(s.thresholds) && new(big.Int).Sub(s.values[i+run], s.values[i+run-1]).Cmp(jump) == 0 {
			run++
		}
		ps := []piece{p}
		if run > m {
			if l, k := longestFit(run, func(k int) *steps { return countSteps(s, i, k, 1) }); k > m {
				ps, m = []piece{{lin: l, start: prev, lo: new(big.Int), hi: big.NewInt(int64(k)), jump: jump}}, k
			}
		}
		if run > m && run > 1 {
			// Ties to even (a dyadic map under ROUND) alternate the run's
			// spacings: its thresholds at even places, and those at odd
			// places, are each evenly spaced, two counts whose sum is the
			// run's.
			var pair [2]linear
			if k := longestPair(run, func(k int) bool {
				for parity := range 2 {
					l, ok := fitLinear(countSteps(s, i+parity, k-parity, 2))
					if !ok {
						return false
					}
					pair[parity] = l
				}
				return true
			}); k > m {
				ps, m = nil, k
				for parity := range 2 {
					ps = append(ps, piece{lin: pair[parity], start: prev, lo: new(big.Int), hi: big.NewInt(int64((k - parity + 1) / 2)), jump: jump})
				}
			}
		}
		if m == 0 || len(out)+len(ps) > limit {
			return nil, false
		}
		out = append(out, ps...)
		prev, i = s.values[i+m-1], i+m
	}
	return out, true
}

// countSteps is the count of the thresholds i, i+stride, ... below
// i+k: a step function from 0 up by 1 at each.
func countSteps(s *steps, i, k, stride int) *steps {
	var ts []int64
	var counts []*big.Int
	for j := i; j < i+k; j += stride {
		ts = append(ts, s.thresholds[j])
		counts = append(counts, big.NewInt(int64(len(counts)+1)))
	}
	return &steps{listed: true, lo: s.lo, hi: s.hi, first: new(big.Int), last: counts[len(counts)-1], thresholds: ts, values: counts}
}

// longestPair is the largest k in [2, n] for which fits(k) holds (fits
// records its forms), 0 when none; the last call to fits is at the result.
func longestPair(n int, fits func(k int) bool) int {
	lo, hi, best := 2, n, 0
	for lo <= hi {
		m := (lo + hi) / 2
		if fits(m) {
			best, lo = m, m+1
		} else {
			hi = m - 1
		}
	}
	if best > 0 {
		fits(best)
	}
	return best
}

// plainRun is piecesOf's run from threshold i (prev the value before it)
// and its number of thresholds (0: none fits). A run of a wavy step
// function ends where its values turn: a floor form is monotone, and
// fitLinear's one-sided last point would otherwise accept a turn.
func plainRun(s *steps, i int, prev *big.Int) (piece, int) {
	n := len(s.thresholds) - i
	if s.wavy {
		up := s.values[i].Cmp(prev) > 0
		n = 1
		for i+n < len(s.thresholds) && (s.values[i+n].Cmp(s.values[i+n-1]) > 0) == up {
			n++
		}
	}
	l, m := longestFit(n, func(m int) *steps {
		return &steps{listed: true, lo: s.lo, hi: s.hi, first: prev, last: s.values[i+m-1], thresholds: s.thresholds[i : i+m], values: s.values[i : i+m]}
	})
	if m == 0 {
		return piece{}, 0
	}
	p := piece{lin: l, start: prev, lo: prev, hi: s.values[i+m-1]}
	if p.lo.Cmp(p.hi) > 0 {
		p.lo, p.hi = p.hi, p.lo
	}
	return p, m
}

// longestFit is the largest m in [1, n] whose sub-steps sub(m) one floor
// form fits, and the form (m = 0: none). A subset of a fitting run fits,
// so a binary search finds it.
func longestFit(n int, sub func(m int) *steps) (linear, int) {
	var best linear
	bestM := 0
	lo, hi := 1, n
	for lo <= hi {
		m := (lo + hi) / 2
		if l, ok := fitLinear(sub(m)); ok {
			best, bestM, lo = l, m, m+1
		} else {
			hi = m - 1
		}
	}
	return best, bestM
}

// floorForm emits floor((M·x + C)/2^K) per element (K the largest of the
// forms'), or with half, the half-even rounding of (M·x + C)/2^K:
// floor((y + 2^(K-1) - 1 + bit_K(y))/2^K), bit_K(y) the lowest bit of
// floor(y/2^K), read through a u1 type. It returns the value and the
// range [flo, fhi] of its integers.
func (a *absorber) floorForm(x *val, lins []linear, half bool) (*ir.Value, *big.Int, *big.Int, error) {
	n := len(lins)
	var K uint
	for _, l := range lins {
		K = max(K, l.K)
	}
	ms, cs := make([]*big.Rat, n), make([]*big.Rat, n)
	var ylo, yhi *big.Int
	for i := range lins {
		l := lins[i].scaled(K)
		ms[i] = new(big.Rat).Mul(new(big.Rat).SetInt(l.M), pow2(x.frac-int(K)))
		cs[i] = new(big.Rat).Mul(new(big.Rat).SetInt(l.C), pow2(-int(K)))
		for _, c := range []int64{x.lo, x.hi} {
			y := new(big.Int).Add(new(big.Int).Mul(l.M, big.NewInt(c)), l.C)
			if ylo == nil || y.Cmp(ylo) < 0 {
				ylo = y
			}
			if yhi == nil || y.Cmp(yhi) > 0 {
				yhi = y
			}
		}
		if f, _ := ms[i].Float64(); ms[i].Num().BitLen() > maxConstBits || f == 0 && ms[i].Sign() != 0 {
			return nil, nil, nil, fmt.Errorf("the multiplier %s of its integer form exceeds float64's mantissa", ms[i].RatString())
		}
	}
	if err := limitBits(ylo, yhi); err != nil {
		return nil, nil, nil, err
	}
	flo, fhi := new(big.Int).Rsh(ylo, K), new(big.Int).Rsh(yhi, K)
	t := x.code
	var err error
	if !allOne(ms) {
		if t, err = a.binaryConst(kMul, t, x.shape, ms, f64); err != nil {
			return nil, nil, nil, err
		}
	}
	if !half {
		u, err := a.binaryConst(kAdd, t, x.shape, cs, intType(flo, fhi))
		return u, flo, fhi, err
	}
	y := t
	if !allZeroRat(cs) {
		if y, err = a.binaryConst(kAdd, t, x.shape, cs, f64); err != nil {
			return nil, nil, nil, err
		}
	}
	bit, err := nn.Node(a.b, kDetach, []*ir.Value{y}, ir.Tensor(x.shape, quant.Uniform(1, false, 0)), nil)
	if err != nil {
		return nil, nil, nil, err
	}
	bias, bitScale := make([]*big.Rat, n), make([]*big.Rat, n)
	for i := range bias {
		bias[i] = new(big.Rat).Mul(ratInt((int64(1)<<(K-1))-1), pow2(-int(K)))
		bitScale[i] = pow2(-int(K))
	}
	yb := y
	if K > 1 {
		if yb, err = a.binaryConst(kAdd, y, x.shape, bias, f64); err != nil {
			return nil, nil, nil, err
		}
	}
	bs, err := a.binaryConst(kMul, bit, x.shape, bitScale, f64)
	if err != nil {
		return nil, nil, nil, err
	}
	fhi.Add(fhi, big.NewInt(1))
	u, err := nn.Node(a.b, kAdd, []*ir.Value{yb, bs}, ir.Tensor(x.shape, intType(flo, fhi)), nil)
	return u, flo, fhi, err
}

// clamp bounds each element to [los, his] where the integer form's range
// [flo, fhi] can leave it.
func (a *absorber) clamp(u *ir.Value, shape []int64, los, his []*big.Int, flo, fhi *big.Int) (*ir.Value, error) {
	n := len(los)
	lr, hr := make([]*big.Rat, n), make([]*big.Rat, n)
	needLo, needHi := false, false
	mlo, mhi := los[0], his[0]
	for i := range los {
		lr[i], hr[i] = new(big.Rat).SetInt(los[i]), new(big.Rat).SetInt(his[i])
		needLo = needLo || flo.Cmp(los[i]) < 0
		needHi = needHi || fhi.Cmp(his[i]) > 0
		if los[i].Cmp(mlo) < 0 {
			mlo = los[i]
		}
		if his[i].Cmp(mhi) > 0 {
			mhi = his[i]
		}
	}
	var err error
	curLo := flo
	if needLo {
		curLo = mlo
		if u, err = a.binaryConst(kMax, u, shape, lr, intType(mlo, intrange.Max(fhi, mlo))); err != nil {
			return nil, err
		}
	}
	if needHi {
		u, err = a.binaryConst(kMin, u, shape, hr, intType(curLo, mhi))
	}
	return u, err
}

// dyadicForms is, for quantizers whose every element rounds a dyadic
// affine function of the code (at most one relu, which the clamp covers),
// y = M·x + C with the rounded value y/2^K: a non-bipolar nn.quant of
// x/scale + zp, or an nn.trunc whose x/scale + zp is already an integer
// map (its first rounding then keeps it), divided by a power of two.
func dyadicForms(x *val, qs []*quantizer) ([]linear, []string, bool) {
	lins, modes := make([]linear, len(qs)), make([]string, len(qs))
	for i, q := range qs {
		modes[i] = q.spec.Rounding
		if q.kind != kQuant && q.kind != kTrunc || q.kind == kQuant && q.spec.Bipolar() || x.fn[i].reluCount() > 1 || x.fn[i].nonlinear() {
			return nil, nil, false
		}
		a, b := x.fn[i].withoutRelu()
		al := new(big.Rat).Quo(a, q.scale)
		be := new(big.Rat).Add(new(big.Rat).Quo(b, q.scale), q.zp)
		if !dyadic(al) || !dyadic(be) {
			return nil, nil, false
		}
		switch {
		case q.kind != kTrunc:
		case q.truncShift.Cmp(big.NewRat(1, 1)) == 0 && !(al.IsInt() && be.IsInt()):
			modes[i] = "ROUND" // the first rounding decides; the second keeps integers
		case al.IsInt() && be.IsInt() && q.truncShift.IsInt() && dyadic(q.truncShift):
			al.Quo(al, q.truncShift)
			be.Quo(be, q.truncShift)
		default:
			return nil, nil, false
		}
		k := uint(max(al.Denom().BitLen(), be.Denom().BitLen()) - 1)
		p := new(big.Int).Lsh(big.NewInt(1), k)
		M := new(big.Int).Mul(al.Num(), new(big.Int).Quo(p, al.Denom()))
		C := new(big.Int).Mul(be.Num(), new(big.Int).Quo(p, be.Denom()))
		lins[i] = linear{M: M, C: C, K: k}
	}
	return lins, modes, true
}

// closedForms are the floor forms that dyadic quantizers have by
// definition: an integer map (K = 0) under any mode, FLOOR, and CEIL
// (floor((y + 2^K - 1)/2^K)).
func closedForms(x *val, qs []*quantizer) ([]linear, bool) {
	lins, modes, ok := dyadicForms(x, qs)
	if !ok {
		return nil, false
	}
	for i, l := range lins {
		switch {
		case l.K == 0, modes[i] == "FLOOR":
		case modes[i] == "CEIL":
			lins[i].C = new(big.Int).Add(l.C, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), l.K), big.NewInt(1)))
		default:
			return nil, false
		}
	}
	return lins, true
}

// halfEvenForms are the forms of dyadic ROUND quantizers (K >= 1), for
// the half-even floorForm.
func halfEvenForms(x *val, qs []*quantizer) ([]linear, error) {
	lins, modes, ok := dyadicForms(x, qs)
	if !ok {
		return nil, fmt.Errorf("not every element is a dyadic nn.quant")
	}
	for i, l := range lins {
		if modes[i] != "ROUND" {
			return nil, fmt.Errorf("element %d rounds by %s", i, modes[i])
		}
		if l.K == 0 {
			lins[i] = l.scaled(1)
		}
	}
	return lins, nil
}
