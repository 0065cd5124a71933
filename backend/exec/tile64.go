package exec

import (
	"math/bits"

	"github.com/otir-dev/otir/ir"
)

// Whole-tile int64 forms of element-wise operations (elemSem.tile): when
// every operand and the result are held as int64 (integer and index types
// that fit), execElementwise runs one tight loop over the tile instead of one call
// per element. A form computes the exact integer result of each element,
// wrapped to the result type as convert would, into d, or declines,
// returning false, when an exact result might not fit in an int64 (the
// per-element path then runs). None of these operations can fail on
// integers, so the errors of a run are those of the per-element path.

// tileFn is a whole-tile int64 form: in are the operands, each of d's length
// (a broadcast operand is expanded first, tileInts), wr the wrap to the
// result type. Resliced to d's length, the operands need no bounds checks
// in the loop.
type tileFn func(op *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool

// wrapper wraps an int64 into an int64-held integer type (wrap64): shifting
// left and back sign-extends from the width (signed), the mask keeps the
// width's bits (unsigned).
type wrapper struct {
	shift uint
	mask  int64
}

func wrapperOf(t ir.Type) wrapper {
	width, signed, _ := intInfo(t)
	return wrapperFor(width, signed)
}

func wrapperFor(width int, signed bool) wrapper {
	if signed {
		return wrapper{shift: uint(64 - width), mask: -1}
	}
	return wrapper{mask: 1<<uint(width) - 1}
}

func (w wrapper) of(x int64) int64 { return x << (w.shift & 63) >> (w.shift & 63) & w.mask }

// magnitude is the number of bits of the largest magnitude of an int64-held
// type: |v| <= 2^magnitude for every value v (iN: N-1, uN: N, index: 63).
func magnitude(t ir.Type) int {
	w, signed, _ := intInfo(t)
	if signed {
		return w - 1
	}
	return w
}

// fitsSum reports whether sums and differences of values of x and y fit.
func fitsSum(x, y *Buffer) bool { return max(magnitude(x.Elem), magnitude(y.Elem)) <= 61 }

func addTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	if !fitsSum(in[0], in[1]) {
		return false
	}
	x, y := in[0].Ints[:len(d)], in[1].Ints[:len(d)]
	for i := range d {
		d[i] = wr.of(x[i] + y[i])
	}
	return true
}

func subTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	if !fitsSum(in[0], in[1]) {
		return false
	}
	x, y := in[0].Ints[:len(d)], in[1].Ints[:len(d)]
	for i := range d {
		d[i] = wr.of(x[i] - y[i])
	}
	return true
}

func mulTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	if magnitude(in[0].Elem)+magnitude(in[1].Elem) > 62 {
		return false
	}
	x, y := in[0].Ints[:len(d)], in[1].Ints[:len(d)]
	for i := range d {
		d[i] = wr.of(x[i] * y[i])
	}
	return true
}

// The bitwise ops and max/min of int64 values are int64 values.

func andTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	x, y := in[0].Ints[:len(d)], in[1].Ints[:len(d)]
	for i := range d {
		d[i] = wr.of(x[i] & y[i])
	}
	return true
}

func orTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	x, y := in[0].Ints[:len(d)], in[1].Ints[:len(d)]
	for i := range d {
		d[i] = wr.of(x[i] | y[i])
	}
	return true
}

func xorTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	x, y := in[0].Ints[:len(d)], in[1].Ints[:len(d)]
	for i := range d {
		d[i] = wr.of(x[i] ^ y[i])
	}
	return true
}

func maxTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	x, y := in[0].Ints[:len(d)], in[1].Ints[:len(d)]
	for i := range d {
		d[i] = wr.of(max(x[i], y[i]))
	}
	return true
}

func minTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	x, y := in[0].Ints[:len(d)], in[1].Ints[:len(d)]
	for i := range d {
		d[i] = wr.of(min(x[i], y[i]))
	}
	return true
}

// negTile and absTile decline a type holding -2^63, whose negation does not
// fit; notTile is ^x (-x-1), which always fits.

func negTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	if magnitude(in[0].Elem) > 62 {
		return false
	}
	x := in[0].Ints[:len(d)]
	for i := range d {
		d[i] = wr.of(-x[i])
	}
	return true
}

func absTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	if magnitude(in[0].Elem) > 62 {
		return false
	}
	x := in[0].Ints[:len(d)]
	for i := range d {
		d[i] = wr.of(abs64(x[i]))
	}
	return true
}

func notTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	x := in[0].Ints[:len(d)]
	for i := range d {
		d[i] = wr.of(^x[i])
	}
	return true
}

// castTile is otir.cast between int64-held types: the value, wrapped.
func castTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	x := in[0].Ints[:len(d)]
	for i := range d {
		d[i] = wr.of(x[i])
	}
	return true
}

// selectTile is otir.select of operands of the result's type (other types
// convert per element), which need no wrap.
func selectTile(op *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	rt := op.Results[0].Type
	if tt, ok := rt.(*ir.TileType); ok {
		rt = tt.Elem
	}
	if in[0].Elem != ir.Bool() || in[1].Elem != rt || in[2].Elem != rt {
		return false
	}
	c, x, y := in[0].Ints[:len(d)], in[1].Ints[:len(d)], in[2].Ints[:len(d)]
	for i := range d {
		if c[i] != 0 {
			d[i] = x[i]
		} else {
			d[i] = y[i]
		}
	}
	return true
}

// cmpTile is otir.cmp kind(pred) (cmpFunc) of int64-held operands: each
// operand is read (s*: as signed, u*: as unsigned, in its own width) into an
// int64, then compared exactly. It declines a u* predicate on a 64-bit type,
// whose unsigned reading may not fit.
func cmpTile(op *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	pred, _ := op.StringAttr("kind")
	rel := pred
	read := [2]wrapper{{mask: -1}, {mask: -1}} // eq, ne, o*: the value itself
	if len(pred) == 3 {
		rel = pred[1:]
		for j := range 2 {
			w, _, _ := intInfo(in[j].Elem)
			switch pred[0] {
			case 's':
				read[j] = wrapperFor(w, true)
			case 'u':
				if w > 63 {
					return false
				}
				read[j] = wrapperFor(w, false)
			}
		}
	}
	holds, ok := relations[rel]
	if !ok {
		return false
	}
	var val [3]int64 // the result when a < b, a == b, a > b
	for k, h := range holds {
		if h {
			val[k] = wr.of(1)
		}
	}
	x, y := in[0].Ints[:len(d)], in[1].Ints[:len(d)]
	for i := range d {
		a, b := read[0].of(x[i]), read[1].of(y[i])
		d[i] = val[1+b2i(a > b)-b2i(a < b)]
	}
	return true
}

// relations tells, for each relation of a cmp predicate, whether it holds
// when a < b, a == b and a > b.
var relations = map[string][3]bool{
	"eq": {false, true, false}, "ne": {true, false, true},
	"lt": {true, false, false}, "le": {true, true, false},
	"gt": {false, false, true}, "ge": {false, true, true},
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// matmulFits reports whether every partial sum of an integer matmul of
// int64-held operands fits in an int64: |c + sum of K products| <= 2^61 +
// K*2^(|a|+|b|) <= 2^62.
func matmulFits(a, b, c *Buffer) bool {
	if a.Ints == nil || b.Ints == nil || c.Ints == nil {
		return false
	}
	K := uint64(a.Shape[1])
	return magnitude(c.Elem) <= 61 && magnitude(a.Elem)+magnitude(b.Elem)+bits.Len64(K) <= 61
}

// matmulInts is d = wrap(c + a x b) for (M, K) x (K, N) int64 matrices whose
// partial sums fit (matmulFits), row by row of b.
func matmulInts(d, a, b, c []int64, K, N int, wr wrapper) {
	copy(d, c)
	for m := 0; m*N < len(d); m++ {
		row := d[m*N : (m+1)*N]
		for k, x := range a[m*K : (m+1)*K] {
			for n, y := range b[k*N : (k+1)*N] {
				row[n] += x * y
			}
		}
	}
	for i, x := range d {
		d[i] = wr.of(x)
	}
}
