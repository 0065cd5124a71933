package ir

import (
	"math"
	"math/rand"
	"strconv"
	"testing"
)

// TestFloatBitsNarrow: every f16 and bf16 pattern, NaNs included, decodes
// and encodes back to itself, and prints as text that rounds back to it.
func TestFloatBitsNarrow(t *testing.T) {
	for _, ft := range []*FloatType{Float(F16), Float(BF16)} {
		for b := uint64(0); b < 1<<16; b++ {
			f := FloatFromBits(b, ft)
			if got := FloatBits(f, ft); got != b {
				t.Fatalf("%s %#x: decodes to %v, encodes to %#x", ft, b, f, got)
			}
			if math.IsNaN(f) || math.IsInf(f, 0) {
				continue
			}
			s := FormatFloatOf(f, ft)
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || FloatBits(v, ft) != b {
				t.Fatalf("%s %#x prints as %q, which reads as %#x", ft, b, s, FloatBits(v, ft))
			}
		}
	}
}

// TestFloatBitsRounding checks rounding to nearest, ties to even, subnormals
// and overflow against known patterns, and f32 against Go's conversion.
func TestFloatBitsRounding(t *testing.T) {
	f16, bf16, f32 := Float(F16), Float(BF16), Float(F32)
	for _, c := range []struct {
		f    float64
		t    *FloatType
		want uint64
	}{
		{1, f16, 0x3C00}, {0.1, f16, 0x2E66}, {65504, f16, 0x7BFF}, {65519, f16, 0x7BFF},
		{65520, f16, 0x7C00}, {-65520, f16, 0xFC00}, {math.Ldexp(1, -24), f16, 0x0001},
		{math.Ldexp(1, -25), f16, 0}, {3 * math.Ldexp(1, -26), f16, 1}, {math.Ldexp(1, -14), f16, 0x0400},
		{math.Ldexp(1023.5, -24), f16, 0x0400}, {math.Copysign(0, -1), f16, 0x8000},
		{1 + math.Ldexp(1, -11), f16, 0x3C00}, {1 + 3*math.Ldexp(1, -11), f16, 0x3C02},
		{1, bf16, 0x3F80}, {0.1, bf16, 0x3DCD}, {math.Inf(-1), bf16, 0xFF80}, {1e39, bf16, 0x7F80},
		{math.Float64frombits(0x7FF8000000000000), f32, 0x7FC00000},
		{math.Float64frombits(0x7FF0000000000001), f32, 0x7FC00000}, // payload below f32's: still a NaN
	} {
		if got := FloatBits(c.f, c.t); got != c.want {
			t.Errorf("FloatBits(%v, %s) = %#x, want %#x", c.f, c.t, got, c.want)
		}
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 100000; i++ {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) {
			continue
		}
		if got, want := FloatBits(f, f32), uint64(math.Float32bits(float32(f))); got != want {
			t.Fatalf("FloatBits(%v, f32) = %#x, want %#x", f, got, want)
		}
		b := uint64(r.Uint32())
		if got := FloatBits(FloatFromBits(b, f32), f32); got != b {
			t.Fatalf("f32 %#x round trips to %#x", b, got)
		}
	}
}

// TestFormatFloatOf: NaNs and infinities print as their type's pattern.
func TestFormatFloatOf(t *testing.T) {
	for _, c := range []struct {
		bits uint64
		t    *FloatType
		want string
	}{
		{0x7FC00000, Float(F32), "0x7FC00000"},
		{0x7F800001, Float(F32), "0x7F800001"},
		{0xFF800000, Float(F32), "0xFF800000"},
		{0x7C00, Float(F16), "0x7C00"},
		{0x7E01, Float(F16), "0x7E01"},
		{0x7FC1, Float(BF16), "0x7FC1"},
		{0x7FF0000000000001, Float(F64), "0x7FF0000000000001"},
		{0x3DCCCCCD, Float(F32), "0.1"},
		{0x4B800000, Float(F32), "1.6777216e+07"},
		{0x3C00, Float(F16), "1.0"},
	} {
		if got := FormatFloatOf(FloatFromBits(c.bits, c.t), c.t); got != c.want {
			t.Errorf("FormatFloatOf(%#x : %s) = %s, want %s", c.bits, c.t, got, c.want)
		}
	}
}

func TestQuoteString(t *testing.T) {
	for in, want := range map[string]string{
		"hls":          `"hls"`,
		"a\"b\\c":      `"a\"b\\c"`,
		"\n\t":         `"\n\t"`,
		"café":         `"café"`,
		"\xff\x00x":    `"\FF\00x"`,
		"\a\r\x7f":     `"\07\0D\7F"`,
		"é\xe9":        `"é\E9"`,
		"\u00a0\u200b": `"\C2\A0\E2\80\8B"`,
	} {
		if got := QuoteString(in); got != want {
			t.Errorf("QuoteString(%q) = %s, want %s", in, got, want)
		}
	}
}
