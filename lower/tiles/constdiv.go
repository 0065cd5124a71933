package tiles

import (
	"math/big"

	"otir/ir"
	"otir/lower/dais"
)

// Division and remainder by a constant that is not ±2^k.
//
// div_s rounds toward zero (design section 4, as C and LLVM sdiv); towardZero
// (arith.go) reduces it to floor division: x/d = ±floor(v/e), with v = x and
// e = ±|d| when x has one sign, and v = x < 0 ? x + |d| - 1 : x (a
// dais.const_add and a dais.mux on x's sign) when it has both.
//
// floor(x / d) for d = σ·2^t·D' (σ = ±1, D' odd and > 1) and x in [lo, hi]
// is computed as follows.
//
//   - Bias: y = σx - L with L = D·floor(min(σx) / D) (D = |d|), a multiple of
//     D below every σx, so y lies in [0, Y] and floor(x/d) = floor(σx/D) =
//     floor(y/D) + L/D.
//   - Power-of-two part: z = floor(y / 2^t) in [0, Z], and floor(y/D) =
//     floor(z/D').
//   - Magic number: floor(z/D') = floor((z + a)·m / 2^s) for every z in
//     [0, Z], with either a = 0, m = ceil(2^s/D') (round up, e = m·D' - 2^s,
//     valid when e·Z < 2^s) or a = 1, m = floor(2^s/D') (round down, f = 2^s -
//     m·D', valid when f·(Z + 1) <= 2^s); see magicValid for the proofs. The
//     smallest valid s of each kind is tried and the narrower product wins.
//
// The ops: w = z + a is one dais.add/sub of a constant and ±x·2^-t whose
// step-1 result floors (or a dais.const_add, or nothing); w·m is shift and
// add over m's canonical signed digits (constMul), exact in its unsigned
// width; the quotient floor(w·m / 2^s) is one more flooring dais.add; and
// ±L/D is added while converting to the result type (subtracting q' from it
// when the rounding toward zero negates the floor). The remainder
// x - D·(x/D) is x - e·floor(x/e) = (x - σL) - e·q' for x of one sign (e =
// ±D with x's sign, σ = e's sign) and (x - L) - D·q' for x of both; it lies
// in [1-D, D-1] and has x's sign, so it is computed modulo 2^W for the width
// W of that interval: e·q' by shift and add wrapping to W bits, then one
// dais.sub that wraps to the remainder's interval.

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

// chooseMagic returns the multiplier for dividing [0, zmax] by dp (odd,
// > 1) whose product (zmax + a)·m has the fewest bits, then the fewest
// signed digits.
func chooseMagic(dp, zmax *big.Int) magic {
	var best magic
	bestBits, bestDigits := -1, 0
	// s = bitlen(zmax) + bitlen(dp) always works for round up:
	// e < dp <= 2^bitlen(dp) and zmax < 2^bitlen(zmax).
	limit := zmax.BitLen() + dp.BitLen()
	for a := 0; a <= 1; a++ {
		for s := dp.BitLen() - 1; s <= limit; s++ {
			q, r := new(big.Int).QuoRem(pow2(s), dp, new(big.Int))
			if a == 0 && r.Sign() != 0 {
				q.Add(q, bigOne)
			}
			mg := magic{a: a, s: s, m: q}
			if !magicValid(dp, zmax, mg) {
				continue
			}
			bits := mul(add(zmax, big.NewInt(int64(a))), mg.m).BitLen()
			digits := len(csd(mg.m)) + a
			if bestBits < 0 || bits < bestBits || bits == bestBits && digits < bestDigits {
				best, bestBits, bestDigits = mg, bits, digits
			}
			break
		}
	}
	return best
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
	// floor(v/e) = q' + L/D.
	qp, bias, bits, err := l.floorQuotient(v, e)
	if err != nil {
		return num{}, err
	}
	if bits > 64 {
		return num{}, l.cannot("division by %v of values in [%v, %v] needs a %d-bit product, more than ALIR's 64", d, x.lo, x.hi, bits)
	}
	if !rem {
		c := new(big.Int).Quo(bias, dd)
		switch {
		case tau > 0:
			return l.add(qp, constNum(c), rt)
		case c.Sign() == 0:
			return l.unary(ir.OpNeg, qp, rt)
		}
		return l.sub(constNum(neg(c)), qp, rt)
	}
	// r = x - D·(x/D): for x of one sign (v = x), x - e·floor(x/e) =
	// (x - σL) - e·q' (σ = e's sign); for x of both signs, x - D·floor(v/D)
	// = (x - L) - D·q'. It is zero or x's sign and |r| < D, so it is
	// computed modulo 2^W for the width W of that interval.
	rlo, rhi := truncRemBounds(x, dd)
	rt2 := makeIntT(dais.IntBits(rlo, rhi).Width(), rlo.Sign() < 0)
	b := slotNum(x)
	if bias.Sign() != 0 {
		if b, err = l.addConst(x, neg(mul(big.NewInt(int64(e.Sign())), bias)), rt2); err != nil {
			return num{}, err
		}
	}
	qs, err := l.data(qp)
	if err != nil {
		return num{}, err
	}
	dq, err := l.constMul(qs, e, rt2)
	if err != nil {
		return num{}, err
	}
	bs, err := l.data(b)
	if err != nil {
		return num{}, err
	}
	dqs, err := l.data(dq)
	if err != nil {
		return num{}, err
	}
	r, err := l.value(dais.OpSub, []*slot{bs, dqs}, shiftAttr(0), rlo, rhi, rt2)
	if err != nil {
		return num{}, err
	}
	return l.convert(r, rt)
}

// floorQuotient returns q' and L with floor(x/d) = q' + L/|d| (|d| > 1 not
// a power of two), or the width (more than 64) of the product it would need.
func (l *lowerer) floorQuotient(x *slot, d *big.Int) (qp num, bias *big.Int, bits int, err error) {
	sigma := d.Sign()
	dd := new(big.Int).Abs(d)
	pl := planDivision(x.lo, x.hi, d)
	if pl.bits <= 64 {
		qp, err = l.biasedQuotient(x, pl)
		return qp, pl.bias, pl.bits, err
	}
	// Split on the sign of v = σx: floor(v/D) = v < 0 ? -floor(u/D) - 1
	// : floor(u/D) with u = v < 0 ? -v-1 : v (v xor its sign), which
	// halves the dividends' range.
	vlo, vhi := x.lo, x.hi
	if sigma < 0 {
		vlo, vhi = neg(x.hi), neg(x.lo)
	}
	ulo, uhi := bigZero, maxBig(vhi, sub(neg(vlo), bigOne))
	spl := planDivision(ulo, uhi, dd)
	split := vlo.Sign() < 0 && vhi.Sign() >= 0 && dais.IntBits(vlo, vhi).Width() <= 64
	if !split || spl.bits > 64 {
		bits := pl.bits
		if split {
			bits = min(bits, spl.bits)
		}
		return num{}, nil, bits, nil
	}
	v := x
	if sigma < 0 {
		n, err := l.value(dais.OpNeg, []*slot{x}, nil, vlo, vhi, wideInt)
		if err != nil {
			return num{}, nil, 0, err
		}
		if v, err = l.data(n); err != nil {
			return num{}, nil, 0, err
		}
	}
	// v is signed (vlo < 0), so its msb is its sign.
	nv, err := l.notSigned(v)
	if err != nil {
		return num{}, nil, 0, err
	}
	u, err := l.value(dais.OpMux, []*slot{v, nv, v}, shiftAttr(0), ulo, uhi, wideInt)
	if err != nil {
		return num{}, nil, 0, err
	}
	us, err := l.data(u)
	if err != nil {
		return num{}, nil, 0, err
	}
	qq, err := l.biasedQuotient(us, spl)
	if err != nil {
		return num{}, nil, 0, err
	}
	qs, err := l.data(qq)
	if err != nil {
		return num{}, nil, 0, err
	}
	nq, err := l.notSigned(qs)
	if err != nil {
		return num{}, nil, 0, err
	}
	qp, err = l.value(dais.OpMux, []*slot{v, nq, qs}, shiftAttr(0), nq.lo, qs.hi, wideInt)
	return qp, bigZero, spl.bits, err
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

// division is the plan for floor(x/d), x in [lo, hi]: the bias L, the
// power-of-two part t, the odd part D' and its magic multiplier, and the
// bit width of the product (more than 64: not representable).
type division struct {
	sigma     int
	t         int
	dd, dp    *big.Int
	bias      *big.Int // L
	zlo, zmax *big.Int
	mg        magic
	bits      int
}

func planDivision(lo, hi, d *big.Int) division {
	pl := division{sigma: d.Sign(), dd: new(big.Int).Abs(d)}
	pl.t = int(pl.dd.TrailingZeroBits())
	pl.dp = new(big.Int).Rsh(pl.dd, uint(pl.t))
	ylo, yhi := lo, hi
	if pl.sigma < 0 {
		ylo, yhi = neg(hi), neg(lo)
	}
	pl.bias = mul(pl.dd, floorDiv(ylo, pl.dd))
	pl.zlo, pl.zmax = sar(sub(ylo, pl.bias), pl.t), sar(sub(yhi, pl.bias), pl.t)
	pl.mg = chooseMagic(pl.dp, pl.zmax)
	pl.bits = mul(add(pl.zmax, big.NewInt(int64(pl.mg.a))), pl.mg.m).BitLen()
	return pl
}

// biasedQuotient returns q' = floor((σx - L) / D) (see the top of the file).
func (l *lowerer) biasedQuotient(x *slot, pl division) (num, error) {
	mg, t := pl.mg, pl.t
	ab := big.NewInt(int64(mg.a))
	wlo, whi := add(pl.zlo, ab), add(pl.zmax, ab)
	pt := makeIntT(max(pl.bits, 1), false)
	// w = floor((σx - L) / 2^t) + a = c + floor(σx / 2^t), c = a - L/2^t.
	c := sub(ab, sar(pl.bias, t))
	var w num
	var err error
	if t == 0 && pl.sigma > 0 {
		w, err = l.addConst(x, c, pt)
	} else {
		var cs *slot
		if cs, err = l.constSlot(c); err != nil {
			return num{}, err
		}
		name := dais.OpAdd
		if pl.sigma < 0 {
			name = dais.OpSub
		}
		w, err = l.value(name, []*slot{cs, x}, shiftAttr(-t), wlo, whi, pt)
	}
	if err != nil {
		return num{}, err
	}
	ws, err := l.data(w)
	if err != nil {
		return num{}, err
	}
	p, err := l.constMul(ws, mg.m, pt)
	if err != nil {
		return num{}, err
	}
	ps, err := l.data(p)
	if err != nil {
		return num{}, err
	}
	// q' = floor(p / 2^s) = floor(z / D'), in [floor(zlo/D'), floor(zmax/D')].
	zero, err := l.constSlot(bigZero)
	if err != nil {
		return num{}, err
	}
	return l.value(dais.OpAdd, []*slot{zero, ps}, shiftAttr(-mg.s), floorDiv(pl.zlo, pl.dp), floorDiv(pl.zmax, pl.dp), pt)
}
