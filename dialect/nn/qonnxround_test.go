package nn

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestRoundModeTies: every mode at the ties ±0.5, ±1.5, ±2.5 and off them
// (the table of docs/nn.md, "QONNX quantizers"), checked by hand.
func TestRoundModeTies(t *testing.T) {
	at := []float64{-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -0.3, 0.7, 2.2}
	want := map[string][]float64{
		"ROUND":     {-2, -2, 0, 0, 2, 2, 0, 1, 2},
		"CEIL":      {-2, -1, 0, 1, 2, 3, 0, 1, 3},
		"FLOOR":     {-3, -2, -1, 0, 1, 2, -1, 0, 2},
		"UP":        {-3, -2, -1, 1, 2, 3, -1, 1, 3},
		"DOWN":      {-2, -1, 0, 0, 1, 2, 0, 0, 2},
		"HALF_UP":   {-3, -2, -1, 1, 2, 3, 0, 1, 2},
		"HALF_DOWN": {-2, -1, 0, 0, 1, 2, 0, 1, 2},
	}
	if len(want) != len(RoundingModes) {
		t.Fatalf("the table has %d modes, RoundingModes %d", len(want), len(RoundingModes))
	}
	for _, mode := range RoundingModes {
		for i, v := range at {
			if got := RoundMode(mode, v); got != want[mode][i] {
				t.Errorf("%s(%v) = %v, want %v", mode, v, got, want[mode][i])
			}
		}
	}
	// Exact where QONNX's float64 |v|+0.5 is not: the largest double below
	// 0.5 rounds to 0, and 2^52+1 stays odd.
	below := math.Nextafter(0.5, 0)
	for _, c := range []struct {
		mode    string
		v, want float64
	}{{"HALF_UP", below, 0}, {"HALF_UP", -below, 0}, {"HALF_UP", 1<<52 + 1, 1<<52 + 1}, {"HALF_DOWN", 1<<52 + 1, 1<<52 + 1},
		{"HALF_DOWN", math.Nextafter(0.5, 1), 1}, {"ROUND", math.NaN(), math.NaN()}, {"NEAREST", 1, math.NaN()}} {
		if got := RoundMode(c.mode, c.v); got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("%s(%v) = %v, want %v", c.mode, c.v, got, c.want)
		}
	}
}

// TestQuantCode: clamping before rounding, narrow and unsigned ranges,
// zero points, bipolar, and the exact decision where the float64 quotient
// lands on a boundary the exact value misses.
func TestQuantCode(t *testing.T) {
	s8 := QuantSpec{Bits: 8, Signed: true, Rounding: "ROUND"}
	with := func(s QuantSpec, f func(*QuantSpec)) QuantSpec { f(&s); return s }
	for _, c := range []struct {
		name           string
		spec           QuantSpec
		x, scale, zp   float64
		want           int64
		value          float64
		viaFloatQuoted int64 // what the rounded float64 quotient would give (QONNX's NumPy)
	}{
		{"tie to even", s8, 2.5, 1, 0, 2, 2, 2},
		{"tie to even, po2 scale", s8, 0.375, 0.25, 0, 2, 0.5, 2},
		{"clamp high", s8, 200, 1, 0, 127, 127, 127},
		{"clamp low", s8, -200, 1, 0, -128, -128, -128},
		{"narrow", with(s8, func(s *QuantSpec) { s.Narrow = true }), -200, 1, 0, -127, -127, -127},
		{"unsigned", with(s8, func(s *QuantSpec) { s.Signed = false }), -5, 1, 0, 0, 0, 0},
		{"unsigned high", with(s8, func(s *QuantSpec) { s.Signed = false }), 300, 1, 0, 255, 255, 255},
		{"unsigned narrow", with(s8, func(s *QuantSpec) { s.Signed, s.Narrow = false, true }), 300, 1, 0, 254, 254, 254},
		{"clamp then ceil", QuantSpec{Bits: 3, Signed: true, Rounding: "CEIL"}, 3.2, 1, 0, 3, 3, 3},
		{"zero point", with(s8, func(s *QuantSpec) { s.Signed = false }), 0.75, 0.5, 3, 4, 0.5, 4},
		{"zero point clamps", with(s8, func(s *QuantSpec) { s.Signed = false }), -2, 0.5, 3, 0, -1.5, 0},
		{"infinity", s8, math.Inf(1), 0.5, 0, 127, 63.5, 127},
		{"bipolar at 0", QuantSpec{Bits: 1, Signed: true, Rounding: "ROUND"}, 0, 0.5, 0, 1, 0.5, 1},
		{"bipolar below", QuantSpec{Bits: 1, Signed: true, Rounding: "ROUND"}, -1e-300, 0.5, 0, -1, -0.5, -1},
		{"unsigned 1 bit", QuantSpec{Bits: 1, Rounding: "ROUND"}, 0.75, 1, 0, 1, 1, 1},
		// 0.25/0.1 rounds to the tie 2.5; the exact value is below it.
		{"exact below a tie", with(s8, func(s *QuantSpec) { s.Rounding = "HALF_UP" }), 0.25, 0.1, 0, 2, 0.2, 3},
		// -4/0.1 rounds to -40; the exact value is above it.
		{"exact above an integer", with(s8, func(s *QuantSpec) { s.Rounding = "CEIL" }), -4, 0.1, 0, -39, -3.9000000000000004, -40},
		// 88.89999999999999/0.7 rounds to 127 = Max; the exact value is below it.
		{"exact below Max", with(s8, func(s *QuantSpec) { s.Rounding = "FLOOR" }), 88.89999999999999, 0.7, 0, 126, 88.19999999999999, 127},
	} {
		got, ok := c.spec.Code(c.x, c.scale, c.zp)
		if !ok || got != c.want {
			t.Errorf("%s: Code(%v, %v, %v) = %d, %v; want %d", c.name, c.x, c.scale, c.zp, got, ok, c.want)
		}
		if v := c.spec.QuantValue(c.x, c.scale, c.zp); v != c.value {
			t.Errorf("%s: QuantValue = %v, want %v", c.name, v, c.value)
		}
		naive := c.spec.Bipolar() && c.x/c.scale+c.zp >= 0
		if !c.spec.Bipolar() {
			n := RoundMode(c.spec.Rounding, c.spec.clamp(c.x/c.scale+c.zp))
			naive = int64(n) == c.viaFloatQuoted
		} else {
			naive = naive == (c.viaFloatQuoted == 1)
		}
		if !naive {
			t.Errorf("%s: the float64 quotient does not give %d: the case does not show what it says", c.name, c.viaFloatQuoted)
		}
	}
	if _, ok := s8.Code(math.NaN(), 1, 0); ok {
		t.Error("Code(NaN) is ok")
	}
	if v := s8.QuantValue(math.NaN(), 1, 0); !math.IsNaN(v) {
		t.Errorf("QuantValue(NaN) = %v", v)
	}
}

// TestTrunc: QONNX's trunc_v1 (2^(in_bits-out_bits), no clamp, rescaled by
// scale) and trunc_v2 (t = 2^round(log2(output_scale/scale)), clamped to
// out_bits, rescaled by output_scale with zero point zp/t).
func TestTrunc(t *testing.T) {
	v1 := QuantSpec{Bits: 4, InBits: 8, Signed: true, Rounding: "FLOOR", Version: 1}
	v2 := v1
	v2.Version = 2
	for _, c := range []struct {
		name                    string
		spec                    QuantSpec
		x, scale, zp, out, want float64
	}{
		{"v1 floor", v1, 37, 1, 0, 0, 2},                           // 37/16 = 2.3125
		{"v1 floor negative", v1, -37, 1, 0, 0, -3},                // -2.3125
		{"v1 input rounds half to even", v1, 31.5, 1, 0, 0, 2},     // 32/16
		{"v1 round tie", withMode(v1, "ROUND"), 40, 1, 0, 0, 2},    // 2.5
		{"v1 round tie up", withMode(v1, "ROUND"), 24, 1, 0, 0, 2}, // 1.5
		{"v1 no clamp", v1, 4000, 1, 0, 0, 250},
		{"v1 scale", v1, 3.7, 0.1, 0, 0, 0.2},                 // 37/16 -> 2, times 0.1
		{"v1 zero point", v1, 37, 1, 4, 0, -2},                // (41/16 -> 2) - 4
		{"v2", v2, 37, 1, 0, 16, 32},                          // 2·16
		{"v2 clamps to out_bits", v2, 200, 1, 0, 16, 7 * 16},  // 12.5 -> 7
		{"v2 zero point", v2, 37, 1, 4, 16, 28},               // (41/16 -> 2 - 4/16)·16
		{"v2 t rounds to a power of 2", v2, 37, 1, 0, 20, 40}, // t = 16: 2·20
	} {
		if got := c.spec.TruncValue(c.x, c.scale, c.zp, c.out); got != c.want {
			t.Errorf("%s: TruncValue(%v, %v, %v, %v) = %v, want %v", c.name, c.x, c.scale, c.zp, c.out, got, c.want)
		}
	}
	if BipolarValue(0, 0.5) != 0.5 || BipolarValue(-0.1, 0.5) != -0.5 || BipolarValue(math.NaN(), 2) != -2 || BipolarValue(3, 2) != 2 {
		t.Error("BipolarValue: want scale where x ≥ 0, -scale elsewhere and for NaN")
	}
}

func withMode(s QuantSpec, mode string) QuantSpec { s.Rounding = mode; return s }

func TestQuantParamRules(t *testing.T) {
	for _, v := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if CheckScale(v) == nil {
			t.Errorf("scale %v accepted", v)
		}
	}
	for _, v := range []float64{0.5, math.NaN(), math.Inf(-1)} {
		if CheckZeroPoint(v) == nil {
			t.Errorf("zero point %v accepted", v)
		}
	}
	if CheckScale(1e-30) != nil || CheckZeroPoint(-3) != nil {
		t.Error("valid parameters rejected")
	}
}

// exactCode is Code by exact rationals: the mode on the clamped exact
// x/scale + zp (the test's reference for Scaled's shortcut).
func exactCode(s QuantSpec, x, scale, zp float64) int64 {
	v := new(big.Rat).SetFloat64(x)
	v.Quo(v, new(big.Rat).SetFloat64(scale)).Add(v, new(big.Rat).SetFloat64(zp))
	if s.Bipolar() {
		if v.Sign() >= 0 {
			return 1
		}
		return -1
	}
	lo, hi := big.NewRat(s.Min(), 1), big.NewRat(s.Max(), 1)
	if v.Cmp(hi) > 0 {
		v = hi
	} else if v.Cmp(lo) < 0 {
		v = lo
	}
	// floor(v), and v - floor(v) compared with 1/2
	fl := new(big.Int).Div(v.Num(), v.Denom()) // Euclidean: floor for a positive denominator
	frac := new(big.Rat).Sub(v, new(big.Rat).SetInt(fl))
	f := fl.Int64()
	c := f
	if frac.Sign() != 0 {
		c = f + 1
	}
	half := frac.Cmp(big.NewRat(1, 2))
	towardZero, awayFromZero := f, c
	if v.Sign() < 0 {
		towardZero, awayFromZero = c, f
	}
	switch s.Rounding {
	case "FLOOR":
		return f
	case "CEIL":
		return c
	case "DOWN":
		return towardZero
	case "UP":
		return awayFromZero
	case "ROUND":
		if half < 0 || half == 0 && f%2 == 0 {
			return f
		}
		return c
	}
	// HALF_UP / HALF_DOWN: nearest; a tie goes away from (toward) zero.
	switch {
	case half < 0:
		return f
	case half > 0:
		return c
	case s.Rounding == "HALF_UP":
		return awayFromZero
	}
	return towardZero
}

// TestCodeIsExact: Code (Scaled's float64 shortcut) equals exact rational
// rounding on inputs on and around the grids of scales po2 and not, with
// zero points, at the range's ends and at extreme magnitudes.
func TestCodeIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 1))
	scales := []float64{0.1, 0.14285715, 27.768454, 0.25, 0.3, 1.0 / 3, 0x1p-1030, 0x1p-1000, 1e300, 7e-310}
	n, differs := 0, 0
	for _, mode := range RoundingModes {
		for _, bits := range []int64{1, 2, 4, 8, 32} {
			for _, signed := range []bool{true, false} {
				s := QuantSpec{Bits: bits, Signed: signed, Narrow: rng.IntN(2) == 0, Rounding: mode}
				for range 400 {
					scale := scales[rng.IntN(len(scales))]
					zp := float64(rng.IntN(9) - 4)
					k := float64(rng.Int64N(s.Max()-s.Min()+7) + s.Min() - 3)
					var x float64
					switch rng.IntN(5) {
					case 0:
						x = (k - zp) * scale // on the grid, rounded
					case 1:
						x = (k + 0.5 - zp) * scale // a tie, rounded
					case 2:
						x = math.Nextafter((k-zp)*scale, math.Inf(2*rng.IntN(2)-1))
					case 3:
						x = (k + rng.Float64() - zp) * scale
					default:
						x = math.Ldexp(rng.Float64()-0.5, rng.IntN(2100)-1074)
					}
					if math.IsInf(x, 0) || math.IsNaN(x) {
						continue
					}
					got, ok := s.Code(x, scale, zp)
					want := exactCode(s, x, scale, zp)
					if !ok || got != want {
						t.Fatalf("%+v: Code(%v, %v, %v) = %d, exact %d", s, x, scale, zp, got, want)
					}
					if q := RoundMode(mode, s.clamp(x/scale+zp)); !s.Bipolar() && int64(q) != want {
						differs++
					}
					n++
				}
			}
		}
	}
	t.Logf("%d inputs; the float64 quotient rounds differently on %d", n, differs)
}

func BenchmarkQuantValue(b *testing.B) {
	s := QuantSpec{Bits: 8, Signed: true, Rounding: "ROUND"}
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = float64(i%256-128) * 0.1 // on the grid: every quotient near a boundary
	}
	for _, c := range []struct {
		name string
		f    func(x float64) float64
	}{
		{"exact", func(x float64) float64 { return s.QuantValue(x, 0.1, 0) }},
		{"big.Rat", func(x float64) float64 { return (float64(exactCode(s, x, 0.1, 0)) - 0) * 0.1 }},
		{"float64 quotient", func(x float64) float64 { return (RoundMode(s.Rounding, s.clamp(x/0.1)) - 0) * 0.1 }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for i := range b.N {
				c.f(xs[i%len(xs)])
			}
		})
	}
}

// TestFloatQuantValue: nn.float_quant's scalar rule (QONNX's float_quant,
// signed and saturating) on the cases its golden files do not reach:
// saturation, infinities, NaN, signed zeros, the subnormal step, and a
// quotient that underflows to 0 (its step is the smallest).
func TestFloatQuantValue(t *testing.T) {
	e4m3 := FloatQuantSpec{ExpBits: 4, ManBits: 3, Bias: 7, Rounding: "ROUND"}
	ceil := e4m3
	ceil.Rounding = "CEIL"
	if got := e4m3.MaxValue(); got != 480 {
		t.Errorf("E4M3 MaxValue = %v, want 480", got)
	}
	if got := (FloatQuantSpec{ExpBits: 5, ManBits: 2, Bias: 15}).MaxValue(); got != 114688 {
		t.Errorf("E5M2 MaxValue = %v, want 114688", got)
	}
	for _, c := range []struct {
		name                 string
		spec                 FloatQuantSpec
		x, scale, maxv, want float64
	}{
		{"binade [0.25, 0.5): step 2^-5", e4m3, 0.3, 1, 480, 0.3125},
		{"scaled", e4m3, 0.6, 2, 480, 0.625},
		{"max_val saturates", e4m3, 1000, 1, 448, 448},
		{"format's max saturates", e4m3, 1000, 1, 1e9, 480},
		{"negative saturates", e4m3, -1000, 1, 448, -448},
		{"+Inf", e4m3, math.Inf(1), 0.5, 448, 224},
		{"subnormal step 2^-9", e4m3, 0.001, 1, 480, 0x1p-9},
		{"below half the smallest step", e4m3, 0.0009, 1, 480, 0},
		{"CEIL of a tiny value", ceil, 1e-300, 1, 480, 0x1p-9},
		{"CEIL of an underflowed quotient", ceil, 5e-324, 4, 480, 0x1p-7},
		{"tie to even", e4m3, 1.0625, 1, 480, 1.0},
		{"tie to even, odd", e4m3, 1.1875, 1, 480, 1.25},
	} {
		if got := c.spec.FloatQuantValue(c.x, c.scale, c.maxv); got != c.want {
			t.Errorf("%s: FloatQuantValue(%v, %v, %v) = %v, want %v", c.name, c.x, c.scale, c.maxv, got, c.want)
		}
	}
	if got := e4m3.FloatQuantValue(math.NaN(), 1, 480); !math.IsNaN(got) {
		t.Errorf("NaN gives %v", got)
	}
	if got := e4m3.FloatQuantValue(math.Copysign(0, -1), 1, 480); got != 0 || !math.Signbit(got) {
		t.Errorf("-0 gives %v, want -0", got)
	}
}
