package tiles

import (
	"math/big"

	"github.com/otir-dev/otir/ir"
)

// slot is one value of the program being built: a dais op's result whose
// values are the integers lo..hi (step 1; msb-condition slots may have a
// coarser step, see lowerer.lessThan).
type slot struct {
	id     int32 // the slot's index in the program (lowerer.ops)
	lo, hi *big.Int
	// mod64 marks a value of a type wider than 64 bits whose exact value
	// needs more than 64 bits: the slot holds it modulo 2^64 (as a signed
	// 64-bit number, see mod64.go). That is all that additions,
	// subtractions, multiplications, left shifts, bitwise operations and
	// conversions to 64 bits or fewer need; operations that need the exact
	// value (comparisons, division, right shifts, max, min, abs, a store
	// into a type wider than 64 bits) reject it.
	mod64 bool
}

// num is one scalar element of an OTIR value during lowering. Exactly one
// of c, s and m is set:
//   - c: a compile-time constant (index arithmetic, program ids, constants);
//   - s: a program slot holding the value;
//   - m: a boolean whose truth is the most significant bit of slot m,
//     inverted when inv is set (comparisons produce these; dais.mux tests
//     the msb directly, so they cost nothing until used as data).
type num struct {
	c   *big.Int
	s   *slot
	m   *slot
	inv bool
}

func constNum(v *big.Int) num { return num{c: v} }
func intNum(v int64) num      { return num{c: big.NewInt(v)} }
func slotNum(s *slot) num     { return num{s: s} }

func boolNum(b bool) num {
	if b {
		return intNum(1)
	}
	return intNum(0)
}

// bounds returns the least and greatest value n can take (0..1 for an msb
// condition).
func (n num) bounds() (lo, hi *big.Int) {
	switch {
	case n.c != nil:
		return n.c, n.c
	case n.s != nil:
		return n.s.lo, n.s.hi
	}
	return bigZero, bigOne
}

// same reports whether two nums certainly hold the same value.
func (n num) same(o num) bool {
	switch {
	case n.c != nil && o.c != nil:
		return n.c.Cmp(o.c) == 0
	case n.s != nil:
		return n.s == o.s
	case n.m != nil:
		return n.m == o.m && n.inv == o.inv
	}
	return false
}

// tile is a #private tile value: its elements in row-major order.
type tile struct {
	shape []int64
	elems []num
}

// memory is a #global argument or a #workgroup allocation: one cell per
// element.
type memory struct {
	cells []cell
	shape []int64
	elem  ir.Type
	space ir.MemSpace
	// arg is the kernel argument a #global memory holds (-1 otherwise).
	arg int
	// def is where the memory comes from (the argument or the alloc), for
	// diagnostics.
	def  ir.Location
	name string
}

// cell states.
const (
	cellSet     = iota // holds n
	cellUninit         // a #workgroup element nothing has written yet
	cellInitial        // a #global element still holding the caller's input
)

type cell struct {
	n     num
	state uint8
}

// view is a #global or #workgroup tile: a window onto a memory, element i of
// the view (row-major over shape) being cell idx[i].
type view struct {
	mem   *memory
	shape []int64
	idx   []int
}

// dmaCopy is an asynchronous copy started by otir.dma_copy_async: the
// source values are read when it starts (the executor reports any later
// write to them), and written to dst, where mask is 1, at the wait.
type dmaCopy struct {
	op    *ir.Operation
	src   []num
	dst   *view
	mask  []num // nil: every element
	done  bool
	depth int // data-dependent branch depth at which it started
	// srcView is the source (pending.go checks writes to it).
	srcView *view
}

func shapeOf(t ir.Type) []int64 {
	if tt, ok := t.(*ir.TileType); ok {
		return tt.Shape
	}
	return nil
}
