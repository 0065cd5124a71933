package kernels

import (
	"math/big"
	"slices"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
)

// The otir operations a kernel is built of, at the lowerer's builder: this
// is the only file of the package that names otir operations. Every
// element-wise operation is built with operands of its result's type
// (casts first), so promote-types has nothing to change.

// elementwise names the element-wise operations by kind.
var elementwise = map[string]string{
	"add": otir.OpAdd, "sub": otir.OpSub, "mul": otir.OpMul,
	"max": otir.OpMax, "min": otir.OpMin,
	"shl": otir.OpShl, "shr_s": otir.OpShrS, "shr_u": otir.OpShrU,
	"div_s": otir.OpDivS, "div_u": otir.OpDivU, "and": otir.OpAnd,
}

// private is a #private tile type.
func private(shape []int64, elem ir.Type) *ir.TileType { return ir.Tile(shape, elem, ir.Private) }

// shapeOf is the shape of a tile value.
func shapeOf(v *ir.Value) []int64 { return v.Type.(*ir.TileType).Shape }

// elemOf is the element type of a tile value.
func elemOf(v *ir.Value) ir.Type { return v.Type.(*ir.TileType).Elem }

func (l *lowerer) create(name string, operands []*ir.Value, result ir.Type, attrs ir.Attrs) *ir.Value {
	l.b.Loc = l.loc
	return l.b.Create(name, operands, []ir.Type{result}, attrs).Results[0]
}

// load reads a #global argument into a #private tile.
func (l *lowerer) load(arg *ir.Value) *ir.Value {
	t := arg.Type.(*ir.TileType)
	return l.create(otir.OpLoad, []*ir.Value{arg}, private(t.Shape, t.Elem), nil)
}

// store writes a #private tile into a #global argument.
func (l *lowerer) store(v, arg *ir.Value) {
	l.b.Loc = l.loc
	l.b.Create(otir.OpStore, []*ir.Value{v, arg}, nil, nil)
}

// ret ends the kernel.
func (l *lowerer) ret() {
	l.b.Loc = l.loc
	otir.Return(l.b)
}

// cast converts a tile to another element type: exact when the type holds
// the values, else wrapping (two's complement truncation, as ALIR's
// quantize wraps).
func (l *lowerer) cast(v *ir.Value, elem ir.Type) *ir.Value {
	l.b.Loc = l.loc
	return otir.Cast(l.b, v, private(shapeOf(v), elem))
}

// binary applies an element-wise kind to two tiles of one shape, both cast
// to elem first.
func (l *lowerer) binary(kind string, a, b *ir.Value, elem ir.Type) *ir.Value {
	a, b = l.cast(a, elem), l.cast(b, elem)
	return l.create(elementwise[kind], []*ir.Value{a, b}, a.Type, nil)
}

// withScalar applies an element-wise kind to a tile (cast to elem) and the
// scalar constant c of type elem.
func (l *lowerer) withScalar(kind string, a *ir.Value, c int64, elem ir.Type) *ir.Value {
	a = l.cast(a, elem)
	l.b.Loc = l.loc
	k := otir.ConstInt(l.b, c, elem)
	return l.create(elementwise[kind], []*ir.Value{a, k}, a.Type, nil)
}

// abs is |a| in type elem.
func (l *lowerer) abs(a *ir.Value, elem ir.Type) *ir.Value {
	a = l.cast(a, elem)
	return l.create(otir.OpAbs, []*ir.Value{a}, a.Type, nil)
}

// constant is a #private integer tile of the given values (row-major).
func (l *lowerer) constant(shape []int64, elem ir.Type, values []*big.Int) *ir.Value {
	l.b.Loc = l.loc
	return otir.ConstDense(l.b, &ir.DenseAttr{Type: private(shape, elem), Ints: values})
}

// splat is a #private tile filled with one integer.
func (l *lowerer) splat(shape []int64, elem ir.Type, v int64) *ir.Value {
	return l.constant(shape, elem, []*big.Int{big.NewInt(v)})
}

// matmul is a x b + c (rank 2), its result of c's type.
func (l *lowerer) matmul(a, b, c *ir.Value) *ir.Value {
	return l.create(otir.OpMatmul, []*ir.Value{a, b, c}, c.Type, nil)
}

// reshape changes a tile's shape.
func (l *lowerer) reshape(v *ir.Value, shape []int64) *ir.Value {
	if slices.Equal(shapeOf(v), shape) {
		return v
	}
	return l.create(otir.OpReshape, []*ir.Value{v}, private(shape, elemOf(v)), nil)
}

// transpose permutes a tile's dimensions: out[i] = in[perm[i]].
func (l *lowerer) transpose(v *ir.Value, perm []int64) *ir.Value {
	in := shapeOf(v)
	out := make([]int64, len(perm))
	identity := true
	for i, p := range perm {
		out[i] = in[p]
		identity = identity && p == int64(i)
	}
	if identity {
		return v
	}
	return l.create(otir.OpTranspose, []*ir.Value{v}, private(out, elemOf(v)),
		ir.Attrs{{Name: "permutation", Value: &ir.DenseI64Attr{Values: perm}}})
}

// extract is the sub-tile at offsets of the given sizes and strides.
func (l *lowerer) extract(v *ir.Value, offsets, sizes, strides []int64) *ir.Value {
	return l.create(otir.OpExtractSlice, []*ir.Value{v}, private(sizes, elemOf(v)), otir.SliceAttrs(offsets, sizes, strides))
}

// insert writes src into dst at offsets (unit strides) and returns the new
// dst.
func (l *lowerer) insert(src, dst *ir.Value, offsets []int64) *ir.Value {
	strides := make([]int64, len(offsets))
	for i := range strides {
		strides[i] = 1
	}
	return l.create(otir.OpInsertSlice, []*ir.Value{src, dst}, dst.Type, otir.SliceAttrs(offsets, shapeOf(src), strides))
}

// reduce folds a tile along axis with add, max or min, in type elem; the
// result keeps rank at least 1 (a [n] input is reshaped to [1, n] first).
func (l *lowerer) reduce(kind string, v *ir.Value, axis int, elem ir.Type) *ir.Value {
	v = l.cast(v, elem)
	in := shapeOf(v)
	if len(in) == 1 {
		v = l.reshape(v, []int64{1, in[0]})
		in, axis = shapeOf(v), 1
	}
	out := append(append([]int64{}, in[:axis]...), in[axis+1:]...)
	return l.create(otir.OpReduce, []*ir.Value{v}, private(out, elem),
		ir.Attrs{{Name: "axis", Value: ir.I64(int64(axis))}, {Name: "kind", Value: &ir.StringAttr{Value: kind}}})
}

// broadcast is v broadcast to shape (NumPy's rule, v of the same rank): v
// plus a zero tile of that shape.
func (l *lowerer) broadcast(v *ir.Value, shape []int64) *ir.Value {
	if slices.Equal(shapeOf(v), shape) {
		return v
	}
	z := l.splat(shape, elemOf(v), 0)
	return l.create(otir.OpAdd, []*ir.Value{v, z}, z.Type, nil)
}

// lookup reads table[x - min of x's element type], element-wise, into a
// tile of elem.
func (l *lowerer) lookup(x *ir.Value, table []int64, elem ir.Type) *ir.Value {
	l.b.Loc = l.loc
	return otir.Lookup(l.b, x, table, private(shapeOf(x), elem))
}
