package dais

import (
	"math"
	"math/big"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
)

// IntType gives the smallest fixed-point type holding [lo, hi], exactly
// even where float64 cannot hold the bounds, and rejects more than 64 bits.
func TestIntType(t *testing.T) {
	p := func(n int) *big.Int { return new(big.Int).Lsh(big.NewInt(1), uint(n)) }
	sub := func(a *big.Int, b int64) *big.Int { return new(big.Int).Sub(a, big.NewInt(b)) }
	neg := func(a *big.Int) *big.Int { return new(big.Int).Neg(a) }
	cases := []struct {
		lo, hi *big.Int
		want   alir.KIF
		err    bool
	}{
		{big.NewInt(0), big.NewInt(0), alir.KIF{}, false},
		{big.NewInt(-1), big.NewInt(-1), alir.KIF{Signed: true}, false},
		{big.NewInt(5), big.NewInt(5), alir.KIF{Integers: 3}, false},
		{big.NewInt(-3), big.NewInt(3), alir.KIF{Signed: true, Integers: 2}, false},
		{big.NewInt(-128), big.NewInt(127), alir.KIF{Signed: true, Integers: 7}, false},
		{big.NewInt(-128), big.NewInt(128), alir.KIF{Signed: true, Integers: 8}, false},
		{neg(p(63)), sub(p(63), 1), alir.KIF{Signed: true, Integers: 63}, false},
		{big.NewInt(0), sub(p(64), 1), alir.KIF{Integers: 64}, false},
		{sub(p(64), 1), sub(p(64), 1), alir.KIF{Integers: 64}, false},
		{neg(p(63)), p(63), alir.KIF{}, true},
		{big.NewInt(0), p(64), alir.KIF{}, true},
		{big.NewInt(3), big.NewInt(2), alir.KIF{}, true},
	}
	for _, c := range cases {
		ft, err := IntType(c.lo, c.hi)
		if c.err {
			if err == nil {
				t.Errorf("[%v, %v]: no error", c.lo, c.hi)
			}
			continue
		}
		if err != nil {
			t.Errorf("[%v, %v]: %v", c.lo, c.hi, err)
			continue
		}
		k, err := KIF(ft)
		if err != nil || k != c.want {
			t.Errorf("[%v, %v]: %v is %v (%v), want %v", c.lo, c.hi, ft, k, err, c.want)
		}
		if ft.Step != 1 || math.IsInf(ft.Max, 0) {
			t.Errorf("[%v, %v]: %v", c.lo, c.hi, ft)
		}
	}
}
