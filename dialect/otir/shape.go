package otir

import (
	"slices"

	"github.com/otir-dev/otir/internal/satint"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// Shapes: otir.reshape, otir.transpose, otir.extract_slice,
// otir.insert_slice and otir.reduce, the IntList and SliceBounds
// directives, and the slice builders.

// Operation names of the family.
const (
	OpReshape      = "otir.reshape"
	OpTranspose    = "otir.transpose"
	OpExtractSlice = "otir.extract_slice"
	OpInsertSlice  = "otir.insert_slice"
	OpReduce       = "otir.reduce"
)

// DynamicOffset marks a dynamic entry of static_offsets (as MLIR's kDynamic).
const DynamicOffset int64 = -9223372036854775808

// ReduceKinds are the folds of otir.reduce: each is the element-wise
// operation of the same name (otir.add, otir.max, otir.min) applied in
// ascending index order along the axis.
var ReduceKinds = []string{"add", "max", "min"}

var shapeFamily = family{
	ops: []ir.OpDef{
		{Name: OpReshape, Summary: "changes a tile's shape, keeping its elements",
			Operands: []ir.ArgDef{{Name: "input"}},
			Results:  []ir.ArgDef{{Name: "result"}},
			Verify:   hook(checkReshape),
			Format:   "$input attr-dict `:` type($input) `->` type($result)"},
		{Name: OpTranspose, Summary: "permutes a tile's dimensions",
			Operands: []ir.ArgDef{{Name: "input"}},
			Results:  []ir.ArgDef{{Name: "result"}},
			Attrs:    []ir.AttrDef{{Name: "permutation", Kind: ir.AttrDenseI64}},
			Verify:   hook(checkTranspose),
			Format:   "$input `,` `permutation` `(` custom<IntList>($permutation) `)` attr-dict `:` type($input) `->` type($result)"},
		{Name: OpExtractSlice, Summary: "extracts a sub-tile",
			Operands: []ir.ArgDef{{Name: "source"}, {Name: "offsets", Arity: ir.Variadic, Doc: "index, one per dynamic offset"}},
			Results:  []ir.ArgDef{{Name: "result"}},
			Attrs:    sliceAttrs,
			Verify:   hook(checkExtractSlice),
			Format:   "$source custom<SliceBounds>($offsets, $static_offsets, $static_sizes, $static_strides) attr-dict `:` type($source) `to` type($result)"},
		{Name: OpInsertSlice, Summary: "inserts a sub-tile into a #private tile",
			Operands: []ir.ArgDef{{Name: "source"}, {Name: "dest"}, {Name: "offsets", Arity: ir.Variadic, Doc: "index, one per dynamic offset"}},
			Results:  []ir.ArgDef{{Name: "result", Doc: "the dest's type"}},
			Attrs:    sliceAttrs,
			// Inserting into a #private tile makes a new value; anything else
			// would update memory.
			EffectOf: privateOperandIsPure(1, ir.WriteEffect),
			Verify:   hook(checkInsertSlice),
			Infer:    inferInsertSlice,
			Format:   "$source `into` $dest custom<SliceBounds>($offsets, $static_offsets, $static_sizes, $static_strides) attr-dict `:` type($source) `into` type($dest)"},

		{Name: OpReduce, Summary: "folds a #private tile along one axis with add, max or min", Traits: ir.Extension,
			Operands: []ir.ArgDef{{Name: "input", Doc: "a #private tile of integers or floats"}},
			Results:  []ir.ArgDef{{Name: "result", Doc: "the input's shape without the axis (its element type when the input has rank 1)"}},
			Attrs: []ir.AttrDef{
				{Name: "kind", Kind: ir.AttrString, Enum: ReduceKinds},
				{Name: "axis", Kind: ir.AttrInt, Doc: "the dimension folded away"},
			},
			Verify: hook(checkReduce),
			Format: "`kind` `(` $kind `)` $input `,` `axis` `(` $axis `)` attr-dict `:` type($input) `->` type($result)"},
	},
	register: func() {
		ir.RegisterDirective("IntList", printIntList, parseIntList)
		sb := ir.RegisterDirective("SliceBounds", printSliceBounds, parseSliceBounds)
		sb.Glued, sb.SetsTypes, sb.Fits = true, true, sliceBoundsFit
	},
}

var sliceAttrs = []ir.AttrDef{
	{Name: "static_offsets", Kind: ir.AttrDenseI64, Doc: "offsets; DynamicOffset marks one given by an operand"},
	{Name: "static_sizes", Kind: ir.AttrDenseI64},
	{Name: "static_strides", Kind: ir.AttrDenseI64},
}

// checkReshape: tile to tile with the same element count, element type and
// memory space.
func checkReshape(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	in, res, d := unaryTiles(op)
	if d != nil {
		return d
	}
	if in.NumElements() != res.NumElements() {
		return diag.OpErrorf(op, "element count mismatch: the operand has %d elements but the result has %d", in.NumElements(), res.NumElements())
	}
	return sameElemAndSpace(op, in, res, "operand")
}

// checkTranspose: permutation is a permutation of 0..rank-1 and the result is
// the operand with its dimensions permuted.
func checkTranspose(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	in, res, d := unaryTiles(op)
	if d != nil {
		return d
	}
	perm := op.Attr("permutation").(*ir.DenseI64Attr).Values
	if !isPermutation(perm, len(in.Shape)) {
		return diag.OpErrorf(op, "permutation %s is not a permutation of 0..%d", intsStr(perm), len(in.Shape)-1)
	}
	ok := len(res.Shape) == len(perm)
	for i := 0; ok && i < len(perm); i++ {
		ok = res.Shape[i] == in.Shape[perm[i]]
	}
	if !ok {
		want := make([]int64, len(perm))
		for i, p := range perm {
			want[i] = in.Shape[p]
		}
		return diag.OpErrorf(op, "result shape %s does not match the permuted operand shape %s", diag.ShapeStr(res.Shape), diag.ShapeStr(want))
	}
	return sameElemAndSpace(op, in, res, "operand")
}

// isPermutation reports whether perm holds each of 0..n-1 exactly once.
func isPermutation(perm []int64, n int) bool {
	if len(perm) != n {
		return false
	}
	var small [8]bool
	var seen []bool
	if n <= len(small) {
		seen = small[:n]
	} else {
		seen = make([]bool, n)
	}
	for _, p := range perm {
		if p < 0 || p >= int64(n) || seen[p] {
			return false
		}
		seen[p] = true
	}
	return true
}

// unaryTiles requires a tile operand and a tile result.
func unaryTiles(op *ir.Operation) (in, res *ir.TileType, d *diag.Diagnostic) {
	in, res = asTile(op.Operands[0].Type), asTile(op.Results[0].Type)
	if in == nil {
		return nil, nil, diag.OpErrorf(op, "operand must be a tile, but got '%s'", diag.TypeStr(op.Operands[0].Type))
	}
	if res == nil {
		return nil, nil, diag.OpErrorf(op, "result must be a tile, but got '%s'", diag.TypeStr(op.Results[0].Type))
	}
	return in, res, nil
}

// sameElemAndSpace requires res to keep from's element type and memory space.
func sameElemAndSpace(op *ir.Operation, from, res *ir.TileType, what string) *diag.Diagnostic {
	if res.Elem != from.Elem {
		return diag.OpErrorf(op, "result element type '%s' does not match the %s element type '%s'", diag.TypeStr(res.Elem), what, diag.TypeStr(from.Elem))
	}
	if res.Space != from.Space {
		return diag.OpErrorf(op, "result memory space %s does not match the %s memory space %s", res.Space, what, from.Space)
	}
	return nil
}

// checkExtractSlice: slice bounds within the source; the result has the
// sizes as its shape and the source's element type and space.
func checkExtractSlice(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	src := asTile(op.Operands[0].Type)
	if src == nil {
		return diag.OpErrorf(op, "source must be a tile, but got '%s'", diag.TypeStr(op.Operands[0].Type))
	}
	if d := checkSliceBounds(op, src, op.Operands[1:], "source"); d != nil {
		return d
	}
	sizes := op.Attr("static_sizes").(*ir.DenseI64Attr).Values
	res := asTile(op.Results[0].Type)
	if res == nil || !slices.Equal(res.Shape, sizes) {
		return diag.OpErrorf(op, "result must be a tile of shape %s (the slice sizes), but got '%s'", diag.ShapeStr(sizes), diag.TypeStr(op.Results[0].Type))
	}
	return sameElemAndSpace(op, src, res, "source")
}

// checkInsertSlice: a #private source of the slice's shape inserted within the
// bounds of a #private destination of the same element type; the result has
// the destination's type.
func checkInsertSlice(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	st, dt := op.Operands[0].Type, op.Operands[1].Type
	src, dst := asTile(st), asTile(dt)
	if src == nil || src.Space != ir.Private {
		return diag.OpErrorf(op, "source must be a #private tile, but got '%s'", diag.TypeStr(st))
	}
	if dst == nil || dst.Space != ir.Private {
		return diag.OpErrorf(op, "destination must be a #private tile, but got '%s'", diag.TypeStr(dt))
	}
	if d := checkSliceBounds(op, dst, op.Operands[2:], "destination"); d != nil {
		return d
	}
	if sizes := op.Attr("static_sizes").(*ir.DenseI64Attr).Values; !slices.Equal(src.Shape, sizes) {
		return diag.OpErrorf(op, "source shape %s does not match the slice sizes %s", diag.ShapeStr(src.Shape), diag.ShapeStr(sizes))
	}
	if src.Elem != dst.Elem {
		return diag.OpErrorf(op, "source element type '%s' does not match the destination element type '%s'", diag.TypeStr(src.Elem), diag.TypeStr(dst.Elem))
	}
	if r := op.Results[0].Type; r != dt {
		return diag.OpErrorf(op, "result type '%s' must equal the destination type '%s'", diag.TypeStr(r), diag.TypeStr(dt))
	}
	return nil
}

// checkSliceBounds checks the static_offsets/sizes/strides of a slice of tile
// t: one entry per dimension, one index operand per DynamicOffset marker,
// positive sizes and strides, and 0 <= off, off + (size-1)*stride < dim (for a
// dynamic offset, (size-1)*stride < dim).
func checkSliceBounds(op *ir.Operation, t *ir.TileType, dyn []*ir.Value, what string) *diag.Diagnostic {
	offs := op.Attr("static_offsets").(*ir.DenseI64Attr).Values
	sizes := op.Attr("static_sizes").(*ir.DenseI64Attr).Values
	strides := op.Attr("static_strides").(*ir.DenseI64Attr).Values
	rank := len(t.Shape)
	for _, l := range [...]struct {
		n    int
		name string
	}{{len(offs), "offset"}, {len(sizes), "size"}, {len(strides), "stride"}} {
		if l.n != rank {
			return diag.OpErrorf(op, "expected %d %s values (the %s rank), but got %d", rank, l.name, what, l.n)
		}
	}
	nDyn := 0
	for _, o := range offs {
		if o == DynamicOffset {
			nDyn++
		}
	}
	if nDyn != len(dyn) {
		return diag.OpErrorf(op, "expected %s (one per dynamic entry of static_offsets), but got %d", diag.Plural(nDyn, "dynamic offset operand"), len(dyn))
	}
	for i, x := range dyn {
		if !isIndex(x.Type) {
			return diag.OpErrorf(op, "dynamic offset operand #%d must be 'index', but got '%s'", i, diag.TypeStr(x.Type))
		}
	}
	for i := 0; i < rank; i++ {
		off, size, stride, dim := offs[i], sizes[i], strides[i], t.Shape[i]
		if size < 1 {
			return diag.OpErrorf(op, "size %d along dim %d must be positive", size, i)
		}
		if stride < 1 {
			return diag.OpErrorf(op, "stride %d along dim %d must be positive", stride, i)
		}
		extent := satint.Add(satint.Mul(size-1, stride), 1) // elements spanned from the offset
		if off == DynamicOffset {
			if extent > dim {
				return diag.OpErrorf(op, "slice of extent %d along dim %d exceeds the %s dimension %d", extent, i, what, dim)
			}
			continue
		}
		if off < 0 {
			return diag.OpErrorf(op, "offset %d along dim %d must be non-negative", off, i)
		}
		if end := satint.Add(off, extent); end > dim {
			return diag.OpErrorf(op, "slice [%d, %d) along dim %d exceeds the %s dimension %d", off, end, i, what, dim)
		}
	}
	return nil
}

// checkReduce: kind is one of ReduceKinds; the input is a #private tile of
// integers or floats and axis one of its dimensions; the result is the input
// without that dimension, with the same element type (a scalar of it when
// the input has rank 1).
func checkReduce(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	kind, _ := op.StringAttr("kind")
	if !slices.Contains(ReduceKinds, kind) {
		return diag.OpErrorf(op, "kind must be one of add, max, min, but got '%s'", kind)
	}
	in := asTile(op.Operands[0].Type)
	if in == nil || in.Space != ir.Private || len(in.Shape) == 0 {
		return diag.OpErrorf(op, "input must be a #private tile, but got '%s'", diag.TypeStr(op.Operands[0].Type))
	}
	if asInt(in.Elem) == nil && asFloat(in.Elem) == nil {
		return diag.OpErrorf(op, "input elements must be integers or floats, but got '%s'", diag.TypeStr(in.Elem))
	}
	axis, ok := op.IntAttr("axis")
	if !ok || axis < 0 || axis >= int64(len(in.Shape)) {
		return diag.OpErrorf(op, "axis %d is not a dimension of the input (rank %d)", axis, len(in.Shape))
	}
	rt := op.Results[0].Type
	if len(in.Shape) == 1 {
		if rt != in.Elem {
			return diag.OpErrorf(op, "result must be the input's element type '%s', but got '%s'", diag.TypeStr(in.Elem), diag.TypeStr(rt))
		}
		return nil
	}
	want := slices.Delete(slices.Clone(in.Shape), int(axis), int(axis)+1)
	res := asTile(rt)
	if res == nil || res.Space != ir.Private || !slices.Equal(res.Shape, want) || res.Elem != in.Elem {
		return diag.OpErrorf(op, "result must be '%s', but got '%s'", diag.TypeStr(ir.Tile(want, in.Elem, ir.Private)), diag.TypeStr(rt))
	}
	return nil
}

// inferInsertSlice gives otir.insert_slice its dest's type (MLIR's
// AllTypesMatch<["dest", "result"]>).
func inferInsertSlice(in *ir.InferInput, out []ir.Type) error {
	if len(in.Operands) >= 2 && len(in.Operands[1]) == 1 {
		out[0] = in.Operands[1][0]
	}
	return nil
}

// custom<IntList>($attr): a dense i64 array as `1, 0`.
func printIntList(p ir.AsmPrinter, op *ir.Operation, f *ir.Format, args []ir.FormatElem) {
	if a, ok := op.Attr(args[0].Ref.Name).(*ir.DenseI64Attr); ok {
		p.PrintInts(a.Values)
	}
}

func parseIntList(p ir.AsmParser, st *ir.OpState, args []ir.FormatElem) error {
	vs, err := intList(p, "]")
	if err != nil {
		return err
	}
	st.Attrs.Set(args[0].Ref.Name, &ir.DenseI64Attr{Values: vs})
	return nil
}

// intList reads Int ("," Int)* unless the list is empty (the next token is
// ')' or end).
func intList(p ir.AsmParser, end string) ([]int64, error) {
	vs := []int64{}
	if p.IsPunct(")") || p.IsPunct(end) {
		return vs, nil
	}
	for {
		v, _, err := p.ParseInt()
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
		if !p.ParseOptionalPunct(",") {
			return vs, nil
		}
	}
}

// custom<SliceBounds>($offsets, $static_offsets, $static_sizes,
// $static_strides): `[%o, 0] [16, 4] [1, 1]`, printed right after the
// source; a dynamic offset is an index operand, DynamicOffset in
// static_offsets.
func printSliceBounds(p ir.AsmPrinter, op *ir.Operation, f *ir.Format, args []ir.FormatElem) {
	dyn := f.OperandGroup(op, args[0].Ref.Index)
	offs := op.Attr(args[1].Ref.Name).(*ir.DenseI64Attr).Values
	p.WriteString("[")
	k := 0
	for i, o := range offs {
		if i > 0 {
			p.WriteString(", ")
		}
		if o == DynamicOffset {
			p.PrintOperand(dyn[k])
			k++
		} else {
			p.PrintInt(o)
		}
	}
	p.WriteString("] [")
	p.PrintInts(op.Attr(args[2].Ref.Name).(*ir.DenseI64Attr).Values)
	p.WriteString("] [")
	p.PrintInts(op.Attr(args[3].Ref.Name).(*ir.DenseI64Attr).Values)
	p.WriteString("]")
}

func sliceBoundsFit(op *ir.Operation, f *ir.Format, args []ir.FormatElem) bool {
	offs, ok1 := op.Attr(args[1].Ref.Name).(*ir.DenseI64Attr)
	sizes, ok2 := op.Attr(args[2].Ref.Name).(*ir.DenseI64Attr)
	strides, ok3 := op.Attr(args[3].Ref.Name).(*ir.DenseI64Attr)
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	dyn := 0
	for _, o := range offs.Values {
		if o == DynamicOffset {
			dyn++
		}
	}
	return dyn == len(f.OperandGroup(op, args[0].Ref.Index)) && len(offs.Values) == len(sizes.Values) &&
		len(sizes.Values) == len(strides.Values) && len(offs.Values) > 0
}

func parseSliceBounds(p ir.AsmParser, st *ir.OpState, args []ir.FormatElem) error {
	if err := p.ParsePunct("["); err != nil {
		return err
	}
	var offs []int64
	var names []string
	if !p.IsPunct("]") {
		for {
			if name, ok := p.ParseOptionalOperand(); ok {
				offs = append(offs, DynamicOffset)
				names = append(names, name)
			} else {
				v, _, err := p.ParseInt()
				if err != nil {
					return err
				}
				offs = append(offs, v)
			}
			if !p.ParseOptionalPunct(",") {
				break
			}
		}
	}
	if err := p.ParsePunct("]"); err != nil {
		return err
	}
	var lists [2][]int64
	for i := range lists {
		if err := p.ParsePunct("["); err != nil {
			return err
		}
		vs, err := intList(p, "]")
		if err != nil {
			return err
		}
		if err := p.ParsePunct("]"); err != nil {
			return err
		}
		lists[i] = vs
	}
	g := args[0].Ref.Index
	st.Operands[g] = names
	if len(names) > 0 {
		ts := p.Types(len(names))
		for i := range ts {
			ts[i] = ir.Index()
		}
		st.OperandTypes[g] = ts
	}
	if offs == nil {
		offs = []int64{}
	}
	st.Attrs.Set(args[1].Ref.Name, &ir.DenseI64Attr{Values: offs})
	st.Attrs.Set(args[2].Ref.Name, &ir.DenseI64Attr{Values: lists[0]})
	st.Attrs.Set(args[3].Ref.Name, &ir.DenseI64Attr{Values: lists[1]})
	return nil
}

// SliceAttrs builds the static_offsets / static_sizes / static_strides
// attributes of a slice op; offsets equal to DynamicOffset take dynamic operands.
func SliceAttrs(offsets, sizes, strides []int64) ir.Attrs {
	return ir.Attrs{
		{Name: "static_offsets", Value: &ir.DenseI64Attr{Values: offsets}},
		{Name: "static_sizes", Value: &ir.DenseI64Attr{Values: sizes}},
		{Name: "static_strides", Value: &ir.DenseI64Attr{Values: strides}},
	}
}
