package cmvm

import (
	"math"
	"math/big"
	"math/bits"
	"testing"
)

func TestCSD(t *testing.T) {
	tests := []struct {
		v    int64
		want []digit
	}{
		{0, nil},
		{1, []digit{{0, 1}}},
		{-1, []digit{{0, -1}}},
		{3, []digit{{0, -1}, {2, 1}}},
		{7, []digit{{0, -1}, {3, 1}}},
		{129, []digit{{0, 1}, {7, 1}}},
		{255, []digit{{0, -1}, {8, 1}}},
		{-6, []digit{{1, 1}, {3, -1}}},
		{math.MinInt64, []digit{{63, -1}}},
		{math.MaxInt64, []digit{{0, -1}, {63, 1}}},
	}
	for _, tc := range tests {
		got := csd(tc.v)
		if len(got) != len(tc.want) {
			t.Errorf("csd(%d) = %v, want %v", tc.v, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("csd(%d) = %v, want %v", tc.v, got, tc.want)
				break
			}
		}
		if w := csdWeight(tc.v); w != len(tc.want) {
			t.Errorf("csdWeight(%d) = %d, want %d", tc.v, w, len(tc.want))
		}
	}
}

// TestCSDProperties checks, over many values, that the digits sum to the
// value, are non-adjacent, and are as few as the known NAF weight
// popcount(3v xor v) (for v >= 0, computed without overflow in 128 bits).
func TestCSDProperties(t *testing.T) {
	check := func(v int64) {
		ds := csd(v)
		sum := new(big.Int)
		for i, d := range ds {
			term := new(big.Int).Lsh(big.NewInt(int64(d.sign)), uint(d.shift))
			sum.Add(sum, term)
			if i > 0 && d.shift-ds[i-1].shift < 2 {
				t.Fatalf("csd(%d) = %v: adjacent digits", v, ds)
			}
		}
		if sum.Cmp(big.NewInt(v)) != 0 {
			t.Fatalf("csd(%d) sums to %v", v, sum)
		}
		m := uint64(v)
		if v < 0 {
			m = -m
		}
		hi, lo := bits.Mul64(m, 3) // 3m as a 128-bit number
		w := bits.OnesCount64(lo^m) + bits.OnesCount64(hi)
		if len(ds) != w || csdWeight(v) != w {
			t.Fatalf("csd(%d) has %d digits, csdWeight %d, NAF weight %d", v, len(ds), csdWeight(v), w)
		}
	}
	for v := int64(-5000); v <= 5000; v++ {
		check(v)
	}
	for s := range 63 {
		for _, d := range []int64{-3, -1, 0, 1, 3} {
			check(int64(1)<<uint(s) + d)
			check(-(int64(1) << uint(s)) + d)
		}
	}
	check(math.MinInt64)
	check(math.MaxInt64)
}
