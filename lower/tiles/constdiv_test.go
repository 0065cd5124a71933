package tiles

import (
	"math/big"
	"math/rand"
	"testing"
)

// The chosen magic number is exact on every dividend of small ranges
// (checked exhaustively), and magicValid's condition holds for wide ones,
// where the dividends at the boundaries of the proof (the last ones of
// each residue, the top of the range) are checked directly.
func TestMagicNumbers(t *testing.T) {
	check := func(dp, zmax, z *big.Int, mg magic) {
		got := sar(mul(add(z, big.NewInt(int64(mg.a))), mg.m), mg.s)
		if want := floorDiv(z, dp); got.Cmp(want) != 0 {
			t.Fatalf("D'=%v zmax=%v %+v: z=%v gives %v, want %v", dp, zmax, mg, z, got, want)
		}
	}
	for dp := int64(3); dp < 600; dp += 2 {
		for _, zmax := range []int64{dp, 255, 511, 4095} {
			Z, D := big.NewInt(zmax), big.NewInt(dp)
			mg := chooseMagic(D, Z)
			if !magicValid(D, Z, mg) {
				t.Fatalf("D'=%d zmax=%d: invalid choice %+v", dp, zmax, mg)
			}
			for z := int64(0); z <= zmax; z++ {
				check(D, Z, big.NewInt(z), mg)
			}
		}
	}
	rng := rand.New(rand.NewSource(12))
	for i := 0; i < 2000; i++ {
		Z := new(big.Int).Rand(rng, pow2(1+rng.Intn(64)))
		D := new(big.Int).Rand(rng, pow2(1+rng.Intn(64)))
		D.SetBit(D, 0, 1)
		if D.Cmp(big.NewInt(3)) < 0 || Z.Cmp(D) < 0 {
			continue
		}
		mg := chooseMagic(D, Z)
		if !magicValid(D, Z, mg) {
			t.Fatalf("D'=%v zmax=%v: invalid choice %+v", D, Z, mg)
		}
		top := sub(Z, floorMod(add(Z, bigOne), D)) // the last z = D'-1 (mod D')
		for _, z := range []*big.Int{Z, sub(Z, bigOne), top, add(top, bigOne), sub(Z, floorMod(Z, D)), bigZero, sub(D, bigOne), D} {
			if z.Sign() >= 0 && z.Cmp(Z) <= 0 {
				check(D, Z, z, mg)
			}
		}
		for j := 0; j < 20; j++ {
			check(D, Z, new(big.Int).Rand(rng, add(Z, bigOne)), mg)
		}
	}
}
