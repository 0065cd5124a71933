package parse

import "otir/ir"

// slab hands out the elements of larger arrays, so that the millions of small
// objects of a big parse cost a few allocations. Slabs start small (a region
// of three operations should not reserve thousands) and double up to
// maxSlab elements. A slab is used by one goroutine.
type slab[T any] struct {
	buf  []T
	next int // size of the next array
}

const maxSlab = 1024

func (s *slab[T]) grow(n int) {
	if s.next == 0 {
		s.next = 8
	}
	size := s.next
	if size < n {
		size = n
	}
	s.buf = make([]T, size)
	if s.next < maxSlab {
		s.next *= 2
	}
}

// one returns a pointer to a zero T.
func (s *slab[T]) one() *T {
	if len(s.buf) == 0 {
		s.grow(1)
	}
	p := &s.buf[0]
	s.buf = s.buf[1:]
	return p
}

// many returns n zero Ts (nil for n == 0) whose capacity is n, so appending
// to them reallocates instead of overwriting a neighbour.
func (s *slab[T]) many(n int) []T {
	if n == 0 {
		return nil
	}
	if n > maxSlab/4 {
		return make([]T, n)
	}
	if len(s.buf) < n {
		s.grow(n)
	}
	r := s.buf[:n:n]
	s.buf = s.buf[n:]
	return r
}

// allocator holds the slabs of one goroutine of the parse.
type allocator struct {
	ops     slab[Operation]
	binary  slab[BinaryOp]
	sigs    slab[EwSig]
	funcs   slab[FuncType]
	strs    slab[string]
	uses    slab[use]
	types   slab[ir.Type]
	irOps   slab[ir.Operation]
	values  slab[ir.Value]
	valPtrs slab[*ir.Value]
}

// use is an operand of an operation: an SSA name and the type the
// operation's syntax gives it.
type use struct {
	name string
	typ  ir.Type
}
