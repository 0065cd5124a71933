package exec

import (
	"fmt"
	"io"
	"math/big"

	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
)

// The .npy boundary of the executor; the file format itself is package
// github.com/otir-dev/otir/backend/npy. Each element type has one NumPy dtype: a signed iN is
// the smallest of int8/16/32/64 that holds it, an unsigned uN the smallest
// of uint8/16/32/64 (u1, the boolean, is bool), index is int64,
// f16/f32/f64 are float16/32/64, and bf16 (which NumPy lacks) is float32
// whose values are rounded to bf16 on reading. Integers wider than 64 bits
// have no dtype. Reading requires exactly that dtype (either byte order,
// C or Fortran order) and values of the element type.

// elemDType returns the NumPy dtype of an element type.
func elemDType(elem ir.Type) (npy.DType, error) {
	switch t := elem.(type) {
	case *ir.IndexType:
		return npy.Int64, nil
	case *ir.FloatType:
		switch t.Kind {
		case ir.F16:
			return npy.Float16, nil
		case ir.F64:
			return npy.Float64, nil
		}
		return npy.Float32, nil
	case *ir.IntType:
		if t.Width == 1 {
			return npy.Bool, nil
		}
		kind := byte('u')
		if t.Signed {
			kind = 'i'
		}
		for _, size := range []int{1, 2, 4, 8} {
			if t.Width <= size*8 {
				return npy.DType{Kind: kind, Size: size}, nil
			}
		}
		return npy.DType{}, fmt.Errorf("%s elements are wider than 64 bits, which .npy files cannot hold", t)
	}
	return npy.DType{}, fmt.Errorf("%s has no .npy dtype", elem)
}

// NpyDtype returns the dtype code (kind letter and byte size, e.g. "i2") of
// an element type.
func NpyDtype(elem ir.Type) (string, error) {
	d, err := elemDType(elem)
	if err != nil {
		return "", err
	}
	return d.String(), nil
}

// ReadNpy reads a .npy array into a buffer of element type elem; the
// array's dtype must be elem's (see above) and its values must be values of
// elem. The shape is the array's.
func ReadNpy(r io.Reader, elem ir.Type) (*Buffer, error) {
	want, err := elemDType(elem)
	if err != nil {
		return nil, err
	}
	a, err := npy.ReadArray(r)
	if err != nil {
		return nil, err
	}
	if a.DType != want {
		order := "<"
		if a.BigEndian {
			order = ">"
		} else if a.DType.Size == 1 {
			order = "|"
		}
		return nil, fmt.Errorf("holds %s (dtype '%s%s') but %s elements are read from %s", a.DType.Name(), order, a.DType, elem, want.Name())
	}
	shape := make([]int64, len(a.Shape))
	for i, d := range a.Shape {
		if d < 1 {
			return nil, fmt.Errorf("unsupported .npy shape %v (empty arrays have no buffer)", a.Shape)
		}
		shape[i] = int64(d)
	}
	b := NewBuffer(elem, shape...)
	for i := 0; i < b.Len(); i++ {
		var v num
		switch want.Kind {
		case 'f':
			b.Floats[i] = roundFloat64(a.Floats[i], elem.(*ir.FloatType).Kind)
			continue
		case 'b':
			v = intNum(0)
			if a.Bools[i] {
				v = intNum(1)
			}
		case 'i':
			v = intNum(a.Ints[i])
		default:
			if u := a.Uints[i]; u > 1<<63-1 {
				v = bigNum(new(big.Int).SetUint64(u))
			} else {
				v = intNum(int64(u))
			}
		}
		if !inRange(v, elem) {
			return nil, fmt.Errorf("element %s = %s is not a value of %s", coordString(tileview.Coord(int64(i), shape)), v, elem)
		}
		b.setNum(i, v)
	}
	return b, nil
}

// WriteNpy writes a buffer as a little-endian, C-order .npy (version 1.0)
// array of its element type's dtype.
func WriteNpy(w io.Writer, b *Buffer) error {
	d, err := elemDType(b.Elem)
	if err != nil {
		return err
	}
	a := &npy.Array{DType: d, Shape: make([]int, len(b.Shape))}
	for i, s := range b.Shape {
		a.Shape[i] = int(s)
	}
	n := b.Len()
	switch d.Kind {
	case 'f':
		a.Floats = make([]float64, n)
		for i := range a.Floats {
			a.Floats[i] = b.num(i).f
		}
	case 'b':
		a.Bools = make([]bool, n)
		for i := range a.Bools {
			a.Bools[i] = b.num(i).i != 0
		}
	case 'i':
		a.Ints = make([]int64, n)
		for i := range a.Ints {
			a.Ints[i] = b.num(i).i
		}
	default:
		a.Uints = make([]uint64, n)
		for i := range a.Uints {
			if v := b.num(i); v.k == kBig {
				a.Uints[i] = v.b.Uint64() // a u64 value above 2^63
			} else {
				a.Uints[i] = uint64(v.i)
			}
		}
	}
	return npy.WriteArray(w, a)
}
