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
// width's bits (unsigned). conv names the Go integer type whose conversion
// is the same wrap, for the types that have one (i8, i16, i32, i64, index,
// u8, u16, u32): the whole-tile loops run with it, one instruction an
// element, instead of the shifts.
type wrapper struct {
	shift uint
	mask  int64
	conv  goConv
}

// goConv names the Go integer type of a wrap (convNone: none).
type goConv uint8

const (
	convNone goConv = iota
	convI8
	convI16
	convI32
	convI64
	convU8
	convU16
	convU32
)

func wrapperOf(t ir.Type) wrapper {
	width, signed, _ := intInfo(t)
	return wrapperFor(width, signed)
}

func wrapperFor(width int, signed bool) wrapper {
	if signed {
		return wrapper{shift: uint(64 - width), mask: -1, conv: [65]goConv{8: convI8, 16: convI16, 32: convI32, 64: convI64}[width]}
	}
	return wrapper{mask: 1<<uint(width) - 1, conv: [64]goConv{8: convU8, 16: convU16, 32: convU32}[min(width, 63)]}
}

func (w wrapper) of(x int64) int64 { return x << (w.shift & 63) >> (w.shift & 63) & w.mask }

// all wraps every element of d in place.
func (w wrapper) all(d []int64) {
	for i, x := range d {
		d[i] = w.of(x)
	}
}

// firstUnwrapped returns the index of the first element of xs that is not
// its own wrap (not a value of the type), or -1.
func (w wrapper) firstUnwrapped(xs []int64) int {
	if w.conv != convNone {
		return firstUnwrappedLoops[w.conv](xs)
	}
	for i, x := range xs {
		if w.of(x) != x {
			return i
		}
	}
	return -1
}

// firstUnwrappedLoops are firstUnwrapped's loops of each wrap's Go type.
var firstUnwrappedLoops = [...]func(xs []int64) int{
	convI64: firstUnwrappedAs[int64],
	convI8:  firstUnwrappedAs[int8], convI16: firstUnwrappedAs[int16], convI32: firstUnwrappedAs[int32],
	convU8: firstUnwrappedAs[uint8], convU16: firstUnwrappedAs[uint16], convU32: firstUnwrappedAs[uint32],
}

func firstUnwrappedAs[T goInt](xs []int64) int {
	for i, x := range xs {
		if int64(T(x)) != x {
			return i
		}
	}
	return -1
}

// goInt is the Go integer types of the wraps with a conversion (goConv).
type goInt interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32
}

// loopCode names a whole-tile loop: binary ops, then unary ones.
type loopCode uint8

const (
	binAdd loopCode = iota
	binSub
	binMul
	binAnd
	binOr
	binXor
	binMax
	binMin
	unNeg
	unAbs
	unNot
	unCast
)

// loop is d = wrap(x op y) over the operands in[0] and in[1] (x op, in[0],
// for a unary op), each of d's length: the loop of the wrap's Go type, else a
// loop without wrap and a pass that wraps. It reports true (the form ran).
func (w wrapper) loop(op loopCode, d []int64, in []*Buffer) bool {
	intsLoops[w.conv](op, d, in[0].Ints, in[len(in)-1].Ints)
	if w.conv == convNone {
		w.all(d)
	}
	return true
}

// intsLoops are the loops of each wrap's Go type (int64: none, or no wrap).
var intsLoops = [...]func(op loopCode, d, x, y []int64){
	convNone: intsLoop[int64], convI64: intsLoop[int64],
	convI8: intsLoop[int8], convI16: intsLoop[int16], convI32: intsLoop[int32],
	convU8: intsLoop[uint8], convU16: intsLoop[uint16], convU32: intsLoop[uint32],
}

// intsLoop is d = T(x op y) (T(op x)) element by element. Resliced to d's
// length, the operands need no bounds checks in the loops.
func intsLoop[T goInt](op loopCode, d, x, y []int64) {
	x, y = x[:len(d)], y[:len(d)]
	switch op {
	case binAdd:
		for i := range d {
			d[i] = int64(T(x[i] + y[i]))
		}
	case binSub:
		for i := range d {
			d[i] = int64(T(x[i] - y[i]))
		}
	case binMul:
		for i := range d {
			d[i] = int64(T(x[i] * y[i]))
		}
	case binAnd:
		for i := range d {
			d[i] = int64(T(x[i] & y[i]))
		}
	case binOr:
		for i := range d {
			d[i] = int64(T(x[i] | y[i]))
		}
	case binXor:
		for i := range d {
			d[i] = int64(T(x[i] ^ y[i]))
		}
	case binMax:
		for i := range d {
			d[i] = int64(T(max(x[i], y[i])))
		}
	case binMin:
		for i := range d {
			d[i] = int64(T(min(x[i], y[i])))
		}
	case unNeg:
		for i := range d {
			d[i] = int64(T(-x[i]))
		}
	case unAbs:
		for i := range d {
			d[i] = int64(T(abs64(x[i])))
		}
	case unNot:
		for i := range d {
			d[i] = int64(T(^x[i]))
		}
	case unCast:
		for i := range d {
			d[i] = int64(T(x[i]))
		}
	}
}

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
	return fitsSum(in[0], in[1]) && wr.loop(binAdd, d, in)
}

func subTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	return fitsSum(in[0], in[1]) && wr.loop(binSub, d, in)
}

func mulTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	return magnitude(in[0].Elem)+magnitude(in[1].Elem) <= 62 && wr.loop(binMul, d, in)
}

// The bitwise ops and max/min of int64 values are int64 values.

func andTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	return wr.loop(binAnd, d, in)
}

func orTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	return wr.loop(binOr, d, in)
}

func xorTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	return wr.loop(binXor, d, in)
}

func maxTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	return wr.loop(binMax, d, in)
}

func minTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	return wr.loop(binMin, d, in)
}

// negTile and absTile decline a type holding -2^63, whose negation does not
// fit; notTile is ^x (-x-1), which always fits.

func negTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	return magnitude(in[0].Elem) <= 62 && wr.loop(unNeg, d, in)
}

func absTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	return magnitude(in[0].Elem) <= 62 && wr.loop(unAbs, d, in)
}

func notTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	return wr.loop(unNot, d, in)
}

// castTile is otir.cast between int64-held types: the value, wrapped.
func castTile(_ *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	return wr.loop(unCast, d, in)
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
		v := y[i] // one store, no branch (a conditional move)
		if c[i] != 0 {
			v = x[i]
		}
		d[i] = v
	}
	return true
}

// cmpTile is otir.cmp kind(pred) (cmpFunc) of int64-held operands: each
// operand is read (s*: as signed, u*: as unsigned, in its own width) into an
// int64, then compared exactly. It declines a u* predicate on a 64-bit type,
// whose unsigned reading may not fit. When each reading is the value itself
// (the predicate's signedness is the operand type's, or eq and ne), one loop
// of the relation runs.
func cmpTile(op *ir.Operation, d []int64, in []*Buffer, wr wrapper) bool {
	pred, _ := op.StringAttr("kind")
	rel := pred
	read := [2]wrapper{{mask: -1}, {mask: -1}} // eq, ne, o*: the value itself
	same := true                               // every reading is the value
	if len(pred) == 3 {
		rel = pred[1:]
		for j := range 2 {
			w, signed, _ := intInfo(in[j].Elem)
			switch pred[0] {
			case 's':
				read[j] = wrapperFor(w, true)
				same = same && signed
			case 'u':
				if w > 63 {
					return false
				}
				read[j] = wrapperFor(w, false)
				same = same && !signed
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
	if same {
		cmpInts(d, x, y, val)
		return true
	}
	for i := range d {
		a, b := read[0].of(x[i]), read[1].of(y[i])
		d[i] = val[1+b2i(a > b)-b2i(a < b)]
	}
	return true
}

// cmpInts is d = val[1 + sign(x - y)] for a relation of a cmp (val: the
// results when x < y, x == y, x > y, one of them or two true), one loop of
// conditional moves: ==, !=, < and <= (> and >= with the operands swapped,
// in a call of their own, which keeps the loop free of bounds checks).
func cmpInts(d, x, y []int64, val [3]int64) {
	t := max(val[0], val[1], val[2]) | min(val[0], val[1], val[2]) // the true value (1 or -1)
	x, y = x[:len(d)], y[:len(d)]                                  // no bounds checks in the loops
	switch [3]bool{val[0] != 0, val[1] != 0, val[2] != 0} {
	case [3]bool{false, true, false}: // eq
		for i := range d {
			v := int64(0)
			if x[i] == y[i] {
				v = t
			}
			d[i] = v
		}
	case [3]bool{true, false, true}: // ne
		for i := range d {
			v := int64(0)
			if x[i] != y[i] {
				v = t
			}
			d[i] = v
		}
	case [3]bool{true, false, false}: // lt
		ltInts(d, x, y, t)
	case [3]bool{false, false, true}: // gt: y < x
		ltInts(d, y, x, t)
	case [3]bool{true, true, false}: // le
		leInts(d, x, y, t)
	case [3]bool{false, true, true}: // ge: y <= x
		leInts(d, y, x, t)
	default: // always or never
		fill(d, val[0])
	}
}

// ltInts is d = t where x < y, else 0; leInts where x <= y.

func ltInts(d, x, y []int64, t int64) {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		v := int64(0)
		if x[i] < y[i] {
			v = t
		}
		d[i] = v
	}
}

func leInts(d, x, y []int64, t int64) {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		v := int64(0)
		if x[i] <= y[i] {
			v = t
		}
		d[i] = v
	}
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
