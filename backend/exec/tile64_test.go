package exec

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/otir-dev/otir/ir"
)

// TestWrapLoops checks each whole-tile loop, for every wrap (a Go
// conversion or shifts and a mask), against the element-by-element
// reference: the int64 result wrapped by wrapper.of.
func TestWrapLoops(t *testing.T) {
	ref := map[loopCode]func(x, y int64) int64{
		binAdd: func(x, y int64) int64 { return x + y }, binSub: func(x, y int64) int64 { return x - y },
		binMul: func(x, y int64) int64 { return x * y }, binAnd: func(x, y int64) int64 { return x & y },
		binOr: func(x, y int64) int64 { return x | y }, binXor: func(x, y int64) int64 { return x ^ y },
		binMax: func(x, y int64) int64 { return max(x, y) }, binMin: func(x, y int64) int64 { return min(x, y) },
		unNeg: func(x, _ int64) int64 { return -x }, unAbs: func(x, _ int64) int64 { return abs64(x) },
		unNot: func(x, _ int64) int64 { return ^x }, unCast: func(x, _ int64) int64 { return x },
	}
	types := []ir.Type{ir.Int(1, true), ir.Int(7, true), ir.Int(8, true), ir.Int(16, true), ir.Int(32, true), ir.Int(33, true), ir.Int(64, true), ir.Index(),
		ir.Int(1, false), ir.Int(8, false), ir.Int(16, false), ir.Int(32, false), ir.Int(63, false)}
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 257
	x, y := &Buffer{Ints: make([]int64, n)}, &Buffer{Ints: make([]int64, n)}
	for i := range n {
		// Small values near the wrap points and any int64.
		x.Ints[i], y.Ints[i] = int64(rng.Uint64()), int64(rng.Uint64())>>rng.IntN(64)
		if i%3 == 0 {
			x.Ints[i] = int64(i) - 128
		}
	}
	for _, typ := range types {
		wr := wrapperOf(typ)
		valid := make([]int64, n)
		for i := range valid {
			valid[i] = wr.of(x.Ints[i])
		}
		for _, k := range []int{-1, 0, 100, n - 1} {
			xs := slices.Clone(valid)
			if k >= 0 {
				xs[k] = valid[k] ^ math.MinInt64 // never a value of an int64-held type but i64, index
			}
			want := k
			if wr.of(xs[max(k, 0)]) == xs[max(k, 0)] {
				want = -1
			}
			if got := wr.firstUnwrapped(xs); got != want {
				t.Fatalf("%s: firstUnwrapped with element %d wrong: %d, want %d", typ, k, got, want)
			}
		}
		for op, f := range ref {
			in := []*Buffer{x, y}
			if op >= unNeg {
				in = in[:1]
			}
			d := make([]int64, n)
			wr.loop(op, d, in)
			for i := range d {
				if want := wr.of(f(x.Ints[i], y.Ints[i])); d[i] != want {
					t.Fatalf("%s, loop %d, element %d (%d, %d): %d, want %d", typ, op, i, x.Ints[i], y.Ints[i], d[i], want)
				}
			}
		}
	}
}

// TestCmpInts checks cmpInts, for every relation and both true values (1,
// -1), against val[1 + sign(x - y)].
func TestCmpInts(t *testing.T) {
	x, y := make([]int64, 64), make([]int64, 64)
	for i := range x {
		x[i], y[i] = int64(i%7-3), int64(i%5-2)
	}
	for rel, holds := range relations {
		for _, tv := range []int64{1, -1} {
			var val [3]int64
			for k, h := range holds {
				if h {
					val[k] = tv
				}
			}
			d := make([]int64, len(x))
			cmpInts(d, x, y, val)
			for i := range d {
				if want := val[1+b2i(x[i] > y[i])-b2i(x[i] < y[i])]; d[i] != want {
					t.Fatalf("%s (true %d), element %d (%d, %d): %d, want %d", rel, tv, i, x[i], y[i], d[i], want)
				}
			}
		}
	}
	for _, val := range [][3]int64{{0, 0, 0}, {1, 1, 1}, {-1, -1, -1}} {
		d := make([]int64, len(x))
		cmpInts(d, x, y, val)
		for i := range d {
			if d[i] != val[0] {
				t.Fatalf("constant %v: element %d is %d", val, i, d[i])
			}
		}
	}
}
