package dce

import (
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/scf"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"
)

var (
	idx  = ir.Index()
	i8   = ir.Int(8, true)
	g16  = ir.Tile([]int64{16}, i8, ir.Global)
	w16  = ir.Tile([]int64{16}, i8, ir.Workgroup)
	p16  = ir.Tile([]int64{16}, i8, ir.Private)
	bits = ir.Bool()
)

// kernel builds a module with one kernel @k(%arg0: 16xi8 #global) and lets
// fill add its body (otir.return is appended).
func kernel(fill func(b *ir.Builder, arg *ir.Value)) *ir.Module {
	m := ir.NewModule(ir.Location{})
	_, body := otir.Kernel(ir.NewBuilder(m.Body()), "k", []ir.Type{g16}, nil)
	b := ir.NewBuilder(body)
	fill(b, body.Args[0])
	otir.Return(b)
	return m
}

func TestDCE(t *testing.T) {
	cases := []struct {
		name    string
		build   func(b *ir.Builder, arg *ir.Value)
		removed int
		want    string // the kernel body after DCE
	}{
		{name: "unused chain", removed: 4, build: func(b *ir.Builder, _ *ir.Value) {
			x, y := otir.ConstInt(b, 1, idx), otir.ConstInt(b, 2, idx)
			b.Binary(otir.OpMul, b.Binary(otir.OpAdd, x, y, idx), y, idx)
		}, want: ""},
		{name: "stores keep their operands", removed: 2, build: func(b *ir.Builder, arg *ir.Value) {
			v := b.Unary(otir.OpLoad, arg, p16)
			b.Binary(otir.OpSub, v, v, p16) // dead
			b.Create(otir.OpStore, []*ir.Value{b.Binary(otir.OpAdd, v, v, p16), arg}, nil, nil)
			otir.ConstInt(b, 5, idx) // dead
		}, want: `
    %0 = otir.load %arg0 : !otir.tile<16xi8, #global> -> !otir.tile<16xi8, #private>
    %1 = otir.add %0, %0 : !otir.tile<16xi8, #private>
    otir.store %1, %arg0 : !otir.tile<16xi8, #private>, !otir.tile<16xi8, #global>`},
		{name: "memory effects stay, unused allocations go", removed: 2, build: func(b *ir.Builder, arg *ir.Value) {
			b.Create(otir.OpAlloc, nil, []ir.Type{w16}, nil) // dead
			w := b.Create(otir.OpAlloc, nil, []ir.Type{w16}, nil).Results[0]
			b.Create(otir.OpDMA, []*ir.Value{arg, w}, []ir.Type{ir.Token()}, nil) // token unused: kept
			b.Unary(otir.OpLoad, w, p16)                                          // reads memory: kept
			pl := b.Unary(otir.OpLoad, arg, p16)
			b.Unary(otir.OpLoad, pl, p16) // load of a #private value: dead
			b.Create(otir.OpBarrier, nil, nil, nil)
		}, want: `
    %alloc = otir.alloc() : !otir.tile<16xi8, #workgroup>
    %0 = otir.dma_copy_async %arg0, %alloc : (!otir.tile<16xi8, #global>, !otir.tile<16xi8, #workgroup>) -> !otir.token
    %1 = otir.load %alloc : !otir.tile<16xi8, #workgroup> -> !otir.tile<16xi8, #private>
    %2 = otir.load %arg0 : !otir.tile<16xi8, #global> -> !otir.tile<16xi8, #private>
    otir.barrier`},
		{name: "pure loop and its operands go", removed: 7, build: func(b *ir.Builder, _ *ir.Value) {
			c0, c4, c1 := otir.ConstInt(b, 0, idx), otir.ConstInt(b, 4, idx), otir.ConstInt(b, 1, idx)
			init := b.Binary(otir.OpMul, c4, c4, idx) // used only by the dead loop
			_, body := scf.For(b, c0, c4, c1, init)
			bb := ir.NewBuilder(body)
			scf.Yield(bb, bb.Binary(otir.OpAdd, body.Args[1], body.Args[0], idx))
		}, want: ""},
		{name: "loop with a store stays, its dead ops go", removed: 2, build: func(b *ir.Builder, arg *ir.Value) {
			c0, c4, c1 := otir.ConstInt(b, 0, idx), otir.ConstInt(b, 4, idx), otir.ConstInt(b, 1, idx)
			_, body := scf.For(b, c0, c4, c1)
			bb := ir.NewBuilder(body)
			bb.Binary(otir.OpAdd, body.Args[0], c1, idx) // dead
			v := bb.Unary(otir.OpLoad, arg, p16)
			bb.Binary(otir.OpXor, v, v, p16) // dead
			bb.Create(otir.OpStore, []*ir.Value{v, arg}, nil, nil)
			scf.Yield(bb)
		}, want: `
    %c0 = otir.constant 0 : index
    %c4 = otir.constant 4 : index
    %c1 = otir.constant 1 : index
    scf.for %arg1 = %c0 to %c4 step %c1 {
      %0 = otir.load %arg0 : !otir.tile<16xi8, #global> -> !otir.tile<16xi8, #private>
      otir.store %0, %arg0 : !otir.tile<16xi8, #private>, !otir.tile<16xi8, #global>
    }`},
		{name: "unused pure if goes, used one stays", removed: 5, build: func(b *ir.Builder, arg *ir.Value) {
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
		}, want: `
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
		{name: "if with a barrier stays", removed: 0, build: func(b *ir.Builder, _ *ir.Value) {
			c := otir.Cmp(b, "eq", otir.ConstInt(b, 1, idx), otir.ConstInt(b, 2, idx), bits)
			_, then, _ := scf.If(b, c, nil, false)
			ir.NewBuilder(then).Create(otir.OpBarrier, nil, nil, nil)
			scf.Yield(ir.NewBuilder(then))
		}, want: `
    %c1 = otir.constant 1 : index
    %c2 = otir.constant 2 : index
    %0 = otir.cmp kind(eq) %c1, %c2 : (index, index) -> i1
    scf.if %0 {
      otir.barrier
    }`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := kernel(c.build)
			n := Run(m)
			if n != c.removed {
				t.Errorf("removed %d ops, want %d", n, c.removed)
			}
			want := "module {\n  otir.kernel @k(%arg0: !otir.tile<16xi8, #global>) {" + c.want + "\n    otir.return\n  }\n}\n"
			if got := m.String(); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestRegistered(t *testing.T) {
	spec, err := passes.Spec("dce", nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := spec.Build(passes.NewContext())
	if err != nil {
		t.Fatal(err)
	}
	m := kernel(func(b *ir.Builder, _ *ir.Value) { otir.ConstInt(b, 1, idx) })
	if err := p.Run(m); err != nil || len(otir.Kernels(m)[0].Body(0).Ops) != 1 {
		t.Errorf("err %v, module:\n%s", err, m)
	}
}
