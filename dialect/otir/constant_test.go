package otir

import (
	"math/big"
	"testing"

	"github.com/otir-dev/otir/ir"
)

func TestFits(t *testing.T) {
	pow := func(n uint) *big.Int { return new(big.Int).Lsh(big.NewInt(1), n) }
	neg := func(x *big.Int) *big.Int { return new(big.Int).Neg(x) }
	sub1 := func(x *big.Int) *big.Int { return new(big.Int).Sub(x, big.NewInt(1)) }
	cases := []struct {
		x    *big.Int
		t    ir.Type
		want bool
	}{
		{big.NewInt(0), ir.Bool(), true},
		{big.NewInt(1), ir.Bool(), true},
		{big.NewInt(-1), ir.Bool(), false},
		{big.NewInt(2), ir.Bool(), false},
		{big.NewInt(-2), ir.Int(2, true), true},
		{big.NewInt(-3), ir.Int(2, true), false},
		{big.NewInt(1), ir.Int(2, true), true},
		{big.NewInt(2), ir.Int(2, true), false},
		{big.NewInt(-64), ir.Int(7, true), true},
		{big.NewInt(-65), ir.Int(7, true), false},
		{big.NewInt(-96), ir.Int(8, true), true},
		{neg(pow(4095)), ir.Int(4096, true), true},
		{sub1(neg(pow(4095))), ir.Int(4096, true), false},
		{sub1(pow(4095)), ir.Int(4096, true), true},
		{pow(4095), ir.Int(4096, true), false},
		{sub1(pow(4096)), ir.Int(4096, false), true},
		{pow(4096), ir.Int(4096, false), false},
		{sub1(pow(63)), ir.Index(), true},
		{pow(63), ir.Index(), false},
		{neg(pow(63)), ir.Index(), true},
		{big.NewInt(1), ir.Float(ir.F32), false},
	}
	for _, c := range cases {
		if got := fits(c.x, c.t); got != c.want {
			t.Errorf("fits(%s, %s) = %v, want %v", c.x, c.t, got, c.want)
		}
	}
}
