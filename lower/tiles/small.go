package tiles

import (
	"math/big"

	"github.com/otir-dev/otir/internal/intrange"
)

// The int64 fast path of the bounds' arithmetic.
//
// Every value and bound of the lowering is an exact *big.Int, but almost
// all of them fit int64: the hot paths (matmul's products and sums, the
// bounds of every slot) compute in checked int64 arithmetic and take their
// results from a table of the lowerer's small integers (one *big.Int per
// distinct value, shared: big.Ints of the lowering are never modified once
// made), and fall back to big.Int arithmetic when an operand or a result
// leaves int64. The results are the same integers either way.

// maxInterned bounds the table: a kernel has few distinct bounds, but a
// pathological one should not keep one big.Int per op alive.
const maxInterned = 1 << 16

// intOf returns v as a shared *big.Int.
func (l *lowerer) intOf(v int64) *big.Int {
	if b, ok := l.ints[v]; ok {
		return b
	}
	b := big.NewInt(v)
	if len(l.ints) < maxInterned {
		l.ints[v] = b
	}
	return b
}

// addB is add (a + b) through the fast path.
func (l *lowerer) addB(a, b *big.Int) *big.Int {
	if a.IsInt64() && b.IsInt64() {
		if s, ok := intrange.AddInt64(a.Int64(), b.Int64()); ok {
			return l.intOf(s)
		}
	}
	return add(a, b)
}

// subB is sub (a - b) through the fast path.
func (l *lowerer) subB(a, b *big.Int) *big.Int {
	if a.IsInt64() && b.IsInt64() {
		if d, ok := intrange.SubInt64(a.Int64(), b.Int64()); ok {
			return l.intOf(d)
		}
	}
	return sub(a, b)
}

// productBounds is the range of x*y for x in [alo, ahi], y in [blo, bhi].
func (l *lowerer) productBounds(alo, ahi, blo, bhi *big.Int) (lo, hi *big.Int) {
	if alo.IsInt64() && ahi.IsInt64() && blo.IsInt64() && bhi.IsInt64() {
		a0, a1, b0, b1 := alo.Int64(), ahi.Int64(), blo.Int64(), bhi.Int64()
		p0, ok0 := intrange.MulInt64(a0, b0)
		p1, ok1 := intrange.MulInt64(a0, b1)
		p2, ok2 := intrange.MulInt64(a1, b0)
		p3, ok3 := intrange.MulInt64(a1, b1)
		if ok0 && ok1 && ok2 && ok3 {
			return l.intOf(min(p0, p1, p2, p3)), l.intOf(max(p0, p1, p2, p3))
		}
	}
	r := intrange.Range{Lo: alo, Hi: ahi}.Mul(intrange.Range{Lo: blo, Hi: bhi})
	return r.Lo, r.Hi
}
