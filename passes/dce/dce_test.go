package dce

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
	bits = ir.Bool()
)

func TestDCE(t *testing.T) {
	passtest.RunCases(t, g16, Run, []passtest.Case{
		{Name: "unused chain", Removed: 4, Build: func(b *ir.Builder, _ *ir.Value) {
			x, y := otir.ConstInt(b, 1, idx), otir.ConstInt(b, 2, idx)
			b.Binary(otir.OpMul, b.Binary(otir.OpAdd, x, y, idx), y, idx)
		}, Want: ""},
		{Name: "stores keep their operands", Removed: 2, Build: func(b *ir.Builder, arg *ir.Value) {
			v := b.Unary(otir.OpLoad, arg, p16)
			b.Binary(otir.OpSub, v, v, p16) // dead
			b.Create(otir.OpStore, []*ir.Value{b.Binary(otir.OpAdd, v, v, p16), arg}, nil, nil)
			otir.ConstInt(b, 5, idx) // dead
		}, Want: `
    %0 = otir.load %arg0 : !otir.tile<16xi8, #global> -> !otir.tile<16xi8, #private>
    %1 = otir.add %0, %0 : !otir.tile<16xi8, #private>
    otir.store %1, %arg0 : !otir.tile<16xi8, #private>, !otir.tile<16xi8, #global>`},
		{Name: "memory effects stay, unused allocations go", Removed: 2, Build: func(b *ir.Builder, arg *ir.Value) {
			b.Create(otir.OpAlloc, nil, []ir.Type{w16}, nil) // dead
			w := b.Create(otir.OpAlloc, nil, []ir.Type{w16}, nil).Results[0]
			b.Create(otir.OpDMA, []*ir.Value{arg, w}, []ir.Type{ir.Token()}, nil) // token unused: kept
			b.Unary(otir.OpLoad, w, p16)                                          // reads memory: kept
			pl := b.Unary(otir.OpLoad, arg, p16)
			b.Unary(otir.OpLoad, pl, p16) // load of a #private value: dead
			b.Create(otir.OpBarrier, nil, nil, nil)
		}, Want: `
    %alloc = otir.alloc() : !otir.tile<16xi8, #workgroup>
    %0 = otir.dma_copy_async %arg0, %alloc : (!otir.tile<16xi8, #global>, !otir.tile<16xi8, #workgroup>) -> !otir.token
    %1 = otir.load %alloc : !otir.tile<16xi8, #workgroup> -> !otir.tile<16xi8, #private>
    %2 = otir.load %arg0 : !otir.tile<16xi8, #global> -> !otir.tile<16xi8, #private>
    otir.barrier`},
		{Name: "pure loop and its operands go", Removed: 7, Build: func(b *ir.Builder, _ *ir.Value) {
			c0, c4, c1 := otir.ConstInt(b, 0, idx), otir.ConstInt(b, 4, idx), otir.ConstInt(b, 1, idx)
			init := b.Binary(otir.OpMul, c4, c4, idx) // used only by the dead loop
			_, body := scf.For(b, c0, c4, c1, init)
			bb := ir.NewBuilder(body)
			scf.Yield(bb, bb.Binary(otir.OpAdd, body.Args[1], body.Args[0], idx))
		}, Want: ""},
		{Name: "loop with a store stays, its dead ops go", Removed: 2, Build: func(b *ir.Builder, arg *ir.Value) {
			c0, c4, c1 := otir.ConstInt(b, 0, idx), otir.ConstInt(b, 4, idx), otir.ConstInt(b, 1, idx)
			_, body := scf.For(b, c0, c4, c1)
			bb := ir.NewBuilder(body)
			bb.Binary(otir.OpAdd, body.Args[0], c1, idx) // dead
			v := bb.Unary(otir.OpLoad, arg, p16)
			bb.Binary(otir.OpXor, v, v, p16) // dead
			bb.Create(otir.OpStore, []*ir.Value{v, arg}, nil, nil)
			scf.Yield(bb)
		}, Want: `
    %c0 = otir.constant 0 : index
    %c4 = otir.constant 4 : index
    %c1 = otir.constant 1 : index
    scf.for %arg1 = %c0 to %c4 step %c1 {
      %0 = otir.load %arg0 : !otir.tile<16xi8, #global> -> !otir.tile<16xi8, #private>
      otir.store %0, %arg0 : !otir.tile<16xi8, #private>, !otir.tile<16xi8, #global>
    }`},
		{Name: "unused pure if goes, used one stays", Removed: 5, Build: func(b *ir.Builder, arg *ir.Value) {
			c := otir.Cmp(b, "eq", otir.ConstInt(b, 1, idx), otir.ConstInt(b, 2, idx), bits)
			for i := 0; i < 2; i++ {
				op, then, els := scf.If(b, c, []ir.Type{idx}, true)
				tb, eb := ir.NewBuilder(then), ir.NewBuilder(els)
				scf.Yield(tb, otir.ConstInt(tb, 3, idx))
				scf.Yield(eb, otir.ConstInt(eb, 4, idx))
				if i == 1 {
					off := b.Create(otir.OpExtractSlice, []*ir.Value{arg, op.Results[0]}, []ir.Type{ir.Tile([]int64{1}, i8, ir.Global)},
						otir.SliceAttrs([]int64{otir.DynamicOffset}, []int64{1}, []int64{1})).Results[0]
					b.Create(otir.OpStore, []*ir.Value{b.Unary(otir.OpLoad, off, ir.Tile([]int64{1}, i8, ir.Private)), off}, nil, nil)
				}
			}
		}, Want: `
    %c1 = otir.constant 1 : index
    %c2 = otir.constant 2 : index
    %0 = otir.cmp kind(eq) %c1, %c2 : (index, index) -> i1
    %1 = scf.if %0 -> (index) {
      %c3 = otir.constant 3 : index
      scf.yield %c3 : index
    } else {
      %c4 = otir.constant 4 : index
      scf.yield %c4 : index
    }
    %2 = otir.extract_slice %arg0[%1] [1] [1] : !otir.tile<16xi8, #global> to !otir.tile<1xi8, #global>
    %3 = otir.load %2 : !otir.tile<1xi8, #global> -> !otir.tile<1xi8, #private>
    otir.store %3, %2 : !otir.tile<1xi8, #private>, !otir.tile<1xi8, #global>`},
		{Name: "if with a barrier stays", Removed: 0, Build: func(b *ir.Builder, _ *ir.Value) {
			c := otir.Cmp(b, "eq", otir.ConstInt(b, 1, idx), otir.ConstInt(b, 2, idx), bits)
			_, then, _ := scf.If(b, c, nil, false)
			ir.NewBuilder(then).Create(otir.OpBarrier, nil, nil, nil)
			scf.Yield(ir.NewBuilder(then))
		}, Want: `
    %c1 = otir.constant 1 : index
    %c2 = otir.constant 2 : index
    %0 = otir.cmp kind(eq) %c1, %c2 : (index, index) -> i1
    scf.if %0 {
      otir.barrier
    }`},
	})
}

func TestRegistered(t *testing.T) {
	p := passtest.Registered(t, "dce")
	m := passtest.Kernel(g16, func(b *ir.Builder, _ *ir.Value) { otir.ConstInt(b, 1, idx) })
	if err := p.Run(m); err != nil || len(otir.Kernels(m)[0].Body(0).Ops) != 1 {
		t.Errorf("err %v, module:\n%s", err, m)
	}
}
