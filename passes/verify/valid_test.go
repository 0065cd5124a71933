package verify

import (
	"math/big"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/scf"
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

	pid := otir.ProgramID(e.b, 0)
	e.op(otir.OpNumProgs, nil, ir.Attrs{{Name: "axis", Value: ir.I64(1)}}, "index")
	c16 := otir.ConstInt(e.b, 16, ir.Index())
	off := e.b.Binary(otir.OpMul, pid, c16, ir.Index())
	ga := e.op(otir.OpExtractSlice, ops(a, off), slice(ints(dyn), ints(16), ints(1)), "!otir.tile<16xi8, #global>").Results[0]
	wa := e.op(otir.OpAlloc, nil, nil, "!otir.tile<16xi8, #workgroup>").Results[0]
	t0 := e.op(otir.OpDMA, ops(ga, wa), nil, "!otir.token").Results[0]
	mask := otir.ConstDense(e.b, &ir.DenseAttr{Type: ty("!otir.tile<16xi1, #private>").(*ir.TileType), Ints: []*big.Int{big.NewInt(1)}})
	wb := e.op(otir.OpAlloc, nil, nil, "!otir.tile<16xi8, #workgroup>").Results[0]
	t1 := e.op(otir.OpDMA, ops(ga, wb, mask), nil, "!otir.token").Results[0]
	e.op(otir.OpWait, ops(t0, t1), nil)
	e.op(otir.OpBarrier, nil, nil)
	va := e.op(otir.OpLoad, ops(wa), nil, "!otir.tile<16xi8, #private>").Results[0]

	p8 := "!otir.tile<16xi8, #private>"
	s := e.op(otir.OpAdd, ops(va, va), nil, "!otir.tile<16xi9, #private>").Results[0]
	for _, name := range []string{otir.OpSub, otir.OpMul, otir.OpDivS, otir.OpDivU, otir.OpRemS, otir.OpRemU,
		otir.OpAnd, otir.OpOr, otir.OpXor, otir.OpShl, otir.OpShrS, otir.OpShrU, otir.OpMax, otir.OpMin} {
		e.op(name, ops(va, va), nil, p8)
	}
	for _, name := range []string{otir.OpNeg, otir.OpNot, otir.OpAbs, otir.OpCast} {
		e.op(name, ops(va), nil, p8)
	}
	for _, name := range []string{otir.OpSqrt, otir.OpExp, otir.OpLog} {
		e.op(name, ops(x), nil, "f32")
	}
	e.op(otir.OpSqrt, ops(n), nil, "f32")
	// Broadcasting: scalar with tile, and 4x1 with 8.
	c1 := otir.ConstInt(e.b, 1, ir.Int(8, true))
	e.op(otir.OpAdd, ops(va, c1), nil, p8)
	e.op(otir.OpMul, e.vals("!otir.tile<4x1xi8, #private>", "!otir.tile<8xi8, #private>"), nil, "!otir.tile<4x8xi16, #private>")
	lt := e.op(otir.OpCmp, ops(va, s), kind("slt"), "!otir.tile<16xi1, #private>").Results[0]
	e.op(otir.OpCmp, ops(x, x), kind("olt"), "i1")
	e.op(otir.OpCmp, ops(x, n), kind("eq"), "i1")
	e.op(otir.OpSelect, ops(lt, va, s), nil, "!otir.tile<16xi9, #private>")
	e.op(otir.OpCast, ops(n), nil, "index")

	m4 := e.op(otir.OpReshape, ops(va), nil, "!otir.tile<4x4xi8, #private>").Results[0]
	e.op(otir.OpTranspose, e.vals("!otir.tile<2x8xi8, #private>"), perm(1, 0), "!otir.tile<8x2xi8, #private>")
	e.op(otir.OpMatmul, ops(m4, m4, e.val("!otir.tile<4x4xi20, #private>")), nil, "!otir.tile<4x4xi20, #private>")
	e.op(otir.OpMatmul, e.vals("!otir.tile<2x3xbf16, #private>", "!otir.tile<3x2xf16, #private>", "!otir.tile<2x2xf32, #private>"), nil, "!otir.tile<2x2xf32, #private>")
	e.op(otir.OpMatmul, e.vals("!otir.tile<2x3xu8, #private>", "!otir.tile<3x2xi8, #private>", "!otir.tile<2x2xf16, #private>"), nil, "!otir.tile<2x2xf16, #private>")
	half := e.op(otir.OpExtractSlice, ops(va), slice(ints(1), ints(8), ints(2)), "!otir.tile<8xi8, #private>").Results[0]
	c4 := otir.ConstInt(e.b, 4, ir.Index())
	e.op(otir.OpInsertSlice, ops(half, va, c4), slice(ints(dyn), ints(8), ints(1)), p8)
	e.op(otir.OpInsertSlice, ops(e.val("!otir.tile<2x2xi8, #private>"), m4), slice(ints(2, 0), ints(2, 2), ints(1, 2)), "!otir.tile<4x4xi8, #private>")
	e.op(otir.OpReduce, ops(m4), ir.Attrs{{Name: "axis", Value: ir.I64(1)}, {Name: "kind", Value: &ir.StringAttr{Value: "add"}}}, "!otir.tile<4xi8, #private>")
	e.op(otir.OpReduce, ops(va), ir.Attrs{{Name: "axis", Value: ir.I64(0)}, {Name: "kind", Value: &ir.StringAttr{Value: "max"}}}, "i8")

	otir.Lookup(e.b, e.val("!otir.tile<4xi3, #private>"), []int64{16, 9, 4, 1, 0, 1, 4, 9}, ty("!otir.tile<4xu6, #private>"))
	splat := &ir.DenseAttr{Type: ty("!otir.tile<4xi8, #private>").(*ir.TileType), Ints: []*big.Int{big.NewInt(-7)}}
	e.op(otir.OpLookup, e.vals("u2"), ir.Attrs{{Name: "table", Value: splat}}, "i8")

	e.op(otir.OpStore, ops(s, gc), nil)
	one := e.val("!otir.tile<1xi32, #private>")
	e.op(otir.OpAtomic, ops(acc, one), atomicAttrs("add", "relaxed"), "!otir.tile<1xi32, #private>")
	e.op(otir.OpAtomic, ops(acc, n), atomicAttrs("umax", "acq_rel"), "i32")
	t2 := e.op(otir.OpDMA, ops(wa, ga), nil, "!otir.token").Results[0]
	e.op(otir.OpWait, ops(t2), nil)
	e.op(otir.OpWait, nil, nil)

	// scf.for carrying s, with a nested scf.if yielding a value.
	lb, ub, st := otir.ConstInt(e.b, 0, ir.Index()), otir.ConstInt(e.b, 4, ir.Index()), otir.ConstInt(e.b, 1, ir.Index())
	_, fb := scf.For(e.b, lb, ub, st, s)
	f := e.in(fb)
	sum := f.op(otir.OpAdd, ops(fb.Args[1], va), nil, "!otir.tile<16xi9, #private>").Results[0]
	cond := f.op(otir.OpCmp, ops(fb.Args[0], c16), kind("ult"), "i1").Results[0]
	_, then, els := scf.If(f.b, cond, []ir.Type{ir.Int(8, true)}, true)
	scf.Yield(e.in(then).b, c1)
	scf.Yield(e.in(els).b, otir.ConstInt(e.in(els).b, 2, ir.Int(8, true)))
	scf.Yield(f.b, sum)
	// scf.if without results or else region.
	_, then2, _ := scf.If(e.b, cond0(e), nil, false)
	e.in(then2).op(otir.OpBarrier, nil, nil)
	scf.Yield(e.in(then2).b)
	e.finish()
	return e.m
}

// cond0 is a scalar i1 constant.
func cond0(e *env) *ir.Value { return otir.ConstInt(e.b, 1, ir.Bool()) }

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
