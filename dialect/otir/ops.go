// Package otir defines the otir dialect: one record per operation (its
// operands, results, attributes, traits, memory effects, assembly format,
// verifier hook and typing rule), registered with the IR on import.
package otir

import "github.com/otir-dev/otir/ir"

// Operation names of the dialect: the specification's section 6 and the
// project's extensions.
const (
	OpKernel       = "otir.kernel"
	OpReturn       = "otir.return"
	OpConstant     = "otir.constant"
	OpProgramID    = "otir.program_id"
	OpNumProgs     = "otir.num_programs"
	OpAlloc        = "otir.alloc"
	OpDMA          = "otir.dma_copy_async"
	OpLoad         = "otir.load"
	OpStore        = "otir.store"
	OpAtomic       = "otir.atomic_rmw"
	OpAdd          = "otir.add"
	OpSub          = "otir.sub"
	OpMul          = "otir.mul"
	OpDivS         = "otir.div_s"
	OpDivU         = "otir.div_u"
	OpRemS         = "otir.rem_s"
	OpRemU         = "otir.rem_u"
	OpAnd          = "otir.and"
	OpOr           = "otir.or"
	OpXor          = "otir.xor"
	OpShl          = "otir.shl"
	OpShrS         = "otir.shr_s"
	OpShrU         = "otir.shr_u"
	OpMax          = "otir.max"
	OpMin          = "otir.min"
	OpNeg          = "otir.neg"
	OpNot          = "otir.not"
	OpAbs          = "otir.abs"
	OpSqrt         = "otir.sqrt"
	OpExp          = "otir.exp"
	OpLog          = "otir.log"
	OpCmp          = "otir.cmp"
	OpSelect       = "otir.select"
	OpCast         = "otir.cast"
	OpMatmul       = "otir.matmul"
	OpReshape      = "otir.reshape"
	OpTranspose    = "otir.transpose"
	OpExtractSlice = "otir.extract_slice"
	OpInsertSlice  = "otir.insert_slice"
	OpReduce       = "otir.reduce"
	OpBarrier      = "otir.barrier"
	OpWait         = "otir.wait"
)

// CmpPredicates are the comparison kinds of otir.cmp.
var CmpPredicates = []string{"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", "oeq", "one", "olt", "ole", "ogt", "oge"}

// AtomicKinds are the read-modify-write kinds of otir.atomic_rmw.
var AtomicKinds = []string{"add", "and", "or", "xor", "max", "min", "umax", "umin", "xchg"}

// MemoryOrders are the memory orders of otir.atomic_rmw.
var MemoryOrders = []string{"relaxed", "acquire", "release", "acq_rel"}

// DynamicOffset marks a dynamic entry of static_offsets (as MLIR's kDynamic).
const DynamicOffset int64 = -9223372036854775808

// Ops is the otir dialect's table of operation definitions, in the order of
// the specification's section 6.
var Ops = []ir.OpDef{
	{Name: OpKernel, Summary: "a tile kernel launched over a static grid",
		Attrs: []ir.AttrDef{
			{Name: "sym_name", Kind: ir.AttrString, Doc: "the kernel's name"},
			{Name: "function_type", Kind: ir.AttrFuncType, Doc: "the arguments' types; no results"},
			{Name: "grid", Kind: ir.AttrArray, Optional: true, Doc: "the launch grid, one positive extent per axis"},
		},
		Regions: []string{"body"}, Traits: ir.IsolatedFromAbove | ir.SingleBlock | ir.TopLevel | ir.Symbol, Parents: []string{ir.OpModule},
		Format: "$sym_name custom<KernelArguments>($body, $function_type) attr-dict-with-keyword $body"},
	{Name: OpReturn, Summary: "ends a kernel", Traits: ir.Terminator, Terminator: true, Parents: []string{OpKernel},
		Format: "attr-dict"},
	{Name: OpConstant, Summary: "a scalar or dense tile constant",
		Results: []ir.ArgDef{{Name: "result", Doc: "the value's type"}},
		Attrs:   []ir.AttrDef{{Name: "value", Kind: ir.AttrConstant, Doc: "a typed integer, float or dense constant"}},
		Format:  "attr-dict $value"},
	{Name: OpProgramID, Summary: "the workgroup's coordinate along a grid axis",
		Results: []ir.ArgDef{{Name: "result", Doc: "index"}},
		Attrs:   []ir.AttrDef{{Name: "axis", Kind: ir.AttrInt, Doc: "a grid axis"}},
		Format:  "`axis` `(` $axis `)` attr-dict"},
	{Name: OpNumProgs, Summary: "the grid's size along an axis", Traits: ir.Extension, Extension: true,
		Results: []ir.ArgDef{{Name: "result", Doc: "index"}},
		Attrs:   []ir.AttrDef{{Name: "axis", Kind: ir.AttrInt, Doc: "a grid axis"}},
		Format:  "`axis` `(` $axis `)` attr-dict"},

	{Name: OpAlloc, Summary: "allocates an uninitialised tile in #workgroup or #private",
		Results: []ir.ArgDef{{Name: "result", Doc: "a #workgroup or #private tile"}},
		Effect:  ir.AllocEffect,
		Format:  "`(` `)` attr-dict `:` type($result)"},
	{Name: OpDMA, Summary: "starts an asynchronous (optionally masked) copy, returns a token",
		Operands: []ir.ArgDef{
			{Name: "source", Doc: "a #global or #workgroup tile"},
			{Name: "dest", Doc: "a #workgroup tile (#global for a write-back)"},
			{Name: "mask", Arity: ir.Optional, Doc: "an i1 tile of the copy's shape"},
		},
		Results: []ir.ArgDef{{Name: "token", Doc: "!otir.token"}},
		Effect:  ir.WriteEffect,
		Format:  "$source `,` $dest (`,` custom<Mask>($mask)^)? attr-dict `:` custom<DMATypes>(type($source), type($dest), type($mask), type($token))"},
	{Name: OpLoad, Summary: "synchronous load between memory levels",
		Operands: []ir.ArgDef{{Name: "source", Doc: "a #global or #workgroup tile"}},
		Results:  []ir.ArgDef{{Name: "result", Doc: "a #private tile of the same shape and element type"}},
		EffectOf: privateOperandIsPure(0, ir.ReadEffect),
		Format:   "$source attr-dict `:` type($source) `->` type($result)"},
	{Name: OpStore, Summary: "synchronous store between memory levels",
		Operands: []ir.ArgDef{{Name: "value", Doc: "a #private tile"}, {Name: "dest", Doc: "a #global or #workgroup tile"}},
		Effect:   ir.WriteEffect,
		Format:   "$value `,` $dest attr-dict `:` type($value) `,` type($dest)"},
	{Name: OpAtomic, Summary: "atomic read-modify-write on #global memory",
		Operands: []ir.ArgDef{{Name: "ptr", Doc: "a #global tile"}, {Name: "value", Doc: "a #private tile or scalar"}},
		Results:  []ir.ArgDef{{Name: "result", Doc: "the old values"}},
		Attrs: []ir.AttrDef{
			{Name: "kind", Kind: ir.AttrString, Enum: AtomicKinds, EnumName: "atomic kind"},
			{Name: "memory_order", Kind: ir.AttrString, Enum: MemoryOrders, EnumName: "memory order"},
		},
		Effect: ir.WriteEffect,
		Format: "$ptr `,` $value `,` `kind` `(` $kind `)` `,` `memory_order` `(` $memory_order `)` attr-dict `:` type($ptr) `,` type($value) `->` type($result)"},
}

// binary, unary and the other element-wise ops are added in init, one record
// each, from these lists: name, typing key, summary, extension.
var binaryOps = []struct{ name, typing, summary string }{
	{OpAdd, "add", "element-wise add"}, {OpSub, "sub", "element-wise sub"}, {OpMul, "mul", "element-wise mul"},
	{OpDivS, "div", "element-wise div_s"}, {OpDivU, "div", "element-wise div_u"},
	{OpRemS, "mod", "element-wise rem_s"}, {OpRemU, "mod", "element-wise rem_u"},
	{OpAnd, "bitwise_and", "element-wise and"}, {OpOr, "bitwise_or", "element-wise or"}, {OpXor, "bitwise_xor", "element-wise xor"},
	{OpShl, "lshift", "element-wise shl"}, {OpShrS, "rshift", "element-wise shr_s"}, {OpShrU, "rshift", "element-wise shr_u"},
	{OpMax, "max", "element-wise maximum"}, {OpMin, "min", "element-wise minimum"},
}

var unaryOps = []struct{ name, typing, summary string }{
	{OpNeg, "neg", "element-wise neg"}, {OpNot, "invert", "element-wise not"}, {OpAbs, "abs", "element-wise abs"},
	{OpSqrt, "sqrt", "element-wise sqrt"}, {OpExp, "exp", "element-wise exp"}, {OpLog, "log", "element-wise log"},
}

// moreOps follow the element-wise ones.
var moreOps = []ir.OpDef{
	{Name: OpCmp, Summary: "element-wise comparison, yields i1", Traits: ir.Elementwise, Typing: "eq",
		Operands: []ir.ArgDef{{Name: "lhs"}, {Name: "rhs"}},
		Results:  []ir.ArgDef{{Name: "result", Doc: "i1 (a tile of i1 when an operand is a tile)"}},
		Attrs:    []ir.AttrDef{{Name: "kind", Kind: ir.AttrString, Enum: CmpPredicates, EnumName: "comparison kind"}},
		Format:   "`kind` `(` $kind `)` $lhs `,` $rhs attr-dict `:` custom<ElementwiseTypes>(type(operands), type($result))"},
	{Name: OpSelect, Summary: "element-wise choice by an i1 condition", Traits: ir.Elementwise | ir.Extension, Extension: true,
		Operands: []ir.ArgDef{{Name: "condition", Doc: "i1 or a tile of i1"}, {Name: "true_value"}, {Name: "false_value"}},
		Results:  []ir.ArgDef{{Name: "result"}},
		Format:   "$condition `,` $true_value `,` $false_value attr-dict `:` functional-type(operands, results)"},
	{Name: OpCast, Summary: "converts to another element type (wraps/truncates)", Traits: ir.Elementwise | ir.Extension, Extension: true,
		Operands: []ir.ArgDef{{Name: "input"}},
		Results:  []ir.ArgDef{{Name: "result"}},
		Format:   "$input attr-dict `:` type($input) `->` type($result)"},

	{Name: OpMatmul, Summary: "fused matrix multiply-add D = A x B + C",
		Operands: []ir.ArgDef{{Name: "a", Doc: "#private [M, K]"}, {Name: "b", Doc: "#private [K, N]"}, {Name: "c", Doc: "#private [M, N]"}},
		Results:  []ir.ArgDef{{Name: "result", Doc: "#private [M, N]"}},
		Format:   "$a `,` $b `,` $c attr-dict `:` functional-type(operands, results)"},
	{Name: OpReshape, Summary: "changes a tile's shape, keeping its elements",
		Operands: []ir.ArgDef{{Name: "input"}},
		Results:  []ir.ArgDef{{Name: "result"}},
		Format:   "$input attr-dict `:` type($input) `->` type($result)"},
	{Name: OpTranspose, Summary: "permutes a tile's dimensions",
		Operands: []ir.ArgDef{{Name: "input"}},
		Results:  []ir.ArgDef{{Name: "result"}},
		Attrs:    []ir.AttrDef{{Name: "permutation", Kind: ir.AttrDenseI64}},
		Format:   "$input `,` `permutation` `(` custom<IntList>($permutation) `)` attr-dict `:` type($input) `->` type($result)"},
	{Name: OpExtractSlice, Summary: "extracts a sub-tile",
		Operands: []ir.ArgDef{{Name: "source"}, {Name: "offsets", Arity: ir.Variadic, Doc: "index, one per dynamic offset"}},
		Results:  []ir.ArgDef{{Name: "result"}},
		Attrs:    sliceAttrs,
		Format:   "$source custom<SliceBounds>($offsets, $static_offsets, $static_sizes, $static_strides) attr-dict `:` type($source) `to` type($result)"},
	{Name: OpInsertSlice, Summary: "inserts a sub-tile into a #private tile",
		Operands: []ir.ArgDef{{Name: "source"}, {Name: "dest"}, {Name: "offsets", Arity: ir.Variadic, Doc: "index, one per dynamic offset"}},
		Results:  []ir.ArgDef{{Name: "result", Doc: "the dest's type"}},
		Attrs:    sliceAttrs,
		// Inserting into a #private tile makes a new value; anything else
		// would update memory.
		EffectOf: privateOperandIsPure(1, ir.WriteEffect),
		Format:   "$source `into` $dest custom<SliceBounds>($offsets, $static_offsets, $static_sizes, $static_strides) attr-dict `:` type($source) `into` type($dest)"},

	{Name: OpReduce, Summary: "folds a #private tile along one axis with add, max or min", Traits: ir.Extension, Extension: true,
		Operands: []ir.ArgDef{{Name: "input", Doc: "a #private tile of integers or floats"}},
		Results:  []ir.ArgDef{{Name: "result", Doc: "the input's shape without the axis (its element type when the input has rank 1)"}},
		Attrs: []ir.AttrDef{
			{Name: "kind", Kind: ir.AttrString, Enum: ReduceKinds},
			{Name: "axis", Kind: ir.AttrInt, Doc: "the dimension folded away"},
		},
		Verify: hook(checkReduce),
		Format: "`kind` `(` $kind `)` $input `,` `axis` `(` $axis `)` attr-dict `:` type($input) `->` type($result)"},

	{Name: OpBarrier, Summary: "workgroup barrier", Effect: ir.WriteEffect,
		Format: "attr-dict"},
	{Name: OpWait, Summary: "waits for asynchronous copies", Effect: ir.WriteEffect,
		Operands: []ir.ArgDef{{Name: "tokens", Arity: ir.Variadic, Doc: "!otir.token"}},
		Format:   "`[` $tokens `]` attr-dict"},
}

var sliceAttrs = []ir.AttrDef{
	{Name: "static_offsets", Kind: ir.AttrDenseI64, Doc: "offsets; DynamicOffset marks one given by an operand"},
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
		d := ir.OpDef{Name: b.name, Summary: b.summary, Traits: ir.Elementwise, Typing: b.typing,
			Operands: []ir.ArgDef{{Name: "lhs"}, {Name: "rhs"}},
			Results:  []ir.ArgDef{{Name: "result"}},
			Format:   "$lhs `,` $rhs attr-dict `:` custom<ElementwiseTypes>(type(operands), type($result))"}
		if b.name == OpMax || b.name == OpMin {
			d.Traits |= ir.Extension
			d.Extension = true
		}
		all = append(all, d)
	}
	for _, u := range unaryOps {
		all = append(all, ir.OpDef{Name: u.name, Summary: u.summary, Traits: ir.Elementwise, Typing: u.typing,
			Operands: []ir.ArgDef{{Name: "input"}},
			Results:  []ir.ArgDef{{Name: "result"}},
			Format:   "$input attr-dict `:` custom<ElementwiseTypes>(type(operands), type($result))"})
	}
	all = append(all, moreOps...)
	for i := range all {
		d := &all[i]
		switch d.Name {
		case OpConstant, OpProgramID, OpNumProgs, OpAlloc:
			d.ResultName = resultName
		}
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

// resultName gives readable SSA names to constants and context values, as
// MLIR's OpAsmOpInterface does (%c16, %c-1_i8, %true, %cst, %pid).
func resultName(op *ir.Operation) string {
	switch op.Name {
	case OpConstant:
		switch a := op.Attr("value").(type) {
		case *ir.IntAttr:
			if a.Type == ir.Bool() {
				if a.Value.Sign() != 0 {
					return "true"
				}
				return "false"
			}
			if a.Type == ir.Index() {
				return "c" + a.Value.String()
			}
			if a.Value.BitLen() <= 64 {
				return "c" + a.Value.String() + "_" + a.Type.String()
			}
		}
		return "cst"
	case OpProgramID:
		return "pid"
	case OpNumProgs:
		return "nprog"
	case OpAlloc:
		return "alloc"
	}
	return ""
}
