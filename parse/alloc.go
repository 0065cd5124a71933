package parse

import (
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/otir-dev/otir/ir"
)

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

// arena hands out objects that all die together: after reset it hands out
// the same memory again. A streamed chunk's AST bodies live in arenas, so
// that the next chunk reuses their memory (stream.go).
type arena[T any] struct {
	buf  []T
	used int
}

func (a *arena[T]) grow(n int) {
	size := 2 * len(a.buf)
	if size < 64 {
		size = 64
	}
	if size < n {
		size = n
	}
	a.buf, a.used = make([]T, size), 0
}

// one returns a pointer to a zero T.
func (a *arena[T]) one() *T {
	if a.used == len(a.buf) {
		a.grow(1)
	}
	a.used++
	return &a.buf[a.used-1]
}

// many returns n zero Ts (nil for n == 0) whose capacity is n.
func (a *arena[T]) many(n int) []T {
	if n == 0 {
		return nil
	}
	if a.used+n > len(a.buf) {
		a.grow(n)
	}
	a.used += n
	return a.buf[a.used-n : a.used : a.used]
}

// reset zeroes what was handed out, to hand it out again.
func (a *arena[T]) reset() {
	clear(a.buf[:a.used])
	a.used = 0
}

// allocator holds the slabs of one goroutine of the parse, and its cache of
// function types.
type allocator struct {
	sigCache map[string]sigTypes
	sigs     map[sigKey]sigTypes
	asm      asmParser // the format interpreter's parser (pretty.go)
	bodies
	ops     slab[Operation]
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

// bodies holds the AST nodes of operation bodies, which only the builder
// reads: a streamed chunk resets them once its operations are built.
type bodies struct {
	pretty     arena[PrettyOp]
	nameGroups arena[[]string]
	typeGroups arena[[]ir.Type]
	pregions   arena[ir.ParsedRegion]
	tys        arena[ir.Type]
	generics   arena[GenericOp]
	dicts      arena[AttrDict]
	entries    arena[AttrEntry]
	entryLists arena[*AttrEntry]
	attrs      arena[Attribute]
	funcs      arena[FuncType]
	typeLists  arena[string] // type and operand name lists
}

func (b *bodies) reset() {
	b.pretty.reset()
	b.nameGroups.reset()
	b.typeGroups.reset()
	b.pregions.reset()
	b.tys.reset()
	b.generics.reset()
	b.dicts.reset()
	b.entries.reset()
	b.entryLists.reset()
	b.attrs.reset()
	b.funcs.reset()
	b.typeLists.reset()
}

// sigTypes are the types of a one-token function type.
type sigTypes struct{ ins, outs []ir.Type }

// sigTypes returns the types of f, from the cache when f is one token: a
// large kernel repeats a few signatures, which are split and looked up once.
// The slices are shared: callers copy what they keep.
func (al *allocator) sigTypes(f *FuncType) (ins, outs []ir.Type, err error) {
	if f.Sig == "" {
		return funcTypes(f)
	}
	if st, ok := al.sigCache[f.Sig]; ok {
		return st.ins, st.outs, nil
	}
	if ins, outs, err = funcTypes(f); err == nil {
		if al.sigCache == nil {
			al.sigCache = map[string]sigTypes{}
		}
		al.sigCache[f.Sig] = sigTypes{ins, outs}
	}
	return ins, outs, err
}

// sigKey is a one-token signature's text and whether [T] inputs are allowed.
type sigKey struct {
	text     string
	brackets bool
}

// sig returns the types of a one-token signature, from the cache: a large
// kernel repeats a few signatures, which are split and looked up once. The
// slices are shared: callers copy what they keep.
func (al *allocator) sig(text string, pos lexer.Position, brackets bool) (ins, outs []ir.Type, err error) {
	k := sigKey{text, brackets}
	if st, ok := al.sigs[k]; ok {
		return st.ins, st.outs, nil
	}
	if ins, outs, err = splitSig(text, pos, brackets); err == nil {
		if al.sigs == nil {
			al.sigs = map[sigKey]sigTypes{}
		}
		al.sigs[k] = sigTypes{ins, outs}
	}
	return ins, outs, err
}
