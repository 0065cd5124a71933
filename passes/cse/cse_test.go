package cse

import (
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/scf"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes/passtest"
)

var (
	idx  = ir.Index()
	i8   = ir.Int(8, true)
	g16  = ir.Tile([]int64{16}, i8, ir.Global)
	w16  = ir.Tile([]int64{16}, i8, ir.Workgroup)
	p16  = ir.Tile([]int64{16}, i8, ir.Private)
	g64  = ir.Tile([]int64{64}, i8, ir.Global)
	bits = ir.Bool()
)

func slice(b *ir.Builder, src *ir.Value, off int64) *ir.Value {
	return b.Create(otir.OpExtractSlice, []*ir.Value{src}, []ir.Type{g16}, otir.SliceAttrs([]int64{off}, []int64{16}, []int64{1})).Results[0]
}

func TestCSE(t *testing.T) {
	passtest.RunCases(t, g64, Run, []passtest.Case{
		{Name: "constants and arithmetic", Removed: 2, Build: func(b *ir.Builder, _ *ir.Value) {
			x, y := otir.ConstInt(b, 1, idx), otir.ConstInt(b, 1, idx)
			s1, s2 := b.Binary(otir.OpAdd, x, y, idx), b.Binary(otir.OpAdd, x, y, idx)
			b.Binary(otir.OpMul, s1, s2, idx)
		}, Want: `
    %c1 = otir.constant 1 : index
    %0 = otir.add %c1, %c1 : index
    %1 = otir.mul %0, %0 : index`},
		{Name: "different attributes, types or operand order", Removed: 0, Build: func(b *ir.Builder, _ *ir.Value) {
			x, y := otir.ConstInt(b, 1, idx), otir.ConstInt(b, 2, idx)
			otir.ConstInt(b, 1, i8)
			b.Binary(otir.OpSub, x, y, idx)
			b.Binary(otir.OpSub, y, x, idx)
			otir.Cmp(b, "slt", x, y, bits)
			otir.Cmp(b, "sgt", x, y, bits)
		}, Want: `
    %c1 = otir.constant 1 : index
    %c2 = otir.constant 2 : index
    %c1_i8 = otir.constant 1 : i8
    %0 = otir.sub %c1, %c2 : index
    %1 = otir.sub %c2, %c1 : index
    %2 = otir.cmp kind(slt) %c1, %c2 : (index, index) -> i1
    %3 = otir.cmp kind(sgt) %c1, %c2 : (index, index) -> i1`},
		{Name: "views are pure, memory operations never merge", Removed: 2, Build: func(b *ir.Builder, arg *ir.Value) {
			s1, s2 := slice(b, arg, 0), slice(b, arg, 0)
			w1, w2 := b.Create(otir.OpAlloc, nil, []ir.Type{w16}, nil).Results[0], b.Create(otir.OpAlloc, nil, []ir.Type{w16}, nil).Results[0]
			t1 := b.Create(otir.OpDMA, []*ir.Value{s1, w1}, []ir.Type{ir.Token()}, nil).Results[0]
			t2 := b.Create(otir.OpDMA, []*ir.Value{s2, w2}, []ir.Type{ir.Token()}, nil).Results[0]
			b.Create(otir.OpWait, []*ir.Value{t1, t2}, nil, nil)
			l1, l2 := b.Unary(otir.OpLoad, w1, p16), b.Unary(otir.OpLoad, w1, p16)
			b.Create(otir.OpBarrier, nil, nil, nil)
			b.Create(otir.OpBarrier, nil, nil, nil)
			b.Create(otir.OpStore, []*ir.Value{l1, s1}, nil, nil)
			b.Create(otir.OpStore, []*ir.Value{l2, s1}, nil, nil)
			// Loads of #private tiles are values: these two merge.
			pl1, pl2 := b.Unary(otir.OpLoad, l1, p16), b.Unary(otir.OpLoad, l1, p16)
			b.Binary(otir.OpAdd, pl1, pl2, p16)
		}, Want: `
    %0 = otir.extract_slice %arg0[0] [16] [1] : !otir.tile<64xi8, #global> to !otir.tile<16xi8, #global>
    %alloc = otir.alloc() : !otir.tile<16xi8, #workgroup>
    %alloc_0 = otir.alloc() : !otir.tile<16xi8, #workgroup>
    %1 = otir.dma_copy_async %0, %alloc : (!otir.tile<16xi8, #global>, !otir.tile<16xi8, #workgroup>) -> !otir.token
    %2 = otir.dma_copy_async %0, %alloc_0 : (!otir.tile<16xi8, #global>, !otir.tile<16xi8, #workgroup>) -> !otir.token
    otir.wait [%1, %2]
    %3 = otir.load %alloc : !otir.tile<16xi8, #workgroup> -> !otir.tile<16xi8, #private>
    %4 = otir.load %alloc : !otir.tile<16xi8, #workgroup> -> !otir.tile<16xi8, #private>
    otir.barrier
    otir.barrier
    otir.store %3, %0 : !otir.tile<16xi8, #private>, !otir.tile<16xi8, #global>
    otir.store %4, %0 : !otir.tile<16xi8, #private>, !otir.tile<16xi8, #global>
    %5 = otir.load %3 : !otir.tile<16xi8, #private> -> !otir.tile<16xi8, #private>
    %6 = otir.add %5, %5 : !otir.tile<16xi8, #private>`},
		{Name: "atomics never merge", Removed: 0, Build: func(b *ir.Builder, arg *ir.Value) {
			p := b.Create(otir.OpExtractSlice, []*ir.Value{arg}, []ir.Type{ir.Tile([]int64{1}, i8, ir.Global)}, otir.SliceAttrs([]int64{0}, []int64{1}, []int64{1})).Results[0]
			v := b.Create(otir.OpAlloc, nil, []ir.Type{ir.Tile([]int64{1}, i8, ir.Private)}, nil).Results[0]
			attrs := ir.Attrs{{Name: "kind", Value: &ir.StringAttr{Value: "add"}}, {Name: "memory_order", Value: &ir.StringAttr{Value: "relaxed"}}}
			b.Create(otir.OpAtomic, []*ir.Value{p, v}, []ir.Type{v.Type}, attrs)
			b.Create(otir.OpAtomic, []*ir.Value{p, v}, []ir.Type{v.Type}, attrs)
		}, Want: `
    %0 = otir.extract_slice %arg0[0] [1] [1] : !otir.tile<64xi8, #global> to !otir.tile<1xi8, #global>
    %alloc = otir.alloc() : !otir.tile<1xi8, #private>
    %1 = otir.atomic_rmw %0, %alloc, kind(add), memory_order(relaxed) : !otir.tile<1xi8, #global>, !otir.tile<1xi8, #private> -> !otir.tile<1xi8, #private>
    %2 = otir.atomic_rmw %0, %alloc, kind(add), memory_order(relaxed) : !otir.tile<1xi8, #global>, !otir.tile<1xi8, #private> -> !otir.tile<1xi8, #private>`},
		{Name: "dominating outer op replaces inner, not the reverse", Removed: 2, Build: func(b *ir.Builder, _ *ir.Value) {
			c0, c4, c1 := otir.ConstInt(b, 0, idx), otir.ConstInt(b, 4, idx), otir.ConstInt(b, 1, idx)
			outer := b.Binary(otir.OpMul, c4, c4, idx)
			_, body := scf.For(b, c0, c4, c1, outer)
			bb := ir.NewBuilder(body)
			inner := bb.Binary(otir.OpMul, c4, c4, idx)           // same as outer: replaced
			only := bb.Binary(otir.OpSub, body.Args[0], c1, idx)  // loop-local
			again := bb.Binary(otir.OpSub, body.Args[0], c1, idx) // same as only: replaced
			local := bb.Binary(otir.OpSub, c4, c1, idx)
			scf.Yield(bb, bb.Binary(otir.OpAdd, inner, bb.Binary(otir.OpAdd, only, bb.Binary(otir.OpAdd, again, local, idx), idx), idx))
			b.Binary(otir.OpSub, c4, c1, idx) // the loop's copy does not dominate it
		}, Want: `
    %c0 = otir.constant 0 : index
    %c4 = otir.constant 4 : index
    %c1 = otir.constant 1 : index
    %0 = otir.mul %c4, %c4 : index
    %1 = scf.for %arg1 = %c0 to %c4 step %c1 iter_args(%arg2 = %0) -> (index) {
      %2 = otir.sub %arg1, %c1 : index
      %3 = otir.sub %c4, %c1 : index
      %4 = otir.add %2, %3 : index
      %5 = otir.add %2, %4 : index
      %6 = otir.add %0, %5 : index
      scf.yield %6 : index
    }
    %7 = otir.sub %c4, %c1 : index`},
		{Name: "sibling regions do not share", Removed: 0, Build: func(b *ir.Builder, _ *ir.Value) {
			c1 := otir.ConstInt(b, 1, idx)
			cond := otir.Cmp(b, "eq", c1, c1, bits)
			_, then, els := scf.If(b, cond, []ir.Type{idx}, true)
			tb, eb := ir.NewBuilder(then), ir.NewBuilder(els)
			scf.Yield(tb, tb.Binary(otir.OpAdd, c1, c1, idx))
			scf.Yield(eb, eb.Binary(otir.OpAdd, c1, c1, idx))
			b.Binary(otir.OpAdd, c1, c1, idx)
		}, Want: `
    %c1 = otir.constant 1 : index
    %0 = otir.cmp kind(eq) %c1, %c1 : (index, index) -> i1
    %1 = scf.if %0 -> (index) {
      %2 = otir.add %c1, %c1 : index
      scf.yield %2 : index
    } else {
      %3 = otir.add %c1, %c1 : index
      scf.yield %3 : index
    }
    %4 = otir.add %c1, %c1 : index`},
	})
}

// TestKernelsAreSeparateScopes checks that nothing is shared between kernels
// and that the registered pass runs CSE.
func TestKernelsAreSeparateScopes(t *testing.T) {
	m := ir.NewModule(ir.Location{})
	mb := ir.NewBuilder(m.Body())
	for _, name := range []string{"a", "b"} {
		_, body := otir.Kernel(mb, name, nil, nil)
		b := ir.NewBuilder(body)
		b.Binary(otir.OpAdd, otir.ConstInt(b, 7, idx), otir.ConstInt(b, 7, idx), idx)
		otir.Return(b)
	}
	p := passtest.Registered(t, "cse")
	if err := p.Run(m); err != nil {
		t.Fatal(err)
	}
	body := " {\n    %c7 = otir.constant 7 : index\n    %0 = otir.add %c7, %c7 : index\n    otir.return\n  }\n"
	want := "module {\n  otir.kernel @a()" + body + "  otir.kernel @b()" + body + "}\n"
	if got := m.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestRegionOpsNotMerged checks that two identical pure scf.if are kept.
func TestRegionOpsNotMerged(t *testing.T) {
	m := passtest.Kernel(g64, func(b *ir.Builder, _ *ir.Value) {
		c := otir.Cmp(b, "eq", otir.ConstInt(b, 1, idx), otir.ConstInt(b, 2, idx), bits)
		for i := 0; i < 2; i++ {
			_, then, els := scf.If(b, c, []ir.Type{idx}, true)
			scf.Yield(ir.NewBuilder(then), otir.ConstInt(ir.NewBuilder(then), 3, idx))
			scf.Yield(ir.NewBuilder(els), otir.ConstInt(ir.NewBuilder(els), 4, idx))
		}
	})
	if n := Run(m); n != 0 {
		t.Errorf("removed %d ops:\n%s", n, m)
	}
}
