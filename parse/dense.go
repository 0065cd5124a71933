package parse

import (
	"encoding/hex"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/otir-dev/otir/ir"
)

// Dense tile constants: dense<...> literals checked against their tile type.

// denseAttr converts dense<...> : !otir.tile<...>: a splat (one scalar) or a
// nested list whose shape is the tile's.
func denseAttr(lit *DenseLit, typ ir.Type, pos lexer.Position) (ir.Attr, error) {
	tt, ok := typ.(*ir.TileType)
	if !ok {
		return nil, errAt(pos, "dense literal type must be a tile type, not '%s'", typ)
	}
	if lit.List != "" {
		return denseList(lit.List, lit.Pos, tt, pos)
	}
	if lit.Hex != "" {
		return denseHex(lit.Hex, lit.Pos, tt)
	}
	var leaves []*DenseLit
	if lit.Open {
		shape, err := literalShape(lit)
		if err != nil {
			return nil, err
		}
		if !slices.Equal(shape, tt.Shape) {
			return nil, errAt(pos, "inferred shape of elements literal (%s) does not match type (%s)", shapeText(shape), shapeText(tt.Shape))
		}
		leaves = make([]*DenseLit, 0, tt.NumElements())
		leaves = flatten(lit, leaves)
	} else {
		leaves = []*DenseLit{lit}
	}
	d := &ir.DenseAttr{Type: tt}
	elem := tt.Elem
	if ft, isFloat := elem.(*ir.FloatType); isFloat {
		d.Floats = make([]float64, len(leaves))
		for i, l := range leaves {
			f, err := denseFloat(l, ft)
			if err != nil {
				return nil, err
			}
			d.Floats[i] = f
		}
		return d, nil
	}
	d.Ints = make([]*big.Int, len(leaves))
	for i, l := range leaves {
		v, err := denseInt(l, elem)
		if err != nil {
			return nil, err
		}
		d.Ints[i] = v
	}
	return d, nil
}

func denseInt(l *DenseLit, elem ir.Type) (*big.Int, error) {
	return denseIntAt(l.Scalar, elem, func() lexer.Position { return l.Pos })
}

// denseIntAt converts one integer element; pos is only called on error.
func denseIntAt(s string, elem ir.Type, pos func() lexer.Position) (*big.Int, error) {
	switch {
	case s == "true" || s == "false":
		if elem != ir.Bool() {
			return nil, errAt(pos(), "expected i1 type for 'true' or 'false' values")
		}
		if s == "true" {
			return big.NewInt(1), nil
		}
		return big.NewInt(0), nil
	case strings.ContainsAny(s, ".eE") && !strings.Contains(s, "0x"):
		return nil, errAt(pos(), "expected integer elements, but parsed floating-point")
	}
	v, ok := parseBig(s)
	if !ok {
		return nil, errAt(pos(), "invalid integer literal '%s'", s)
	}
	if !intFits(v, elem) {
		return nil, errAt(pos(), "integer constant out of range for type")
	}
	return v, nil
}

func denseFloat(l *DenseLit, t *ir.FloatType) (float64, error) {
	return denseFloatAt(l.Scalar, t, func() lexer.Position { return l.Pos })
}

// denseFloatAt converts one float element; pos is only called on error.
func denseFloatAt(s string, t *ir.FloatType, pos func() lexer.Position) (float64, error) {
	switch {
	case s == "true" || s == "false":
		return 0, errAt(pos(), "expected i1 type for 'true' or 'false' values")
	case strings.HasPrefix(strings.TrimPrefix(s, "-"), "0x") || !strings.ContainsAny(s, ".eE"):
		v, ok := parseBig(s)
		if !ok {
			return 0, errAt(pos(), "invalid integer literal '%s'", s)
		}
		f, err := floatFromInt(s, v, t, lexer.Position{})
		if err != nil { // again, located (pos may cost a scan)
			return floatFromInt(s, v, t, pos())
		}
		return f, nil
	}
	f, err := floatOf(s, t, lexer.Position{})
	if err != nil { // again, located (pos may cost a scan)
		return floatOf(s, t, pos())
	}
	return f, nil
}

// literalShape infers the shape of a nested list literal, checking that every
// sub-list agrees.
func literalShape(l *DenseLit) ([]int64, error) {
	if !l.Open {
		return nil, nil
	}
	shape := []int64{int64(len(l.Elems))}
	if len(l.Elems) == 0 {
		return shape, nil
	}
	inner, err := literalShape(l.Elems[0])
	if err != nil {
		return nil, err
	}
	for _, e := range l.Elems[1:] {
		if e.Open != l.Elems[0].Open {
			return nil, errAt(e.Pos, "tensor literal is invalid; ranks are not consistent between elements")
		}
		s, err := literalShape(e)
		if err != nil {
			return nil, err
		}
		if !slices.Equal(s, inner) {
			return nil, errAt(e.Pos, "tensor literal is invalid; ranks are not consistent between elements")
		}
	}
	return append(shape, inner...), nil
}

func flatten(l *DenseLit, out []*DenseLit) []*DenseLit {
	if !l.Open {
		return append(out, l)
	}
	for _, e := range l.Elems {
		out = flatten(e, out)
	}
	return out
}

func shapeText(s []int64) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// denseHex converts MLIR's hex form of a dense constant, dense<"0x...">, as
// mlir-opt prints large constants: each element's bytes, little-endian, in
// row-major order (an integer of width w in ceil(w/8) bytes, i1 in one
// byte, index in 8), or one element's bytes for a splat.
func denseHex(lit string, at lexer.Position, tt *ir.TileType) (ir.Attr, error) {
	s, err := decodeString(lit, at)
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(s, "0x") {
		return nil, errAt(at, "expected string containing hex digits starting with `0x`")
	}
	data, err := hex.DecodeString(s[2:])
	if err != nil {
		return nil, errAt(at, "expected string containing hex digits starting with `0x`")
	}
	var size int
	switch e := tt.Elem.(type) {
	case *ir.IntType:
		size = (e.Width + 7) / 8
	case *ir.FloatType:
		size = e.Bits() / 8
	case *ir.IndexType:
		size = 8
	default:
		return nil, errAt(at, "unsupported element type '%s' for a hex dense literal", tt.Elem)
	}
	n := int(tt.NumElements())
	if len(data) != size && len(data) != size*n {
		return nil, errAt(at, "elements hex data size is invalid for provided type: %d bytes, expected %d (or %d for a splat)", len(data), size*n, size)
	}
	count := len(data) / size
	d := &ir.DenseAttr{Type: tt}
	word := func(i int) []byte {
		b := make([]byte, size)
		for j := range b { // little-endian to big-endian
			b[j] = data[i*size+size-1-j]
		}
		return b
	}
	if ft, ok := tt.Elem.(*ir.FloatType); ok {
		d.Floats = make([]float64, count)
		for i := range d.Floats {
			var bits uint64
			for _, c := range word(i) {
				bits = bits<<8 | uint64(c)
			}
			d.Floats[i] = ir.FloatFromBits(bits, ft)
		}
		return d, nil
	}
	width, signed := 64, true
	if it, ok := tt.Elem.(*ir.IntType); ok {
		width, signed = it.Width, it.Signed
	}
	d.Ints = make([]*big.Int, count)
	for i := range d.Ints {
		v := new(big.Int).SetBytes(word(i))
		if width == 1 {
			// i1: any nonzero byte is true.
			if v.Sign() != 0 {
				v.SetInt64(1)
			}
		} else {
			// Keep the low width bits, then sign-extend.
			mask := new(big.Int).Lsh(big.NewInt(1), uint(width))
			v.Mod(v, mask)
			if signed && v.Bit(width-1) == 1 {
				v.Sub(v, mask)
			}
		}
		d.Ints[i] = v
	}
	return d, nil
}
