package alir

import (
	"math/big"

	"github.com/otir-dev/otir/internal/intrange"
)

// rng is a closed range of integers (internal/intrange's), used at compile
// time to prove that an operation's intermediate values fit 64 bits and that
// its result already lies in its type (so no wrap is needed).
type rng = intrange.Range

var (
	minInt64  = big.NewInt(-1 << 63)
	maxInt64  = big.NewInt(1<<63 - 1)
	maxUint64 = new(big.Int).SetUint64(1<<64 - 1)
	minInt32  = big.NewInt(-1 << 31)
	maxInt32  = big.NewInt(1<<31 - 1)
)

func typeRange(t KIF) rng { lo, hi := t.rawRange(); return rng{Lo: lo, Hi: hi} }

// bitwise returns a range that holds x op y for x in r and y in o, op the
// bitwise operation sub (BitAnd, BitOr, BitXor): with both non-negative and
// below 2^n the result is too (at most the smaller operand for and, at
// least the larger for or); otherwise both lie in [-2^n, 2^n) and so does
// the result (and with a non-negative operand is at most that operand).
func bitwise(r, o rng, sub uint64) rng {
	if r.Lo.Sign() >= 0 && o.Lo.Sign() >= 0 {
		all := intrange.Unsigned(max(r.Hi.BitLen(), o.Hi.BitLen()))
		switch sub {
		case BitAnd:
			return rng{Lo: all.Lo, Hi: intrange.Min(r.Hi, o.Hi)}
		case BitOr:
			return rng{Lo: intrange.Max(r.Lo, o.Lo), Hi: all.Hi}
		}
		return all
	}
	if sub == BitAnd {
		if r.Lo.Sign() >= 0 {
			return rng{Lo: new(big.Int), Hi: r.Hi}
		}
		if o.Lo.Sign() >= 0 {
			return rng{Lo: new(big.Int), Hi: o.Hi}
		}
	}
	return intrange.Signed(max(r.Mag(), o.Mag()) + 1)
}

// BitwiseBounds returns a range of raw results of the bitwise operation sub
// (BitAnd, BitOr, BitXor) on raw values in [alo, ahi] and [blo, bhi], the
// one that Portability proves: writers use it to give bit operations an
// interval that holds their result.
func BitwiseBounds(sub uint8, alo, ahi, blo, bhi *big.Int) (lo, hi *big.Int) {
	r := bitwise(rng{Lo: alo, Hi: ahi}, rng{Lo: blo, Hi: bhi}, uint64(sub))
	return r.Lo, r.Hi
}
