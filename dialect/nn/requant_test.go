package nn

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/otir-dev/otir/dialect/quant"
)

// roundRat is the textbook rounding of the rational v by mode, written
// apart from RoundMode: the reference of RoundShift at any width.
func roundRat(mode string, v *big.Rat) *big.Int {
	num, den := v.Num(), v.Denom()
	fl := new(big.Int).Div(num, den) // Euclidean: floor for den > 0
	if new(big.Rat).SetInt(fl).Cmp(v) == 0 {
		return fl
	}
	ce := new(big.Int).Add(fl, big.NewInt(1))
	twice := new(big.Rat).Sub(new(big.Rat).Mul(v, big.NewRat(2, 1)), new(big.Rat).SetInt(new(big.Int).Lsh(fl, 1)))
	c := twice.Cmp(big.NewRat(1, 1)) // fraction against a half
	neg := v.Sign() < 0
	toward0, away := fl, ce
	if neg {
		toward0, away = ce, fl
	}
	switch mode {
	case "FLOOR":
		return fl
	case "CEIL":
		return ce
	case "DOWN":
		return toward0
	case "UP":
		return away
	}
	switch {
	case c < 0:
		return fl
	case c > 0:
		return ce
	}
	switch mode {
	case "ROUND":
		if new(big.Int).Abs(fl).Bit(0) == 0 {
			return fl
		}
		return ce
	case "HALF_UP":
		return away
	}
	return toward0 // HALF_DOWN
}

// TestRoundShift: RoundShift is the exact rounding of m/2^k, at ties, at
// the ends of int64 and for shifts beyond 63.
func TestRoundShift(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 3))
	ms := []int64{0, 1, -1, 2, -2, 3, -3, 5, -5, 6, -6, 7, -7, math.MaxInt64 >> 1, math.MinInt64 >> 1, 1 << 62, -1 << 62}
	for range 300 {
		ms = append(ms, r.Int64N(1<<62)-1<<61, r.Int64N(64)-32)
	}
	for _, mode := range RoundingModes {
		for _, m := range ms {
			for _, k := range []uint{0, 1, 2, 3, 5, 20, 52, 60, 61, 62, 63, 64, 70} {
				got, ok := RoundShift(mode, m, k)
				want := roundRat(mode, new(big.Rat).SetFrac(big.NewInt(m), new(big.Int).Lsh(big.NewInt(1), k)))
				if !ok || !want.IsInt64() || got != want.Int64() {
					t.Fatalf("RoundShift(%s, %d, %d) = %d, %v; want %v", mode, m, k, got, ok, want)
				}
			}
		}
	}
	if _, ok := RoundShift("NEAREST", 3, 1); ok {
		t.Error("an unknown mode is accepted")
	}
}

// TestRequantIsQuant: saturating, Requant.Code is QONNX's Quant
// (QuantSpec.Code with scale 2^-F, zero point 0, the type's bits and
// signedness and the same rounding mode) of the exact value; wrapping, it
// is RoundMode of the scaled value wrapped to the width.
func TestRequantIsQuant(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 4))
	for range 20000 {
		signed := r.IntN(2) == 0
		width := 2 + r.IntN(12)
		frac := r.IntN(12) - 4
		typ := quant.Uniform(width, signed, frac)
		mode := RoundingModes[r.IntN(len(RoundingModes))]
		e := r.IntN(20) - 6
		m := r.Int64N(1<<(width+6)) - 1<<(width+5)
		x := math.Ldexp(float64(m), -e)
		scale := math.Ldexp(1, -frac)
		sat := Requant{Type: typ, Rounding: mode}
		spec := QuantSpec{Bits: int64(width), Signed: signed, Rounding: mode}
		want, _ := spec.Code(x, scale, 0)
		if got := sat.Code(m, e); got != want {
			t.Fatalf("saturating %s to %s: %d·2^-%d gives %d, QuantSpec.Code %d", mode, typ, m, e, got, want)
		}
		wrap := Requant{Type: typ, Rounding: mode, Wrap: true}
		if got, want := wrap.Code(m, e), typ.Wrap(int64(RoundMode(mode, Scaled(x, scale, 0)))); got != want {
			t.Fatalf("wrapping %s to %s: %d·2^-%d gives %d, want %d", mode, typ, m, e, got, want)
		}
	}
	// Beyond 62 bits once scaled: clamped (saturate), zero low bits (wrap).
	typ := quant.Uniform(8, true, 4)
	for _, c := range []struct {
		m      int64
		e      int
		wrap   bool
		expect int64
	}{{1 << 60, -10, false, 127}, {-1 << 60, -10, false, -128}, {3, -70, true, 0}, {3, -58, true, 0}, {1, -3, true, -128}} {
		if got := (Requant{Type: typ, Rounding: "FLOOR", Wrap: c.wrap}).Code(c.m, c.e); got != c.expect {
			t.Errorf("Code(%d, %d) wrap=%v = %d, want %d", c.m, c.e, c.wrap, got, c.expect)
		}
	}
}

// FuzzRoundShift: RoundShift is the exact rounding of m/2^k by every mode.
func FuzzRoundShift(f *testing.F) {
	for _, c := range []struct {
		m int64
		k uint8
	}{{5, 1}, {-5, 1}, {6, 2}, {math.MinInt64, 63}, {math.MaxInt64, 64}, {-3, 70}} {
		f.Add(c.m, c.k)
	}
	f.Fuzz(func(t *testing.T, m int64, k uint8) {
		for _, mode := range RoundingModes {
			got, ok := RoundShift(mode, m, uint(k))
			want := roundRat(mode, new(big.Rat).SetFrac(big.NewInt(m), new(big.Int).Lsh(big.NewInt(1), uint(k))))
			if !ok || !want.IsInt64() || got != want.Int64() {
				t.Fatalf("RoundShift(%s, %d, %d) = %d, %v; want %v", mode, m, k, got, ok, want)
			}
		}
	})
}
