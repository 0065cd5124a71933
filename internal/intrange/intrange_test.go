package intrange

import (
	"math/big"
	"testing"
)

func rg(lo, hi int64) Range { return Range{big.NewInt(lo), big.NewInt(hi)} }

// TestOps checks each operation's bounds against every pair of values of
// small ranges: the bounds hold every result and are attained.
func TestOps(t *testing.T) {
	ranges := []Range{rg(-5, -2), rg(-3, 4), rg(0, 0), rg(1, 6), rg(-1, -1)}
	ops := []struct {
		name string
		rng  func(a, b Range) Range
		val  func(x, y int64) int64
	}{
		{"add", Range.Add, func(x, y int64) int64 { return x + y }},
		{"sub", Range.Sub, func(x, y int64) int64 { return x - y }},
		{"mul", Range.Mul, func(x, y int64) int64 { return x * y }},
		{"union", Range.Union, nil},
		{"neg", func(a, _ Range) Range { return a.Neg() }, func(x, _ int64) int64 { return -x }},
		{"not", func(a, _ Range) Range { return a.Not() }, func(x, _ int64) int64 { return ^x }},
		{"shl2", func(a, _ Range) Range { return a.Shl(2) }, func(x, _ int64) int64 { return x << 2 }},
		{"sar1", func(a, _ Range) Range { return a.Sar(1) }, func(x, _ int64) int64 { return x >> 1 }},
		{"relu", func(a, _ Range) Range { return a.Relu() }, func(x, _ int64) int64 { return max(x, 0) }},
	}
	for _, op := range ops {
		for _, a := range ranges {
			for _, b := range ranges {
				got := op.rng(a, b)
				if op.val == nil {
					if got.Lo.Cmp(Min(a.Lo, b.Lo)) != 0 || got.Hi.Cmp(Max(a.Hi, b.Hi)) != 0 {
						t.Errorf("%s(%v, %v) = %v", op.name, a, b, got)
					}
					continue
				}
				lo, hi := int64(1<<62), int64(-1<<62)
				for x := a.Lo.Int64(); x <= a.Hi.Int64(); x++ {
					for y := b.Lo.Int64(); y <= b.Hi.Int64(); y++ {
						v := op.val(x, y)
						lo, hi = min(lo, v), max(hi, v)
					}
				}
				if got.Lo.Int64() != lo || got.Hi.Int64() != hi {
					t.Errorf("%s(%v, %v) = [%v, %v], want [%d, %d]", op.name, a, b, got.Lo, got.Hi, lo, hi)
				}
			}
		}
	}
}

// TestWidths checks Mag, Bits, SignedBits, MaxAbs, Unsigned and Signed.
func TestWidths(t *testing.T) {
	for _, c := range []struct {
		r                    Range
		mag, bits, sbits, ma int64
	}{
		{rg(0, 0), 0, 0, 1, 0}, {rg(0, 1), 1, 1, 2, 1}, {rg(0, 255), 8, 8, 9, 255},
		{rg(-128, 127), 7, 8, 8, 128}, {rg(-129, 0), 8, 9, 9, 129}, {rg(-1, -1), 1, 2, 1, 1},
	} {
		if int64(c.r.Mag()) != c.mag || int64(c.r.Bits()) != c.bits || int64(c.r.SignedBits()) != c.sbits || c.r.MaxAbs().Int64() != c.ma {
			t.Errorf("%v: mag %d bits %d signed %d maxabs %v", c.r, c.r.Mag(), c.r.Bits(), c.r.SignedBits(), c.r.MaxAbs())
		}
	}
	if u := Unsigned(8); u.Lo.Int64() != 0 || u.Hi.Int64() != 255 {
		t.Errorf("Unsigned(8) = %v", u)
	}
	if s := Signed(8); s.Lo.Int64() != -128 || s.Hi.Int64() != 127 {
		t.Errorf("Signed(8) = %v", s)
	}
	if r := OfBits(3, true); r.Lo.Int64() != -4 || r.Hi.Int64() != 3 {
		t.Errorf("OfBits(3, true) = %v", r)
	}
	if r := OfBits(3, false); r.Lo.Int64() != 0 || r.Hi.Int64() != 7 {
		t.Errorf("OfBits(3, false) = %v", r)
	}
	if !rg(1, 2).Within(rg(0, 2)) || rg(-1, 2).Within(rg(0, 2)) || !rg(2, 1).Empty() || rg(1, 1).Empty() {
		t.Error("Within or Empty")
	}
	if !rg(-1<<63, 1<<63-1).FitsInt64() || (Range{big.NewInt(0), new(big.Int).Lsh(big.NewInt(1), 63)}).FitsInt64() {
		t.Error("FitsInt64")
	}
}

// edges are integers at the edges of 0- to 65-bit integers, both signs.
func edges() []*big.Int {
	var vs []*big.Int
	for _, w := range []uint{0, 1, 2, 31, 32, 53, 62, 63, 64, 65} {
		p := new(big.Int).Lsh(big.NewInt(1), w)
		for _, d := range []int64{-2, -1, 0, 1} {
			v := new(big.Int).Add(p, big.NewInt(d))
			vs = append(vs, v, new(big.Int).Neg(v))
		}
	}
	return vs
}

// ExactMag is ceil_log2(max(-lo, hi + 1)) over a negative lo and a
// non-negative hi, by its definition on big.Ints (with the int64 path), at
// the edges of 63-, 64- and 65-bit integers.
func TestExactMag(t *testing.T) {
	ceilLog2 := func(x *big.Int) int { // x >= 1
		n := x.BitLen()
		if new(big.Int).Sub(x, big.NewInt(1)).BitLen() < n {
			return n - 1
		}
		return n
	}
	vs := edges()
	for _, lo := range vs {
		for _, hi := range vs {
			if lo.Cmp(hi) > 0 {
				continue
			}
			want := 0
			if lo.Sign() < 0 {
				want = ceilLog2(new(big.Int).Neg(lo))
			}
			if hi.Sign() >= 0 {
				want = max(want, ceilLog2(new(big.Int).Add(hi, big.NewInt(1))))
			}
			if got := (Range{lo, hi}).ExactMag(); got != want {
				t.Errorf("[%v, %v].ExactMag() = %d, want %d", lo, hi, got, want)
			}
		}
	}
}
