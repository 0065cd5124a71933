package tiles

import (
	"math/big"
	"testing"

	"github.com/otir-dev/otir/internal/intrange"
)

// edgeInts are values at the edges of 63-, 64- and 65-bit integers, with
// their neighbours and negations.
func edgeInts() []*big.Int {
	var vs []*big.Int
	for _, w := range []uint{0, 1, 7, 31, 32, 62, 63, 64, 65} {
		p := pow2(int(w))
		for _, d := range []int64{-2, -1, 0, 1} {
			v := add(p, big.NewInt(d))
			vs = append(vs, v, neg(v))
		}
	}
	return vs
}

// The int64 fast path gives the big.Int results on both sides of int64's
// edges, and shares the small ones.
func TestInt64FastPath(t *testing.T) {
	l := &lowerer{ints: map[int64]*big.Int{}}
	vs := edgeInts()
	for _, a := range vs {
		for _, b := range vs {
			if got, want := l.addB(a, b), add(a, b); got.Cmp(want) != 0 {
				t.Fatalf("%v + %v = %v, want %v", a, b, got, want)
			}
			if got, want := l.subB(a, b), sub(a, b); got.Cmp(want) != 0 {
				t.Fatalf("%v - %v = %v, want %v", a, b, got, want)
			}
		}
	}
	// Ranges whose bounds are edge values (every fifth of them), and every
	// pair of those: the products of their corners cross int64's edges in
	// every way.
	type rng struct{ lo, hi *big.Int }
	var rs []rng
	for _, lo := range vs {
		for _, hi := range vs {
			if lo.Cmp(hi) <= 0 {
				rs = append(rs, rng{lo, hi})
			}
		}
	}
	for i := 0; i < len(rs); i += 5 {
		for j := 0; j < len(rs); j += 5 {
			a, b := rs[i], rs[j]
			lo, hi := l.productBounds(a.lo, a.hi, b.lo, b.hi)
			w := intrange.Range{Lo: a.lo, Hi: a.hi}.Mul(intrange.Range{Lo: b.lo, Hi: b.hi})
			if lo.Cmp(w.Lo) != 0 || hi.Cmp(w.Hi) != 0 {
				t.Fatalf("%v * %v = [%v, %v], want [%v, %v]", a, b, lo, hi, w.Lo, w.Hi)
			}
		}
	}
	if l.addB(big.NewInt(2), big.NewInt(3)) != l.intOf(5) {
		t.Error("a small result is not shared")
	}
}
