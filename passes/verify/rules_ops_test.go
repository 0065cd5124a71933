package verify

import (
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/scf"
	"github.com/otir-dev/otir/ir"
)

func TestMemoryRules(t *testing.T) {
	tok := "!otir.token"
	runRules(t, []ruleCase{
		{name: "alloc in global", build: func(e *env) {
			e.bad(otir.OpAlloc, nil, nil, g16i8)
		}, want: []string{"2: 'otir.alloc' op cannot allocate in #global memory (alloc is not permitted in the #global space)"}},
		{name: "alloc of a scalar", build: func(e *env) {
			e.bad(otir.OpAlloc, nil, nil, "i32")
		}, want: []string{"2: 'otir.alloc' op result must be a tile, but got 'i32'"}},
		{name: "dma source in private", build: func(e *env) {
			e.bad(otir.OpDMA, e.vals(p16i8, w16i8), nil, tok)
		}, want: []string{"2: 'otir.dma_copy_async' op source must be a #global or #workgroup tile, but got '!otir.tile<16xi8, #private>'"}},
		{name: "dma destination in private", build: func(e *env) {
			e.bad(otir.OpDMA, e.vals(g16i8, p16i8), nil, tok)
		}, want: []string{"2: 'otir.dma_copy_async' op destination must be a #workgroup tile (or #global for a write-back from #workgroup), but got '!otir.tile<16xi8, #private>'"}},
		{name: "dma within one space", build: func(e *env) {
			e.bad(otir.OpDMA, e.vals(g16i8, g16i8), nil, tok)
		}, want: []string{"2: 'otir.dma_copy_async' op source and destination must be in different memory spaces, but both are in #global"}},
		{name: "dma element types", build: func(e *env) {
			e.bad(otir.OpDMA, e.vals(g16i8, "!otir.tile<16xi16, #workgroup>"), nil, tok)
		}, want: []string{"2: 'otir.dma_copy_async' op source element type 'i8' does not match the destination element type 'i16'"}},
		{name: "dma shapes", build: func(e *env) {
			e.bad(otir.OpDMA, e.vals(g16i8, "!otir.tile<4x4xi8, #workgroup>"), nil, tok)
		}, want: []string{"2: 'otir.dma_copy_async' op source shape 16 does not match the destination shape 4x4"}},
		{name: "dma mask element type", build: func(e *env) {
			e.bad(otir.OpDMA, e.vals(g16i8, w16i8, p16i8), nil, tok)
		}, want: []string{"2: 'otir.dma_copy_async' op mask must be an i1 tile of the copy's shape 16, but got '!otir.tile<16xi8, #private>'"}},
		{name: "dma mask shape", build: func(e *env) {
			e.bad(otir.OpDMA, e.vals(g16i8, w16i8, "!otir.tile<8xi1, #private>"), nil, tok)
		}, want: []string{"2: 'otir.dma_copy_async' op mask must be an i1 tile of the copy's shape 16, but got '!otir.tile<8xi1, #private>'"}},
		{name: "dma result", build: func(e *env) {
			e.bad(otir.OpDMA, e.vals(g16i8, w16i8), nil, "i32")
		}, want: []string{"2: 'otir.dma_copy_async' op result must be !otir.token, but got 'i32'"}},
		{name: "load from private", build: func(e *env) {
			e.bad(otir.OpLoad, e.vals(p16i8), nil, p16i8)
		}, want: []string{"2: 'otir.load' op source must be a #global or #workgroup tile, but got '!otir.tile<16xi8, #private>'"}},
		{name: "load into workgroup", build: func(e *env) {
			e.bad(otir.OpLoad, e.vals(g16i8), nil, w16i8)
		}, want: []string{"2: 'otir.load' op result must be a #private tile, but got '!otir.tile<16xi8, #workgroup>'"}},
		{name: "load shape", build: func(e *env) {
			e.bad(otir.OpLoad, e.vals(w16i8), nil, "!otir.tile<8xi8, #private>")
		}, want: []string{"2: 'otir.load' op result shape 8 does not match the source shape 16"}},
		{name: "load element type", build: func(e *env) {
			e.bad(otir.OpLoad, e.vals(w16i8), nil, p16i9)
		}, want: []string{"2: 'otir.load' op result element type 'i9' does not match the source element type 'i8'"}},
		{name: "store from global", build: func(e *env) {
			e.bad(otir.OpStore, e.vals(g16i8, g16i8), nil)
		}, want: []string{"2: 'otir.store' op value must be a #private tile, but got '!otir.tile<16xi8, #global>'"}},
		{name: "store into private", build: func(e *env) {
			e.bad(otir.OpStore, e.vals(p16i8, p16i8), nil)
		}, want: []string{"2: 'otir.store' op destination must be a #global or #workgroup tile, but got '!otir.tile<16xi8, #private>'"}},
		{name: "store shape", build: func(e *env) {
			e.bad(otir.OpStore, e.vals(p16i8, "!otir.tile<2x8xi8, #global>"), nil)
		}, want: []string{"2: 'otir.store' op value shape 16 does not match the destination shape 2x8"}},
		{name: "store element type", build: func(e *env) {
			e.bad(otir.OpStore, e.vals(p16i9, w16i8), nil)
		}, want: []string{"2: 'otir.store' op value element type 'i9' does not match the destination element type 'i8'"}},
		{name: "atomic on workgroup", build: func(e *env) {
			e.bad(otir.OpAtomic, e.vals("!otir.tile<1xi32, #workgroup>", p1i32), atomicAttrs("add", "relaxed"), p1i32)
		}, want: []string{"2: 'otir.atomic_rmw' op pointer must be a #global tile, but got '!otir.tile<1xi32, #workgroup>'"}},
		{name: "atomic value shape", build: func(e *env) {
			e.bad(otir.OpAtomic, e.vals(g4i32, p1i32), atomicAttrs("add", "relaxed"), p1i32)
		}, want: []string{"2: 'otir.atomic_rmw' op value must be a #private tile of the pointer's shape and element type ('!otir.tile<4xi32, #private>'), but got '!otir.tile<1xi32, #private>'"}},
		{name: "atomic scalar on many elements", build: func(e *env) {
			e.bad(otir.OpAtomic, e.vals(g4i32, "i32"), atomicAttrs("add", "relaxed"), "i32")
		}, want: []string{"2: 'otir.atomic_rmw' op value must be a #private tile of the pointer's shape and element type ('!otir.tile<4xi32, #private>'), but got 'i32'"}},
		{name: "atomic scalar type", build: func(e *env) {
			e.bad(otir.OpAtomic, e.vals(g1i32, "i16"), atomicAttrs("add", "relaxed"), "i16")
		}, want: []string{"2: 'otir.atomic_rmw' op value must be a #private tile or a scalar of the pointer's element type 'i32', but got 'i16'"}},
		{name: "atomic result", build: func(e *env) {
			e.bad(otir.OpAtomic, e.vals(g1i32, p1i32), atomicAttrs("add", "relaxed"), "i32")
		}, want: []string{"2: 'otir.atomic_rmw' op result type 'i32' must equal the value type '!otir.tile<1xi32, #private>'"}},
		{name: "atomic kind", build: func(e *env) {
			e.bad(otir.OpAtomic, e.vals(g1i32, p1i32), atomicAttrs("nand", "relaxed"), p1i32)
		}, want: []string{"2: 'otir.atomic_rmw' op unknown kind 'nand' (expected one of add, and, or, xor, max, min, umax, umin, xchg)"}},
		{name: "atomic bitwise on floats", build: func(e *env) {
			e.bad(otir.OpAtomic, e.vals("!otir.tile<1xf32, #global>", "f32"), atomicAttrs("xor", "relaxed"), "f32")
		}, want: []string{"2: 'otir.atomic_rmw' op kind 'xor' needs integer elements, but got 'f32'"}},
		{name: "atomic umax on floats", build: func(e *env) {
			e.bad(otir.OpAtomic, e.vals("!otir.tile<1xf32, #global>", "f32"), atomicAttrs("umax", "relaxed"), "f32")
		}, want: []string{"2: 'otir.atomic_rmw' op kind 'umax' needs integer elements, but got 'f32'"}},
		{name: "atomic memory order", build: func(e *env) {
			e.bad(otir.OpAtomic, e.vals(g1i32, p1i32), atomicAttrs("add", "seq_cst"), p1i32)
		}, want: []string{"2: 'otir.atomic_rmw' op unknown memory_order 'seq_cst' (expected one of relaxed, acquire, release, acq_rel)"}},
		{name: "atomic attribute kinds", build: func(e *env) {
			e.bad(otir.OpAtomic, e.vals(g1i32, p1i32), kind("add"), p1i32)
		}, want: []string{"2: 'otir.atomic_rmw' op requires attribute 'memory_order'"}},
		{name: "wait on a non-token", build: func(e *env) {
			e.bad(otir.OpWait, e.vals(tok, "i32"), nil)
		}, want: []string{"2: 'otir.wait' op operand #1 must be !otir.token, but got 'i32'"}},
	})
}

func TestElementwiseRules(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "global operand", build: func(e *env) {
			e.bad(otir.OpAdd, e.vals(g16i8, p16i8), nil, p16i8)
		}, want: []string{"2: 'otir.add' op operand #0 is a #global tile; element-wise operations take #private tiles or scalars (load it into #private first)"}},
		{name: "workgroup operand", build: func(e *env) {
			e.bad(otir.OpNeg, e.vals(w16i8), nil, p16i8)
		}, want: []string{"2: 'otir.neg' op operand #0 is a #workgroup tile; element-wise operations take #private tiles or scalars (load it into #private first)"}},
		{name: "token operand", build: func(e *env) {
			e.bad(otir.OpAdd, e.vals("i8", "!otir.token"), nil, "i8")
		}, want: []string{"2: 'otir.add' op operand #1 must be a scalar or a #private tile, but got '!otir.token'"}},
		{name: "incompatible shapes", build: func(e *env) {
			e.bad(otir.OpAdd, e.vals(p4x8i8, "!otir.tile<4x3xi8, #private>"), nil, p4x8i8)
		}, want: []string{"2: 'otir.add' op operand #0 ('!otir.tile<4x8xi8, #private>') and operand #1 ('!otir.tile<4x3xi8, #private>') are not broadcast-compatible: dimension 1 is 8 vs 3"}},
		{name: "incompatible lower rank", build: func(e *env) {
			e.bad(otir.OpSelect, e.vals("!otir.tile<8xi1, #private>", p4x8i8, "!otir.tile<4xi8, #private>"), nil, p4x8i8)
		}, want: []string{"2: 'otir.select' op operand #0 ('!otir.tile<8xi1, #private>') and operand #2 ('!otir.tile<4xi8, #private>') are not broadcast-compatible: dimension 1 is 8 vs 4"}},
		{name: "result shape", build: func(e *env) {
			e.bad(otir.OpAdd, e.vals(p4x8i8, "!otir.tile<8xi8, #private>"), nil, "!otir.tile<8xi8, #private>")
		}, want: []string{"2: 'otir.add' op result must be a #private tile of shape 4x8 (the broadcast of the operand shapes), but got '!otir.tile<8xi8, #private>'"}},
		{name: "result space", build: func(e *env) {
			e.bad(otir.OpAdd, e.vals(p16i8, "i8"), nil, w16i8)
		}, want: []string{"2: 'otir.add' op result must be a #private tile of shape 16 (the broadcast of the operand shapes), but got '!otir.tile<16xi8, #workgroup>'"}},
		{name: "scalar result from scalars", build: func(e *env) {
			e.bad(otir.OpMul, e.vals("i8", "i8"), nil, p16i8)
		}, want: []string{"2: 'otir.mul' op result must be a scalar when all operands are scalars, but got '!otir.tile<16xi8, #private>'"}},
		{name: "bitwise on floats", build: func(e *env) {
			e.bad(otir.OpAnd, e.vals("i8", "f32"), nil, "i8")
		}, want: []string{"2: 'otir.and' op operand #1 must have integer or index elements, but got element type 'f32'"}},
		{name: "not on floats", build: func(e *env) {
			e.bad(otir.OpNot, e.vals("!otir.tile<4xf16, #private>"), nil, "!otir.tile<4xf16, #private>")
		}, want: []string{"2: 'otir.not' op operand #0 must have integer or index elements, but got element type 'f16'"}},
		{name: "shift on floats", build: func(e *env) {
			e.bad(otir.OpShrU, e.vals("f32", "i8"), nil, "f32")
		}, want: []string{"2: 'otir.shr_u' op operand #0 must have integer or index elements, but got element type 'f32'"}},
		{name: "integer division on floats", build: func(e *env) {
			e.bad(otir.OpDivS, e.vals("f32", "f32"), nil, "f32")
		}, want: []string{"2: 'otir.div_s' op operand #0 must have integer or index elements, but got element type 'f32'"}},
		{name: "remainder on floats", build: func(e *env) {
			e.bad(otir.OpRemU, e.vals("i8", "bf16"), nil, "i8")
		}, want: []string{"2: 'otir.rem_u' op operand #1 must have integer or index elements, but got element type 'bf16'"}},
		{name: "sqrt gives floats", build: func(e *env) {
			e.bad(otir.OpSqrt, e.vals("i32"), nil, "i32")
		}, want: []string{"2: 'otir.sqrt' op result must have float elements, but got element type 'i32'"}},
		{name: "exp gives floats", build: func(e *env) {
			e.bad(otir.OpExp, e.vals("!otir.tile<4xf32, #private>"), nil, "!otir.tile<4xi32, #private>")
		}, want: []string{"2: 'otir.exp' op result must have float elements, but got element type 'i32'"}},
		{name: "cmp predicate", build: func(e *env) {
			e.bad(otir.OpCmp, e.vals("i8", "i8"), kind("lt"), "i1")
		}, want: []string{"2: 'otir.cmp' op unknown predicate 'lt' (expected one of eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge, oeq, one, olt, ole, ogt, oge)"}},
		{name: "signed predicate on floats", build: func(e *env) {
			e.bad(otir.OpCmp, e.vals("i8", "f32"), kind("slt"), "i1")
		}, want: []string{"2: 'otir.cmp' op predicate 'slt' compares integers or indices, but operand #1 has element type 'f32'"}},
		{name: "ordered predicate on integers", build: func(e *env) {
			e.bad(otir.OpCmp, e.vals(p16i8, p16i8), kind("oge"), p16i1)
		}, want: []string{"2: 'otir.cmp' op predicate 'oge' compares floats, but operand #0 has element type 'i8'"}},
		{name: "cmp result", build: func(e *env) {
			e.bad(otir.OpCmp, e.vals("i8", "i8"), kind("eq"), "i8")
		}, want: []string{"2: 'otir.cmp' op result must have i1 elements, but got element type 'i8'"}},
		{name: "select condition", build: func(e *env) {
			e.bad(otir.OpSelect, e.vals(p16i8, p16i8, p16i8), nil, p16i8)
		}, want: []string{"2: 'otir.select' op condition must have i1 elements, but got element type 'i8'"}},
		{name: "cast keeps the shape", build: func(e *env) {
			e.bad(otir.OpCast, e.vals(p16i8), nil, "!otir.tile<8xi16, #private>")
		}, want: []string{"2: 'otir.cast' op result must be a #private tile of shape 16 (the broadcast of the operand shapes), but got '!otir.tile<8xi16, #private>'"}},
		{name: "cast of a tile to a scalar", build: func(e *env) {
			e.bad(otir.OpCast, e.vals(p16i8), nil, "i8")
		}, want: []string{"2: 'otir.cast' op result must be a #private tile of shape 16 (the broadcast of the operand shapes), but got 'i8'"}},
		{name: "no index from a tile", build: func(e *env) {
			// ir.ParseType cannot read "16xindex" (it splits the element type
			// at its 'x'), so this type is built directly.
			e.b.Insert(ir.NewOp(otir.OpCast, at(2), e.vals(p16i8), []ir.Type{ir.Tile([]int64{16}, ir.Index(), ir.Private)}, nil))
		}, want: []string{"2: 'otir.cast' op cannot produce a tile of index elements ('!otir.tile<16xindex, #private>'): index is a scalar type"}},
	})
}

func TestMatmulRules(t *testing.T) {
	mm := func(a, b, c, d string) func(e *env) {
		return func(e *env) { e.bad(otir.OpMatmul, e.vals(a, b, c), nil, d) }
	}
	p := func(s string) string { return "!otir.tile<" + s + ", #private>" }
	runRules(t, []ruleCase{
		{name: "operand space", build: mm("!otir.tile<4x8xi8, #workgroup>", p("8x4xi8"), p("4x4xi32"), p("4x4xi32")),
			want: []string{"2: 'otir.matmul' op operand #0 (A) must be a rank-2 #private tile, but got '!otir.tile<4x8xi8, #workgroup>'"}},
		{name: "operand rank", build: mm(p("4x8xi8"), p("8xi8"), p("4x4xi32"), p("4x4xi32")),
			want: []string{"2: 'otir.matmul' op operand #1 (B) must be a rank-2 #private tile, but got '!otir.tile<8xi8, #private>'"}},
		{name: "K", build: mm(p("4x8xi8"), p("6x4xi8"), p("4x4xi32"), p("4x4xi32")),
			want: []string{"2: 'otir.matmul' op K mismatch: A is 4x8 (K = 8) but B is 6x4 (K = 6)"}},
		{name: "M", build: mm(p("4x8xi8"), p("8x4xi8"), p("5x4xi32"), p("5x4xi32")),
			want: []string{"2: 'otir.matmul' op M mismatch: A is 4x8 (M = 4) but C is 5x4 (M = 5)"}},
		{name: "N", build: mm(p("4x8xi8"), p("8x4xi8"), p("4x5xi32"), p("4x5xi32")),
			want: []string{"2: 'otir.matmul' op N mismatch: B is 8x4 (N = 4) but C is 4x5 (N = 5)"}},
		{name: "result type", build: mm(p("4x8xi8"), p("8x4xi8"), p("4x4xi32"), p("4x4xi20")),
			want: []string{"2: 'otir.matmul' op result type '!otir.tile<4x4xi20, #private>' must equal the accumulator type '!otir.tile<4x4xi32, #private>'"}},
		{name: "narrower accumulator", build: mm(p("4x8xi16"), p("8x4xi8"), p("4x4xi8"), p("4x4xi8")),
			want: []string{"2: 'otir.matmul' op accumulator element type 'i8' is less precise than A's element type 'i16'"}},
		{name: "unsigned accumulator for signed inputs", build: mm(p("4x8xi8"), p("8x4xi8"), p("4x4xu32"), p("4x4xu32")),
			want: []string{"2: 'otir.matmul' op accumulator element type 'u32' is less precise than A's element type 'i8'"}},
		{name: "signed accumulator of the unsigned width", build: mm(p("4x8xi8"), p("8x4xu8"), p("4x4xi8"), p("4x4xi8")),
			want: []string{"2: 'otir.matmul' op accumulator element type 'i8' is less precise than B's element type 'u8'"}},
		{name: "float inputs, integer accumulator", build: mm(p("4x8xf32"), p("8x4xf32"), p("4x4xi32"), p("4x4xi32")),
			want: []string{"2: 'otir.matmul' op accumulator element type 'i32' is less precise than A's element type 'f32'"}},
		{name: "narrower float accumulator", build: mm(p("4x8xf16"), p("8x4xf32"), p("4x4xf16"), p("4x4xf16")),
			want: []string{"2: 'otir.matmul' op accumulator element type 'f16' is less precise than B's element type 'f32'"}},
		{name: "bf16 accumulator for f16", build: mm(p("4x8xf16"), p("8x4xf16"), p("4x4xbf16"), p("4x4xbf16")),
			want: []string{"2: 'otir.matmul' op accumulator element type 'bf16' is less precise than A's element type 'f16'"}},
	})
}

func TestShapeRules(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "reshape count", build: func(e *env) {
			e.bad(otir.OpReshape, e.vals(p16i8), nil, "!otir.tile<3x4xi8, #private>")
		}, want: []string{"2: 'otir.reshape' op element count mismatch: the operand has 16 elements but the result has 12"}},
		{name: "reshape element type", build: func(e *env) {
			e.bad(otir.OpReshape, e.vals(p16i8), nil, "!otir.tile<4x4xi9, #private>")
		}, want: []string{"2: 'otir.reshape' op result element type 'i9' does not match the operand element type 'i8'"}},
		{name: "reshape space", build: func(e *env) {
			e.bad(otir.OpReshape, e.vals(g16i8), nil, "!otir.tile<4x4xi8, #private>")
		}, want: []string{"2: 'otir.reshape' op result memory space #private does not match the operand memory space #global"}},
		{name: "reshape of a scalar", build: func(e *env) {
			e.bad(otir.OpReshape, e.vals("i8"), nil, "!otir.tile<1xi8, #private>")
		}, want: []string{"2: 'otir.reshape' op operand must be a tile, but got 'i8'"}},
		{name: "transpose permutation", build: func(e *env) {
			e.bad(otir.OpTranspose, e.vals(p4x8i8), perm(0, 0), p4x8i8)
		}, want: []string{"2: 'otir.transpose' op permutation [0, 0] is not a permutation of 0..1"}},
		{name: "transpose permutation length", build: func(e *env) {
			e.bad(otir.OpTranspose, e.vals(p4x8i8), perm(0, 1, 2), p4x8i8)
		}, want: []string{"2: 'otir.transpose' op permutation [0, 1, 2] is not a permutation of 0..1"}},
		{name: "transpose shape", build: func(e *env) {
			e.bad(otir.OpTranspose, e.vals(p4x8i8), perm(1, 0), p4x8i8)
		}, want: []string{"2: 'otir.transpose' op result shape 4x8 does not match the permuted operand shape 8x4"}},
		{name: "transpose element type", build: func(e *env) {
			e.bad(otir.OpTranspose, e.vals(p4x8i8), perm(1, 0), "!otir.tile<8x4xi16, #private>")
		}, want: []string{"2: 'otir.transpose' op result element type 'i16' does not match the operand element type 'i8'"}},
		{name: "transpose attribute", build: func(e *env) {
			e.bad(otir.OpTranspose, e.vals(p4x8i8), nil, p4x8i8)
		}, want: []string{"2: 'otir.transpose' op requires attribute 'permutation'"}},
		{name: "extract from a scalar", build: func(e *env) {
			e.bad(otir.OpExtractSlice, e.vals("i8"), slice(ints(0), ints(1), ints(1)), "!otir.tile<1xi8, #private>")
		}, want: []string{"2: 'otir.extract_slice' op source must be a tile, but got 'i8'"}},
		{name: "transpose of rank 9", build: func(e *env) {
			e.bad(otir.OpTranspose, e.vals("!otir.tile<1x1x1x1x1x1x1x1x2xi8, #private>"), perm(8, 0, 1, 2, 3, 4, 5, 6, 6), "!otir.tile<2x1x1x1x1x1x1x1x1xi8, #private>")
		}, want: []string{"2: 'otir.transpose' op permutation [8, 0, 1, 2, 3, 4, 5, 6, 6] is not a permutation of 0..8"}},
		{name: "extract rank", build: func(e *env) {
			e.bad(otir.OpExtractSlice, e.vals(p4x8i8), slice(ints(0), ints(4), ints(1)), p16i8)
		}, want: []string{"2: 'otir.extract_slice' op expected 2 offset values (the source rank), but got 1"}},
		{name: "extract strides rank", build: func(e *env) {
			e.bad(otir.OpExtractSlice, e.vals(p16i8), slice(ints(0), ints(4), ints(1, 1)), "!otir.tile<4xi8, #private>")
		}, want: []string{"2: 'otir.extract_slice' op expected 1 stride values (the source rank), but got 2"}},
		{name: "extract dynamic count", build: func(e *env) {
			e.bad(otir.OpExtractSlice, e.vals(p16i8, "index"), slice(ints(0), ints(4), ints(1)), "!otir.tile<4xi8, #private>")
		}, want: []string{"2: 'otir.extract_slice' op expected no dynamic offset operands (one per dynamic entry of static_offsets), but got 1"}},
		{name: "extract dynamic type", build: func(e *env) {
			e.bad(otir.OpExtractSlice, e.vals(p16i8, "i32"), slice(ints(dyn), ints(4), ints(1)), "!otir.tile<4xi8, #private>")
		}, want: []string{"2: 'otir.extract_slice' op dynamic offset operand #0 must be 'index', but got 'i32'"}},
		{name: "extract size", build: func(e *env) {
			e.bad(otir.OpExtractSlice, e.vals(p16i8), slice(ints(0), ints(0), ints(1)), "!otir.tile<4xi8, #private>")
		}, want: []string{"2: 'otir.extract_slice' op size 0 along dim 0 must be positive"}},
		{name: "extract stride", build: func(e *env) {
			e.bad(otir.OpExtractSlice, e.vals(p16i8), slice(ints(0), ints(4), ints(0)), "!otir.tile<4xi8, #private>")
		}, want: []string{"2: 'otir.extract_slice' op stride 0 along dim 0 must be positive"}},
		{name: "extract negative offset", build: func(e *env) {
			e.bad(otir.OpExtractSlice, e.vals(p16i8), slice(ints(-1), ints(4), ints(1)), "!otir.tile<4xi8, #private>")
		}, want: []string{"2: 'otir.extract_slice' op offset -1 along dim 0 must be non-negative"}},
		{name: "extract bounds", build: func(e *env) {
			e.bad(otir.OpExtractSlice, e.vals(p16i8), slice(ints(12), ints(8), ints(1)), "!otir.tile<8xi8, #private>")
		}, want: []string{"2: 'otir.extract_slice' op slice [12, 20) along dim 0 exceeds the source dimension 16"}},
		{name: "extract strided bounds", build: func(e *env) {
			e.bad(otir.OpExtractSlice, e.vals(p4x8i8), slice(ints(0, 2), ints(4, 4), ints(1, 2)), "!otir.tile<4x4xi8, #private>")
		}, want: []string{"2: 'otir.extract_slice' op slice [2, 9) along dim 1 exceeds the source dimension 8"}},
		{name: "extract huge stride", build: func(e *env) {
			e.bad(otir.OpExtractSlice, e.vals(p16i8), slice(ints(0), ints(3), ints(1<<62)), "!otir.tile<3xi8, #private>")
		}, want: []string{"2: 'otir.extract_slice' op slice [0, 9223372036854775807) along dim 0 exceeds the source dimension 16"}},
		{name: "extract dynamic extent", build: func(e *env) {
			e.bad(otir.OpExtractSlice, e.vals(p16i8, "index"), slice(ints(dyn), ints(20), ints(1)), "!otir.tile<20xi8, #private>")
		}, want: []string{"2: 'otir.extract_slice' op slice of extent 20 along dim 0 exceeds the source dimension 16"}},
		{name: "extract result shape", build: func(e *env) {
			e.bad(otir.OpExtractSlice, e.vals(p16i8), slice(ints(0), ints(4), ints(1)), "!otir.tile<8xi8, #private>")
		}, want: []string{"2: 'otir.extract_slice' op result must be a tile of shape 4 (the slice sizes), but got '!otir.tile<8xi8, #private>'"}},
		{name: "extract result space", build: func(e *env) {
			e.bad(otir.OpExtractSlice, e.vals(g16i8), slice(ints(0), ints(4), ints(1)), "!otir.tile<4xi8, #private>")
		}, want: []string{"2: 'otir.extract_slice' op result memory space #private does not match the source memory space #global"}},
		{name: "extract attribute kinds", build: func(e *env) {
			attrs := slice(ints(0), ints(4), ints(1))
			attrs.Set("static_sizes", &ir.ArrayAttr{})
			e.bad(otir.OpExtractSlice, e.vals(p16i8), attrs, "!otir.tile<4xi8, #private>")
		}, want: []string{"2: 'otir.extract_slice' op attribute 'static_sizes' must be an array<i64> attribute, but got an array attribute"}},
		{name: "insert into global", build: func(e *env) {
			e.bad(otir.OpInsertSlice, e.vals("!otir.tile<4xi8, #private>", g16i8), slice(ints(0), ints(4), ints(1)), g16i8)
		}, want: []string{"2: 'otir.insert_slice' op destination must be a #private tile, but got '!otir.tile<16xi8, #global>'"}},
		{name: "insert from global", build: func(e *env) {
			e.bad(otir.OpInsertSlice, e.vals("!otir.tile<4xi8, #global>", p16i8), slice(ints(0), ints(4), ints(1)), p16i8)
		}, want: []string{"2: 'otir.insert_slice' op source must be a #private tile, but got '!otir.tile<4xi8, #global>'"}},
		{name: "insert bounds", build: func(e *env) {
			e.bad(otir.OpInsertSlice, e.vals("!otir.tile<4xi8, #private>", p16i8), slice(ints(13), ints(4), ints(1)), p16i8)
		}, want: []string{"2: 'otir.insert_slice' op slice [13, 17) along dim 0 exceeds the destination dimension 16"}},
		{name: "insert sizes", build: func(e *env) {
			e.bad(otir.OpInsertSlice, e.vals("!otir.tile<4xi8, #private>", p16i8), slice(ints(0), ints(8), ints(1)), p16i8)
		}, want: []string{"2: 'otir.insert_slice' op source shape 4 does not match the slice sizes 8"}},
		{name: "insert element type", build: func(e *env) {
			e.bad(otir.OpInsertSlice, e.vals("!otir.tile<4xi9, #private>", p16i8), slice(ints(0), ints(4), ints(1)), p16i8)
		}, want: []string{"2: 'otir.insert_slice' op source element type 'i9' does not match the destination element type 'i8'"}},
		{name: "insert result", build: func(e *env) {
			e.bad(otir.OpInsertSlice, e.vals("!otir.tile<4xi8, #private>", p16i8), slice(ints(0), ints(4), ints(1)), p16i9)
		}, want: []string{"2: 'otir.insert_slice' op result type '!otir.tile<16xi9, #private>' must equal the destination type '!otir.tile<16xi8, #private>'"}},
		{name: "insert operand count", build: func(e *env) {
			e.bad(otir.OpInsertSlice, e.vals(p16i8), slice(ints(0), ints(4), ints(1)), p16i8)
		}, want: []string{"2: 'otir.insert_slice' op expects at least 2 operands, but got 1"}},
	})
}

func TestSCFRules(t *testing.T) {
	i8 := ir.Int(8, true)
	idx := func(e *env) *ir.Value { return otir.ConstInt(e.b, 0, ir.Index()) }
	runRules(t, []ruleCase{
		{name: "for bound type", build: func(e *env) {
			n, i := e.val("i32"), idx(e)
			op := e.bad(scf.OpFor, ops(i, n, i), nil)
			scf.Yield(e.in(op.NewRegion(ir.Index())).b)
		}, want: []string{"2: 'scf.for' op upper bound must be 'index', but got 'i32'"}},
		{name: "for result count", build: func(e *env) {
			i, x := idx(e), e.val("i8")
			op := e.bad(scf.OpFor, ops(i, i, i, x), nil)
			scf.Yield(e.in(op.NewRegion(ir.Index(), i8)).b)
		}, want: []string{"2: 'scf.for' op mismatch in number of loop-carried values (1) and defined values (0)"}},
		{name: "for body arguments", build: func(e *env) {
			i, x := idx(e), e.val("i8")
			op := e.bad(scf.OpFor, ops(i, i, i, x), nil, "i8")
			scf.Yield(e.in(op.NewRegion(ir.Index())).b)
		}, want: []string{
			"2: 'scf.for' op expects the body to have 2 arguments (the induction variable and one per iter_args operand), but it has 1",
			"1: 'scf.yield' op number of operands (0) does not match the number of results of its parent 'scf.for' (1)"}},
		{name: "for induction variable", build: func(e *env) {
			i := idx(e)
			op := e.bad(scf.OpFor, ops(i, i, i), nil)
			scf.Yield(e.in(op.NewRegion(ir.Int(32, true))).b)
		}, want: []string{"2: 'scf.for' op induction variable must be 'index', but got 'i32'"}},
		{name: "for region argument type", build: func(e *env) {
			i, x := idx(e), e.val("i8")
			op := e.bad(scf.OpFor, ops(i, i, i, x), nil, "i8")
			body := op.NewRegion(ir.Index(), ir.Int(16, true))
			scf.Yield(e.in(body).b, x)
		}, want: []string{"2: 'scf.for' op types mismatch between iter_args operand #0 ('i8') and its region argument ('i16')"}},
		{name: "for result type", build: func(e *env) {
			i, x := idx(e), e.val("i8")
			op := e.bad(scf.OpFor, ops(i, i, i, x), nil, "i16")
			body := op.NewRegion(ir.Index(), i8)
			scf.Yield(e.in(body).b, body.Args[1])
		}, want: []string{"2: 'scf.for' op types mismatch between iter_args operand #0 ('i8') and result #0 ('i16')"}},
		{name: "yield type in a loop", build: func(e *env) {
			i, x := idx(e), e.val("i8")
			_, body := scf.For(e.b, i, i, i, x)
			e.in(body).bad(scf.OpYield, e.in(body).vals("i16"), nil)
		}, want: []string{"2: 'scf.yield' op types mismatch between yield op and its parent: operand #0 has type 'i16' but the parent 'scf.for' result #0 has type 'i8'"}},
		{name: "for terminator", build: func(e *env) {
			i := idx(e)
			op := e.bad(scf.OpFor, ops(i, i, i), nil)
			e.in(op.NewRegion(ir.Index())).op(otir.OpBarrier, nil, nil)
		}, want: []string{"2: 'scf.for' op expects regions to end with 'scf.yield', found 'otir.barrier'"}},
		{name: "for with two blocks", build: func(e *env) {
			i := idx(e)
			op := e.bad(scf.OpFor, ops(i, i, i), nil)
			scf.Yield(e.in(op.NewRegion(ir.Index())).b)
			op.Regions[0].Blocks = append(op.Regions[0].Blocks, &ir.Block{Parent: op.Regions[0]})
		}, want: []string{"2: 'scf.for' op expects region #0 to have exactly 1 block, but it has 2"}},
		{name: "if condition type", build: func(e *env) {
			op := e.bad(scf.OpIf, e.vals("i8"), nil)
			scf.Yield(e.in(op.NewRegion()).b)
			op.Regions = append(op.Regions, &ir.Region{Parent: op})
		}, want: []string{"2: 'scf.if' op condition must be a scalar i1, but got 'i8'"}},
		{name: "if on a tile", build: func(e *env) {
			op := e.bad(scf.OpIf, e.vals(p16i1), nil)
			scf.Yield(e.in(op.NewRegion()).b)
			op.Regions = append(op.Regions, &ir.Region{Parent: op})
		}, want: []string{"2: 'scf.if' op condition must be a scalar i1, but got '!otir.tile<16xi1, #private>'"}},
		{name: "if results without else", build: func(e *env) {
			e.b.Loc = at(2)
			_, then, _ := scf.If(e.b, cond0(e), []ir.Type{i8}, false)
			e.b.Loc = at(1)
			scf.Yield(e.in(then).b, e.in(then).val("i8"))
		}, want: []string{"2: 'scf.if' op must have an else region when it has results"}},
		{name: "if region count", build: func(e *env) {
			op := e.bad(scf.OpIf, ops(cond0(e)), nil)
			scf.Yield(e.in(op.NewRegion()).b)
		}, want: []string{"2: 'scf.if' op expects 2 regions, but got 1"}},
		{name: "if region arguments", build: func(e *env) {
			op := e.bad(scf.OpIf, ops(cond0(e)), nil)
			scf.Yield(e.in(op.NewRegion(i8)).b)
			scf.Yield(e.in(op.NewRegion()).b)
		}, want: []string{"2: 'scf.if' op region #0 must have no arguments, but has 1"}},
		{name: "if terminator", build: func(e *env) {
			e.b.Loc = at(2)
			_, then, els := scf.If(e.b, cond0(e), nil, true)
			e.b.Loc = at(1)
			scf.Yield(e.in(then).b)
			e.in(els).op(otir.OpBarrier, nil, nil)
		}, want: []string{"2: 'scf.if' op expects regions to end with 'scf.yield', found 'otir.barrier'"}},
		{name: "if empty region", build: func(e *env) {
			e.b.Loc = at(2)
			_, then, _ := scf.If(e.b, cond0(e), nil, true)
			e.b.Loc = at(1)
			scf.Yield(e.in(then).b)
		}, want: []string{"2: 'scf.if' op expects regions to end with 'scf.yield', but the block is empty"}},
		{name: "yield in a kernel", build: func(e *env) {
			e.bad(scf.OpYield, nil, nil)
		}, want: []string{"2: 'scf.yield' op expects parent op to be one of 'scf.for, scf.if'"}},
		{name: "yield not last", build: func(e *env) {
			_, then, _ := scf.If(e.b, cond0(e), nil, false)
			e.in(then).bad(scf.OpYield, nil, nil)
			scf.Yield(e.in(then).b)
		}, want: []string{"2: 'scf.yield' op must be the last operation in its block"}},
		{name: "yield count", build: func(e *env) {
			_, then, els := scf.If(e.b, cond0(e), []ir.Type{i8}, true)
			e.in(then).bad(scf.OpYield, nil, nil)
			scf.Yield(e.in(els).b, e.in(els).val("i8"))
		}, want: []string{"2: 'scf.yield' op number of operands (0) does not match the number of results of its parent 'scf.if' (1)"}},
		{name: "yield type", build: func(e *env) {
			_, then, els := scf.If(e.b, cond0(e), []ir.Type{i8}, true)
			e.in(then).bad(scf.OpYield, e.in(then).vals("i16"), nil)
			scf.Yield(e.in(els).b, e.in(els).val("i8"))
		}, want: []string{"2: 'scf.yield' op types mismatch between yield op and its parent: operand #0 has type 'i16' but the parent 'scf.if' result #0 has type 'i8'"}},
	})
}
