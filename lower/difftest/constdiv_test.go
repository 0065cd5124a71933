package difftest

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/backend/exec"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
	"github.com/otir-dev/otir/lower/tiles"
)

// divKernel divides (or takes the remainder of) a loaded tile by a constant
// tile holding one divisor per element.
func divKernel(op, ta, tc string, divisors []string) string {
	n := len(divisors)
	p := func(t string) string { return fmt.Sprintf("!otir.tile<%dx%s, #private>", n, t) }
	g := func(t string) string { return fmt.Sprintf("!otir.tile<%dx%s, #global>", n, t) }
	return fmt.Sprintf(`otir.kernel @k(%%a: %s, %%c: %s) {
  %%va = otir.load %%a : %s -> %s
  %%vb = otir.constant dense<[%s]> : %s
  %%r = %s %%va, %%vb : (%s, %s) -> %s
  otir.store %%r, %%c : %s, %s
  otir.return
}
`, g(ta), g(tc), g(ta), p(ta), strings.Join(divisors, ", "), p(ta), op, p(ta), p(ta), p(tc), p(tc), g(tc))
}

// checkArgs lowers the only kernel of src and compares the ALIR
// interpreter with the executor on the given values of the first argument
// (one sample per row; the other arguments are zero).
func checkArgs(t *testing.T, src string, rows [][]int64) int {
	t.Helper()
	m := prepare(t, src)
	k := otir.Kernels(m)[0]
	prog, err := tiles.LowerKernel(k, tiles.Options{})
	if err != nil {
		t.Fatalf("lower-tiles: %v", err)
	}
	p, err := dais.ToALIR(prog)
	if err != nil {
		t.Fatal(err)
	}
	mach, err := alir.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	params := exec.Params(k)
	in := make([]float64, 0, len(rows)*p.NumInputs())
	args := make([][]*exec.Buffer, len(rows))
	for s, row := range rows {
		args[s] = make([]*exec.Buffer, len(params))
		for i, pa := range params {
			tt := pa.Type.(*ir.TileType)
			args[s][i] = exec.NewBuffer(tt.Elem, tt.Shape...)
		}
		for j, v := range row {
			if err := args[s][0].SetInt(j, big.NewInt(v)); err != nil {
				t.Fatal(err)
			}
			in = append(in, float64(v))
		}
	}
	if len(in) != len(rows)*p.NumInputs() {
		t.Fatalf("program has %d inputs", p.NumInputs())
	}
	got, err := mach.Run(in, len(rows))
	if err != nil {
		t.Fatal(err)
	}
	nOut := p.NumOutputs()
	for s := range rows {
		res, err := exec.Run(m, "k", args[s], exec.Options{SkipVerify: s > 0})
		if err != nil {
			t.Fatalf("executor: %v", err)
		}
		c := res.Args[len(params)-1]
		for j := 0; j < c.Len(); j++ {
			if want, have := c.FloatAt(j), got[s*nOut+j]; want != have {
				t.Fatalf("element %d, a = %d: executor %v, ALIR %v", j, rows[s][j], want, have)
			}
		}
	}
	return len(p.Ops)
}

// Every 8-bit dividend by every nonzero 8-bit divisor, for the four
// operations read signed and unsigned, into the operand type and into a
// narrower and a wider result type.
func TestConstantDivisorsExhaustive8(t *testing.T) {
	for _, ta := range []string{"i8", "u8"} {
		lo, hi := int64(-128), int64(127)
		if ta == "u8" {
			lo, hi = 0, 255
		}
		var divs []string
		for d := lo; d <= hi; d++ {
			if d != 0 {
				divs = append(divs, fmt.Sprint(d))
			}
		}
		var rows [][]int64
		for v := lo; v <= hi; v++ {
			row := make([]int64, len(divs))
			for j := range row {
				row[j] = v
			}
			rows = append(rows, row)
		}
		for _, op := range []string{"otir.div_s", "otir.rem_s", "otir.div_u", "otir.rem_u"} {
			for _, tc := range []string{ta, "i4", "i16"} {
				t.Run(op+"/"+ta+"->"+tc, func(t *testing.T) {
					ops := checkArgs(t, divKernel(op, ta, tc, divs), rows)
					t.Logf("%d ALIR ops for %d divisions", ops, len(divs))
				})
			}
		}
	}
}

// Random dividends of wider types by random divisors (and the divisors
// around powers of two and the type's extremes).
func TestConstantDivisorsWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, ta := range []string{"i16", "u16", "i32", "u32"} {
		w := 16
		if ta[1:] == "32" {
			w = 32
		}
		signed := ta[0] == 'i'
		for _, op := range []string{"otir.div_s", "otir.rem_s", "otir.div_u", "otir.rem_u"} {
			var divs []string
			add := func(d int64) {
				if d == 0 {
					return
				}
				if !signed && d < 0 || !signed && d >= 1<<w || signed && (d < -(1<<(w-1)) || d >= 1<<(w-1)) {
					return
				}
				divs = append(divs, fmt.Sprint(d))
			}
			for _, d := range []int64{3, 5, 6, 7, 10, 100, 641, -3, -7, -10, 1<<(w-1) - 1, -(1 << (w - 1)), 1<<(w-1) + 1, 1<<w - 1, 1<<w - 3, -(1<<(w-1) - 1), 1 << (w - 2) * 3} {
				add(d)
			}
			for len(divs) < 48 {
				d := rng.Int64N(1<<w) - (1 << (w - 1))
				if !signed {
					d = rng.Int64N(1 << w)
				}
				if rng.IntN(2) == 0 {
					d >>= rng.IntN(w)
				}
				add(d)
			}
			t.Run(op+"/"+ta, func(t *testing.T) {
				r := check(t, divKernel(op, ta, ta, divs), 64)
				t.Logf("%d ALIR ops for %d divisions", r.Ops, len(divs))
			})
		}
	}
}

// 64-bit dividends: every value of the lowered program must fit int64 (as
// alkaid's interpreter computes), which narrower ranges (an i32 widened to
// i64) and large divisors do; full-range i64 dividends whose magic-number
// product cannot be split into int64 halves, or whose remainder needs a
// 64-bit difference, and u64 dividends from 2^63 up are diagnostics.
func TestConstantDivisors64(t *testing.T) {
	divs := []string{"3", "-7", "10", "1000000007", "-1000000007", "6442450941", "-6442450941", "9223372036854775807", "-9223372036854775807", "4611686018427387905"}
	for _, op := range []string{"otir.div_s", "otir.rem_s", "otir.div_u", "otir.rem_u"} {
		src := fmt.Sprintf(`otir.kernel @k(%%a: !otir.tile<10xi32, #global>, %%c: !otir.tile<10xi64, #global>) {
  %%va = otir.load %%a : !otir.tile<10xi32, #global> -> !otir.tile<10xi32, #private>
  %%w = otir.cast %%va : !otir.tile<10xi32, #private> -> !otir.tile<10xi64, #private>
  %%vb = otir.constant dense<[%s]> : !otir.tile<10xi64, #private>
  %%r = %s %%w, %%vb : (!otir.tile<10xi64, #private>, !otir.tile<10xi64, #private>) -> !otir.tile<10xi64, #private>
  otir.store %%r, %%c : !otir.tile<10xi64, #private>, !otir.tile<10xi64, #global>
  otir.return
}
`, strings.Join(divs, ", "), op)
		if strings.HasSuffix(op, "_u") {
			// The unsigned reading of a widened u32 stays in [0, 2^32).
			src = strings.ReplaceAll(src, "10xi32", "10xu32")
		}
		t.Run(op+"/widened", func(t *testing.T) {
			r := check(t, src, 64)
			t.Logf("%d ALIR ops", r.Ops)
		})
	}
	// Full-range i64 and u64 dividends.
	for _, tc := range []struct{ op, ty, d, err string }{
		{"otir.div_s", "i64", "3", "division by 3 of values in [-9223372036854775808, 9223372036854775807] needs a 125-bit product, more than ALIR's 64"},
		{"otir.rem_u", "u64", "10", "division by 10 of values in [0, 18446744073709551615], which do not fit int64, in which alkaid's ALIR interpreter computes"},
		// By ±(2^63-1) the quotient is -1, 0 or 1, but the biased dividend
		// (or, split on its sign, |x| + 1) and the remainder's difference
		// leave int64.
		{"otir.div_s", "i64", "9223372036854775807", "division by 9223372036854775807 of values in [-9223372036854775808, 9223372036854775807] needs a value outside int64, in which alkaid's ALIR interpreter computes"},
		{"otir.rem_s", "i64", "9223372036854775807", "division by 9223372036854775807 of values in [-9223372036854775808, 9223372036854775807] needs a value outside int64, in which alkaid's ALIR interpreter computes"},
		{"otir.rem_s", "i64", "-9223372036854775807", "division by -9223372036854775807 of values in [-9223372036854775808, 9223372036854775807] needs a value outside int64, in which alkaid's ALIR interpreter computes"},
		{"otir.div_s", "i64", "-9223372036854775807", "division by -9223372036854775807 of values in [-9223372036854775808, 9223372036854775807] needs a value outside int64, in which alkaid's ALIR interpreter computes"},
		{"otir.div_u", "u64", "12297829382473034411", "division by 12297829382473034411 of values in [0, 18446744073709551615], which do not fit int64, in which alkaid's ALIR interpreter computes"},
		// By powers of two full-range dividends lower: x < 0 is clamped to
		// min(x, -1) before it is raised by |d| - 1, which stays in int64.
		{"otir.div_s", "i64", "4611686018427387904", ""},
		{"otir.rem_s", "i64", "-4", ""},
		{"otir.div_s", "i64", "-1024", ""},
	} {
		t.Run(tc.op+"/"+tc.ty+"/"+tc.d, func(t *testing.T) {
			src := divKernel(tc.op, tc.ty, tc.ty, []string{tc.d, tc.d})
			if tc.err == "" {
				r := check(t, src, 64)
				t.Logf("%d ALIR ops", r.Ops)
				return
			}
			m := prepare(t, src)
			_, err := tiles.LowerKernel(otir.Kernels(m)[0], tiles.Options{})
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("got %v, want an error containing %q", err, tc.err)
			}
		})
	}
}

// Dividends of one sign (x <= 0, x < 0, x >= 0, x > 0, and far from 0) and
// of both, by random
// constants of both signs, powers of two and the extremes among them: the
// lowering picks a different reduction to floor division for each sign
// case. Every 8-bit dividend is checked.
func TestConstantDivisorsBySign(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	divs := []string{"1", "-1", "2", "-2", "4", "-4", "64", "-64", "-128", "127", "-127", "3", "-3", "6", "-6", "7", "-7"}
	for len(divs) < 48 {
		if d := rng.Int64N(256) - 128; d != 0 {
			divs = append(divs, fmt.Sprint(d))
		}
	}
	var rows [][]int64
	for v := int64(-128); v <= 127; v++ {
		row := make([]int64, len(divs))
		for j := range row {
			row[j] = v
		}
		rows = append(rows, row)
	}
	// Each narrows the loaded %va to a range of one sign, or keeps it.
	narrow := []struct{ name, expr string }{
		{"both", "otir.or %va, %z"},
		{"nonpositive", "otir.min %va, %z"},
		{"negative", "otir.min %va, %m1"},
		{"nonnegative", "otir.max %va, %z"},
		{"positive", "otir.max %va, %p1"},
		{"far negative", "otir.min %va, %m100"}, // [-128, -100]: L != 0
		{"far positive", "otir.max %va, %p100"}, // [100, 127]
	}
	for _, nw := range narrow {
		name, expr := nw.name, nw.expr
		for _, op := range []string{"otir.div_s", "otir.rem_s"} {
			for _, tc := range []string{"i8", "i16"} {
				n := len(divs)
				p := func(t string) string { return fmt.Sprintf("!otir.tile<%dx%s, #private>", n, t) }
				g := func(t string) string { return fmt.Sprintf("!otir.tile<%dx%s, #global>", n, t) }
				src := fmt.Sprintf(`otir.kernel @k(%%a: %[1]s, %%c: %[2]s) {
  %%va = otir.load %%a : %[1]s -> %[3]s
  %%z = otir.constant dense<0> : %[3]s
  %%m1 = otir.constant dense<-1> : %[3]s
  %%p1 = otir.constant dense<1> : %[3]s
  %%m100 = otir.constant dense<-100> : %[3]s
  %%p100 = otir.constant dense<100> : %[3]s
  %%x = %[5]s : %[3]s
  %%vb = otir.constant dense<[%[6]s]> : %[3]s
  %%r = %[7]s %%x, %%vb : (%[3]s, %[3]s) -> %[4]s
  otir.store %%r, %%c : %[4]s, %[2]s
  otir.return
}
`, g("i8"), g(tc), p("i8"), p(tc), expr, strings.Join(divs, ", "), op)
				t.Run(name+"/"+op+"->"+tc, func(t *testing.T) {
					ops := checkArgs(t, src, rows)
					t.Logf("%d ALIR ops for %d divisions", ops, n)
				})
			}
		}
	}
}

// 64-bit dividends of one sign reaching -2^63 or 2^63-1: -x does not fit
// int64, so x <= 0 is raised by |d| - 1 instead of negated; by powers of
// two they lower, by 3 the product needs 125 bits.
func TestConstantDivisors64OneSign(t *testing.T) {
	for _, tc := range []struct{ narrow, op, d, err string }{
		{"min", "otir.div_s", "-4", ""},
		{"min", "otir.rem_s", "-4", ""},
		{"min", "otir.div_s", "4", ""},
		{"min", "otir.rem_s", "4", ""},
		{"max", "otir.rem_s", "-4", ""},
		{"min", "otir.div_s", "-9223372036854775808", ""},
		{"min", "otir.rem_s", "-9223372036854775808", "the remainder by -9223372036854775808 of values in [-9223372036854775808, 0] needs a value outside int64, in which alkaid's ALIR interpreter computes"},
		{"min", "otir.div_s", "3", "division by 3 of values in [-9223372036854775808, 0] needs a 125-bit product, more than ALIR's 64"},
		{"max", "otir.rem_s", "-3", "division by -3 of values in [0, 9223372036854775807] needs a 125-bit product, more than ALIR's 64"},
	} {
		src := fmt.Sprintf(`otir.kernel @k(%%a: !otir.tile<2xi64, #global>, %%c: !otir.tile<2xi64, #global>) {
  %%va = otir.load %%a : !otir.tile<2xi64, #global> -> !otir.tile<2xi64, #private>
  %%z = otir.constant dense<0> : !otir.tile<2xi64, #private>
  %%x = otir.%s %%va, %%z : !otir.tile<2xi64, #private>
  %%vb = otir.constant dense<%s> : !otir.tile<2xi64, #private>
  %%r = %s %%x, %%vb : !otir.tile<2xi64, #private>
  otir.store %%r, %%c : !otir.tile<2xi64, #private>, !otir.tile<2xi64, #global>
  otir.return
}
`, tc.narrow, tc.d, tc.op)
		t.Run(tc.narrow+"/"+tc.op+"/"+tc.d, func(t *testing.T) {
			if tc.err == "" {
				r := check(t, src, 256)
				t.Logf("%d ALIR ops", r.Ops)
				return
			}
			m := prepare(t, src)
			_, err := tiles.LowerKernel(otir.Kernels(m)[0], tiles.Options{})
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("got %v, want an error containing %q", err, tc.err)
			}
		})
	}
}
