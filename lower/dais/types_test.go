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

// IntBits' int64 path agrees with the big.Int definition (ceil_log2 of
// max(-lo, hi + 1)) at the edges of 63-, 64- and 65-bit integers.
func TestIntBitsEdges(t *testing.T) {
	ref := func(lo, hi *big.Int) alir.KIF {
		if lo.Sign() == 0 && hi.Sign() == 0 {
			return alir.KIF{}
		}
		bits := 0
		if lo.Sign() < 0 {
			bits = ceilLog2(new(big.Int).Neg(lo))
		}
		if hi.Sign() >= 0 {
			bits = max(bits, ceilLog2(new(big.Int).Add(hi, big.NewInt(1))))
		}
		return alir.KIF{Signed: lo.Sign() < 0, Integers: bits}
	}
	var vs []*big.Int
	for _, w := range []uint{0, 1, 2, 31, 32, 53, 62, 63, 64, 65} {
		p := new(big.Int).Lsh(big.NewInt(1), w)
		for _, d := range []int64{-2, -1, 0, 1} {
			v := new(big.Int).Add(p, big.NewInt(d))
			vs = append(vs, v, new(big.Int).Neg(v))
		}
	}
	vs = append(vs, big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64))
	for _, lo := range vs {
		for _, hi := range vs {
			if lo.Cmp(hi) > 0 {
				continue
			}
			if got, want := IntBits(lo, hi), ref(lo, hi); got != want {
				t.Fatalf("IntBits(%v, %v) = %v, want %v", lo, hi, got, want)
			}
		}
	}
}
