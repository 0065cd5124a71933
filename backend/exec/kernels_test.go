package exec

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/parse"
)

// parseModule parses OTIR text (file name test.otir) and fails the test on
// a parse error.
func parseModule(t testing.TB, src string) *ir.Module {
	t.Helper()
	m, err := parse.Parse("test.otir", []byte(src), parse.Options{})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return m
}

// runText parses src and runs its only kernel.
func runText(t testing.TB, src string, opts Options, args ...*Buffer) *Result {
	t.Helper()
	res, err := Run(parseModule(t, src), "", args, opts)
	if err != nil {
		t.Fatalf("run: %v", renderErr(err))
	}
	return res
}

// seq returns n values start, start+step, ... wrapped into [lo, hi].
func seq(n int, start, step, lo, hi int64) []int64 {
	out := make([]int64, n)
	v := start
	for i := range out {
		out[i] = lo + ((v-lo)%(hi-lo+1)+(hi-lo+1))%(hi-lo+1)
		v += step
	}
	return out
}

const vaddSrc = `
otir.kernel @vadd(%a: !otir.tile<64xi8, #global>, %b: !otir.tile<64xi8, #global>, %c: !otir.tile<64xi9, #global>) attributes {grid = [4]} {
  %pid = otir.program_id axis(0)
  %c16 = otir.constant 16 : index
  %off = otir.mul %pid, %c16 : index
  %ga = otir.extract_slice %a[%off] [16] [1] : !otir.tile<64xi8, #global> to !otir.tile<16xi8, #global>
  %gb = otir.extract_slice %b[%off] [16] [1] : !otir.tile<64xi8, #global> to !otir.tile<16xi8, #global>
  %gc = otir.extract_slice %c[%off] [16] [1] : !otir.tile<64xi9, #global> to !otir.tile<16xi9, #global>
  %wa = otir.alloc() : !otir.tile<16xi8, #workgroup>
  %wb = otir.alloc() : !otir.tile<16xi8, #workgroup>
  %t0 = otir.dma_copy_async %ga, %wa : (!otir.tile<16xi8, #global>, !otir.tile<16xi8, #workgroup>) -> !otir.token
  %t1 = otir.dma_copy_async %gb, %wb : (!otir.tile<16xi8, #global>, !otir.tile<16xi8, #workgroup>) -> !otir.token
  otir.wait [%t0, %t1]
  %va = otir.load %wa : !otir.tile<16xi8, #workgroup> -> !otir.tile<16xi8, #private>
  %vb = otir.load %wb : !otir.tile<16xi8, #workgroup> -> !otir.tile<16xi8, #private>
  %s = otir.add %va, %vb : (!otir.tile<16xi8, #private>, !otir.tile<16xi8, #private>) -> !otir.tile<16xi9, #private>
  otir.store %s, %gc : !otir.tile<16xi9, #private>, !otir.tile<16xi9, #global>
  otir.return
}
`

func TestVectorAddOverGrid(t *testing.T) {
	a := seq(64, -128, 7, -128, 127)
	b := seq(64, 127, -13, -128, 127)
	res := runText(t, vaddSrc, Options{CheckRaces: true}, ints(t, "64xi8", a...), ints(t, "64xi8", b...), ints(t, "64xi9", make([]int64, 64)...))
	want := make([]int64, 64)
	for i := range want {
		want[i] = a[i] + b[i] // exact in i9
	}
	wantInts(t, "c", res.Output("c"), want...)
	wantInts(t, "a unchanged", res.Output("a"), a...)
	if len(res.Races) != 0 {
		t.Fatalf("races reported: %v", res.Races)
	}
	if ps := res.Params; ps[0].Written || ps[1].Written || !ps[2].Written || !ps[2].Global {
		t.Fatalf("params %+v", ps)
	}
}

// matmulSrc is a tiled int8 matmul C = A x B (n x n, tiles of t x t, grid
// n/t x n/t) with double-buffered DMA: while tile k is multiplied, tile k+1
// is copied into the other pair of #workgroup buffers. (Tokens cannot cross
// scf region boundaries, so each iteration waits for its own prefetch after
// computing; the last iteration prefetches the last tile again.)
func matmulSrc(n, tile int) string {
	r := strings.NewReplacer("{N}", fmt.Sprint(n), "{T}", fmt.Sprint(tile), "{KT}", fmt.Sprint(n/tile), "{KL}", fmt.Sprint(n/tile-1))
	return r.Replace(`
otir.kernel @matmul(%A: !otir.tile<{N}x{N}xi8, #global>, %B: !otir.tile<{N}x{N}xi8, #global>, %C: !otir.tile<{N}x{N}xi32, #global>) attributes {grid = [{KT}, {KT}]} {
  %pm = otir.program_id axis(0)
  %pn = otir.program_id axis(1)
  %c0 = otir.constant 0 : index
  %c1 = otir.constant 1 : index
  %c2 = otir.constant 2 : index
  %ctile = otir.constant {T} : index
  %nk = otir.constant {KT} : index
  %klast = otir.constant {KL} : index
  %m0 = otir.mul %pm, %ctile : index
  %n0 = otir.mul %pn, %ctile : index
  %a0 = otir.alloc() : !otir.tile<{T}x{T}xi8, #workgroup>
  %a1 = otir.alloc() : !otir.tile<{T}x{T}xi8, #workgroup>
  %b0 = otir.alloc() : !otir.tile<{T}x{T}xi8, #workgroup>
  %b1 = otir.alloc() : !otir.tile<{T}x{T}xi8, #workgroup>
  %ga = otir.extract_slice %A[%m0, 0] [{T}, {T}] [1, 1] : !otir.tile<{N}x{N}xi8, #global> to !otir.tile<{T}x{T}xi8, #global>
  %gb = otir.extract_slice %B[0, %n0] [{T}, {T}] [1, 1] : !otir.tile<{N}x{N}xi8, #global> to !otir.tile<{T}x{T}xi8, #global>
  %ta = otir.dma_copy_async %ga, %a0 : (!otir.tile<{T}x{T}xi8, #global>, !otir.tile<{T}x{T}xi8, #workgroup>) -> !otir.token
  %tb = otir.dma_copy_async %gb, %b0 : (!otir.tile<{T}x{T}xi8, #global>, !otir.tile<{T}x{T}xi8, #workgroup>) -> !otir.token
  otir.wait [%ta, %tb]
  %zero = otir.constant dense<0> : !otir.tile<{T}x{T}xi32, #private>
  %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%x = %zero) -> (!otir.tile<{T}x{T}xi32, #private>) {
    %par = otir.rem_u %k, %c2 : index
    %even = otir.cmp kind(eq) %par, %c0 : (index, index) -> i1
    %ca, %cb, %na, %nb = scf.if %even -> (!otir.tile<{T}x{T}xi8, #workgroup>, !otir.tile<{T}x{T}xi8, #workgroup>, !otir.tile<{T}x{T}xi8, #workgroup>, !otir.tile<{T}x{T}xi8, #workgroup>) {
      scf.yield %a0, %b0, %a1, %b1 : !otir.tile<{T}x{T}xi8, #workgroup>, !otir.tile<{T}x{T}xi8, #workgroup>, !otir.tile<{T}x{T}xi8, #workgroup>, !otir.tile<{T}x{T}xi8, #workgroup>
    } else {
      scf.yield %a1, %b1, %a0, %b0 : !otir.tile<{T}x{T}xi8, #workgroup>, !otir.tile<{T}x{T}xi8, #workgroup>, !otir.tile<{T}x{T}xi8, #workgroup>, !otir.tile<{T}x{T}xi8, #workgroup>
    }
    %k1 = otir.add %k, %c1 : index
    %kn = otir.min %k1, %klast : index
    %koff = otir.mul %kn, %ctile : index
    %sa = otir.extract_slice %A[%m0, %koff] [{T}, {T}] [1, 1] : !otir.tile<{N}x{N}xi8, #global> to !otir.tile<{T}x{T}xi8, #global>
    %sb = otir.extract_slice %B[%koff, %n0] [{T}, {T}] [1, 1] : !otir.tile<{N}x{N}xi8, #global> to !otir.tile<{T}x{T}xi8, #global>
    %t2 = otir.dma_copy_async %sa, %na : (!otir.tile<{T}x{T}xi8, #global>, !otir.tile<{T}x{T}xi8, #workgroup>) -> !otir.token
    %t3 = otir.dma_copy_async %sb, %nb : (!otir.tile<{T}x{T}xi8, #global>, !otir.tile<{T}x{T}xi8, #workgroup>) -> !otir.token
    %la = otir.load %ca : !otir.tile<{T}x{T}xi8, #workgroup> -> !otir.tile<{T}x{T}xi8, #private>
    %lb = otir.load %cb : !otir.tile<{T}x{T}xi8, #workgroup> -> !otir.tile<{T}x{T}xi8, #private>
    %y = otir.matmul %la, %lb, %x : (!otir.tile<{T}x{T}xi8, #private>, !otir.tile<{T}x{T}xi8, #private>, !otir.tile<{T}x{T}xi32, #private>) -> !otir.tile<{T}x{T}xi32, #private>
    otir.wait [%t2, %t3]
    scf.yield %y : !otir.tile<{T}x{T}xi32, #private>
  }
  %gc = otir.extract_slice %C[%m0, %n0] [{T}, {T}] [1, 1] : !otir.tile<{N}x{N}xi32, #global> to !otir.tile<{T}x{T}xi32, #global>
  otir.store %acc, %gc : !otir.tile<{T}x{T}xi32, #private>, !otir.tile<{T}x{T}xi32, #global>
  otir.return
}
`)
}

// matmulInputs makes deterministic n x n int8 inputs and the exact product.
func matmulInputs(t testing.TB, n int) (a, b, c *Buffer, want []int64) {
	av := seq(n*n, -100, 37, -128, 127)
	bv := seq(n*n, 50, -29, -128, 127)
	want = make([]int64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				want[i*n+j] += av[i*n+k] * bv[k*n+j]
			}
		}
	}
	shape := fmt.Sprintf("%dx%dx", n, n)
	return ints(t, shape+"i8", av...), ints(t, shape+"i8", bv...), ints(t, shape+"i32", make([]int64, n*n)...), want
}

func TestTiledMatmulDoubleBuffered(t *testing.T) {
	for _, c := range []struct{ n, tile int }{{64, 16}, {8, 4}, {6, 2}} {
		t.Run(fmt.Sprintf("%d/%d", c.n, c.tile), func(t *testing.T) {
			a, b, out, want := matmulInputs(t, c.n)
			res := runText(t, matmulSrc(c.n, c.tile), Options{CheckRaces: c.n < 64}, a, b, out)
			wantInts(t, "C", res.Output("C"), want...)
		})
	}
}

// TestMatmulWrapsOnce: the sum is exact and converted once, so an i8
// accumulator wraps the final sum, not each partial sum, an i64 one too
// when partial sums leave int64, and a float accumulator rounds once.
func TestMatmulWrapsOnce(t *testing.T) {
	src := `
otir.kernel @mm(%a: !otir.tile<1x4xi8, #global>, %b: !otir.tile<4x1xi8, #global>, %c: !otir.tile<1x1xi8, #global>) {
  %la = otir.load %a : !otir.tile<1x4xi8, #global> -> !otir.tile<1x4xi8, #private>
  %lb = otir.load %b : !otir.tile<4x1xi8, #global> -> !otir.tile<4x1xi8, #private>
  %lc = otir.load %c : !otir.tile<1x1xi8, #global> -> !otir.tile<1x1xi8, #private>
  %d = otir.matmul %la, %lb, %lc : (!otir.tile<1x4xi8, #private>, !otir.tile<4x1xi8, #private>, !otir.tile<1x1xi8, #private>) -> !otir.tile<1x1xi8, #private>
  otir.store %d, %c : !otir.tile<1x1xi8, #private>, !otir.tile<1x1xi8, #global>
  otir.return
}`
	// 127*127 + 127*127 - 127*127 - 127*127 + 5 = 5 exactly.
	res := runText(t, src, Options{}, ints(t, "1x4xi8", 127, 127, -127, -127), ints(t, "4x1xi8", 127, 127, 127, 127), ints(t, "1x1xi8", 5))
	wantInts(t, "d", res.Output("c"), 5)

	// i64: the partial sums leave int64 (the int64 dot product hands the
	// element to the exact sum); 5 + 2*max + max - max + 0 = 2^64 + 3 wraps
	// to 3.
	const max = math.MaxInt64
	res = runText(t, strings.NewReplacer("xi8", "xi64").Replace(src), Options{}, ints(t, "1x4xi64", max, max, -max, 0), ints(t, "4x1xi64", 2, 1, 1, 1), ints(t, "1x1xi64", 5))
	wantInts(t, "d", res.Output("c"), 3)

	fsrc := strings.NewReplacer("xi8", "xf16").Replace(src)
	// 2048 + 1 + 1 - 2048 + 0 = 2 exactly; f16 partial sums would lose the 1s.
	a := floats(t, "1x4xf16", 2048, 1, 1, -2048)
	b := floats(t, "4x1xf16", 1, 1, 1, 1)
	res = runText(t, fsrc, Options{}, a, b, floats(t, "1x1xf16", 0))
	if got := res.Output("c").Floats[0]; got != 2 {
		t.Fatalf("f16 matmul = %g, want 2", got)
	}
}

// TestReductionForIterArgs sums 64 int8 values: a loop over 8 chunks carries
// an 8-lane i32 accumulator; a second loop folds the lanes with
// extract_slice into a 1-element accumulator.
func TestReductionForIterArgs(t *testing.T) {
	src := `
otir.kernel @sum(%a: !otir.tile<64xi8, #global>, %out: !otir.tile<1xi32, #global>) {
  %c0 = otir.constant 0 : index
  %c1 = otir.constant 1 : index
  %c8 = otir.constant 8 : index
  %z8 = otir.constant dense<0> : !otir.tile<8xi32, #private>
  %lanes = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %z8) -> (!otir.tile<8xi32, #private>) {
    %off = otir.mul %i, %c8 : index
    %g = otir.extract_slice %a[%off] [8] [1] : !otir.tile<64xi8, #global> to !otir.tile<8xi8, #global>
    %v = otir.load %g : !otir.tile<8xi8, #global> -> !otir.tile<8xi8, #private>
    %w = otir.cast %v : !otir.tile<8xi8, #private> -> !otir.tile<8xi32, #private>
    %s = otir.add %acc, %w : !otir.tile<8xi32, #private>
    scf.yield %s : !otir.tile<8xi32, #private>
  }
  %z1 = otir.constant dense<0> : !otir.tile<1xi32, #private>
  %total = scf.for %j = %c0 to %c8 step %c1 iter_args(%t = %z1) -> (!otir.tile<1xi32, #private>) {
    %e = otir.extract_slice %lanes[%j] [1] [1] : !otir.tile<8xi32, #private> to !otir.tile<1xi32, #private>
    %s = otir.add %t, %e : !otir.tile<1xi32, #private>
    scf.yield %s : !otir.tile<1xi32, #private>
  }
  otir.store %total, %out : !otir.tile<1xi32, #private>, !otir.tile<1xi32, #global>
  otir.return
}`
	a := seq(64, -128, 57, -128, 127)
	var want int64
	for _, v := range a {
		want += v
	}
	res := runText(t, src, Options{}, ints(t, "64xi8", a...), ints(t, "1xi32", 0))
	wantInts(t, "sum", res.Output("out"), want)
	if res.Steps == 0 {
		t.Fatal("no steps counted")
	}
}

// TestScfIfResults: even workgroups add, odd ones subtract; select and max
// pick per element.
func TestScfIfResults(t *testing.T) {
	src := `
otir.kernel @k(%a: !otir.tile<8xi8, #global>, %c: !otir.tile<8xi8, #global>, %d: !otir.tile<8xi8, #global>) attributes {grid = [2]} {
  %pid = otir.program_id axis(0)
  %np = otir.num_programs axis(0)
  %c0 = otir.constant 0 : index
  %c2 = otir.constant 2 : index
  %c4 = otir.constant 4 : index
  %off = otir.mul %pid, %c4 : index
  %ga = otir.extract_slice %a[%off] [4] [1] : !otir.tile<8xi8, #global> to !otir.tile<4xi8, #global>
  %gc = otir.extract_slice %c[%off] [4] [1] : !otir.tile<8xi8, #global> to !otir.tile<4xi8, #global>
  %gd = otir.extract_slice %d[%off] [4] [1] : !otir.tile<8xi8, #global> to !otir.tile<4xi8, #global>
  %v = otir.load %ga : !otir.tile<4xi8, #global> -> !otir.tile<4xi8, #private>
  %one = otir.constant 1 : i8
  %par = otir.rem_u %pid, %c2 : index
  %even = otir.cmp kind(eq) %par, %c0 : (index, index) -> i1
  %r = scf.if %even -> (!otir.tile<4xi8, #private>) {
    %x = otir.add %v, %one : (!otir.tile<4xi8, #private>, i8) -> !otir.tile<4xi8, #private>
    scf.yield %x : !otir.tile<4xi8, #private>
  } else {
    %x = otir.sub %v, %one : (!otir.tile<4xi8, #private>, i8) -> !otir.tile<4xi8, #private>
    scf.yield %x : !otir.tile<4xi8, #private>
  }
  otir.store %r, %gc : !otir.tile<4xi8, #private>, !otir.tile<4xi8, #global>
  %npi = otir.cast %np : index -> i8
  %neg = otir.cmp kind(slt) %v, %npi : (!otir.tile<4xi8, #private>, i8) -> !otir.tile<4xi1, #private>
  %m = otir.max %v, %npi : (!otir.tile<4xi8, #private>, i8) -> !otir.tile<4xi8, #private>
  %s = otir.select %neg, %m, %v : (!otir.tile<4xi1, #private>, !otir.tile<4xi8, #private>, !otir.tile<4xi8, #private>) -> !otir.tile<4xi8, #private>
  otir.store %s, %gd : !otir.tile<4xi8, #private>, !otir.tile<4xi8, #global>
  otir.return
}`
	a := []int64{-128, -1, 0, 1, 5, 127, -3, 2}
	res := runText(t, src, Options{}, ints(t, "8xi8", a...), ints(t, "8xi8", make([]int64, 8)...), ints(t, "8xi8", make([]int64, 8)...))
	wantInts(t, "c", res.Output("c"), -127, 0, 1, 2, 4, 126, -4, 1)
	wantInts(t, "d", res.Output("d"), 2, 2, 2, 2, 5, 127, 2, 2)
}

// TestAtomicsAcrossWorkgroups: eight workgroups update shared counters with
// several kinds; the results do not depend on the order, so race checking
// is quiet. Each workgroup also records the old value of an atomic add,
// which does depend on the order: a race on the store, not on the atomic.
func TestAtomicsAcrossWorkgroups(t *testing.T) {
	src := `
otir.kernel @k(%sum: !otir.tile<1xi32, #global>, %mx: !otir.tile<1xi32, #global>, %bits: !otir.tile<1xu8, #global>, %umx: !otir.tile<1xi8, #global>, %old: !otir.tile<8xi32, #global>) attributes {grid = [8]} {
  %pid = otir.program_id axis(0)
  %p = otir.cast %pid : index -> i32
  %c1 = otir.constant 1 : i32
  %v = otir.add %p, %c1 : i32
  %o = otir.atomic_rmw %sum, %v, kind(add), memory_order(relaxed) : !otir.tile<1xi32, #global>, i32 -> i32
  %sq = otir.mul %v, %v : i32
  %o2 = otir.atomic_rmw %mx, %sq, kind(max), memory_order(acq_rel) : !otir.tile<1xi32, #global>, i32 -> i32
  %b = otir.cast %pid : index -> u8
  %o3 = otir.atomic_rmw %bits, %b, kind(or), memory_order(release) : !otir.tile<1xu8, #global>, u8 -> u8
  %n = otir.neg %v : i32
  %n8 = otir.cast %n : i32 -> i8
  %o4 = otir.atomic_rmw %umx, %n8, kind(umax), memory_order(relaxed) : !otir.tile<1xi8, #global>, i8 -> i8
  %z = otir.constant dense<0> : !otir.tile<1xi32, #private>
  %ot = otir.add %z, %o : (!otir.tile<1xi32, #private>, i32) -> !otir.tile<1xi32, #private>
  %g = otir.extract_slice %old[%pid] [1] [1] : !otir.tile<8xi32, #global> to !otir.tile<1xi32, #global>
  otir.store %ot, %g : !otir.tile<1xi32, #private>, !otir.tile<1xi32, #global>
  otir.return
}`
	m := parseModule(t, src)
	args := []*Buffer{ints(t, "1xi32", 100), ints(t, "1xi32", -5), ints(t, "1xu8", 0), ints(t, "1xi8", 0), ints(t, "8xi32", make([]int64, 8)...)}
	res, err := Run(m, "k", args, Options{CheckRaces: true, Seed: 7})
	if res == nil {
		t.Fatal(renderErr(err))
	}
	wantInts(t, "sum", res.Output("sum"), 100+36)
	wantInts(t, "max", res.Output("mx"), 64)
	wantInts(t, "or", res.Output("bits"), 7)
	wantInts(t, "umax", res.Output("umx"), -1) // 0xff is the largest unsigned reading
	wantInts(t, "old (row-major)", res.Output("old"), 100, 101, 103, 106, 110, 115, 121, 128)
	// old[i] is 100 plus the values added before workgroup i ran: it depends
	// on the order for (at least) every i but 5, whose row-major and reversed
	// values happen to agree (15 = 6+7+8).
	if err == nil || len(res.Races) < 7 {
		t.Fatalf("want races on %%old, got %v, %v", res.Races, err)
	}
	for _, r := range res.Races {
		if r.Param != 4 {
			t.Fatalf("race on argument %d, want only %%old: %+v", r.Param, r)
		}
	}
}
