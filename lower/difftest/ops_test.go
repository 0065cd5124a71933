package difftest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/tiles"
	"github.com/otir-dev/otir/passes/passtest"
	_ "github.com/otir-dev/otir/passes/promote"
)

// prepare parses, verifies and promotes src.
func prepare(t testing.TB, src string) *ir.Module {
	t.Helper()
	m := passtest.Parse(t, "t.otir", src)
	passtest.MustRun(t, m, "builtin.module(promote-types)", src)
	return m
}

// check runs Check on the only kernel of src.
func check(t *testing.T, src string, samples int) *Report {
	t.Helper()
	m := prepare(t, src)
	r, err := Check(m, otir.Kernels(m)[0], tiles.Options{}, samples, 1)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return r
}

// binaryKernel applies op element-wise to two loaded 8-element tiles; with
// a constant rhs, b is a splat constant instead.
func binaryKernel(op, ta, tb, tc, rhs string) string {
	p := func(t string) string { return "!otir.tile<8x" + t + ", #private>" }
	g := func(t string) string { return "!otir.tile<8x" + t + ", #global>" }
	b := fmt.Sprintf("%%vb = otir.load %%b : %s -> %s", g(tb), p(tb))
	if rhs != "" {
		b = fmt.Sprintf("%%vb = otir.constant dense<%s> : %s", rhs, p(tb))
	}
	res := fmt.Sprintf("%%r = %s %%va, %%vb : (%s, %s) -> %s", op, p(ta), p(tb), p(tc))
	if strings.HasPrefix(op, "otir.cmp") {
		res = fmt.Sprintf("%%r = %s %%va, %%vb : (%s, %s) -> %s", op, p(ta), p(tb), p(tc))
	}
	return fmt.Sprintf(`otir.kernel @k(%%a: %s, %%b: %s, %%c: %s) {
  %%va = otir.load %%a : %s -> %s
  %s
  %s
  otir.store %%r, %%c : %s, %s
  otir.return
}
`, g(ta), g(tb), g(tc), g(ta), p(ta), b, res, p(tc), g(tc))
}

var intTypes = []string{"i8", "u8", "i4", "u3", "i16", "u16", "i32", "u32", "i64", "i1"}

// Every binary operation agrees with the executor for every pair of types,
// with a wrapping, an exact and a narrowing result type.
func TestBinaryOps(t *testing.T) {
	ops := []string{"otir.add", "otir.sub", "otir.mul", "otir.and", "otir.or", "otir.xor", "otir.max", "otir.min"}
	for _, op := range ops {
		for i, ta := range intTypes {
			tb := intTypes[(i+3)%len(intTypes)]
			for _, tc := range []string{ta, "i64", "u8", "i1"} {
				t.Run(fmt.Sprintf("%s/%s,%s->%s", op, ta, tb, tc), func(t *testing.T) {
					check(t, binaryKernel(op, ta, tb, tc, ""), 64)
				})
			}
		}
	}
}

// Comparisons, all predicates, between equal and mixed types.
func TestCompare(t *testing.T) {
	for _, pred := range []string{"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"} {
		for _, ty := range [][2]string{{"i8", "i8"}, {"u8", "u8"}, {"i8", "u8"}, {"u16", "i4"}, {"i64", "i64"}, {"u64", "u64"}, {"i1", "i1"}} {
			t.Run(pred+"/"+ty[0]+","+ty[1], func(t *testing.T) {
				check(t, binaryKernel("otir.cmp kind("+pred+")", ty[0], ty[1], "i1", ""), 64)
			})
		}
	}
}

// Division, remainder and shifts by constants.
func TestConstantDivisorsAndShifts(t *testing.T) {
	type c struct{ op, ty, k string }
	var cases []c
	for _, op := range []string{"otir.div_s", "otir.div_u", "otir.rem_s", "otir.rem_u"} {
		for _, k := range []string{"1", "2", "8", "-1", "-4", "64"} {
			for _, ty := range []string{"i8", "u8", "i16"} {
				cases = append(cases, c{op, ty, k})
			}
		}
	}
	for _, op := range []string{"otir.shl", "otir.shr_s", "otir.shr_u"} {
		for _, k := range []string{"0", "1", "3", "7", "8", "9", "40"} {
			for _, ty := range []string{"i8", "u8", "i32"} {
				cases = append(cases, c{op, ty, k})
			}
		}
	}
	for _, tc := range cases {
		if (tc.ty[0] == 'u' || strings.HasSuffix(tc.op, "_u")) && tc.k[0] == '-' {
			continue
		}
		if (tc.k == "64" || tc.k == "40") && tc.ty != "i32" && tc.ty != "i16" {
			continue
		}
		t.Run(tc.op+"/"+tc.ty+"/"+tc.k, func(t *testing.T) {
			check(t, binaryKernel(tc.op, tc.ty, tc.ty, tc.ty, tc.k), 64)
		})
	}
}

// Multiplication by constants: shift-and-add.
func TestConstantMultiply(t *testing.T) {
	for _, k := range []string{"0", "1", "-1", "2", "3", "7", "-6", "100", "-128", "127", "12345"} {
		for _, ty := range [][2]string{{"i8", "i8"}, {"i8", "i32"}, {"u8", "i16"}, {"i16", "i16"}} {
			t.Run(ty[0]+"*"+k+"->"+ty[1], func(t *testing.T) {
				tb := "i32"
				check(t, binaryKernel("otir.mul", ty[0], tb, ty[1], k), 64)
			})
		}
	}
}

// Unary operations and casts.
func TestUnaryOps(t *testing.T) {
	for _, op := range []string{"otir.neg", "otir.abs", "otir.not", "otir.cast"} {
		for _, ta := range intTypes {
			for _, tc := range []string{ta, "i64", "u8", "i4", "i1", "u32"} {
				src := fmt.Sprintf(`otir.kernel @k(%%a: !otir.tile<8x%[1]s, #global>, %%c: !otir.tile<8x%[2]s, #global>) {
  %%va = otir.load %%a : !otir.tile<8x%[1]s, #global> -> !otir.tile<8x%[1]s, #private>
  %%r = %[3]s %%va : (!otir.tile<8x%[1]s, #private>) -> !otir.tile<8x%[2]s, #private>
  otir.store %%r, %%c : !otir.tile<8x%[2]s, #private>, !otir.tile<8x%[2]s, #global>
  otir.return
}
`, ta, tc, op)
				if op == "otir.cast" {
					src = strings.Replace(src, ": (!otir.tile<8x"+ta+", #private>) -> ", ": !otir.tile<8x"+ta+", #private> -> ", 1)
				}
				t.Run(op+"/"+ta+"->"+tc, func(t *testing.T) { check(t, src, 64) })
			}
		}
	}
}

// 64-bit types, and results wider than 64 bits: kept modulo 2^64 where
// only the low bits matter (promote-types computes i64 + i64 in i65).
func TestWideIntermediates(t *testing.T) {
	for _, op := range []string{"otir.add", "otir.sub", "otir.mul", "otir.xor", "otir.max"} {
		for _, ty := range []string{"u64", "i64"} {
			t.Run(op+"/"+ty, func(t *testing.T) { check(t, binaryKernel(op, ty, ty, ty, ""), 64) })
		}
	}
	// Result widths the parser infers (HLS): i64 op u32, then op i64.
	sw := map[string]int{"otir.add": 65, "otir.sub": 65, "otir.mul": 96}
	tw := map[string]int{"otir.add": 66, "otir.sub": 66, "otir.mul": 160}
	for _, op := range []string{"otir.add", "otir.sub", "otir.mul"} {
		src := fmt.Sprintf(`module attributes {otir.typing_style = "hls"} {
otir.kernel @k(%%a: !otir.tile<4xi64, #global>, %%b: !otir.tile<4xu32, #global>, %%c: !otir.tile<4xi64, #global>, %%d: !otir.tile<4xu16, #global>) {
  %%va = otir.load %%a : !otir.tile<4xi64, #global> -> !otir.tile<4xi64, #private>
  %%vb = otir.load %%b : !otir.tile<4xu32, #global> -> !otir.tile<4xu32, #private>
  %%s = %s %%va, %%vb : !otir.tile<4xi64, #private>, !otir.tile<4xu32, #private>
  %%t = %s %%s, %%va : !otir.tile<4xi%d, #private>, !otir.tile<4xi64, #private>
  %%r = otir.cast %%t : !otir.tile<4xi%d, #private> -> !otir.tile<4xi64, #private>
  %%q = otir.cast %%t : !otir.tile<4xi%d, #private> -> !otir.tile<4xu16, #private>
  otir.store %%r, %%c : !otir.tile<4xi64, #private>, !otir.tile<4xi64, #global>
  otir.store %%q, %%d : !otir.tile<4xu16, #private>, !otir.tile<4xu16, #global>
  otir.return
}
}`, op, op, sw[op], tw[op], tw[op])
		t.Run("hls/"+op, func(t *testing.T) { check(t, src, 64) })
	}
}
