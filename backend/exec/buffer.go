package exec

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
)

// Buffer holds the elements of a tile, or of a scalar (rank 0, Shape empty),
// in row-major order. Exactly one storage slice is used, chosen by the element
// type: Ints for integer and index types whose values all fit in an int64,
// Bigs for wider integers (u64 included), Floats for float types (each value
// exactly representable in the element type).
//
// Buffers are the executor's kernel arguments and results, and its #private
// values; a #private value is never modified once made.
type Buffer struct {
	Shape  []int64
	Elem   ir.Type
	Ints   []int64
	Bigs   []*big.Int
	Floats []float64
}

// NewBuffer makes a zero-filled buffer. elem must be an integer, index or
// float type (Validate reports any other).
func NewBuffer(elem ir.Type, shape ...int64) *Buffer {
	n := tileview.Len(shape)
	if len(shape) == 0 && fitsInt64(elem) {
		// An integer scalar (a loop's induction variable, say): the
		// buffer and its value in one allocation.
		s := &struct {
			Buffer
			v [1]int64
		}{Buffer: Buffer{Elem: elem}}
		s.Ints = s.v[:]
		return &s.Buffer
	}
	b := &Buffer{Shape: append([]int64(nil), shape...), Elem: elem}
	switch {
	case fitsInt64(elem):
		b.Ints = make([]int64, n)
	case isFloatType(elem):
		b.Floats = make([]float64, n)
	default:
		if _, _, ok := intInfo(elem); ok {
			b.Bigs = make([]*big.Int, n)
			for i := range b.Bigs {
				b.Bigs[i] = new(big.Int)
			}
		}
	}
	return b
}

// FromInts makes a buffer from integer values, which must be values of elem.
func FromInts(elem ir.Type, shape []int64, vals ...int64) (*Buffer, error) {
	b := NewBuffer(elem, shape...)
	if len(vals) != b.Len() {
		return nil, fmt.Errorf("%d values for a %s buffer of %d elements", len(vals), shapeString(shape), b.Len())
	}
	for i, v := range vals {
		if err := b.SetInt(i, big.NewInt(v)); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// FromFloats makes a buffer of a float type; values are rounded to elem.
func FromFloats(elem *ir.FloatType, shape []int64, vals ...float64) (*Buffer, error) {
	b := NewBuffer(elem, shape...)
	if len(vals) != b.Len() {
		return nil, fmt.Errorf("%d values for a %s buffer of %d elements", len(vals), shapeString(shape), b.Len())
	}
	for i, v := range vals {
		b.Floats[i] = roundFloat64(v, elem.Kind)
	}
	return b, nil
}

// Scalar makes a rank-0 buffer holding the integer v of type t.
func Scalar(t ir.Type, v int64) (*Buffer, error) { return FromInts(t, nil, v) }

func isFloatType(t ir.Type) bool { _, ok := t.(*ir.FloatType); return ok }

// Len is the number of elements.
func (b *Buffer) Len() int { return tileview.Len(b.Shape) }

// IsFloat reports whether the elements are floats.
func (b *Buffer) IsFloat() bool { return isFloatType(b.Elem) }

// BigAt returns element i as a new *big.Int (integer buffers only).
func (b *Buffer) BigAt(i int) *big.Int {
	n := b.num(i)
	if n.k == kFloat {
		return nil
	}
	return new(big.Int).Set(n.big())
}

// FloatAt returns element i as a float64 (integers are converted).
func (b *Buffer) FloatAt(i int) float64 {
	n := b.num(i)
	switch n.k {
	case kFloat:
		return n.f
	case kBig:
		f, _ := new(big.Float).SetInt(n.b).Float64()
		return f
	}
	return float64(n.i)
}

// Int64s returns the elements of an integer buffer as int64s; it fails when
// one does not fit.
func (b *Buffer) Int64s() ([]int64, error) {
	out := make([]int64, b.Len())
	for i := range out {
		n := b.num(i)
		if n.k != kInt {
			return nil, fmt.Errorf("element %d (%s) is not an int64", i, n)
		}
		out[i] = n.i
	}
	return out, nil
}

// SetInt stores the integer v, which must be a value of the element type.
func (b *Buffer) SetInt(i int, v *big.Int) error {
	n := bigNum(v)
	if b.IsFloat() {
		b.Floats[i] = intToFloat(n, b.Elem.(*ir.FloatType).Kind)
		return nil
	}
	if !inRange(n, b.Elem) {
		return fmt.Errorf("%s is not a value of %s", v, b.Elem)
	}
	b.setNum(i, n)
	return nil
}

// SetFloat sets element i of a float buffer to v rounded to the element
// type (ties to even, overflow to infinity), as FromFloats does.
func (b *Buffer) SetFloat(i int, v float64) {
	b.Floats[i] = roundFloat64(v, b.Elem.(*ir.FloatType).Kind)
}

// num returns element i.
func (b *Buffer) num(i int) num {
	switch {
	case b.Ints != nil:
		return intNum(b.Ints[i])
	case b.Floats != nil:
		return floatNum(b.Floats[i])
	}
	return bigNum(b.Bigs[i])
}

// setNum stores element i; n must already be a value of the element type.
func (b *Buffer) setNum(i int, n num) {
	switch {
	case b.Ints != nil:
		b.Ints[i] = n.i
	case b.Floats != nil:
		b.Floats[i] = n.f
	default:
		b.Bigs[i] = n.big()
	}
}

// Clone returns a deep copy.
func (b *Buffer) Clone() *Buffer {
	c := &Buffer{Shape: append([]int64(nil), b.Shape...), Elem: b.Elem}
	if b.Ints != nil {
		c.Ints = append([]int64(nil), b.Ints...)
	}
	if b.Floats != nil {
		c.Floats = append([]float64(nil), b.Floats...)
	}
	if b.Bigs != nil {
		c.Bigs = make([]*big.Int, len(b.Bigs))
		for i, v := range b.Bigs {
			c.Bigs[i] = new(big.Int).Set(v)
		}
	}
	return c
}

// Equal reports whether two buffers have the same element type, shape and
// elements (floats compare by bits, so NaN equals NaN and -0 differs from 0).
func (b *Buffer) Equal(o *Buffer) bool {
	if b.Elem != o.Elem || shapeString(b.Shape) != shapeString(o.Shape) || b.Len() != o.Len() {
		return false
	}
	for i := 0; i < b.Len(); i++ {
		if !sameNum(b.num(i), o.num(i)) {
			return false
		}
	}
	return true
}

// sameNum compares two elements of one type exactly (floats by bits).
func sameNum(a, b num) bool {
	if a.k == kFloat || b.k == kFloat {
		return a.k == b.k && math.Float64bits(a.f) == math.Float64bits(b.f)
	}
	return cmpInt(a, b) == 0
}

// Validate checks that the storage matches the element type and the shape,
// and that every element is a value of the element type.
func (b *Buffer) Validate() error {
	if !ir.IsScalar(b.Elem) {
		return fmt.Errorf("buffer element type must be an integer, index or float type, not %v", b.Elem)
	}
	for _, d := range b.Shape {
		if d < 1 {
			return fmt.Errorf("buffer dimension %d is not positive", d)
		}
	}
	n := b.Len()
	var have int
	switch {
	case fitsInt64(b.Elem):
		have = len(b.Ints)
		if b.Ints == nil || b.Floats != nil || b.Bigs != nil {
			return fmt.Errorf("a %s buffer stores its elements in Ints", b.Elem)
		}
	case b.IsFloat():
		have = len(b.Floats)
		if b.Floats == nil || b.Ints != nil || b.Bigs != nil {
			return fmt.Errorf("a %s buffer stores its elements in Floats", b.Elem)
		}
	default:
		have = len(b.Bigs)
		if b.Bigs == nil || b.Ints != nil || b.Floats != nil {
			return fmt.Errorf("a %s buffer stores its elements in Bigs", b.Elem)
		}
	}
	if have != n {
		return fmt.Errorf("buffer of shape %s holds %d elements, not %d", shapeString(b.Shape), have, n)
	}
	if b.Ints != nil { // one loop: each value must be its own wrap to the type
		if i := wrapperOf(b.Elem).firstUnwrapped(b.Ints); i >= 0 {
			return fmt.Errorf("element %d (%s) is not a value of %s", i, b.num(i), b.Elem)
		}
		return nil
	}
	for i := 0; i < n; i++ {
		v := b.num(i)
		if b.Bigs != nil && b.Bigs[i] == nil {
			return fmt.Errorf("element %d is nil", i)
		}
		if v.k == kFloat {
			if k := b.Elem.(*ir.FloatType).Kind; !math.IsNaN(v.f) && roundFloat64(v.f, k) != v.f {
				return fmt.Errorf("element %d (%s) is not a value of %s", i, ir.FormatFloat(v.f), b.Elem)
			}
		} else if !inRange(v, b.Elem) {
			return fmt.Errorf("element %d (%s) is not a value of %s", i, v, b.Elem)
		}
	}
	return nil
}

// String prints the elements as an OTIR dense literal body: a scalar as
// itself, a tile as nested lists, booleans as true/false.
func (b *Buffer) String() string {
	var sb strings.Builder
	b.format(&sb)
	return sb.String()
}

func (b *Buffer) format(sb *strings.Builder) {
	elem := func(i int) string {
		n := b.num(i)
		if n.k == kFloat {
			// Finite values exactly (the executor's numerics, digit for
			// digit); NaN and infinities as a bit pattern of the element
			// type's width, which MLIR reads back (it rejects a 64-bit
			// pattern for f16 or f32).
			if ft, ok := b.Elem.(*ir.FloatType); ok && (math.IsNaN(n.f) || math.IsInf(n.f, 0)) {
				return ir.FormatFloatOf(n.f, ft)
			}
			return ir.FormatFloat(n.f)
		}
		if b.Elem == ir.Bool() {
			if n.sign() != 0 {
				return "true"
			}
			return "false"
		}
		return n.String()
	}
	var rec func(dim, base int)
	rec = func(dim, base int) {
		if dim == len(b.Shape) {
			sb.WriteString(elem(base))
			return
		}
		stride := tileview.Len(b.Shape[dim+1:])
		sb.WriteByte('[')
		for i := 0; i < int(b.Shape[dim]); i++ {
			if i > 0 {
				sb.WriteString(", ")
			}
			rec(dim+1, base+i*stride)
		}
		sb.WriteByte(']')
	}
	rec(0, 0)
}

// shapeString prints a shape as 4x8 ("scalar" for rank 0).
func shapeString(shape []int64) string {
	if len(shape) == 0 {
		return "scalar"
	}
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = fmt.Sprint(d)
	}
	return strings.Join(parts, "x")
}

// coordString prints coordinates as [1, 2].
func coordString(c []int64) string {
	parts := make([]string, len(c))
	for i, v := range c {
		parts[i] = fmt.Sprint(v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
