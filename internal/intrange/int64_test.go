package intrange

import (
	"math"
	"testing"
)

func TestCheckedInt64(t *testing.T) {
	type res struct {
		v  int64
		ok bool
	}
	r := func(v int64, ok bool) res { return res{v, ok} }
	for _, tc := range []struct {
		name      string
		got, want res
	}{
		{"add", r(AddInt64(1, 2)), res{3, true}},
		{"add overflow", r(AddInt64(math.MaxInt64, 1)), res{0, false}},
		{"add underflow", r(AddInt64(math.MinInt64, -1)), res{0, false}},
		{"sub", r(SubInt64(1, 3)), res{-2, true}},
		{"sub overflow", r(SubInt64(math.MaxInt64, -1)), res{0, false}},
		{"sub underflow", r(SubInt64(math.MinInt64, 1)), res{0, false}},
		{"sub to min", r(SubInt64(-1, math.MaxInt64)), res{math.MinInt64, true}},
		{"mul", r(MulInt64(-3, 7)), res{-21, true}},
		{"mul min", r(MulInt64(math.MinInt64, 1)), res{math.MinInt64, true}},
		{"mul overflow", r(MulInt64(math.MinInt64, -1)), res{0, false}},
		{"mul big", r(MulInt64(1<<32, 1<<31)), res{0, false}},
		{"shl", r(ShlInt64(-3, 4)), res{-48, true}},
		{"shl to min", r(ShlInt64(-1, 63)), res{math.MinInt64, true}},
		{"shl overflow", r(ShlInt64(1, 63)), res{0, false}},
		{"shl zero far", r(ShlInt64(0, 500)), res{0, true}},
		{"shl negative", r(ShlInt64(1, -1)), res{0, false}},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, tc.got, tc.want)
		}
	}
}

// TestRange64 checks Range64's operations against Range's on big.Ints:
// the same bounds when they fit int64, false when they do not.
func TestRange64(t *testing.T) {
	vals := []int64{math.MinInt64, math.MinInt64 + 1, -1 << 40, -5, -1, 0, 1, 3, 1 << 40, math.MaxInt64 - 1, math.MaxInt64}
	fits := func(got Range64, ok bool, want Range) bool {
		if !want.FitsInt64() {
			return !ok
		}
		return ok && got.Lo == want.Lo.Int64() && got.Hi == want.Hi.Int64()
	}
	for _, lo := range vals {
		for _, hi := range vals {
			if lo > hi {
				continue
			}
			a, ab := Range64{lo, hi}, rg(lo, hi)
			for _, c := range vals {
				o := rg(c, c)
				if got, ok := a.Scale(c); !fits(got, ok, ab.Mul(o)) {
					t.Errorf("%v.Scale(%d) = %v, %v", a, c, got, ok)
				}
				if c >= lo {
					if got, ok := a.Add(Range64{lo, c}); !fits(got, ok, ab.Add(rg(lo, c))) {
						t.Errorf("%v.Add(%d..%d) = %v, %v", a, lo, c, got, ok)
					}
				}
			}
			if got, ok := a.Neg(); !fits(got, ok, ab.Neg()) {
				t.Errorf("%v.Neg() = %v, %v", a, got, ok)
			}
			for _, s := range []int{0, 1, 20, 62, 63} {
				if got, ok := a.Shl(s); !fits(got, ok, ab.Shl(uint(s))) {
					t.Errorf("%v.Shl(%d) = %v, %v", a, s, got, ok)
				}
			}
			// Bits: the narrowest type holding both bounds.
			want := 0
			for w := 0; w <= 64; w++ {
				signed := lo < 0
				if signed && w >= 1 && ab.Within(Signed(w)) || !signed && ab.Within(Unsigned(w)) {
					want = w
					break
				}
			}
			if got := a.Bits(); got != want {
				t.Errorf("%v.Bits() = %d, want %d", a, got, want)
			}
		}
	}
}
