// Package tileview is the index model of tiles shared by the reference
// executor (backend/exec) and the tile lowering (lower/tiles), so that both
// number a tile's elements, broadcast operands and map the shape operations
// (reshape, transpose, extract_slice, insert_slice) the same way.
//
// Elements are numbered row-major. A view of a tile is an index map: element
// i of the view is element src[i] of its base (Compose chains them). Index
// maps rather than (offset, strides) triples, because a reshape of a strided
// slice is not strided in general.
package tileview

import "github.com/otir-dev/otir/internal/satint"

// Count is the number of elements of shape, saturating at math.MaxInt64;
// a shape with a dimension below 1 holds nothing.
func Count(shape []int64) int64 {
	n := int64(1)
	for _, d := range shape {
		if d < 1 {
			return 0
		}
		n = satint.Mul(n, d)
	}
	return n
}

// Len is Count as an int, for the shapes a run or a lowering holds (their
// size limits keep them far below the saturation).
func Len(shape []int64) int { return int(Count(shape)) }

// Strides are the row-major strides of shape, in elements.
func Strides(shape []int64) []int64 {
	s := make([]int64, len(shape))
	acc := int64(1)
	for d := len(shape) - 1; d >= 0; d-- {
		s[d] = acc
		acc *= shape[d]
	}
	return s
}

// Coord returns the coordinates of row-major element i of shape.
func Coord(i int64, shape []int64) []int64 {
	c := make([]int64, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		c[d] = i % shape[d]
		i /= shape[d]
	}
	return c
}

// Linear is the index of coordinates c under the given strides.
func Linear(c, strides []int64) int64 {
	k := int64(0)
	for d, x := range c {
		k += x * strides[d]
	}
	return k
}

// Next advances coordinates c to the next element of shape in row-major
// order (past the last element it wraps to all zeros).
func Next(c, shape []int64) {
	for d := len(c) - 1; d >= 0; d-- {
		if c[d]++; c[d] < shape[d] {
			return
		}
		c[d] = 0
	}
}

// SameDropOnes reports whether two shapes agree once their 1s are dropped
// (a slice may drop unit dimensions, as MLIR's rank-reducing slices do).
func SameDropOnes(a, b []int64) bool {
	i, j := 0, 0
	for {
		for i < len(a) && a[i] == 1 {
			i++
		}
		for j < len(b) && b[j] == 1 {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if a[i] != b[j] {
			return false
		}
		i, j = i+1, j+1
	}
}

// Broadcast is the NumPy broadcast of two shapes (aligned on the right,
// each dimension equal or 1); ok is false when they do not broadcast.
func Broadcast(a, b []int64) (out []int64, ok bool) {
	if len(a) < len(b) {
		a, b = b, a
	}
	out = append([]int64(nil), a...)
	for i := range b {
		da, db := a[len(a)-1-i], b[len(b)-1-i]
		switch {
		case da == db || db == 1:
		case da == 1:
			out[len(a)-1-i] = db
		default:
			return nil, false
		}
	}
	return out, true
}

// Fits reports whether a value of shape in broadcasts to exactly shape.
func Fits(in, shape []int64) bool {
	if len(in) > len(shape) {
		return false
	}
	for d := range in {
		if x := in[len(in)-1-d]; x != 1 && x != shape[len(shape)-1-d] {
			return false
		}
	}
	return true
}

// BroadcastStrides gives, for each dimension of shape, the stride in the
// elements of an operand of shape in (aligned on the right) that broadcasts
// to it: 0 along broadcast dimensions.
func BroadcastStrides(in, shape []int64) []int64 {
	s := make([]int64, len(shape))
	stride := int64(1)
	for d := len(in) - 1; d >= 0; d-- {
		if in[d] != 1 {
			s[d+len(shape)-len(in)] = stride
		}
		stride *= in[d]
	}
	return s
}

// Map lists, for each element of shape in row-major order, its index under
// strides: the index map of a strided view with that shape.
func Map[T ~int | ~int64](shape, strides []int64) []T {
	out := make([]T, Len(shape))
	c := make([]int64, len(shape))
	for i := range out {
		out[i] = T(Linear(c, strides))
		Next(c, shape)
	}
	return out
}

// IsPermutation reports whether p is a permutation of 0..n-1.
func IsPermutation(p []int64, n int) bool {
	if len(p) != n {
		return false
	}
	seen := make([]bool, n)
	for _, x := range p {
		if x < 0 || x >= int64(n) || seen[x] {
			return false
		}
		seen[x] = true
	}
	return true
}

// Transpose returns the shape of a transpose of shape (result dimension d is
// dimension perm[d]) and its index map into the operand; perm must be a
// permutation of shape's dimensions.
func Transpose(shape, perm []int64) (out, src []int64) {
	out = make([]int64, len(perm))
	in := Strides(shape)
	strides := make([]int64, len(perm))
	for d, p := range perm {
		out[d], strides[d] = shape[p], in[p]
	}
	return out, Map[int64](out, strides)
}

// Box is the part of a tile a slice selects: per dimension an offset, a
// size and a stride.
type Box struct{ Offsets, Sizes, Strides []int64 }

// Within reports whether dimension d of the box has a positive size and
// stride and lies within a dimension of size dim.
func (b Box) Within(d int, dim int64) bool {
	o, size, stride := b.Offsets[d], b.Sizes[d], b.Strides[d]
	return size >= 1 && stride >= 1 && o >= 0 && o < dim && size-1 <= (dim-1-o)/stride
}

// Sources is the index map of the box within a tile of shape: for each
// element of the box in row-major order, its index in the tile. The box
// must be within shape.
func (b Box) Sources(shape []int64) []int64 {
	in := Strides(shape)
	base := int64(0)
	strides := make([]int64, len(shape))
	for d := range shape {
		base += b.Offsets[d] * in[d]
		strides[d] = b.Strides[d] * in[d]
	}
	src := Map[int64](b.Sizes, strides)
	for i := range src {
		src[i] += base
	}
	return src
}

// Compose is the index map of a view of a view: element i of the result is
// element base[src[i]] of the underlying tile. A nil base is the identity.
func Compose[T ~int | ~int64](base []T, src []int64) []T {
	out := make([]T, len(src))
	for i, s := range src {
		if base == nil {
			out[i] = T(s)
		} else {
			out[i] = base[s]
		}
	}
	return out
}
