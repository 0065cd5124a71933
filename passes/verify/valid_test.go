package verify

import (
	"math/big"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
)

// validModule builds a kernel that uses every registered operation correctly.
func validModule() *ir.Module {
	e := newEnv([]int64{4, 2})
	e.m.Op.SetAttr("otir.typing_style", &ir.StringAttr{Value: "hls"})
	a := e.arg("!otir.tile<64xi8, #global>")
	gc := e.arg("!otir.tile<16xi9, #global>")
	acc := e.arg("!otir.tile<1xi32, #global>")
	x := e.arg("f32")
	n := e.arg("i32")

	pid := e.b.ProgramID(0)
	e.op(ir.OpNumProgs, nil, ir.Attrs{{Name: "axis", Value: ir.I64(1)}}, "index")
	c16 := e.b.ConstInt(16, ir.Index())
	off := e.b.Binary(ir.OpMul, pid, c16, ir.Index())
	ga := e.op(ir.OpExtractSlice, ops(a, off), slice(ints(dyn), ints(16), ints(1)), "!otir.tile<16xi8, #global>").Results[0]
	wa := e.op(ir.OpAlloc, nil, nil, "!otir.tile<16xi8, #workgroup>").Results[0]
	t0 := e.op(ir.OpDMA, ops(ga, wa), nil, "!otir.token").Results[0]
	mask := e.b.ConstDense(&ir.DenseAttr{Type: ty("!otir.tile<16xi1, #private>").(*ir.TileType), Ints: []*big.Int{big.NewInt(1)}})
	wb := e.op(ir.OpAlloc, nil, nil, "!otir.tile<16xi8, #workgroup>").Results[0]
	t1 := e.op(ir.OpDMA, ops(ga, wb, mask), nil, "!otir.token").Results[0]
	e.op(ir.OpWait, ops(t0, t1), nil)
	e.op(ir.OpBarrier, nil, nil)
	va := e.op(ir.OpLoad, ops(wa), nil, "!otir.tile<16xi8, #private>").Results[0]

	p8 := "!otir.tile<16xi8, #private>"
	s := e.op(ir.OpAdd, ops(va, va), nil, "!otir.tile<16xi9, #private>").Results[0]
	for _, name := range []string{ir.OpSub, ir.OpMul, ir.OpDivS, ir.OpDivU, ir.OpRemS, ir.OpRemU,
		ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpShl, ir.OpShrS, ir.OpShrU, ir.OpMax, ir.OpMin} {
		e.op(name, ops(va, va), nil, p8)
	}
	for _, name := range []string{ir.OpNeg, ir.OpNot, ir.OpAbs, ir.OpCast} {
		e.op(name, ops(va), nil, p8)
	}
	for _, name := range []string{ir.OpSqrt, ir.OpExp, ir.OpLog} {
		e.op(name, ops(x), nil, "f32")
	}
	e.op(ir.OpSqrt, ops(n), nil, "f32")
	// Broadcasting: scalar with tile, and 4x1 with 8.
	c1 := e.b.ConstInt(1, ir.Int(8, true))
	e.op(ir.OpAdd, ops(va, c1), nil, p8)
	e.op(ir.OpMul, e.vals("!otir.tile<4x1xi8, #private>", "!otir.tile<8xi8, #private>"), nil, "!otir.tile<4x8xi16, #private>")
	lt := e.op(ir.OpCmp, ops(va, s), kind("slt"), "!otir.tile<16xi1, #private>").Results[0]
	e.op(ir.OpCmp, ops(x, x), kind("olt"), "i1")
	e.op(ir.OpCmp, ops(x, n), kind("eq"), "i1")
	e.op(ir.OpSelect, ops(lt, va, s), nil, "!otir.tile<16xi9, #private>")
	e.op(ir.OpCast, ops(n), nil, "index")

	m4 := e.op(ir.OpReshape, ops(va), nil, "!otir.tile<4x4xi8, #private>").Results[0]
	e.op(ir.OpTranspose, e.vals("!otir.tile<2x8xi8, #private>"), perm(1, 0), "!otir.tile<8x2xi8, #private>")
	e.op(ir.OpMatmul, ops(m4, m4, e.val("!otir.tile<4x4xi20, #private>")), nil, "!otir.tile<4x4xi20, #private>")
	e.op(ir.OpMatmul, e.vals("!otir.tile<2x3xbf16, #private>", "!otir.tile<3x2xf16, #private>", "!otir.tile<2x2xf32, #private>"), nil, "!otir.tile<2x2xf32, #private>")
	e.op(ir.OpMatmul, e.vals("!otir.tile<2x3xu8, #private>", "!otir.tile<3x2xi8, #private>", "!otir.tile<2x2xf16, #private>"), nil, "!otir.tile<2x2xf16, #private>")
	half := e.op(ir.OpExtractSlice, ops(va), slice(ints(1), ints(8), ints(2)), "!otir.tile<8xi8, #private>").Results[0]
	c4 := e.b.ConstInt(4, ir.Index())
	e.op(ir.OpInsertSlice, ops(half, va, c4), slice(ints(dyn), ints(8), ints(1)), p8)
	e.op(ir.OpInsertSlice, ops(e.val("!otir.tile<2x2xi8, #private>"), m4), slice(ints(2, 0), ints(2, 2), ints(1, 2)), "!otir.tile<4x4xi8, #private>")
	e.op(ir.OpReduce, ops(m4), ir.Attrs{{Name: "axis", Value: ir.I64(1)}, {Name: "kind", Value: &ir.StringAttr{Value: "add"}}}, "!otir.tile<4xi8, #private>")
	e.op(ir.OpReduce, ops(va), ir.Attrs{{Name: "axis", Value: ir.I64(0)}, {Name: "kind", Value: &ir.StringAttr{Value: "max"}}}, "i8")

	e.op(ir.OpStore, ops(s, gc), nil)
	one := e.val("!otir.tile<1xi32, #private>")
	e.op(ir.OpAtomic, ops(acc, one), atomicAttrs("add", "relaxed"), "!otir.tile<1xi32, #private>")
	e.op(ir.OpAtomic, ops(acc, n), atomicAttrs("umax", "acq_rel"), "i32")
	t2 := e.op(ir.OpDMA, ops(wa, ga), nil, "!otir.token").Results[0]
	e.op(ir.OpWait, ops(t2), nil)
	e.op(ir.OpWait, nil, nil)

	// scf.for carrying s, with a nested scf.if yielding a value.
	lb, ub, st := e.b.ConstInt(0, ir.Index()), e.b.ConstInt(4, ir.Index()), e.b.ConstInt(1, ir.Index())
	_, fb := e.b.For(lb, ub, st, s)
	f := e.in(fb)
	sum := f.op(ir.OpAdd, ops(fb.Args[1], va), nil, "!otir.tile<16xi9, #private>").Results[0]
	cond := f.op(ir.OpCmp, ops(fb.Args[0], c16), kind("ult"), "i1").Results[0]
	_, then, els := f.b.If(cond, []ir.Type{ir.Int(8, true)}, true)
	e.in(then).b.Yield(c1)
	e.in(els).b.Yield(e.in(els).b.ConstInt(2, ir.Int(8, true)))
	f.b.Yield(sum)
	// scf.if without results or else region.
	_, then2, _ := e.b.If(cond0(e), nil, false)
	e.in(then2).op(ir.OpBarrier, nil, nil)
	e.in(then2).b.Yield()
	e.finish()
	return e.m
}

// cond0 is a scalar i1 constant.
func cond0(e *env) *ir.Value { return e.b.ConstInt(1, ir.Bool()) }

func TestValidModuleVerifiesClean(t *testing.T) {
	m := validModule()
	checkDiags(t, Verify(m), nil)
	// The module must exercise every registered operation.
	used := map[string]bool{ir.OpModule: true}
	m.Walk(func(op *ir.Operation) bool { used[op.Name] = true; return true })
	for _, n := range ir.OpNames() {
		if !used[n] {
			t.Errorf("valid module does not use %s", n)
		}
	}
}

func TestVerifyOpOnValidOps(t *testing.T) {
	m := validModule()
	m.Walk(func(op *ir.Operation) bool {
		if l := VerifyOp(op); len(l) != 0 {
			t.Errorf("VerifyOp(%s): %v", op.Name, l)
		}
		return true
	})
	if l := VerifyOp(m.Op); len(l) != 0 {
		t.Errorf("VerifyOp(module): %v", l)
	}
}

// Every registered op has rules: a Verify hook on its record, or its
// dialect's reason to need none.
func TestEveryRegisteredOpHasAVerifyHook(t *testing.T) {
	for _, n := range ir.OpNames() {
		if ir.LookupOp(n).Verify == nil && otir.NoVerify[n] == "" {
			t.Errorf("registered op %s has no Verify hook", n)
		}
	}
}
