package tiles

import (
	"math/big"

	"github.com/otir-dev/otir/internal/intrange"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// Division and remainder by a constant that is not ±2^k.
//
// div_s rounds toward zero (design section 4, as C and LLVM sdiv); towardZero
// (arith.go) reduces it to floor division: x/d = ±floor(v/e), with v = x and
// e = ±|d| when x has one sign, and v = x < 0 ? x + |d| - 1 : x (a
// dais.const_add and a dais.mux on x's sign) when it has both (see
// towardZero for dividends reaching -2^63).
//
// floor(v / e) for e = σ·2^t·D' (σ = ±1, D' odd and > 1) and v in [lo, hi]
// is computed as follows.
//
//   - Bias: y = σv - L with L = D·floor(min(σv) / D) (D = |e|), a multiple of
//     D below every σv, so y lies in [0, Y] and floor(v/e) = floor(σv/D) =
//     floor(y/D) + K, K = L/D.
//   - Power-of-two part: z = floor(y / 2^t) in [0, Z], and floor(y/D) =
//     floor(z/D').
//   - Magic number: floor(z/D') = floor((z + a)·m / 2^s) for every z in
//     [0, Z], with either a = 0, m = ceil(2^s/D') (round up, e = m·D' - 2^s,
//     valid when e·Z < 2^s) or a = 1, m = floor(2^s/D') (round down, f = 2^s -
//     m·D', valid when f·(Z + 1) <= 2^s); see magicValid for the proofs. The
//     smallest valid s of each kind is a candidate (with m made odd), and the
//     one that costs fewer adders wins.
//
// The ops: w = z + a is one dais.add/sub of a constant and ±v·2^-t whose
// step-1 result floors (or a dais.const_add, or nothing); w·m is shift and
// add over m's signed digits (mulAdd), exact; the quotient floor(v/e) =
// K + floor(w·m / 2^s) is one more flooring dais.add, of the constant K and
// the product.
//
// Alkaid's interpreter computes in int64 and ALIR adders never wrap, so
// every one of these values, and every value an adder forms before it
// shifts its result (the flooring add forms K·2^s + w·m), must fit int64.
// When w·m does not, m is split, m = mh·2^h + ml (0 <= ml < 2^h):
// floor(w·m / 2^s) = floor((w·mh + floor(w·ml / 2^h)) / 2^(s-h)), that is
// pl = w·ml by shift and add, pl' = floor(pl / 2^h) (a flooring add),
// t = pl' + w·mh by shift and add onto pl', and the final flooring add by
// 2^(s-h). Both products are multiples of the one value w, so their ranges
// are exact linear forms and the quotient's range is provable (w·ml and w·mh
// are monotone in w: the extremes of t are floor(w·m / 2^h) at the extremes
// of w); the split costs about three adders more. The h that costs fewest
// adders wins. For v of both signs, the dividend may instead be split on its
// sign (floorQuotient), which halves its range and costs no adder. When no
// plan keeps every value within int64, the division is a diagnostic: so for
// dividends of 63 bits, whose magic products need some 126 whatever the
// divisor (a full-range i32 or u32 dividend lowers by every divisor).
//
// The remainder is x - d·trunc(x/d) = x - e·floor(v/e) (for each way
// towardZero chooses v and e). It is zero or x's sign and smaller than D in
// magnitude, so it is computed modulo 2^W for the width W of that interval:
// e·floor(v/e) by shift and add modulo 2^W (mulAdd), then one dais.sub
// declared on its exact range and a dais.quantize that wraps it to W bits.

// magic is a choice of multiplier: floor(z/D') = floor((z+a)·m / 2^s) on
// [0, Z].
type magic struct {
	a, s int
	m    *big.Int
}

// magicValid reports whether floor((z+a)·m / 2^s) = floor(z/dp) for every z
// in [0, zmax] (dp > 1 odd, a = 0 with m = ceil(2^s/dp) or a = 1 with
// m = floor(2^s/dp)). Write z = q·dp + r with 0 <= r < dp.
//
// Round up (a = 0, e = m·dp - 2^s, 0 <= e < dp): z·m/2^s = z/dp + z·e/(dp·2^s)
// = q + (r + z·e/2^s)/dp. This is at least q, and below q+1 iff
// r + z·e/2^s < dp, which holds for all r <= dp-1 when z·e < 2^s; so
// e·zmax < 2^s suffices.
//
// Round down (a = 1, f = 2^s - m·dp, 0 < f < dp as dp is not a power of two):
// (z+1)·m/2^s = (z+1)/dp - (z+1)·f/(dp·2^s) = q + (r + 1 - (z+1)·f/2^s)/dp.
// This is below q+1 as r+1 <= dp and f > 0, and at least q iff
// (z+1)·f <= (r+1)·2^s, which holds for all r >= 0 when (z+1)·f <= 2^s; so
// f·(zmax+1) <= 2^s suffices.
func magicValid(dp, zmax *big.Int, mg magic) bool {
	p := pow2(mg.s)
	if mg.a == 0 {
		e := sub(mul(mg.m, dp), p)
		return e.Sign() >= 0 && e.Cmp(dp) < 0 && mul(e, zmax).Cmp(p) < 0
	}
	f := sub(p, mul(mg.m, dp))
	return mg.m.Sign() > 0 && f.Sign() > 0 && f.Cmp(dp) < 0 && mul(f, add(zmax, bigOne)).Cmp(p) <= 0
}

// magicCandidates returns, for each kind (a = 0, then a = 1), the valid
// multiplier for dividing [0, zmax] by dp (odd, > 1) with the smallest s.
func magicCandidates(dp, zmax *big.Int) []magic {
	var out []magic
	// s = bitlen(zmax) + bitlen(dp) always works for round up:
	// e < dp <= 2^bitlen(dp) and zmax < 2^bitlen(zmax).
	limit := zmax.BitLen() + dp.BitLen()
	for a := 0; a <= 1; a++ {
		for s := dp.BitLen() - 1; s <= limit; s++ {
			q, r := new(big.Int).QuoRem(pow2(s), dp, new(big.Int))
			if a == 0 && r.Sign() != 0 {
				q.Add(q, bigOne)
			}
			if mg := (magic{a: a, s: s, m: q}); magicValid(dp, zmax, mg) {
				out = append(out, mg)
				break
			}
		}
	}
	return out
}

// chooseMagic returns the multiplier for dividing [0, zmax] by dp (odd,
// > 1) whose product (zmax + a)·m has the fewest bits, then the fewest
// signed digits.
func chooseMagic(dp, zmax *big.Int) magic {
	var best magic
	bestBits, bestDigits := -1, 0
	for _, mg := range magicCandidates(dp, zmax) {
		bits := mul(add(zmax, big.NewInt(int64(mg.a))), mg.m).BitLen()
		digits := len(csd(mg.m)) + mg.a
		if bestBits < 0 || bits < bestBits || bits == bestBits && digits < bestDigits {
			best, bestBits, bestDigits = mg, bits, digits
		}
	}
	return best
}

// oddMagic removes the factors 2 of m: floor(w·m / 2^s) = floor(w·m' /
// 2^(s-k)) for m = m'·2^k.
func oddMagic(mg magic) magic {
	k := int(mg.m.TrailingZeroBits())
	return magic{a: mg.a, s: mg.s - k, m: new(big.Int).Rsh(mg.m, uint(k))}
}

// divideByConst returns x / d rounded toward zero, or x - d·(x/d), for a
// data x and a constant d that is not ±2^k and has more than one possible
// quotient on x, as a value of rt: towardZero reduces it to floor(v/e).
func (l *lowerer) divideByConst(x *slot, d *big.Int, rem bool, rt intT) (num, error) {
	dd := new(big.Int).Abs(d)
	v, e, tau, err := l.towardZero(x, dd, d.Sign())
	if err != nil {
		return num{}, err
	}
	q, bits, err := l.floorQuotient(v, e)
	if err != nil {
		return num{}, err
	}
	switch {
	case bits > 64:
		return num{}, l.cannot("division by %v of values in [%v, %v] needs a %d-bit product, more than ALIR's 64", d, x.lo, x.hi, bits)
	case bits > 0:
		return num{}, l.cannot("division by %v of values in [%v, %v] needs a value outside int64, in which alkaid's ALIR interpreter computes", d, x.lo, x.hi)
	case rem:
		return l.remainder(x, q, d, e, rt)
	case tau > 0:
		return l.convert(q, rt)
	}
	return l.negate(q, rt)
}

// remainder returns x - e·q as a value of rt, where q = floor(v/e) and this
// is x's remainder by d (|d| = |e|) rounded toward zero (zero or x's sign, smaller
// than |e| in magnitude): it is computed modulo 2^W for the width W of the
// remainders' interval (or rt's width when narrower), e·q by shift and add
// modulo 2^W, then one dais.sub on its exact range and a wrap to W bits.
// Where that sub would leave int64, x is first reduced modulo 2^W.
func (l *lowerer) remainder(x *slot, q num, d, e *big.Int, rt intT) (num, error) {
	rlo, rhi := truncRemBounds(x, new(big.Int).Abs(e))
	mt := remType(rlo, rhi, rt)
	qs, err := l.data(q)
	if err != nil {
		return num{}, err
	}
	eq, err := l.constMul(qs, e, mt)
	if err != nil {
		return num{}, err
	}
	eqs, err := l.data(eq)
	if err != nil {
		return num{}, err
	}
	xs, lo, hi := x, sub(x.lo, eqs.hi), sub(x.hi, eqs.lo)
	if !fitsInt64(lo, hi) {
		if mt.width > 63 {
			return num{}, l.cannot("the remainder by %v of values in [%v, %v] needs a value outside int64, in which alkaid's ALIR interpreter computes", d, x.lo, x.hi)
		}
		if xs, err = l.reduce(x, mt); err != nil {
			return num{}, err
		}
		lo, hi = sub(xs.lo, eqs.hi), sub(xs.hi, eqs.lo)
	}
	r, err := l.value(dais.OpSub, []*slot{xs, eqs}, shiftAttr(0), lo, hi, mt)
	if err != nil {
		return num{}, err
	}
	return l.convert(r, rt)
}

// remType is the type in which a remainder in [rlo, rhi] that is wanted as
// a value of rt is computed modulo 2^W: the interval's own type, or rt when
// that is narrower (only rt's width matters then).
func remType(rlo, rhi *big.Int, rt intT) intT {
	mt := makeIntT(max(dais.IntBits(rlo, rhi).Width(), 1), rlo.Sign() < 0)
	if rt.width <= mt.width {
		return rt
	}
	return mt
}

// reduce returns s modulo 2^W as a value of t (W = t's width), as a slot.
func (l *lowerer) reduce(s *slot, t intT) (*slot, error) {
	r, err := l.convert(slotNum(s), t)
	if err != nil {
		return nil, err
	}
	return l.data(r)
}

// floorQuotient returns floor(v/e) (|e| > 1 not a power of two); or, when
// no plan keeps every value within int64, bits > 0: the width of the
// narrowest product a plan needs.
func (l *lowerer) floorQuotient(v *slot, e *big.Int) (q num, bits int, err error) {
	pl := planDivision(v.lo, v.hi, e)
	// For v of both signs (then e > 0): floor(v/D) = v < 0 ? -floor(u/D) - 1
	// : floor(u/D) with u = v < 0 ? -v-1 : v (v xor its sign), which halves
	// the dividends' range; u is declared on its type's whole range, which
	// the portability check can prove.
	var spl division
	split := e.Sign() > 0 && v.lo.Sign() < 0 && v.hi.Sign() >= 0
	var utop *big.Int
	if split {
		uhi := intrange.Max(v.hi, sub(neg(v.lo), bigOne))
		utop = sub(pow2(uhi.BitLen()), bigOne)
		spl = planDivision(bigZero, utop, e)
		split = spl.ok && (!pl.ok || spl.adders < pl.adders)
	}
	if !split {
		if !pl.ok {
			bits = pl.bits
			if spl.dd != nil {
				bits = min(bits, spl.bits)
			}
			return num{}, bits, nil
		}
		q, err = l.biasedQuotient(v, pl)
		return q, 0, err
	}
	// v is signed (v.lo < 0), so its msb is its sign.
	nv, err := l.notSigned(v)
	if err != nil {
		return num{}, 0, err
	}
	u, err := l.value(dais.OpMux, []*slot{v, nv, v}, shiftAttr(0), bigZero, utop, wideInt)
	if err != nil {
		return num{}, 0, err
	}
	us, err := l.data(u)
	if err != nil {
		return num{}, 0, err
	}
	qq, err := l.biasedQuotient(us, spl)
	if err != nil {
		return num{}, 0, err
	}
	qs, err := l.data(qq)
	if err != nil {
		return num{}, 0, err
	}
	nq, err := l.notSigned(qs)
	if err != nil {
		return num{}, 0, err
	}
	q, err = l.value(dais.OpMux, []*slot{v, nq, qs}, shiftAttr(0), nq.lo, qs.hi, wideInt)
	return q, 0, err
}

// notSigned returns -s-1 (dais.bit_unary not of a signed result).
func (l *lowerer) notSigned(s *slot) (*slot, error) {
	at := ir.Attrs{{Name: "kind", Value: &ir.StringAttr{Value: "not"}}}
	lo, hi := sub(neg(s.hi), bigOne), sub(neg(s.lo), bigOne)
	if lo.Sign() >= 0 {
		// The result type must be signed for ALIR's not to be -s-1.
		lo = bigNegOne
	}
	return l.emit(dais.OpBitUnary, []*slot{s}, at, lo, hi)
}

// division is the plan for floor(v/e), v in [lo, hi] (see the top of the
// file): the bias L and K = L/D, the power-of-two part t, the odd part D',
// the magic multiplier (m odd) and where its product is split.
type division struct {
	sigma     int
	t         int
	dd, dp    *big.Int
	bias, k   *big.Int // L, L/D
	zlo, zmax *big.Int
	vlo, vhi  *big.Int
	// bits is the width of the product (zmax + a)·m for chooseMagic's
	// multiplier (for diagnostics).
	bits int
	// ok: every value fits int64; then mg, h (0: one product, else
	// m = mh·2^h + ml) and the estimated number of adders.
	ok     bool
	mg     magic
	h      int
	adders int
}

func planDivision(lo, hi, e *big.Int) division {
	pl := division{sigma: e.Sign(), dd: new(big.Int).Abs(e), vlo: lo, vhi: hi}
	pl.t = int(pl.dd.TrailingZeroBits())
	pl.dp = new(big.Int).Rsh(pl.dd, uint(pl.t))
	ylo, yhi := lo, hi
	if pl.sigma < 0 {
		ylo, yhi = neg(hi), neg(lo)
	}
	pl.k = floorDiv(ylo, pl.dd)
	pl.bias = mul(pl.dd, pl.k)
	pl.zlo, pl.zmax = sar(sub(ylo, pl.bias), pl.t), sar(sub(yhi, pl.bias), pl.t)
	mg := chooseMagic(pl.dp, pl.zmax)
	pl.bits = mul(add(pl.zmax, big.NewInt(int64(mg.a))), mg.m).BitLen()
	for _, mg := range magicCandidates(pl.dp, pl.zmax) {
		mg = oddMagic(mg)
		wcost, ok := pl.wCost(mg.a)
		if !ok {
			continue
		}
		ab := big.NewInt(int64(mg.a))
		wlo, whi := add(pl.zlo, ab), add(pl.zmax, ab)
		try := func(h, cost int) {
			if !pl.ok || wcost+cost < pl.adders {
				pl.ok, pl.mg, pl.h, pl.adders = true, mg, h, wcost+cost
			}
		}
		// One product, then K + floor(p / 2^s).
		if ds, ok := mulDigits(bigZero, bigZero, wlo, whi, mg.m); ok {
			plo, phi := mul(wlo, mg.m), mul(whi, mg.m)
			if fc, ok := floorCost(plo, phi, mg.s, pl.k); ok {
				try(0, chainOps(ds, false)+fc)
				// A split costs more: mh's and ml's signed digits are
				// signed digits of m, no fewer than its canonical ones.
				if len(ds) <= len(csd(mg.m)) {
					continue
				}
			}
		}
		// Split products (see the top of the file).
		for h := 1; h <= mg.s && h < mg.m.BitLen(); h++ {
			mh, ml := new(big.Int).Rsh(mg.m, uint(h)), new(big.Int).Mod(mg.m, pow2(h))
			dl, ok := mulDigits(bigZero, bigZero, wlo, whi, ml)
			if !ok {
				continue
			}
			kh := bigZero // K joins pl' when nothing divides t
			if h == mg.s {
				kh = pl.k
			}
			lcost, ok := floorCost(mul(wlo, ml), mul(whi, ml), h, kh)
			if !ok {
				continue
			}
			plo, phi := add(kh, sar(mul(wlo, ml), h)), add(kh, sar(mul(whi, ml), h))
			dh, ok := mulDigits(plo, phi, wlo, whi, mh)
			if !ok {
				continue
			}
			cost := chainOps(dl, false) + lcost + chainOps(dh, true)
			if h < mg.s {
				tlo, thi := add(plo, mul(wlo, mh)), add(phi, mul(whi, mh))
				fc, ok := floorCost(tlo, thi, mg.s-h, pl.k)
				if !ok {
					continue
				}
				cost += fc
			}
			try(h, cost)
		}
	}
	return pl
}

// wCost returns the adders that w = floor((σv - L) / 2^t) + a costs, and
// whether every value it forms fits int64: c + floor(σv / 2^t) with
// c = a - L/2^t, one adder forming c·2^t ± v (alkaid's adder negates the
// second operand of a sub first), or v + c for t = 0 and σ > 0.
func (pl division) wCost(a int) (int, bool) {
	c := sub(big.NewInt(int64(a)), sar(pl.bias, pl.t))
	if !fitsInt64(c, c) {
		return 0, false
	}
	if pl.t == 0 && pl.sigma > 0 {
		if c.Sign() == 0 {
			return 0, true
		}
		return 1, fitsInt64(add(pl.vlo, c), add(pl.vhi, c))
	}
	ct := shl(c, pl.t)
	lo, hi := pl.vlo, pl.vhi
	if pl.sigma < 0 {
		lo, hi = neg(hi), neg(lo)
	}
	return 1, fitsInt64(lo, hi) && fitsInt64(ct, ct) && fitsInt64(add(ct, lo), add(ct, hi))
}

// floorCost returns the adders that k + floor(p / 2^r) costs for p in
// [lo, hi] (r > 0), and whether every value fits int64: one flooring
// dais.add of the constant k and p·2^-r, which forms k·2^r + p; if that
// leaves int64, a flooring add from 0 and a const_add.
func floorCost(lo, hi *big.Int, r int, k *big.Int) (int, bool) {
	if r >= 63 { // p < 2^63: a single quotient, which no plan needs
		return 0, false
	}
	kr := shl(k, r)
	if fitsInt64(kr, kr) && fitsInt64(add(kr, lo), add(kr, hi)) {
		return 1, true
	}
	return 2, true
}

// floorAdd returns k + floor(p / 2^r) (see floorCost).
func (l *lowerer) floorAdd(p *slot, r int, k *big.Int) (*slot, error) {
	kr := shl(k, r)
	if !fitsInt64(kr, kr) || !fitsInt64(add(kr, p.lo), add(kr, p.hi)) {
		q, err := l.floorAdd(p, r, bigZero)
		if err != nil {
			return nil, err
		}
		n, err := l.addConst(q, k, wideInt)
		if err != nil {
			return nil, err
		}
		return l.data(n)
	}
	ks, err := l.constSlot(k)
	if err != nil {
		return nil, err
	}
	n, err := l.value(dais.OpAdd, []*slot{ks, p}, shiftAttr(-r), add(k, sar(p.lo, r)), add(k, sar(p.hi, r)), wideInt)
	if err != nil {
		return nil, err
	}
	return l.data(n)
}

// biasedQuotient returns floor(v/e) = K + floor(w·m / 2^s) by the plan pl
// (see the top of the file).
func (l *lowerer) biasedQuotient(v *slot, pl division) (num, error) {
	mg, t := pl.mg, pl.t
	// w = floor((σv - L) / 2^t) + a = c + floor(σv / 2^t), c = a - L/2^t.
	ab := big.NewInt(int64(mg.a))
	c := sub(ab, sar(pl.bias, t))
	var w num
	var err error
	if t == 0 && pl.sigma > 0 {
		w, err = l.addConst(v, c, wideInt)
	} else {
		var cs *slot
		if cs, err = l.constSlot(c); err != nil {
			return num{}, err
		}
		name := dais.OpAdd
		if pl.sigma < 0 {
			name = dais.OpSub
		}
		w, err = l.value(name, []*slot{cs, v}, shiftAttr(-t), add(pl.zlo, ab), add(pl.zmax, ab), wideInt)
	}
	if err != nil {
		return num{}, err
	}
	ws, err := l.data(w)
	if err != nil {
		return num{}, err
	}
	if pl.h == 0 {
		p, err := l.mulAdd(nil, ws, mg.m, wideInt)
		if err != nil {
			return num{}, err
		}
		ps, err := l.data(p)
		if err != nil {
			return num{}, err
		}
		q, err := l.floorAdd(ps, mg.s, pl.k)
		return slotNum(q), err
	}
	// m = mh·2^h + ml: pl' = floor(w·ml / 2^h), t = pl' + w·mh, and
	// K + floor(t / 2^(s-h)) (K joins pl' when s = h).
	h := pl.h
	mh, ml := new(big.Int).Rsh(mg.m, uint(h)), new(big.Int).Mod(mg.m, pow2(h))
	p, err := l.mulAdd(nil, ws, ml, wideInt)
	if err != nil {
		return num{}, err
	}
	ps, err := l.data(p)
	if err != nil {
		return num{}, err
	}
	kh := bigZero
	if h == mg.s {
		kh = pl.k
	}
	lq, err := l.floorAdd(ps, h, kh)
	if err != nil {
		return num{}, err
	}
	tn, err := l.mulAdd(lq, ws, mh, wideInt)
	if err != nil || h == mg.s {
		return tn, err
	}
	ts, err := l.data(tn)
	if err != nil {
		return num{}, err
	}
	q, err := l.floorAdd(ts, mg.s-h, pl.k)
	return slotNum(q), err
}
