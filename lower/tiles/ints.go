package tiles

import (
	"fmt"
	"math/big"

	"github.com/otir-dev/otir/ir"
)

// intT is an OTIR integer type as the lowering sees it: its width, its
// signedness and its range of values. index is a signed 64-bit integer.
type intT struct {
	width  int
	signed bool
	lo, hi *big.Int
}

// String returns the OTIR spelling of t (i8, u32).
func (t intT) String() string {
	if t.signed {
		return fmt.Sprintf("i%d", t.width)
	}
	return fmt.Sprintf("u%d", t.width)
}

var (
	bigZero   = big.NewInt(0)
	bigOne    = big.NewInt(1)
	bigNegOne = big.NewInt(-1)
)

// pow2 returns 2^n.
func pow2(n int) *big.Int { return new(big.Int).Lsh(bigOne, uint(n)) }

// intTypeOf returns the integer view of a scalar type; ok is false for floats
// and anything else.
func intTypeOf(t ir.Type) (intT, bool) {
	switch x := t.(type) {
	case *ir.IntType:
		return makeIntT(x.Width, x.Signed), true
	case *ir.IndexType:
		return makeIntT(64, true), true
	}
	return intT{}, false
}

func makeIntT(width int, signed bool) intT {
	if signed {
		h := pow2(width - 1)
		return intT{width, true, new(big.Int).Neg(h), h.Sub(h, bigOne)}
	}
	return intT{width, false, new(big.Int), new(big.Int).Sub(pow2(width), bigOne)}
}

// contains reports whether [lo, hi] lies in the type's range.
func (t intT) contains(lo, hi *big.Int) bool { return lo.Cmp(t.lo) >= 0 && hi.Cmp(t.hi) <= 0 }

// wrap converts an exact integer to the type: modulo 2^width, into the
// type's range (two's complement for signed types).
func (t intT) wrap(v *big.Int) *big.Int {
	if v.Cmp(t.lo) >= 0 && v.Cmp(t.hi) <= 0 {
		return v
	}
	m := new(big.Int).Mod(v, pow2(t.width))
	if t.signed && m.Cmp(t.hi) > 0 {
		m.Sub(m, pow2(t.width))
	}
	return m
}

// signedReading reads a value of this type as a two's-complement signed
// number of its width (the executor's _s operations); unsignedReading as an
// unsigned one.
func (t intT) signedReading() intT   { return makeIntT(t.width, true) }
func (t intT) unsignedReading() intT { return makeIntT(t.width, false) }

// truncDiv returns a / b rounded toward zero for b != 0: the executor's
// div_s (design section 4, as C and LLVM sdiv).
func truncDiv(a, b *big.Int) *big.Int { return new(big.Int).Quo(a, b) }

// truncRem returns a - b*truncDiv(a, b): zero or the dividend's sign (the
// executor's rem_s).
func truncRem(a, b *big.Int) *big.Int { return new(big.Int).Rem(a, b) }

// floorDiv returns floor(a / b) for b != 0 (the building block of division
// by a constant, see constdiv.go).
func floorDiv(a, b *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(a, b, new(big.Int)) // truncated
	if r.Sign() != 0 && (r.Sign() < 0) != (b.Sign() < 0) {
		q.Sub(q, bigOne)
	}
	return q
}

// floorMod returns a - b*floor(a/b): the remainder with the divisor's sign.
func floorMod(a, b *big.Int) *big.Int {
	return new(big.Int).Sub(a, new(big.Int).Mul(b, floorDiv(a, b)))
}

// log2Exact returns k when |v| = 2^k.
func log2Exact(v *big.Int) (int, bool) {
	a := new(big.Int).Abs(v)
	if a.Sign() == 0 {
		return 0, false
	}
	k := a.BitLen() - 1
	return k, a.TrailingZeroBits() == uint(k)
}

func add(a, b *big.Int) *big.Int { return new(big.Int).Add(a, b) }
func sub(a, b *big.Int) *big.Int { return new(big.Int).Sub(a, b) }
func mul(a, b *big.Int) *big.Int { return new(big.Int).Mul(a, b) }
func neg(a *big.Int) *big.Int    { return new(big.Int).Neg(a) }
func shl(a *big.Int, k int) *big.Int {
	return new(big.Int).Lsh(a, uint(k))
}

// sar is floor(a / 2^k).
func sar(a *big.Int, k int) *big.Int { return new(big.Int).Rsh(a, uint(k)) }
