package exec

import (
	"math"
	"math/big"
	"math/rand"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
)

func TestRoundFloat16AndBF16(t *testing.T) {
	p := math.Ldexp
	inf := math.Inf(1)
	cases := []struct {
		kind ir.FloatKind
		in   float64
		want float64
	}{
		{ir.F16, 1, 1},
		{ir.F16, 1 + p(1, -11), 1},                         // tie: to even (1)
		{ir.F16, 1 + 3*p(1, -11), 1 + p(1, -9)},            // tie: to even (up)
		{ir.F16, 1 + p(1, -11) + p(1, -30), 1 + p(1, -10)}, // above the tie
		{ir.F16, 0.1, 0.0999755859375},
		{ir.F16, 65504, 65504},
		{ir.F16, 65519.99, 65504},
		{ir.F16, 65520, inf}, // tie between 65504 and 2^16: even is 2^16, which overflows
		{ir.F16, -65520, -inf},
		{ir.F16, p(1, -24), p(1, -24)}, // smallest subnormal
		{ir.F16, p(1, -25), 0},         // tie with 0: to even (0)
		{ir.F16, p(1, -25) + p(1, -40), p(1, -24)},
		{ir.F16, 3 * p(1, -26), p(1, -24)},
		{ir.F16, 3 * p(1, -25), 2 * p(1, -24)}, // 1.5 units: tie to even (2)
		{ir.F16, -p(1, -30), math.Copysign(0, -1)},
		{ir.F16, p(1, -14) - p(1, -25), p(1, -14)}, // rounds up to the smallest normal
		{ir.BF16, 1 + p(1, -8), 1},
		{ir.BF16, 1 + 3*p(1, -8), 1 + p(1, -6)},
		{ir.BF16, math.Pi, 3.140625},
		{ir.BF16, math.MaxFloat32, inf},
		{ir.BF16, p(255, 120), p(255, 120)},
		{ir.BF16, p(1, -133), p(1, -133)}, // smallest bf16 subnormal
		{ir.BF16, p(1, -134), 0},
		{ir.F32, 1 + p(1, -24), 1},
		{ir.F32, 1 + 3*p(1, -24), 1 + p(1, -22)},
	}
	for _, c := range cases {
		got := roundFloat64(c.in, c.kind)
		if math.Float64bits(got) != math.Float64bits(c.want) {
			t.Errorf("round(%g) to %s = %g, want %g", c.in, ir.Float(c.kind), got, c.want)
		}
		gotBig := roundBigFloat(new(big.Float).SetFloat64(c.in), c.kind)
		if math.Float64bits(gotBig) != math.Float64bits(c.want) && !(gotBig == 0 && c.want == 0) {
			t.Errorf("roundBig(%g) to %s = %g, want %g", c.in, ir.Float(c.kind), gotBig, c.want)
		}
	}
}

// TestRoundAgreement cross-checks the float64 and the exact rounding paths,
// and f32 against Go's own conversion, on random values of all magnitudes.
func TestRoundAgreement(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for i := 0; i < 20000; i++ {
		x := math.Ldexp(rng.Float64()+0.5, rng.Intn(320)-160)
		if rng.Intn(2) == 0 {
			x = -x
		}
		for _, k := range []ir.FloatKind{ir.F16, ir.BF16, ir.F32} {
			a := roundFloat64(x, k)
			b := roundBigFloat(new(big.Float).SetFloat64(x), k)
			if a != b {
				t.Fatalf("%s rounding of %g: float64 path %g, exact path %g", ir.Float(k), x, a, b)
			}
		}
		if got := roundFloat64(x, ir.F32); got != float64(float32(x)) {
			t.Fatalf("f32 rounding of %g = %g", x, got)
		}
	}
}

func TestF16Bits(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		x := npy.Float16FromBits(uint16(h))
		if math.IsNaN(x) {
			continue
		}
		if roundFloat64(x, ir.F16) != x {
			t.Fatalf("%#04x decodes to %g, not an f16 value", h, x)
		}
		if back := npy.Float16Bits(x); back != uint16(h) {
			t.Fatalf("%#04x -> %g -> %#04x", h, x, back)
		}
	}
	if npy.Float16Bits(math.NaN())&0x7c00 != 0x7c00 {
		t.Fatal("NaN does not encode as NaN")
	}
}

// TestIntToFloatSingleRounding: a 128-bit integer rounds once to bf16, not
// through float64 (which would round the exact value to a tie first).
func TestIntToFloatSingleRounding(t *testing.T) {
	v := new(big.Int).Lsh(big.NewInt(1), 60)
	v.Add(v, new(big.Int).Lsh(big.NewInt(1), 52)) // the bf16 tie at 2^60
	v.Add(v, big.NewInt(1))                       // just above it
	x := newKB(t, nil, "a: !otir.tile<1xi128, #global>", "c: !otir.tile<1xbf16, #global>")
	la := x.load(x.arg("a"), "!otir.tile<1xi128, #private>")
	x.store(x.op(otir.OpCast, "!otir.tile<1xbf16, #private>", nil, la), x.arg("c"))
	a := NewBuffer(ir.Int(128, true), 1)
	_ = a.SetInt(0, v)
	got := run(t, x.done(), Options{}, a, NewBuffer(ir.Float(ir.BF16), 1)).Output("c").Floats[0]
	if want := math.Ldexp(1, 60) + math.Ldexp(1, 53); got != want {
		t.Fatalf("i128 %s to bf16 = %g, want %g", v, got, want)
	}
}

// floatOp runs "op %a, %b : (T, T) -> R" over tiles of n values.
func floatOp(t *testing.T, name string, attrs ir.Attrs, T, R string, a, b []float64, opts Options) *Buffer {
	t.Helper()
	n := len(a)
	shape := []int64{int64(n)}
	in := "!otir.tile<" + itoa64(int64(n)) + "x" + T
	out := "!otir.tile<" + itoa64(int64(n)) + "x" + R
	x := newKB(t, nil, "a: "+in+", #global>", "b: "+in+", #global>", "c: "+out+", #global>")
	la := x.load(x.arg("a"), in+", #private>")
	lb := x.load(x.arg("b"), in+", #private>")
	x.store(x.op(name, out+", #private>", attrs, la, lb), x.arg("c"))
	ft := ty(t, T).(*ir.FloatType)
	A, _ := FromFloats(ft, shape, a...)
	B, _ := FromFloats(ft, shape, b...)
	return run(t, x.done(), opts, A, B, NewBuffer(ty(t, R), shape...)).Output("c")
}

func itoa64(v int64) string { return big.NewInt(v).String() }

func TestFloatArithmetic(t *testing.T) {
	p := math.Ldexp
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		op, T string
		a, b  float64
		want  float64
	}{
		{otir.OpAdd, "f16", 1, p(1, -11), 1},                // computed in f32, rounded to even
		{otir.OpAdd, "f16", 1, 3 * p(1, -11), 1 + p(1, -9)}, // f16(3*2^-11) is exact
		{otir.OpAdd, "f16", 65504, 16, inf},
		{otir.OpAdd, "bf16", 1, p(1, -8), 1},
		{otir.OpMul, "bf16", 3, 1.0 / 3, 1},
		{otir.OpSub, "f32", 1, p(1, -25), 1},
		{otir.OpDivS, "f32", 1, 0, inf}, // IEEE: no error for floats
		{otir.OpDivU, "f64", -1, 0, -inf},
		{otir.OpDivS, "f64", 0, 0, nan},
		{otir.OpRemS, "f64", -7, 2, -1}, // fmod: the dividend's sign
		{otir.OpMax, "f32", nan, 1, nan},
		{otir.OpMin, "f32", math.Copysign(0, -1), 0, math.Copysign(0, -1)},
		{otir.OpMax, "f32", math.Copysign(0, -1), 0, 0},
	}
	for _, c := range cases {
		// The verifier admits no float division (div/rem need integers), but
		// the executor defines it as IEEE division and fmod.
		opts := Options{SkipVerify: strings.Contains(c.op, "div") || strings.Contains(c.op, "rem")}
		got := floatOp(t, c.op, nil, c.T, c.T, []float64{c.a}, []float64{c.b}, opts).Floats[0]
		if math.Float64bits(got) != math.Float64bits(c.want) && !(math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("%s(%g, %g) : %s = %g, want %g", c.op, c.a, c.b, c.T, got, c.want)
		}
	}
}

func TestFloatCmp(t *testing.T) {
	nan := math.NaN()
	a := []float64{1, 2, nan, 1, math.Copysign(0, -1)}
	b := []float64{2, 2, 1, nan, 0}
	want := map[string][]int64{
		"oeq": {0, 1, 0, 0, 1}, "one": {1, 0, 0, 0, 0}, "olt": {1, 0, 0, 0, 0},
		"ole": {1, 1, 0, 0, 1}, "ogt": {0, 0, 0, 0, 0}, "oge": {0, 1, 0, 0, 1},
		"eq": {0, 1, 0, 0, 1}, "ne": {1, 0, 1, 1, 0},
	}
	for pred, w := range want {
		got := floatOp(t, otir.OpCmp, ir.Attrs{{Name: "kind", Value: &ir.StringAttr{Value: pred}}}, "f32", "i1", a, b, Options{})
		wantInts(t, "cmp "+pred, got, w...)
	}
}

// TestFloatToIntConversion: floats convert to integers by rounding toward
// -inf, then wrap; NaN has no integer value.
func TestFloatToIntConversion(t *testing.T) {
	vals := []float64{2.5, -2.5, -0.5, 300.75, -129, 1e20}
	x := newKB(t, nil, "a: !otir.tile<6xf64, #global>", "c: !otir.tile<6xi8, #global>", "d: !otir.tile<6xu8, #global>")
	la := x.load(x.arg("a"), "!otir.tile<6xf64, #private>")
	x.store(x.op(otir.OpCast, "!otir.tile<6xi8, #private>", nil, la), x.arg("c"))
	x.store(x.op(otir.OpCast, "!otir.tile<6xu8, #private>", nil, la), x.arg("d"))
	A, _ := FromFloats(ir.Float(ir.F64), []int64{6}, vals...)
	res := run(t, x.done(), Options{}, A, NewBuffer(ir.Int(8, true), 6), NewBuffer(ir.Int(8, false), 6))
	// 1e20 mod 256 = 0 (1e20 = 2^20 * 5^20).
	wantInts(t, "i8", res.Output("c"), 2, -3, -1, 44, 127, 0)
	wantInts(t, "u8", res.Output("d"), 2, 253, 255, 44, 127, 0)

	A, _ = FromFloats(ir.Float(ir.F64), []int64{6}, 1, 2, math.NaN(), 4, 5, 6)
	x2 := newKB(t, nil, "a: !otir.tile<6xf64, #global>", "c: !otir.tile<6xi8, #global>")
	x2.store(x2.op(otir.OpCast, "!otir.tile<6xi8, #private>", nil, x2.load(x2.arg("a"), "!otir.tile<6xf64, #private>")), x2.arg("c"))
	d := runErr(t, x2.done(), Options{}, A, NewBuffer(ir.Int(8, true), 6))
	if !strings.Contains(d.Msg, "cannot convert NaN to i8 (element [2])") || d.Loc.Line != 4 {
		t.Fatalf("got %v", d)
	}
}

// TestIntFloatMixedCmp: eq compares an integer and a float exactly (no
// rounding of the integer to the float's format).
func TestIntFloatMixedCmp(t *testing.T) {
	big1 := new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 70), big.NewInt(1))
	c, ok := cmpExact(bigNum(big1), floatNum(math.Ldexp(1, 70)))
	if !ok || c != 1 {
		t.Fatalf("2^70+1 vs 2^70: %d %v", c, ok)
	}
	if _, ok := cmpExact(intNum(1), floatNum(math.NaN())); ok {
		t.Fatal("NaN compared as ordered")
	}
}
