package tiles

import (
	"math/big"

	"otir/lower/dais"
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

// constMul returns s * c as a value of rt, by shift-and-add over the
// canonical signed digits of c: one dais.add/sub per digit (the first
// digit from the constant zero unless it is +1). Partial sums that leave
// rt's range wrap to it, which keeps the final result exact modulo 2^width.
func (l *lowerer) constMul(s *slot, c *big.Int, rt intT) (num, error) {
	ds := csd(c)
	if len(ds) == 0 {
		return intNum(0), nil
	}
	first := ds[0]
	acc, err := l.shifted(s, first.shift, first.neg, rt)
	if err != nil {
		return num{}, err
	}
	for _, d := range ds[1:] {
		as, err := l.data(acc)
		if err != nil {
			return num{}, err
		}
		lo, hi := shl(s.lo, d.shift), shl(s.hi, d.shift)
		name := dais.OpAdd
		if d.neg {
			lo, hi, name = neg(hi), neg(lo), dais.OpSub
		}
		if acc, err = l.value(name, []*slot{as, s}, shiftAttr(d.shift), add(as.lo, lo), add(as.hi, hi), rt); err != nil {
			return num{}, err
		}
	}
	return acc, nil
}
