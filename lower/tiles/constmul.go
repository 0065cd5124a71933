package tiles

import (
	"math/big"

	"github.com/otir-dev/otir/lower/dais"
)

// csdDigit is one nonzero digit of a constant's canonical signed-digit form:
// sign * 2^shift.
type csdDigit struct {
	shift int
	neg   bool
}

// csd returns the canonical signed digits (non-adjacent form) of c, lowest
// first: c = sum of ±2^shift, with no two adjacent nonzero digits.
func csd(c *big.Int) []csdDigit {
	n := new(big.Int).Abs(c)
	var ds []csdDigit
	four := big.NewInt(4)
	m := new(big.Int)
	for shift := 0; n.Sign() > 0; shift++ {
		if n.Bit(0) == 1 {
			// digit = 2 - (n mod 4): +1 when n = 1 (mod 4), -1 when 3.
			d := 2 - m.Mod(n, four).Int64()
			ds = append(ds, csdDigit{shift, (d < 0) != (c.Sign() < 0)})
			n.Sub(n, big.NewInt(d))
		}
		n.Rsh(n, 1)
	}
	return ds
}

// binaryDigits returns the set bits of |c|, lowest first, with c's sign.
func binaryDigits(c *big.Int) []csdDigit {
	a := new(big.Int).Abs(c)
	var ds []csdDigit
	for i := 0; i < a.BitLen(); i++ {
		if a.Bit(i) == 1 {
			ds = append(ds, csdDigit{shift: i, neg: c.Sign() < 0})
		}
	}
	return ds
}

// int64Values is the range of int64, in which alkaid's interpreter computes
// every value.
var int64Values = makeIntT(64, true)

// fitsInt64 reports whether [lo, hi] lies in int64 (the predicate by which
// lowerer.emit refuses a value).
func fitsInt64(lo, hi *big.Int) bool { return int64Values.contains(lo, hi) }

// scaled returns the range of c·v for v in [lo, hi].
func scaled(lo, hi, c *big.Int) (*big.Int, *big.Int) {
	a, b := mul(lo, c), mul(hi, c)
	if c.Sign() < 0 {
		return b, a
	}
	return a, b
}

// termFits reports whether alkaid's adder can form ±v·2^shift for v in
// [lo, hi]: it negates the operand of a sub first, then shifts it.
func termFits(lo, hi *big.Int, d csdDigit) bool {
	if d.neg {
		lo, hi = neg(hi), neg(lo)
	}
	return fitsInt64(lo, hi) && fitsInt64(shl(lo, d.shift), shl(hi, d.shift))
}

// mulDigits returns the digits by which acc + s·c (acc in [alo, ahi], s in
// [slo, shi]) is computed exactly: c's canonical signed digits when every
// partial sum and every shifted term fits int64, else its binary digits,
// whose partial sums lie between acc and the result (ok false when those
// do not fit either: the result itself does not).
func mulDigits(alo, ahi, slo, shi, c *big.Int) ([]csdDigit, bool) {
	fit := func(ds []csdDigit) bool {
		coef := new(big.Int)
		for _, d := range ds {
			if !termFits(slo, shi, d) {
				return false
			}
			if d.neg {
				coef.Sub(coef, pow2(d.shift))
			} else {
				coef.Add(coef, pow2(d.shift))
			}
			plo, phi := scaled(slo, shi, coef)
			if !fitsInt64(add(alo, plo), add(ahi, phi)) {
				return false
			}
		}
		return true
	}
	if ds := csd(c); fit(ds) {
		return ds, true
	}
	ds := binaryDigits(c)
	return ds, fit(ds)
}

// chainOps is the number of adders (dais.add, sub, neg) a chain of digits
// ds costs: one per digit, except a first +2^0 without an addend (s itself).
func chainOps(ds []csdDigit, addend bool) int {
	if len(ds) > 0 && !addend && ds[0] == (csdDigit{}) {
		return len(ds) - 1
	}
	return len(ds)
}

// constMul returns s * c as a value of rt, by shift and add (see mulAdd).
func (l *lowerer) constMul(s *slot, c *big.Int, rt intT) (num, error) {
	return l.mulAdd(nil, s, c, rt)
}

// mulAdd returns acc + s·c (acc nil: no addend) as a value of rt, by shift
// and add: one dais.add/sub per digit of c, added to acc (without acc, the
// first digit is s itself, its negation or a shift from the constant
// zero). ALIR adders never wrap, so every partial sum is exact and fits
// int64, and is declared on its exact range (acc plus a multiple of s, plus
// reduced terms, over independent sources: the linear form that
// alir.Program.Portability checks).
//
//   - When rt holds the result, no partial sum wraps: the digits are c's
//     canonical signed digits, or its binary digits where a signed-digit
//     partial sum would leave int64 (mulDigits).
//   - Otherwise the result is wanted modulo 2^W (W = rt's width): a partial
//     sum that leaves the working type (rt, or iW for rt = u63) wraps to it
//     by a dais.quantize, and where a sum would still leave int64 the
//     shifted term is first reduced modulo 2^(W-shift) (a dais.quantize of s
//     to W-shift signed bits), which leaves the sum modulo 2^W unchanged
//     and bounds it by W+2 bits. For W >= 64 there is no room for that and
//     the result must fit int64 exactly.
//
// Each digit costs O(1) work besides its ops.
func (l *lowerer) mulAdd(acc *slot, s *slot, c *big.Int, rt intT) (num, error) {
	alo, ahi := bigZero, bigZero
	if acc != nil {
		alo, ahi = acc.lo, acc.hi
	}
	if c.Sign() == 0 {
		if acc == nil {
			return intNum(0), nil
		}
		return l.convert(slotNum(acc), rt)
	}
	plo, phi := scaled(s.lo, s.hi, c)
	wt := rt
	modular := !rt.contains(add(alo, plo), add(ahi, phi))
	switch {
	case !modular || rt.width >= 64:
		modular, wt = false, wideInt
	case rt.width == 63 && !rt.signed:
		wt = makeIntT(63, true)
	}
	if modular && acc != nil && !wt.contains(alo, ahi) {
		n, err := l.convert(slotNum(acc), wt)
		if err != nil {
			return num{}, err
		}
		if acc, err = l.data(n); err != nil {
			return num{}, err
		}
	}
	ds := csd(c)
	if !modular {
		ds, _ = mulDigits(alo, ahi, s.lo, s.hi, c) // else emit reports the range
	}
	// The current partial sum is base + coef·s + red: base a slot (nil: 0)
	// and red the sum of the reduced terms' ranges [rlo, rhi].
	base, cur := acc, acc
	coef := new(big.Int)
	rlo, rhi := new(big.Int), new(big.Int)
	bounds := func() (*big.Int, *big.Int) {
		lo, hi := scaled(s.lo, s.hi, coef)
		lo, hi = add(lo, rlo), add(hi, rhi)
		if base != nil {
			lo, hi = add(lo, base.lo), add(hi, base.hi)
		}
		return lo, hi
	}
	for _, d := range ds {
		term := s
		step := pow2(d.shift)
		if d.neg {
			step.Neg(step)
		}
		clo, chi := bounds()
		tlo, thi := scaled(s.lo, s.hi, step)
		reduced := modular && (!termFits(s.lo, s.hi, d) || !fitsInt64(add(clo, tlo), add(chi, thi)))
		if reduced {
			w := wt.width - d.shift
			if w <= 0 {
				continue // a multiple of 2^W
			}
			r, err := l.convert(slotNum(s), makeIntT(w, true))
			if err != nil {
				return num{}, err
			}
			if term, err = l.data(r); err != nil {
				return num{}, err
			}
			tlo, thi = scaled(term.lo, term.hi, step)
		}
		lo, hi := add(clo, tlo), add(chi, thi)
		var n num
		var err error
		if cur == nil {
			n, err = l.shifted(term, d.shift, d.neg, wt)
		} else {
			name := dais.OpAdd
			if d.neg {
				name = dais.OpSub
			}
			n, err = l.value(name, []*slot{cur, term}, shiftAttr(d.shift), lo, hi, wt)
		}
		if err != nil {
			return num{}, err
		}
		if cur, err = l.data(n); err != nil {
			return num{}, err
		}
		switch {
		case !wt.contains(lo, hi): // wrapped: a new source
			base, coef, rlo, rhi = cur, new(big.Int), new(big.Int), new(big.Int)
		case reduced:
			rlo, rhi = add(rlo, tlo), add(rhi, thi)
		default:
			coef.Add(coef, step)
		}
	}
	if cur == nil {
		return intNum(0), nil
	}
	return l.convert(slotNum(cur), rt)
}
