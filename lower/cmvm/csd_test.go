package cmvm

import (
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
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

// Every form msdForms returns has CSD's digit count and v's value, and
// they are distinct: 3 (2^2 - 2^0) has two; 5 and MaxInt64 (2^63 - 2^0)
// one, no pair to rewrite; 0x33 (2^6 - 2^4 + 2^2 - 2^0) five, its three
// overlapping pairs taken disjointly; a 64-bit value with six pairs
// 2^msdMaxPairs.
func TestMSDForms(t *testing.T) {
	for _, tc := range []struct {
		v     int64
		forms int
	}{
		{3, 2}, {-3, 2}, {5, 1}, {0, 1}, {91, 2}, {0x33, 5}, {math.MaxInt64, 1}, {math.MinInt64, 1},
		{0x0303030303030303, 1 << msdMaxPairs},
	} {
		forms := msdForms(tc.v)
		if len(forms) != tc.forms {
			t.Errorf("msdForms(%d): %d forms, want %d", tc.v, len(forms), tc.forms)
		}
		seen := map[string]bool{}
		for _, f := range forms {
			if len(f) != len(csd(tc.v)) {
				t.Errorf("msdForms(%d): %v has %d digits, CSD %d", tc.v, f, len(f), len(csd(tc.v)))
			}
			var sum uint64
			key := ""
			for _, d := range f {
				sum += uint64(int64(d.sign)) << uint(d.shift)
				key += string(rune(d.shift)) + string(rune(d.sign+2))
			}
			if int64(sum) != tc.v {
				t.Errorf("msdForms(%d): %v sums to %d", tc.v, f, int64(sum))
			}
			if seen[key] {
				t.Errorf("msdForms(%d): %v twice", tc.v, f)
			}
			seen[key] = true
		}
	}
}

// msdRows writes every row as its coefficients, in as many digits as CSD.
func TestMSDRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	m := randomMatrix(rng, 12, 9, 127)
	rows, csdRows := msdRows(m), matrixRows(m)
	for i, r := range rows {
		got := make([]int64, len(m[i]))
		for _, tm := range r.terms {
			got[tm.node] += int64(tm.sign) << uint(tm.shift)
		}
		for j := range got {
			if got[j] != m[i][j] {
				t.Fatalf("row %d, column %d: %d, want %d", i, j, got[j], m[i][j])
			}
		}
		if len(r.terms) != len(csdRows[i].terms) {
			t.Errorf("row %d: %d digits, CSD %d", i, len(r.terms), len(csdRows[i].terms))
		}
	}
}
