package quant

import (
	"math"
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

func TestParsePrint(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{"!quant.uniform<i8:f64, 0.0625>", "!quant.uniform<i8:f64, 0.0625>"},
		{"!quant.uniform<u7:f64, 1.250000e-01>", "!quant.uniform<u7:f64, 0.125>"},
		{"!quant.uniform<i9:f64, 0.125:0>", "!quant.uniform<i9:f64, 0.125>"},
		{"!quant.uniform<i4:f64, 4.0>", "!quant.uniform<i4:f64, 4.0>"},
		{"!quant.uniform<u1:f64, 1.0>", "!quant.uniform<u1:f64, 1.0>"},
		{"tensor<3x!quant.uniform<i12:f64, 0.125>>", "tensor<3x!quant.uniform<i12:f64, 0.125>>"},
	} {
		ty, err := ir.ParseType(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if got := ir.TypeString(ty); got != tc.out {
			t.Errorf("%s printed %s, want %s", tc.in, got, tc.out)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"!quant.uniform<i8:f64, 0.1>", "scale must be a positive power of two, got 0.1"},
		{"!quant.uniform<i8:f64, -0.5>", "scale must be a positive power of two"},
		{"!quant.uniform<i8:f64, 0.5:3>", "zero point must be 0, got 3"},
		{"!quant.uniform<i8:f32, 0.5>", "expressed type must be f64, got 'f32'"},
		{"!quant.uniform<i8<-7:7>:f64, 0.5>", "storage ranges"},
		{"!quant.uniform<i8:f64:0, {0.5,0.25}>", "per-axis quantization is not supported"},
		{"!quant.uniform<i64:f64, 0.5>", "storage width must be in [2, 63], got 64"},
		{"!quant.uniform<i1:f64, 0.5>", "storage width must be in [2, 63], got 1"},
		{"!quant.uniform<f8:f64, 0.5>", "storage type must be iN or uN"},
		{"!quant.uniform<i8:f64>", "missing the scale"},
		{"!quant.uniform<i8:f64, 1.4916681462400413e-154>", "out of range"},
		{"!quant.uniform<i8:f64, 2^-4>", "invalid scale"},
	} {
		_, err := ir.ParseType(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.in, err, tc.want)
		}
	}
}

// Quantize is floor then wrap, as alkaid-mlp's quant.json states:
// q = wrap_s9(floor(8x)), q = floor(8v) mod 128.
func TestQuantize(t *testing.T) {
	s9 := Uniform(9, true, 3)
	u7 := Uniform(7, false, 3)
	for _, tc := range []struct {
		ty   *UniformType
		v    float64
		want int64
	}{
		{s9, 0, 0}, {s9, -0.015625, -1}, {s9, 0.124, 0}, {s9, 31.875, 255}, {s9, 32, -256},
		{s9, -32.125, 255}, {s9, 100.5, 804 - 1024}, {s9, -100.5, -804 + 1024},
		{u7, 15.875, 127}, {u7, 16, 0}, {u7, 17.3, 10}, {u7, -0.125, 127},
		{s9, math.NaN(), 0}, {s9, math.Inf(1), 0},
		{Uniform(8, true, 0), 1e300, 0}, {Uniform(8, true, 0), -129, 127},
		{Uniform(63, false, 0), -1, 1<<63 - 1},
	} {
		if got := tc.ty.Quantize(tc.v); got != tc.want {
			t.Errorf("%s.Quantize(%v) = %d, want %d", tc.ty, tc.v, got, tc.want)
		}
	}
	if s9.Min() != -32 || s9.Max() != 31.875 || u7.Max() != 15.875 || u7.Min() != 0 {
		t.Errorf("bounds: s9 [%v, %v], u7 [%v, %v]", s9.Min(), s9.Max(), u7.Min(), u7.Max())
	}
	if k, i, f := s9.KIF(); k != 1 || i != 5 || f != 3 {
		t.Errorf("KIF of %s = %d %d %d", s9, k, i, f)
	}
}

func TestLookupTable(t *testing.T) {
	in, out := Uniform(3, true, 1), Uniform(6, false, 2) // in: -2, -1.5, ..., 1.5
	got, err := LookupTable(in, out, func(v float64) float64 { return v * v })
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{16, 9, 4, 1, 0, 1, 4, 9} // v² · 4
	for j := range want {
		if got[j] != want[j] {
			t.Fatalf("table = %v, want %v", got, want)
		}
	}
	if _, err := LookupTable(Uniform(21, true, 0), out, math.Exp); err == nil || !strings.Contains(err.Error(), "2^21 entries") {
		t.Errorf("a 21-bit table: %v", err)
	}
}

func TestRound(t *testing.T) {
	i4 := Uniform(4, true, 1)  // [-8, 7]·0.5
	u3 := Uniform(3, false, 0) // [0, 7]
	i63 := Uniform(63, true, 0)
	for _, c := range []struct {
		t    *UniformType
		v    float64
		want int64
	}{
		{i4, 1.25, 2}, {i4, 1.75, 4}, {i4, 0.75, 2}, {i4, 0.25, 0}, // ties to even
		{i4, -1.25, -2}, {i4, -1.75, -4}, {i4, -0.25, 0}, {i4, -1.3, -3},
		{i4, 3.5, 7}, {i4, 3.75, 7}, {i4, 100, 7}, {i4, -4, -8}, {i4, -4.25, -8}, {i4, -1e300, -8}, // saturation
		{i4, math.Inf(1), 7}, {i4, math.Inf(-1), -8}, {i4, math.NaN(), 0},
		{u3, -0.4, 0}, {u3, -3, 0}, {u3, 6.5, 6}, {u3, 7.4, 7}, {u3, 9, 7},
		{i63, 1e30, 1<<62 - 1}, {i63, -1e30, -1 << 62}, {i63, 0x1p61, 1 << 61},
	} {
		if got := c.t.Round(c.v); got != c.want {
			t.Errorf("%s.Round(%v) = %d, want %d", c.t, c.v, got, c.want)
		}
	}
}
