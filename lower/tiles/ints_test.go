package tiles

import (
	"math/big"
	"testing"
)

// Division and its remainder, by hand: floor (the building block of
// division by a constant; found by the differential test: -3 / -16 gave
// 2) and truncating (the executor's div_s/rem_s, as C: a = b*(a/b) + a%b
// with a/b rounded toward zero).
func TestDivRem(t *testing.T) {
	type qr struct{ a, b, q, r int64 }
	for _, c := range []struct {
		div, rem   string
		quo, remOf func(a, b *big.Int) *big.Int
		cases      []qr
	}{
		{"floorDiv", "floorMod", floorDiv, floorMod, []qr{
			{7, 2, 3, 1}, {-7, 2, -4, 1}, {7, -2, -4, -1}, {-7, -2, 3, -1},
			{-3, -16, 0, -3}, {3, -16, -1, -13}, {-3, 16, -1, 13}, {0, -5, 0, 0}, {-16, -16, 1, 0},
		}},
		{"truncDiv", "truncRem", truncDiv, truncRem, []qr{
			{7, 2, 3, 1}, {-7, 2, -3, -1}, {7, -2, -3, 1}, {-7, -2, 3, -1},
			{-3, -16, 0, -3}, {3, -16, 0, 3}, {-3, 16, 0, -3}, {0, -5, 0, 0}, {-16, -16, 1, 0},
			{-128, -1, 128, 0}, {-128, 3, -42, -2}, {127, -3, -42, 1},
		}},
	} {
		for _, k := range c.cases {
			a, b := big.NewInt(k.a), big.NewInt(k.b)
			if q := c.quo(a, b); q.Int64() != k.q {
				t.Errorf("%s(%d, %d) = %v, want %d", c.div, k.a, k.b, q, k.q)
			}
			if r := c.remOf(a, b); r.Int64() != k.r {
				t.Errorf("%s(%d, %d) = %v, want %d", c.rem, k.a, k.b, r, k.r)
			}
		}
	}
}

// Wrapping to a type: modulo 2^width into the type's range.
func TestWrap(t *testing.T) {
	cases := []struct {
		w      int
		signed bool
		v, r   int64
	}{
		{8, true, 128, -128}, {8, true, -129, 127}, {8, false, -1, 255}, {8, false, 256, 0},
		{1, false, 3, 1}, {4, true, 7, 7}, {4, true, 8, -8}, {64, true, -5, -5},
	}
	for _, c := range cases {
		if got := makeIntT(c.w, c.signed).wrap(big.NewInt(c.v)); got.Int64() != c.r {
			t.Errorf("wrap(%d) to %d bits signed=%v = %v, want %d", c.v, c.w, c.signed, got, c.r)
		}
	}
}

// Canonical signed digits rebuild the constant, without adjacent digits.
func TestCSD(t *testing.T) {
	for _, c := range []int64{0, 1, -1, 2, 3, 7, -7, 11, 100, -128, 127, 12345, -99999, 1 << 40} {
		v := big.NewInt(c)
		sum := new(big.Int)
		last := -2
		for _, d := range csd(v) {
			term := new(big.Int).Lsh(big.NewInt(1), uint(d.shift))
			if d.neg {
				term.Neg(term)
			}
			sum.Add(sum, term)
			if d.shift == last+1 {
				t.Errorf("csd(%d): adjacent digits at %d", c, d.shift)
			}
			last = d.shift
		}
		if sum.Cmp(v) != 0 {
			t.Errorf("csd(%d) sums to %v", c, sum)
		}
	}
}
