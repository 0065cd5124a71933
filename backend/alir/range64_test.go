package alir

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"testing"
)

// boundary64 are values at the edges of int64 and of 63-, 64- and 65-bit
// types, with their neighbours.
func boundary64() []*big.Int {
	var vs []*big.Int
	for _, w := range []uint{0, 1, 31, 32, 62, 63, 64, 65} {
		p := new(big.Int).Lsh(big.NewInt(1), w)
		for _, d := range []int64{-2, -1, 0, 1} {
			vs = append(vs, new(big.Int).Add(p, big.NewInt(d)), new(big.Int).Neg(new(big.Int).Add(p, big.NewInt(d))))
		}
	}
	return append(vs, big.NewInt(0), big.NewInt(3), big.NewInt(-7), big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64))
}

func sameRange(a xrng, b rng) bool {
	x := a.big()
	if a.wide != nil && a.wide.Lo.IsInt64() && a.wide.Hi.IsInt64() {
		return false // not canonical: a narrow range held wide
	}
	return x.Lo.Cmp(b.Lo) == 0 && x.Hi.Cmp(b.Hi) == 0
}

// Every operation of xrng gives the big.Int result (and the int64 form
// whenever that fits) on ranges whose bounds lie at and across the edges of
// int64.
func TestXrngMatchesBig(t *testing.T) {
	vs := boundary64()
	var rs []rng
	for _, a := range vs {
		for _, b := range vs {
			if a.Cmp(b) <= 0 {
				rs = append(rs, rng{Lo: a, Hi: b})
			}
		}
	}
	check := func(what string, got xrng, want rng) {
		t.Helper()
		if !sameRange(got, want) {
			t.Fatalf("%s = %v, want [%v, %v]", what, got.big(), want.Lo, want.Hi)
		}
	}
	for _, a := range rs {
		x := xrngOf(a)
		check(fmt.Sprintf("neg %v", a), x.neg(), a.Neg())
		check(fmt.Sprintf("relu %v", a), x.relu(), a.Relu())
		for _, s := range []uint{0, 1, 2, 31, 32, 62, 63, 64, 65, 100} {
			check(fmt.Sprintf("%v << %d", a, s), x.shl(s), a.Shl(s))
			check(fmt.Sprintf("%v >> %d", a, s), x.sar(s), a.Sar(s))
		}
		if x.loSign() != a.Lo.Sign() || x.hiSign() != a.Hi.Sign() {
			t.Fatalf("signs of %v", a)
		}
	}
	for k, a := range rs {
		x := xrngOf(a)
		for j := k % 7; j < len(rs); j += 7 { // a seventh of the pairs
			b := rs[j]
			y := xrngOf(b)
			check(fmt.Sprintf("%v + %v", a, b), x.add(y), a.Add(b))
			check(fmt.Sprintf("%v * %v", a, b), x.mul(y), a.Mul(b))
			if x.within(y) != a.Within(b) {
				t.Fatalf("%v within %v", a, b)
			}
		}
	}
}

// typeRange64 is typeRange for every width, 63, 64 and 65 bits included.
func TestTypeRange64(t *testing.T) {
	for w := 0; w <= 66; w++ {
		for _, signed := range []bool{false, true} {
			if signed && w == 0 {
				continue
			}
			k := 0
			if signed {
				k = 1
			}
			for _, f := range []int{-3, 0, 5} {
				kif := KIF{Signed: signed, Integers: w - k - f, Fractionals: f}
				if !sameRange(typeRange64(kif), typeRange(kif)) {
					t.Fatalf("typeRange64(%v) = %v, want %v", kif, typeRange64(kif).big(), typeRange(kif))
				}
			}
		}
	}
}

// A linear form's range in int64 is the big.Int one, also when a partial
// sum or product leaves int64.
func TestRangeOverMatchesBig(t *testing.T) {
	vs := boundary64()
	r := rand.New(rand.NewPCG(5, 6))
	coefs := []int64{1, -1, 2, -3, 1 << 31, -1 << 32, math.MaxInt64, math.MinInt64 + 1}
	for range 3000 {
		n := 1 + r.IntN(4)
		src := make([]xrng, n)
		var f affine
		f.c0 = []int64{0, 1, -1, math.MaxInt64, math.MinInt64}[r.IntN(5)]
		for s := range n {
			a, b := vs[r.IntN(len(vs))], vs[r.IntN(len(vs))]
			if a.Cmp(b) > 0 {
				a, b = b, a
			}
			src[s] = xrngOf(rng{Lo: a, Hi: b})
			f.terms = append(f.terms, aterm{int32(s), coefs[r.IntN(len(coefs))]})
		}
		of := func(s int32) xrng { return src[s] }
		got, want := f.rangeOver(of), f.rangeOverBig(of)
		if !sameRange(got, want.big()) {
			t.Fatalf("%+v over %v: %v, want %v", f, src, got.big(), want.big())
		}
	}
}

// Portability says the same with the int64 fast path as on big.Ints only,
// reasons and needed intervals included, on random programs (many with
// 60- to 64-bit types).
func TestPortabilityFastPathMatchesBig(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for it := range 4000 {
		d := Dialect(it % 2)
		nIn := 1 + r.IntN(4)
		var p *Program
		switch {
		case it%6 == 3:
			p = randomProgramV4(r, nIn, 1+r.IntN(16))
		case it%3 == 0:
			p = randomProgram(r, d, nIn, 1+r.IntN(16))
		default:
			p = referenceProgram(r, d, nIn, nIn+1+r.IntN(10))
		}
		fast, err1 := p.Portability()
		allWide = true
		slow, err2 := p.Portability()
		allWide = false
		if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(fast, slow) {
			t.Fatalf("iteration %d: int64 path %v (%v), big.Int path %v (%v)\n%+v", it, fast, err1, slow, err2, p)
		}
	}
}
