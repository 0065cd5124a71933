package otir

import (
	"slices"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// Memory: otir.alloc, otir.dma_copy_async, otir.load, otir.store,
// otir.atomic_rmw, otir.wait, otir.barrier, the Mask and DMATypes
// directives, and the dialect-wide rule that only otir.dma_copy_async
// makes tokens.

// Operation names of the family.
const (
	OpAlloc   = "otir.alloc"
	OpDMA     = "otir.dma_copy_async"
	OpLoad    = "otir.load"
	OpStore   = "otir.store"
	OpAtomic  = "otir.atomic_rmw"
	OpBarrier = "otir.barrier"
	OpWait    = "otir.wait"
)

// AtomicKinds are the read-modify-write kinds of otir.atomic_rmw.
var AtomicKinds = []string{"add", "and", "or", "xor", "max", "min", "umax", "umin", "xchg"}

// MemoryOrders are the memory orders of otir.atomic_rmw.
var MemoryOrders = []string{"relaxed", "acquire", "release", "acq_rel"}

var memoryFamily = family{
	ops: []ir.OpDef{
		{Name: OpAlloc, Summary: "allocates an uninitialised tile in #workgroup or #private",
			Results:    []ir.ArgDef{{Name: "result", Doc: "a #workgroup or #private tile"}},
			Effect:     ir.AllocEffect,
			Verify:     hook(checkAlloc),
			ResultName: func(*ir.Operation) string { return "alloc" },
			Format:     "`(` `)` attr-dict `:` type($result)"},
		{Name: OpDMA, Summary: "starts an asynchronous (optionally masked) copy, returns a token",
			Operands: []ir.ArgDef{
				{Name: "source", Doc: "a #global or #workgroup tile"},
				{Name: "dest", Doc: "a #workgroup tile (#global for a write-back)"},
				{Name: "mask", Arity: ir.Optional, Doc: "an i1 tile of the copy's shape"},
			},
			Results: []ir.ArgDef{{Name: "token", Doc: "!otir.token"}},
			Effect:  ir.WriteEffect,
			Verify:  hook(checkDMA),
			Format:  "$source `,` $dest (`,` custom<Mask>($mask)^)? attr-dict `:` custom<DMATypes>(type($source), type($dest), type($mask), type($token))"},
		{Name: OpLoad, Summary: "synchronous load between memory levels",
			Operands: []ir.ArgDef{{Name: "source", Doc: "a #global or #workgroup tile"}},
			Results:  []ir.ArgDef{{Name: "result", Doc: "a #private tile of the same shape and element type"}},
			EffectOf: privateOperandIsPure(0, ir.ReadEffect),
			Verify:   hook(checkLoad),
			Format:   "$source attr-dict `:` type($source) `->` type($result)"},
		{Name: OpStore, Summary: "synchronous store between memory levels",
			Operands: []ir.ArgDef{{Name: "value", Doc: "a #private tile"}, {Name: "dest", Doc: "a #global or #workgroup tile"}},
			Effect:   ir.WriteEffect,
			Verify:   hook(checkStore),
			Format:   "$value `,` $dest attr-dict `:` type($value) `,` type($dest)"},
		{Name: OpAtomic, Summary: "atomic read-modify-write on #global memory",
			Operands: []ir.ArgDef{{Name: "ptr", Doc: "a #global tile"}, {Name: "value", Doc: "a #private tile or scalar"}},
			Results:  []ir.ArgDef{{Name: "result", Doc: "the old values"}},
			Attrs: []ir.AttrDef{
				{Name: "kind", Kind: ir.AttrString, Enum: AtomicKinds, EnumName: "atomic kind"},
				{Name: "memory_order", Kind: ir.AttrString, Enum: MemoryOrders, EnumName: "memory order"},
			},
			Effect: ir.WriteEffect,
			Verify: hook(checkAtomic),
			Format: "$ptr `,` $value `,` `kind` `(` $kind `)` `,` `memory_order` `(` $memory_order `)` attr-dict `:` type($ptr) `,` type($value) `->` type($result)"},
		{Name: OpBarrier, Summary: "workgroup barrier", Effect: ir.WriteEffect,
			Format: "attr-dict"},
		{Name: OpWait, Summary: "waits for asynchronous copies", Effect: ir.WriteEffect,
			Operands: []ir.ArgDef{{Name: "tokens", Arity: ir.Variadic, Doc: "!otir.token"}},
			Verify:   hook(checkWait),
			Format:   "`[` $tokens `]` attr-dict"},
	},
	register: func() {
		ir.RegisterDirective("Mask", printMask, parseMask)
		dma := ir.RegisterDirective("DMATypes", printDMATypes, parseDMATypes)
		dma.Fits = func(op *ir.Operation, f *ir.Format, args []ir.FormatElem) bool { return len(op.Results) == 1 }
		ir.RegisterOpCheck(checkTokens)
	},
	noVerify: map[string]string{
		OpBarrier: "no operands, results, regions or attributes: its record's form is the whole rule",
	},
}

// checkTokens is the dialect's rule on every operation, of any dialect: only
// otir.dma_copy_async produces !otir.token.
func checkTokens(op *ir.Operation) error {
	if op.Name == OpDMA {
		return nil
	}
	for i, r := range op.Results {
		if isToken(r.Type) {
			return diag.OpErrorf(op, "result #%d cannot be !otir.token (only 'otir.dma_copy_async' produces tokens)", i)
		}
	}
	return nil
}

// memoryTile is the tile t of an operand called what, which must be a
// #global or #workgroup tile (a reference).
func memoryTile(op *ir.Operation, what string, t ir.Type) (*ir.TileType, *diag.Diagnostic) {
	if tt := asTile(t); tt != nil && (tt.Space == ir.Global || tt.Space == ir.Workgroup) {
		return tt, nil
	}
	return nil, diag.OpErrorf(op, "%s must be a #global or #workgroup tile, but got '%s'", what, diag.TypeStr(t))
}

// checkAlloc: the result is a tile outside #global.
func checkAlloc(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	r := op.Results[0].Type
	t := asTile(r)
	if t == nil {
		return diag.OpErrorf(op, "result must be a tile, but got '%s'", diag.TypeStr(r))
	}
	if t.Space == ir.Global {
		return diag.OpErrorf(op, "cannot allocate in #global memory (alloc is not permitted in the #global space)")
	}
	return nil
}

// checkDMA: a copy from #global or #workgroup into #workgroup (or from
// #workgroup back to #global) between tiles of one shape and element type, with
// an optional i1 mask of that shape, returning a token.
func checkDMA(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	st, dt := op.Operands[0].Type, op.Operands[1].Type
	src, d := memoryTile(op, "source", st)
	if d != nil {
		return d
	}
	dst := asTile(dt)
	if dst == nil || (dst.Space != ir.Workgroup && dst.Space != ir.Global) {
		return diag.OpErrorf(op, "destination must be a #workgroup tile (or #global for a write-back from #workgroup), but got '%s'", diag.TypeStr(dt))
	}
	if src.Space == dst.Space {
		return diag.OpErrorf(op, "source and destination must be in different memory spaces, but both are in %s", src.Space)
	}
	if d := sameTiles(op, "source", src, "destination", dst); d != nil {
		return d
	}
	if len(op.Operands) == 3 {
		mt := op.Operands[2].Type
		if m := asTile(mt); m == nil || !isBool(m.Elem) || !slices.Equal(m.Shape, src.Shape) {
			return diag.OpErrorf(op, "mask must be an i1 tile of the copy's shape %s, but got '%s'", diag.ShapeStr(src.Shape), diag.TypeStr(mt))
		}
	}
	if r := op.Results[0].Type; !isToken(r) {
		return diag.OpErrorf(op, "result must be !otir.token, but got '%s'", diag.TypeStr(r))
	}
	return nil
}

// checkLoad: from a #global or #workgroup tile to a #private tile of the same
// shape and element type.
func checkLoad(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	st, rt := op.Operands[0].Type, op.Results[0].Type
	src, d := memoryTile(op, "source", st)
	if d != nil {
		return d
	}
	res := asTile(rt)
	if res == nil || res.Space != ir.Private {
		return diag.OpErrorf(op, "result must be a #private tile, but got '%s'", diag.TypeStr(rt))
	}
	return sameTiles(op, "result", res, "source", src)
}

// sameTiles: tile a (called what) has the shape and element type of tile
// b (called other).
func sameTiles(op *ir.Operation, what string, a *ir.TileType, other string, b *ir.TileType) *diag.Diagnostic {
	if !slices.Equal(a.Shape, b.Shape) {
		return diag.OpErrorf(op, "%s shape %s does not match the %s shape %s", what, diag.ShapeStr(a.Shape), other, diag.ShapeStr(b.Shape))
	}
	if a.Elem != b.Elem {
		return diag.OpErrorf(op, "%s element type '%s' does not match the %s element type '%s'", what, diag.TypeStr(a.Elem), other, diag.TypeStr(b.Elem))
	}
	return nil
}

// checkStore: a #private tile into a #global or #workgroup tile of the same
// shape and element type.
func checkStore(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	vt, pt := op.Operands[0].Type, op.Operands[1].Type
	val := asTile(vt)
	if val == nil || val.Space != ir.Private {
		return diag.OpErrorf(op, "value must be a #private tile, but got '%s'", diag.TypeStr(vt))
	}
	ptr, d := memoryTile(op, "destination", pt)
	if d != nil {
		return d
	}
	return sameTiles(op, "value", val, "destination", ptr)
}

// checkAtomic: the pointer is a #global tile; the value is a #private tile of
// its shape and element type (or a scalar of that type when the pointer holds
// one element); the result has the value's type; kind and memory_order are
// known, and bitwise kinds and umax/umin need integer elements.
func checkAtomic(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	pt, vt := op.Operands[0].Type, op.Operands[1].Type
	ptr := asTile(pt)
	if ptr == nil || ptr.Space != ir.Global {
		return diag.OpErrorf(op, "pointer must be a #global tile, but got '%s'", diag.TypeStr(pt))
	}
	if val := asTile(vt); val != nil {
		if val.Space != ir.Private || !slices.Equal(val.Shape, ptr.Shape) || val.Elem != ptr.Elem {
			return diag.OpErrorf(op, "value must be a #private tile of the pointer's shape and element type ('%s'), but got '%s'",
				diag.TypeStr(ir.Tile(ptr.Shape, ptr.Elem, ir.Private)), diag.TypeStr(vt))
		}
	} else if vt != ptr.Elem || ptr.NumElements() != 1 {
		if ptr.NumElements() != 1 {
			return diag.OpErrorf(op, "value must be a #private tile of the pointer's shape and element type ('%s'), but got '%s'",
				diag.TypeStr(ir.Tile(ptr.Shape, ptr.Elem, ir.Private)), diag.TypeStr(vt))
		}
		return diag.OpErrorf(op, "value must be a #private tile or a scalar of the pointer's element type '%s', but got '%s'", diag.TypeStr(ptr.Elem), diag.TypeStr(vt))
	}
	if r := op.Results[0].Type; r != vt {
		return diag.OpErrorf(op, "result type '%s' must equal the value type '%s'", diag.TypeStr(r), diag.TypeStr(vt))
	}
	kind, _ := op.StringAttr("kind")
	if kinds := enumOf(OpAtomic, "kind"); !slices.Contains(kinds, kind) {
		return diag.OpErrorf(op, "unknown kind '%s' (expected one of %s)", kind, strings.Join(kinds, ", "))
	}
	switch kind {
	case "and", "or", "xor", "umax", "umin":
		if asInt(ptr.Elem) == nil {
			return diag.OpErrorf(op, "kind '%s' needs integer elements, but got '%s'", kind, diag.TypeStr(ptr.Elem))
		}
	}
	order, _ := op.StringAttr("memory_order")
	if orders := enumOf(OpAtomic, "memory_order"); !slices.Contains(orders, order) {
		return diag.OpErrorf(op, "unknown memory_order '%s' (expected one of %s)", order, strings.Join(orders, ", "))
	}
	return nil
}

// checkWait: every operand is a token.
func checkWait(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	for i, x := range op.Operands {
		if !isToken(x.Type) {
			return diag.OpErrorf(op, "operand #%d must be !otir.token, but got '%s'", i, diag.TypeStr(x.Type))
		}
	}
	return nil
}

// custom<Mask>($mask): the optional mask operand, %m (the parser also reads
// the specification's [%m]).
func printMask(p ir.AsmPrinter, op *ir.Operation, f *ir.Format, args []ir.FormatElem) {
	p.PrintOperands(f.OperandGroup(op, args[0].Ref.Index))
}

func parseMask(p ir.AsmParser, st *ir.OpState, args []ir.FormatElem) error {
	bracket := p.ParseOptionalPunct("[")
	name, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if bracket {
		if err := p.ParsePunct("]"); err != nil {
			return err
		}
	}
	ns := p.Names(1)
	ns[0] = name
	st.Operands[args[0].Ref.Index] = ns
	return nil
}

// custom<DMATypes>(type($source), type($dest), type($mask), type($token)):
// `(S, D) -> T` or `(S, D, M) -> T` (the parser also reads `[M]`).
func printDMATypes(p ir.AsmPrinter, op *ir.Operation, f *ir.Format, args []ir.FormatElem) {
	p.PrintFunctionalType(op.Operands, op.Results)
}

func parseDMATypes(p ir.AsmParser, st *ir.OpState, args []ir.FormatElem) error {
	ins, outs, at, err := p.ParseFunctionalType(true)
	if err != nil {
		return err
	}
	if len(outs) != 1 {
		return p.Errorf(at, "expected 1 result type, got %d", len(outs))
	}
	if n := st.NumOperands(); n != len(ins) {
		return p.Errorf(p.NameLoc(), "%d operands present, but expected %d", n, len(ins))
	}
	setOperandTypes(st, ins)
	st.ResultTypes[args[3].Ref.Index] = outs
	return nil
}
