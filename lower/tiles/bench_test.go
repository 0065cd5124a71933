package tiles

import (
	"fmt"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
)

// elementwiseKernel adds and multiplies two n x n int8 tiles: 2n^2 scalar
// operations (plus 2n^2 inputs).
func elementwiseKernel(n int) string {
	t := fmt.Sprintf("!otir.tile<%dx%dxi8, #global>", n, n)
	p := fmt.Sprintf("!otir.tile<%dx%dxi8, #private>", n, n)
	q := fmt.Sprintf("!otir.tile<%dx%dxi16, #private>", n, n)
	return fmt.Sprintf(`otir.kernel @ew(%%a: %[1]s, %%b: %[1]s, %%c: !otir.tile<%[4]dx%[4]dxi16, #global>) {
  %%va = otir.load %%a : %[1]s -> %[2]s
  %%vb = otir.load %%b : %[1]s -> %[2]s
  %%s = otir.add %%va, %%vb : (%[2]s, %[2]s) -> %[3]s
  %%m = otir.mul %%s, %%vb : (%[3]s, %[2]s) -> %[3]s
  otir.store %%m, %%c : %[3]s, !otir.tile<%[4]dx%[4]dxi16, #global>
  otir.return
}`, t, p, q, n)
}

// chainKernel applies n dependent wrapping adds to 16 elements through an
// unrolled scf.for: 16n scalar operations.
func chainKernel(n int) string {
	return fmt.Sprintf(`otir.kernel @chain(%%a: !otir.tile<16xi8, #global>, %%c: !otir.tile<16xi8, #global>) {
  %%v = otir.load %%a : !otir.tile<16xi8, #global> -> !otir.tile<16xi8, #private>
  %%c0 = otir.constant 0 : index
  %%c1 = otir.constant 1 : index
  %%n = otir.constant %d : index
  %%r = scf.for %%i = %%c0 to %%n step %%c1 iter_args(%%x = %%v) -> (!otir.tile<16xi8, #private>) {
    %%y = otir.add %%x, %%v : !otir.tile<16xi8, #private>
    scf.yield %%y : !otir.tile<16xi8, #private>
  }
  otir.store %%r, %%c : !otir.tile<16xi8, #private>, !otir.tile<16xi8, #global>
  otir.return
}`, n)
}

func benchLower(b *testing.B, src string) {
	m := parseText(b, src)
	k := otir.Kernels(m)[0]
	b.ReportAllocs()
	ops := 0
	for b.Loop() {
		prog, err := LowerKernel(k, Options{})
		if err != nil {
			b.Fatal(err)
		}
		ops = len(prog.Body(0).Ops)
	}
	b.ReportMetric(float64(ops), "dais-ops")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(ops), "ns/dais-op")
}

// BenchmarkElementwise lowers the element-wise kernel on 32x32, 64x64 and
// 128x128 tiles: time and memory per dais op stay flat.
func BenchmarkElementwise(b *testing.B) {
	for _, n := range []int{32, 64, 128} {
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) { benchLower(b, elementwiseKernel(n)) })
	}
}

// BenchmarkChain lowers a chain of 250, 1000 and 4000 dependent adds
// (times 16 elements).
func BenchmarkChain(b *testing.B) {
	for _, n := range []int{250, 1000, 4000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchLower(b, chainKernel(n)) })
	}
}
