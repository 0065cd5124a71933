package tiles

import (
	"math/big"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/internal/intrange"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// Scalar arithmetic: each function computes one element of an OTIR
// element-wise operation exactly as the reference executor defines it (the
// exact result of the operand values, converted to the result type rt), as
// constants when the operands are, else as dais ops.

// divRem lowers div_s and div_u, or (rem) rem_s and rem_u: the operands
// read as signed or unsigned numbers of their types.
func (l *lowerer) divRem(a, b num, ta, tb, rt intT, signed, rem bool) (num, error) {
	y, err := l.reading(b, tb, signed)
	if err != nil {
		return num{}, err
	}
	// rem_u by 2^k (k within the width) depends only on the low k
	// bits, which the reading does not change. (rem_s depends on the
	// dividend's sign too.)
	if k, ok := pow2Const(y); rem && !signed && ok && k <= ta.width && a.c == nil {
		if err := l.needExact(a); err != nil {
			return num{}, err
		}
		s, err := l.data(a)
		if err != nil {
			return num{}, err
		}
		return l.floorRemPow2(s, k, 1, rt)
	}
	x, err := l.reading(a, ta, signed)
	if err != nil {
		return num{}, err
	}
	return l.divide(x, y, rem, rt)
}

// shift lowers shl (left), shr_s (signed) and shr_u by a constant amount.
func (l *lowerer) shift(a, b num, ta, rt intT, left, signed bool) (num, error) {
	if b.c == nil {
		return num{}, l.cannot("shift by a non-constant amount")
	}
	if b.c.Sign() < 0 {
		return num{}, l.errf("negative shift amount %v", b.c)
	}
	k := 4096
	if b.c.IsInt64() && b.c.Int64() < 4096 {
		k = int(b.c.Int64())
	}
	if left {
		return l.shiftLeft(a, k, rt)
	}
	x, err := l.reading(a, ta, signed)
	if err != nil {
		return num{}, err
	}
	return l.floorShift(x, k, rt)
}

// pow2Const returns k when n is the constant +-2^k.
func pow2Const(n num) (int, bool) {
	if n.c == nil {
		return 0, false
	}
	return log2Exact(n.c)
}

// reading returns a's bits read as a signed or unsigned number of its
// type's width (the executor's _s/_u operations).
func (l *lowerer) reading(a num, ta intT, signed bool) (num, error) {
	if signed {
		return l.convert(a, ta.signedReading())
	}
	return l.convert(a, ta.unsignedReading())
}

func (l *lowerer) add(a, b num, rt intT) (num, error) {
	return l.commutative(a, b, rt, add, (*lowerer).addConst, addSlots)
}

func addSlots(l *lowerer, sa, sb *slot, rt intT) (num, error) {
	return l.value(dais.OpAdd, []*slot{sa, sb}, shiftAttr(0), l.addB(sa.lo, sb.lo), l.addB(sa.hi, sb.hi), rt)
}

// commutative lowers a commutative op of a and b: two constants fold (by
// fold, wrapped to rt), a constant goes to byConst with the other operand's
// slot, and two values to of.
func (l *lowerer) commutative(a, b num, rt intT, fold func(x, y *big.Int) *big.Int,
	byConst func(l *lowerer, s *slot, c *big.Int, rt intT) (num, error),
	of func(l *lowerer, sa, sb *slot, rt intT) (num, error)) (num, error) {
	if a.c != nil && b.c != nil {
		return constNum(rt.wrap(fold(a.c, b.c))), nil
	}
	if a.c != nil {
		a, b = b, a
	}
	if b.c != nil {
		sa, err := l.data(a)
		if err != nil {
			return num{}, err
		}
		return byConst(l, sa, b.c, rt)
	}
	sa, sb, err := l.dataPair(a, b)
	if err != nil {
		return num{}, err
	}
	return of(l, sa, sb, rt)
}

// dataPair returns the data slots of a and b, a first.
func (l *lowerer) dataPair(a, b num) (sa, sb *slot, err error) {
	if sa, err = l.data(a); err != nil {
		return nil, nil, err
	}
	sb, err = l.data(b)
	return sa, sb, err
}

// addConst returns s + c: dais.const_add when c fits its 32-bit field.
func (l *lowerer) addConst(s *slot, c *big.Int, rt intT) (num, error) {
	if c.Sign() == 0 {
		return l.convert(slotNum(s), rt)
	}
	lo, hi := l.addB(s.lo, c), l.addB(s.hi, c)
	if c.IsInt64() && c.Int64() == int64(int32(c.Int64())) {
		at := ir.Attrs{{Name: "exp", Value: ir.I64(0)}, {Name: "value", Value: ir.I64(c.Int64())}}
		return l.value(dais.OpConstAdd, []*slot{s}, at, lo, hi, rt)
	}
	cs, err := l.constSlot(c)
	if err != nil {
		return num{}, err
	}
	return l.value(dais.OpAdd, []*slot{s, cs}, shiftAttr(0), lo, hi, rt)
}

func (l *lowerer) sub(a, b num, rt intT) (num, error) {
	switch {
	case a.c != nil && b.c != nil:
		return constNum(rt.wrap(sub(a.c, b.c))), nil
	case b.c != nil:
		sa, err := l.data(a)
		if err != nil {
			return num{}, err
		}
		return l.addConst(sa, neg(b.c), rt)
	}
	sa, sb, err := l.dataPair(a, b)
	if err != nil {
		return num{}, err
	}
	return l.value(dais.OpSub, []*slot{sa, sb}, shiftAttr(0), l.subB(sa.lo, sb.hi), l.subB(sa.hi, sb.lo), rt)
}

func (l *lowerer) mul(a, b num, rt intT) (num, error) {
	return l.commutative(a, b, rt, mul, (*lowerer).constMul, mulSlots)
}

func mulSlots(l *lowerer, sa, sb *slot, rt intT) (num, error) {
	lo, hi := l.productBounds(sa.lo, sa.hi, sb.lo, sb.hi)
	return l.value(dais.OpMul, []*slot{sa, sb}, nil, lo, hi, rt)
}

// shifted returns ±s*2^k (k may be negative: the result floors), as a value of
// rt: one dais.add or dais.sub from the constant zero.
func (l *lowerer) shifted(s *slot, k int, negate bool, rt intT) (num, error) {
	if k == 0 && !negate {
		return l.convert(slotNum(s), rt)
	}
	zero, err := l.constSlot(bigZero)
	if err != nil {
		return num{}, err
	}
	lo, hi := s.lo, s.hi
	name := dais.OpAdd
	if negate {
		lo, hi, name = neg(hi), neg(lo), dais.OpSub
	}
	if k >= 0 {
		lo, hi = shl(lo, k), shl(hi, k)
	} else {
		lo, hi = sar(lo, -k), sar(hi, -k)
	}
	if k == 0 {
		return l.value(dais.OpNeg, []*slot{s}, nil, lo, hi, rt)
	}
	return l.value(name, []*slot{zero, s}, shiftAttr(k), lo, hi, rt)
}

func (l *lowerer) shiftLeft(a num, k int, rt intT) (num, error) {
	if k >= rt.width {
		return intNum(0), nil // a*2^k is a multiple of 2^width
	}
	if a.c != nil {
		return constNum(rt.wrap(shl(a.c, k))), nil
	}
	s, err := l.data(a)
	if err != nil {
		return num{}, err
	}
	return l.shifted(s, k, false, rt)
}

// floorShift returns floor(x / 2^k).
func (l *lowerer) floorShift(x num, k int, rt intT) (num, error) {
	if err := l.needExact(x); err != nil {
		return num{}, err
	}
	k = min(k, 66) // values have at most 65 bits: any larger shift is the same
	if x.c != nil {
		return constNum(rt.wrap(sar(x.c, k))), nil
	}
	s, err := l.data(x)
	if err != nil {
		return num{}, err
	}
	// For s in [-2^n, 2^n), floor(s / 2^k) = floor(s / 2^n) for k >= n:
	// shift by at most n (alkaid's interpreter shifts by less than 64).
	n := s.hi.BitLen()
	if s.lo.Sign() < 0 {
		n = max(n, sub(neg(s.lo), bigOne).BitLen())
	}
	return l.shifted(s, -min(k, n), false, rt)
}

// divide returns x / y rounded toward zero, or the remainder x - y*(x/y)
// (zero or x's sign), for a constant y: the executor's div_s/rem_s (design
// section 4, as C and LLVM sdiv/srem), and div_u/rem_u on the unsigned
// readings, where rounding toward zero is floor. Powers of two become
// shifts and wrapping quantizations, other constants a multiplication by a
// magic number (divideByConst). Every value fits int64, as alkaid's
// interpreter computes: a dividend that does not is a diagnostic.
func (l *lowerer) divide(x, y num, rem bool, rt intT) (num, error) {
	if err := l.needExact(x, y); err != nil {
		return num{}, err
	}
	if y.c == nil {
		return num{}, l.cannot("division by a non-constant")
	}
	if y.c.Sign() == 0 {
		return num{}, l.errf("division by zero")
	}
	d := y.c
	if x.c != nil {
		if rem {
			return constNum(rt.wrap(truncRem(x.c, d))), nil
		}
		return constNum(rt.wrap(truncDiv(x.c, d))), nil
	}
	s, err := l.data(x)
	if err != nil {
		return num{}, err
	}
	if !fitsInt64(s.lo, s.hi) {
		return num{}, l.cannot("division by %v of values in [%v, %v], which do not fit int64, in which alkaid's ALIR interpreter computes", d, s.lo, s.hi)
	}
	// A single possible quotient (x/d is monotone in x): a constant, and x
	// minus a constant.
	if q0 := truncDiv(s.lo, d); q0.Cmp(truncDiv(s.hi, d)) == 0 {
		if rem {
			return l.addConst(s, neg(mul(d, q0)), rt)
		}
		return constNum(rt.wrap(q0)), nil
	}
	k, ok := log2Exact(d)
	if !ok {
		return l.divideByConst(s, d, rem, rt)
	}
	if k == 0 { // x / ±1 = ±x, exactly (-INT_MIN wraps only in rt)
		if rem {
			return intNum(0), nil
		}
		return l.shifted(s, 0, d.Sign() < 0, rt)
	}
	v, e, tau, err := l.towardZero(s, pow2(k), d.Sign())
	if err != nil {
		return num{}, err
	}
	// floor(v/e) = floor(±v / 2^k): one flooring dais.add or dais.sub.
	if !rem {
		if tau > 0 {
			return l.shifted(v, -k, e.Sign() < 0, rt)
		}
		q, err := l.shifted(v, -k, e.Sign() < 0, wideInt)
		if err != nil {
			return num{}, err
		}
		return l.negate(q, rt)
	}
	if v == s {
		// x of one sign: its remainder is floor's by e = ±2^k.
		return l.floorRemPow2(s, k, e.Sign(), rt)
	}
	// Otherwise e = 2^k: x - 2^k·floor(v/2^k), in one dais.sub on its exact
	// range, wrapped to the remainders' width W (see remainder); where that
	// leaves int64, x and the quotient are first reduced modulo 2^W and
	// 2^(W-k).
	q, err := l.shifted(v, -k, false, wideInt)
	if err != nil {
		return num{}, err
	}
	qs, err := l.data(q)
	if err != nil {
		return num{}, err
	}
	rlo, rhi := truncRemBounds(s, pow2(k))
	mt := remType(rlo, rhi, rt)
	bounds := func(xs, qs *slot) (lo, hi *big.Int, ok bool) {
		lo, hi = sub(xs.lo, shl(qs.hi, k)), sub(xs.hi, shl(qs.lo, k))
		return lo, hi, fitsInt64(lo, hi) && fitsInt64(shl(neg(qs.hi), k), shl(neg(qs.lo), k))
	}
	xs := s
	lo, hi, ok := bounds(xs, qs)
	if !ok {
		if mt.width > 63 {
			return num{}, l.cannot("the remainder by %v of values in [%v, %v] needs a value outside int64, in which alkaid's ALIR interpreter computes", d, s.lo, s.hi)
		}
		if xs, err = l.reduce(s, mt); err != nil {
			return num{}, err
		}
		if mt.width <= k { // 2^k·q is a multiple of 2^W
			return l.convert(slotNum(xs), rt)
		}
		if qs, err = l.reduce(qs, makeIntT(mt.width-k, true)); err != nil {
			return num{}, err
		}
		lo, hi, _ = bounds(xs, qs)
	}
	r, err := l.value(dais.OpSub, []*slot{xs, qs}, shiftAttr(k), lo, hi, mt)
	if err != nil {
		return num{}, err
	}
	return l.convert(r, rt)
}

// wideInt is the type of intermediate results: it holds every value of at
// most 64 bits, so they are exact.
var wideInt = makeIntT(65, true)

// towardZero reduces the rounding toward zero of x/d (d = sigma·dd, dd > 1)
// to floor division: x/d = tau·floor(v/e), where
//   - x >= 0: v = x, e = dd, tau = sigma (the quotient rounds down);
//   - x <= 0: v = x, e = -dd, tau = -sigma (x/dd = -floor(-x/dd)); but if
//     -x does not fit int64 (x = -2^63 is possible), v = x + dd - 1, e = dd,
//     tau = sigma (x/dd = ceil(x/dd) = floor((x + dd - 1)/dd)), one
//     dais.const_add;
//   - x of both signs: v = x < 0 ? x + dd - 1 : x, e = dd, tau = sigma
//     (for x < 0, x/dd = ceil(x/dd) = floor((x + dd - 1)/dd)): a
//     dais.const_add and a dais.mux on x's sign, which the portability
//     check bounds to [lo + dd - 1, max(hi, dd - 2)]. When x + dd - 1 would
//     leave int64, or dd - 1 does not fit const_add's 32 bits (then the
//     check cannot see through the sum), x < 0 is first clamped to
//     min(x, -1) by one more dais.mux.
//
// Every value fits int64 when x does.
func (l *lowerer) towardZero(x *slot, dd *big.Int, sigma int) (v *slot, e *big.Int, tau int, err error) {
	up := sub(dd, bigOne)
	switch {
	case x.lo.Sign() >= 0:
		return x, dd, sigma, nil
	case x.hi.Sign() <= 0 && fitsInt64(neg(x.hi), neg(x.lo)):
		return x, neg(dd), -sigma, nil
	case x.hi.Sign() <= 0:
		b, err := l.addConst(x, up, wideInt)
		if err != nil {
			return nil, nil, 0, err
		}
		if v, err = l.data(b); err != nil {
			return nil, nil, 0, err
		}
		return v, dd, sigma, nil
	}
	src := x
	if !fitsInt64(add(x.lo, up), add(x.hi, up)) || !up.IsInt64() || up.Int64() != int64(int32(up.Int64())) {
		m1, err := l.constSlot(bigNegOne)
		if err != nil {
			return nil, nil, 0, err
		}
		// x is signed (x.lo < 0), so its msb is its sign.
		n, err := l.value(dais.OpMux, []*slot{x, x, m1}, shiftAttr(0), x.lo, bigNegOne, wideInt)
		if err != nil {
			return nil, nil, 0, err
		}
		if src, err = l.data(n); err != nil {
			return nil, nil, 0, err
		}
	}
	b, err := l.addConst(src, up, wideInt)
	if err != nil {
		return nil, nil, 0, err
	}
	bs, err := l.data(b)
	if err != nil {
		return nil, nil, 0, err
	}
	m, err := l.value(dais.OpMux, []*slot{x, bs, x}, shiftAttr(0), add(x.lo, up), intrange.Max(sub(up, bigOne), x.hi), wideInt)
	if err != nil {
		return nil, nil, 0, err
	}
	if v, err = l.data(m); err != nil {
		return nil, nil, 0, err
	}
	return v, dd, sigma, nil
}

// truncRemBounds bounds x - dd·(x/dd) (x/dd rounded toward zero, dd > 0):
// zero or x's sign, and smaller than dd and x in magnitude.
func truncRemBounds(x *slot, dd *big.Int) (lo, hi *big.Int) {
	lo, hi = bigZero, bigZero
	if x.lo.Sign() < 0 {
		lo = intrange.Max(x.lo, sub(bigOne, dd))
	}
	if x.hi.Sign() > 0 {
		hi = intrange.Min(x.hi, sub(dd, bigOne))
	}
	return lo, hi
}

// floorRemPow2 returns x - e·floor(x/e) for e = sign·2^k: x modulo 2^k,
// in [0, 2^k) for e > 0 and in (-2^k, 0] for e < 0 (then x - 1 must fit
// int64).
func (l *lowerer) floorRemPow2(s *slot, k, sign int, rt intT) (num, error) {
	if k == 0 {
		return intNum(0), nil
	}
	top := sub(pow2(k), bigOne)
	if sign > 0 {
		// x mod 2^k: wrap to k unsigned bits.
		if s.lo.Sign() >= 0 && s.hi.Cmp(top) <= 0 {
			return l.convert(slotNum(s), rt)
		}
		u, err := l.emit(dais.OpQuantize, []*slot{s}, nil, bigZero, top)
		if err != nil {
			return num{}, err
		}
		return l.convert(slotNum(u), rt)
	}
	if s.hi.Sign() <= 0 && s.lo.Cmp(neg(top)) >= 0 {
		return l.convert(slotNum(s), rt)
	}
	// The remainder by -2^k lies in (-2^k, 0] and is x modulo 2^k:
	// ((x - 1) mod 2^k) - (2^k - 1): x - 1 exact, wrapped to k unsigned bits.
	u, err := l.addConst(s, bigNegOne, makeIntT(k, false))
	if err != nil {
		return num{}, err
	}
	us, err := l.data(u)
	if err != nil {
		return num{}, err
	}
	return l.addConst(us, neg(top), rt)
}

// bitwise lowers and, or and xor (kind): values as infinite two's
// complement, as ALIR's bit operations compute them.
func (l *lowerer) bitwise(kind string, a, b num, rt intT) (num, error) {
	op := map[string]func(z, x, y *big.Int) *big.Int{
		"and": (*big.Int).And, "or": (*big.Int).Or, "xor": (*big.Int).Xor,
	}[kind]
	if a.c != nil && b.c != nil {
		return constNum(rt.wrap(op(new(big.Int), a.c, b.c))), nil
	}
	if a.c != nil {
		a, b = b, a
	}
	if b.c != nil {
		switch {
		case b.c.Sign() == 0 && kind == "and":
			return intNum(0), nil
		case b.c.Sign() == 0, b.c.Cmp(bigNegOne) == 0 && kind == "and":
			return l.convert(a, rt)
		case b.c.Cmp(bigNegOne) == 0 && kind == "or":
			return constNum(rt.wrap(bigNegOne)), nil
		}
	}
	sa, sb, err := l.dataPair(a, b)
	if err != nil {
		return num{}, err
	}
	lo, hi := bitwiseBounds(kind, sa, sb)
	at := ir.Attrs{{Name: "kind", Value: &ir.StringAttr{Value: kind}}, {Name: "shift", Value: ir.I64(0)}}
	return l.value(dais.OpBitBinary, []*slot{sa, sb}, at, lo, hi, rt)
}

// bitwiseBounds bounds a bitwise operation of two intervals, as the
// portability check proves it (alir.BitwiseBounds).
func bitwiseBounds(kind string, a, b *slot) (lo, hi *big.Int) {
	sub := map[string]uint8{"and": alir.BitAnd, "or": alir.BitOr, "xor": alir.BitXor}[kind]
	return alir.BitwiseBounds(sub, a.lo, a.hi, b.lo, b.hi)
}

func (l *lowerer) maxMin(isMax bool, a, b num, rt intT) (num, error) {
	if err := l.needExact(a, b); err != nil {
		return num{}, err
	}
	alo, ahi := a.bounds()
	blo, bhi := b.bounds()
	pickA := func() (num, error) { return l.convert(a, rt) }
	pickB := func() (num, error) { return l.convert(b, rt) }
	switch {
	case ahi.Cmp(blo) <= 0: // a <= b
		if isMax {
			return pickB()
		}
		return pickA()
	case bhi.Cmp(alo) <= 0: // b <= a
		if isMax {
			return pickA()
		}
		return pickB()
	}
	if a.c != nil {
		a, b = b, a
	}
	if isMax && b.c != nil && b.c.Sign() == 0 {
		s, err := l.data(a)
		if err != nil {
			return num{}, err
		}
		return l.value(dais.OpReLU, []*slot{s}, nil, intrange.Max(s.lo, bigZero), intrange.Max(s.hi, bigZero), rt)
	}
	lt, err := l.lessThan(a, b)
	if err != nil {
		return num{}, err
	}
	ca, err := l.convert(a, rt)
	if err != nil {
		return num{}, err
	}
	cb, err := l.convert(b, rt)
	if err != nil {
		return num{}, err
	}
	clo, chi := ca.bounds()
	dlo, dhi := cb.bounds()
	if isMax {
		return l.muxWithin(lt, cb, ca, intrange.Max(clo, dlo), intrange.Max(chi, dhi), rt)
	}
	return l.muxWithin(lt, ca, cb, intrange.Min(clo, dlo), intrange.Min(chi, dhi), rt)
}

// negate lowers neg.
func (l *lowerer) negate(a num, rt intT) (num, error) {
	if a.c != nil {
		return constNum(rt.wrap(neg(a.c))), nil
	}
	s, err := l.data(a)
	if err != nil {
		return num{}, err
	}
	return l.value(dais.OpNeg, []*slot{s}, nil, neg(s.hi), neg(s.lo), rt)
}

// absolute lowers abs.
func (l *lowerer) absolute(a num, rt intT) (num, error) {
	if a.c != nil {
		if err := l.needExact(a); err != nil {
			return num{}, err
		}
		return constNum(rt.wrap(new(big.Int).Abs(a.c))), nil
	}
	s, err := l.data(a)
	if err != nil {
		return num{}, err
	}
	switch {
	case s.lo.Sign() >= 0:
		return l.convert(slotNum(s), rt)
	case s.hi.Sign() <= 0:
		return l.value(dais.OpNeg, []*slot{s}, nil, neg(s.hi), neg(s.lo), rt)
	}
	n, err := l.value(dais.OpNeg, []*slot{s}, nil, neg(s.hi), neg(s.lo), rt)
	if err != nil {
		return num{}, err
	}
	ns, err := l.data(n)
	if err != nil {
		return num{}, err
	}
	lo, hi := rt.lo, rt.hi
	if rt.contains(neg(s.hi), neg(s.lo)) { // -s was exact: |s| >= 0
		lo, hi = bigZero, intrange.Max(s.hi, neg(s.lo))
	}
	// s is signed (s.lo < 0), so its msb is its sign.
	return l.value(dais.OpMux, []*slot{s, ns, s}, shiftAttr(0), lo, hi, rt)
}

// complement lowers not.
func (l *lowerer) complement(a num, rt intT) (num, error) {
	if a.c != nil {
		return constNum(rt.wrap(new(big.Int).Not(a.c))), nil
	}
	s, err := l.data(a)
	if err != nil {
		return num{}, err
	}
	if rt.signed {
		// ALIR's not of a signed result is -a-1, exact.
		at := ir.Attrs{{Name: "kind", Value: &ir.StringAttr{Value: "not"}}}
		return l.value(dais.OpBitUnary, []*slot{s}, at, sub(neg(s.hi), bigOne), sub(neg(s.lo), bigOne), rt)
	}
	// Unsigned: not a = (2^w - 1) - a, which stays in range.
	top, err := l.constSlot(rt.hi)
	if err != nil {
		return num{}, err
	}
	return l.value(dais.OpSub, []*slot{top, s}, shiftAttr(0), sub(rt.hi, s.hi), sub(rt.hi, s.lo), rt)
}
