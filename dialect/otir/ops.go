// Package otir defines the otir dialect: one record per operation (its
// operands, results, attributes, traits, memory effects, assembly format,
// verifier hook and typing rule), registered with the IR on import.
package otir

import "github.com/otir-dev/otir/ir"

// Ops is the otir dialect's table of operation definitions, in the order of
// the specification's section 6.
var Ops = []ir.OpDef{
	{Name: ir.OpKernel, Summary: "a tile kernel launched over a static grid", Syntax: ir.SyntaxKernel,
		Attrs: []ir.AttrDef{
			{Name: "sym_name", Kind: ir.AttrString, Doc: "the kernel's name"},
			{Name: "function_type", Kind: ir.AttrFuncType, Doc: "the arguments' types; no results"},
			{Name: "grid", Kind: ir.AttrArray, Optional: true, Doc: "the launch grid, one positive extent per axis"},
		},
		Regions: []string{"body"}, Traits: ir.IsolatedFromAbove | ir.SingleBlock | ir.TopLevel | ir.Symbol, Parents: []string{ir.OpModule},
		Format: "$sym_name custom<KernelArguments>($body, $function_type) attr-dict-with-keyword $body"},
	{Name: ir.OpReturn, Summary: "ends a kernel", Syntax: ir.SyntaxNullary, Traits: ir.Terminator, Terminator: true, Parents: []string{ir.OpKernel},
		Format: "attr-dict"},
	{Name: ir.OpConstant, Summary: "a scalar or dense tile constant", Syntax: ir.SyntaxConstant,
		Results: []ir.ArgDef{{Name: "result", Doc: "the value's type"}},
		Attrs:   []ir.AttrDef{{Name: "value", Kind: ir.AttrConstant, Doc: "a typed integer, float or dense constant"}},
		Format:  "attr-dict $value"},
	{Name: ir.OpProgramID, Summary: "the workgroup's coordinate along a grid axis", Syntax: ir.SyntaxAxis,
		Results: []ir.ArgDef{{Name: "result", Doc: "index"}},
		Attrs:   []ir.AttrDef{{Name: "axis", Kind: ir.AttrInt, Doc: "a grid axis"}},
		Format:  "`axis` `(` $axis `)` attr-dict"},
	{Name: ir.OpNumProgs, Summary: "the grid's size along an axis", Syntax: ir.SyntaxAxis, Traits: ir.Extension, Extension: true,
		Results: []ir.ArgDef{{Name: "result", Doc: "index"}},
		Attrs:   []ir.AttrDef{{Name: "axis", Kind: ir.AttrInt, Doc: "a grid axis"}},
		Format:  "`axis` `(` $axis `)` attr-dict"},

	{Name: ir.OpAlloc, Summary: "allocates an uninitialised tile in #workgroup or #private", Syntax: ir.SyntaxAlloc,
		Results: []ir.ArgDef{{Name: "result", Doc: "a #workgroup or #private tile"}},
		Effect:  ir.AllocEffect,
		Format:  "`(` `)` attr-dict `:` type($result)"},
	{Name: ir.OpDMA, Summary: "starts an asynchronous (optionally masked) copy, returns a token", Syntax: ir.SyntaxDMA,
		Operands: []ir.ArgDef{
			{Name: "source", Doc: "a #global or #workgroup tile"},
			{Name: "dest", Doc: "a #workgroup tile (#global for a write-back)"},
			{Name: "mask", Arity: ir.Optional, Doc: "an i1 tile of the copy's shape"},
		},
		Results: []ir.ArgDef{{Name: "token", Doc: "!otir.token"}},
		Effect:  ir.WriteEffect,
		Format:  "$source `,` $dest (`,` custom<Mask>($mask)^)? attr-dict `:` custom<DMATypes>(type($source), type($dest), type($mask), type($token))"},
	{Name: ir.OpLoad, Summary: "synchronous load between memory levels", Syntax: ir.SyntaxConvert,
		Operands: []ir.ArgDef{{Name: "source", Doc: "a #global or #workgroup tile"}},
		Results:  []ir.ArgDef{{Name: "result", Doc: "a #private tile of the same shape and element type"}},
		EffectOf: privateOperandIsPure(0, ir.ReadEffect),
		Format:   "$source attr-dict `:` type($source) `->` type($result)"},
	{Name: ir.OpStore, Summary: "synchronous store between memory levels", Syntax: ir.SyntaxStore,
		Operands: []ir.ArgDef{{Name: "value", Doc: "a #private tile"}, {Name: "dest", Doc: "a #global or #workgroup tile"}},
		Effect:   ir.WriteEffect,
		Format:   "$value `,` $dest attr-dict `:` type($value) `,` type($dest)"},
	{Name: ir.OpAtomic, Summary: "atomic read-modify-write on #global memory", Syntax: ir.SyntaxAtomic,
		Operands: []ir.ArgDef{{Name: "ptr", Doc: "a #global tile"}, {Name: "value", Doc: "a #private tile or scalar"}},
		Results:  []ir.ArgDef{{Name: "result", Doc: "the old values"}},
		Attrs: []ir.AttrDef{
			{Name: "kind", Kind: ir.AttrString, Enum: ir.AtomicKinds},
			{Name: "memory_order", Kind: ir.AttrString, Enum: ir.MemoryOrders},
		},
		Effect: ir.WriteEffect,
		Format: "$ptr `,` $value `,` `kind` `(` $kind `)` `,` `memory_order` `(` $memory_order `)` attr-dict `:` type($ptr) `,` type($value) `->` type($result)"},
}

// binary, unary and the other element-wise ops are added in init, one record
// each, from these lists: name, typing key, summary, extension.
var binaryOps = []struct{ name, typing, summary string }{
	{ir.OpAdd, "add", "element-wise add"}, {ir.OpSub, "sub", "element-wise sub"}, {ir.OpMul, "mul", "element-wise mul"},
	{ir.OpDivS, "div", "element-wise div_s"}, {ir.OpDivU, "div", "element-wise div_u"},
	{ir.OpRemS, "mod", "element-wise rem_s"}, {ir.OpRemU, "mod", "element-wise rem_u"},
	{ir.OpAnd, "bitwise_and", "element-wise and"}, {ir.OpOr, "bitwise_or", "element-wise or"}, {ir.OpXor, "bitwise_xor", "element-wise xor"},
	{ir.OpShl, "lshift", "element-wise shl"}, {ir.OpShrS, "rshift", "element-wise shr_s"}, {ir.OpShrU, "rshift", "element-wise shr_u"},
	{ir.OpMax, "max", "element-wise maximum"}, {ir.OpMin, "min", "element-wise minimum"},
}

var unaryOps = []struct{ name, typing, summary string }{
	{ir.OpNeg, "neg", "element-wise neg"}, {ir.OpNot, "invert", "element-wise not"}, {ir.OpAbs, "abs", "element-wise abs"},
	{ir.OpSqrt, "sqrt", "element-wise sqrt"}, {ir.OpExp, "exp", "element-wise exp"}, {ir.OpLog, "log", "element-wise log"},
}

// moreOps follow the element-wise ones.
var moreOps = []ir.OpDef{
	{Name: ir.OpCmp, Summary: "element-wise comparison, yields i1", Syntax: ir.SyntaxCmp, Traits: ir.Elementwise, Typing: "eq",
		Operands: []ir.ArgDef{{Name: "lhs"}, {Name: "rhs"}},
		Results:  []ir.ArgDef{{Name: "result", Doc: "i1 (a tile of i1 when an operand is a tile)"}},
		Attrs:    []ir.AttrDef{{Name: "kind", Kind: ir.AttrString, Enum: ir.CmpPredicates}},
		Format:   "`kind` `(` $kind `)` $lhs `,` $rhs attr-dict `:` custom<ElementwiseTypes>(type(operands), type($result))"},
	{Name: ir.OpSelect, Summary: "element-wise choice by an i1 condition", Syntax: ir.SyntaxSelect, Traits: ir.Elementwise | ir.Extension, Extension: true,
		Operands: []ir.ArgDef{{Name: "condition", Doc: "i1 or a tile of i1"}, {Name: "true_value"}, {Name: "false_value"}},
		Results:  []ir.ArgDef{{Name: "result"}},
		Format:   "$condition `,` $true_value `,` $false_value attr-dict `:` functional-type(operands, results)"},
	{Name: ir.OpCast, Summary: "converts to another element type (wraps/truncates)", Syntax: ir.SyntaxConvert, Traits: ir.Elementwise | ir.Extension, Extension: true,
		Operands: []ir.ArgDef{{Name: "input"}},
		Results:  []ir.ArgDef{{Name: "result"}},
		Format:   "$input attr-dict `:` type($input) `->` type($result)"},

	{Name: ir.OpMatmul, Summary: "fused matrix multiply-add D = A x B + C", Syntax: ir.SyntaxMatmul,
		Operands: []ir.ArgDef{{Name: "a", Doc: "#private [M, K]"}, {Name: "b", Doc: "#private [K, N]"}, {Name: "c", Doc: "#private [M, N]"}},
		Results:  []ir.ArgDef{{Name: "result", Doc: "#private [M, N]"}},
		Format:   "$a `,` $b `,` $c attr-dict `:` functional-type(operands, results)"},
	{Name: ir.OpReshape, Summary: "changes a tile's shape, keeping its elements", Syntax: ir.SyntaxConvert,
		Operands: []ir.ArgDef{{Name: "input"}},
		Results:  []ir.ArgDef{{Name: "result"}},
		Format:   "$input attr-dict `:` type($input) `->` type($result)"},
	{Name: ir.OpTranspose, Summary: "permutes a tile's dimensions", Syntax: ir.SyntaxTranspose,
		Operands: []ir.ArgDef{{Name: "input"}},
		Results:  []ir.ArgDef{{Name: "result"}},
		Attrs:    []ir.AttrDef{{Name: "permutation", Kind: ir.AttrDenseI64}},
		Format:   "$input `,` `permutation` `(` custom<IntList>($permutation) `)` attr-dict `:` type($input) `->` type($result)"},
	{Name: ir.OpExtractSlice, Summary: "extracts a sub-tile", Syntax: ir.SyntaxExtractSlice,
		Operands: []ir.ArgDef{{Name: "source"}, {Name: "offsets", Arity: ir.Variadic, Doc: "index, one per dynamic offset"}},
		Results:  []ir.ArgDef{{Name: "result"}},
		Attrs:    sliceAttrs,
		Format:   "$source custom<SliceBounds>($offsets, $static_offsets, $static_sizes, $static_strides) attr-dict `:` type($source) `to` type($result)"},
	{Name: ir.OpInsertSlice, Summary: "inserts a sub-tile into a #private tile", Syntax: ir.SyntaxInsertSlice,
		Operands: []ir.ArgDef{{Name: "source"}, {Name: "dest"}, {Name: "offsets", Arity: ir.Variadic, Doc: "index, one per dynamic offset"}},
		Results:  []ir.ArgDef{{Name: "result", Doc: "the dest's type"}},
		Attrs:    sliceAttrs,
		// Inserting into a #private tile makes a new value; anything else
		// would update memory.
		EffectOf: privateOperandIsPure(1, ir.WriteEffect),
		Format:   "$source `into` $dest custom<SliceBounds>($offsets, $static_offsets, $static_sizes, $static_strides) attr-dict `:` type($source) `into` type($dest)"},

	{Name: ir.OpReduce, Summary: "folds a #private tile along one axis with add, max or min", Traits: ir.Extension, Extension: true,
		Operands: []ir.ArgDef{{Name: "input", Doc: "a #private tile of integers or floats"}},
		Results:  []ir.ArgDef{{Name: "result", Doc: "the input's shape without the axis (its element type when the input has rank 1)"}},
		Attrs: []ir.AttrDef{
			{Name: "kind", Kind: ir.AttrString, Enum: ReduceKinds},
			{Name: "axis", Kind: ir.AttrInt, Doc: "the dimension folded away"},
		},
		Verify: hook(checkReduce),
		Format: "`kind` `(` $kind `)` $input `,` `axis` `(` $axis `)` attr-dict `:` type($input) `->` type($result)"},

	{Name: ir.OpBarrier, Summary: "workgroup barrier", Syntax: ir.SyntaxNullary, Effect: ir.WriteEffect,
		Format: "attr-dict"},
	{Name: ir.OpWait, Summary: "waits for asynchronous copies", Syntax: ir.SyntaxWait, Effect: ir.WriteEffect,
		Operands: []ir.ArgDef{{Name: "tokens", Arity: ir.Variadic, Doc: "!otir.token"}},
		Format:   "`[` $tokens `]` attr-dict"},
}

var sliceAttrs = []ir.AttrDef{
	{Name: "static_offsets", Kind: ir.AttrDenseI64, Doc: "offsets; ir.DynamicOffset marks one given by an operand"},
	{Name: "static_sizes", Kind: ir.AttrDenseI64},
	{Name: "static_strides", Kind: ir.AttrDenseI64},
}

// privateOperandIsPure is the effect of an op that only makes a new value
// when operand i is a #private tile (or a scalar), and has effect e otherwise.
func privateOperandIsPure(i int, e ir.Effect) func(*ir.Operation) ir.Effect {
	return func(op *ir.Operation) ir.Effect {
		if len(op.Operands) > i && isPrivate(op.Operands[i]) {
			return ir.NoEffect
		}
		return e
	}
}

func isPrivate(v *ir.Value) bool {
	if v == nil {
		return false
	}
	t, ok := v.Type.(*ir.TileType)
	return !ok || t.Space == ir.Private
}

func init() {
	var all []ir.OpDef
	all = append(all, Ops...)
	for _, b := range binaryOps {
		d := ir.OpDef{Name: b.name, Summary: b.summary, Syntax: ir.SyntaxBinary, Traits: ir.Elementwise, Typing: b.typing,
			Operands: []ir.ArgDef{{Name: "lhs"}, {Name: "rhs"}},
			Results:  []ir.ArgDef{{Name: "result"}},
			Format:   "$lhs `,` $rhs attr-dict `:` custom<ElementwiseTypes>(type(operands), type($result))"}
		if b.name == ir.OpMax || b.name == ir.OpMin {
			d.Traits |= ir.Extension
			d.Extension = true
		}
		all = append(all, d)
	}
	for _, u := range unaryOps {
		all = append(all, ir.OpDef{Name: u.name, Summary: u.summary, Syntax: ir.SyntaxUnary, Traits: ir.Elementwise, Typing: u.typing,
			Operands: []ir.ArgDef{{Name: "input"}},
			Results:  []ir.ArgDef{{Name: "result"}},
			Format:   "$input attr-dict `:` custom<ElementwiseTypes>(type(operands), type($result))"})
	}
	all = append(all, moreOps...)
	for i := range all {
		d := &all[i]
		if v := verifiers[d.Name]; v != nil {
			d.Verify = v
		} else if d.Has(ir.Elementwise) {
			d.Verify = elementwiseHook
		}
		ir.RegisterOp(*d)
	}
	ir.RegisterOpCheck(checkTokens)
	registerModuleRule()
}
