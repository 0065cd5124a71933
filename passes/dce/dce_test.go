package dce

import (
	"testing"

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
	_, body := ir.NewBuilder(m.Body()).Kernel("k", []ir.Type{g16}, nil)
	b := ir.NewBuilder(body)
	fill(b, body.Args[0])
	b.Return()
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
			x, y := b.ConstInt(1, idx), b.ConstInt(2, idx)
			b.Binary(ir.OpMul, b.Binary(ir.OpAdd, x, y, idx), y, idx)
		}, want: ""},
		{name: "stores keep their operands", removed: 2, build: func(b *ir.Builder, arg *ir.Value) {
			v := b.Unary(ir.OpLoad, arg, p16)
			b.Binary(ir.OpSub, v, v, p16) // dead
			b.Create(ir.OpStore, []*ir.Value{b.Binary(ir.OpAdd, v, v, p16), arg}, nil, nil)
			b.ConstInt(5, idx) // dead
		}, want: `
    %0 = otir.load %arg0 : !otir.tile<16xi8, #global> -> !otir.tile<16xi8, #private>
    %1 = otir.add %0, %0 : !otir.tile<16xi8, #private>
    otir.store %1, %arg0 : !otir.tile<16xi8, #private>, !otir.tile<16xi8, #global>`},
		{name: "memory effects stay, unused allocations go", removed: 2, build: func(b *ir.Builder, arg *ir.Value) {
			b.Create(ir.OpAlloc, nil, []ir.Type{w16}, nil) // dead
			w := b.Create(ir.OpAlloc, nil, []ir.Type{w16}, nil).Results[0]
			b.Create(ir.OpDMA, []*ir.Value{arg, w}, []ir.Type{ir.Token()}, nil) // token unused: kept
			b.Unary(ir.OpLoad, w, p16)                                          // reads memory: kept
			pl := b.Unary(ir.OpLoad, arg, p16)
			b.Unary(ir.OpLoad, pl, p16) // load of a #private value: dead
			b.Create(ir.OpBarrier, nil, nil, nil)
		}, want: `
    %alloc = otir.alloc() : !otir.tile<16xi8, #workgroup>
    %0 = otir.dma_copy_async %arg0, %alloc : (!otir.tile<16xi8, #global>, !otir.tile<16xi8, #workgroup>) -> !otir.token
    %1 = otir.load %alloc : !otir.tile<16xi8, #workgroup> -> !otir.tile<16xi8, #private>
    %2 = otir.load %arg0 : !otir.tile<16xi8, #global> -> !otir.tile<16xi8, #private>
    otir.barrier`},
		{name: "pure loop and its operands go", removed: 7, build: func(b *ir.Builder, _ *ir.Value) {
			c0, c4, c1 := b.ConstInt(0, idx), b.ConstInt(4, idx), b.ConstInt(1, idx)
			init := b.Binary(ir.OpMul, c4, c4, idx) // used only by the dead loop
			_, body := b.For(c0, c4, c1, init)
			bb := ir.NewBuilder(body)
			bb.Yield(bb.Binary(ir.OpAdd, body.Args[1], body.Args[0], idx))
		}, want: ""},
		{name: "loop with a store stays, its dead ops go", removed: 2, build: func(b *ir.Builder, arg *ir.Value) {
			c0, c4, c1 := b.ConstInt(0, idx), b.ConstInt(4, idx), b.ConstInt(1, idx)
			_, body := b.For(c0, c4, c1)
			bb := ir.NewBuilder(body)
			bb.Binary(ir.OpAdd, body.Args[0], c1, idx) // dead
			v := bb.Unary(ir.OpLoad, arg, p16)
			bb.Binary(ir.OpXor, v, v, p16) // dead
			bb.Create(ir.OpStore, []*ir.Value{v, arg}, nil, nil)
			bb.Yield()
		}, want: `
    %c0 = otir.constant 0 : index
    %c4 = otir.constant 4 : index
    %c1 = otir.constant 1 : index
    scf.for %arg1 = %c0 to %c4 step %c1 {
      %0 = otir.load %arg0 : !otir.tile<16xi8, #global> -> !otir.tile<16xi8, #private>
      otir.store %0, %arg0 : !otir.tile<16xi8, #private>, !otir.tile<16xi8, #global>
    }`},
		{name: "unused pure if goes, used one stays", removed: 5, build: func(b *ir.Builder, arg *ir.Value) {
			c := b.Cmp("eq", b.ConstInt(1, idx), b.ConstInt(2, idx), bits)
			for i := 0; i < 2; i++ {
				op, then, els := b.If(c, []ir.Type{idx}, true)
				tb, eb := ir.NewBuilder(then), ir.NewBuilder(els)
				tb.Yield(tb.ConstInt(3, idx))
				eb.Yield(eb.ConstInt(4, idx))
				if i == 1 {
					off := b.Create(ir.OpExtractSlice, []*ir.Value{arg, op.Results[0]}, []ir.Type{ir.Tile([]int64{1}, i8, ir.Global)},
						ir.SliceAttrs([]int64{ir.DynamicOffset}, []int64{1}, []int64{1})).Results[0]
					b.Create(ir.OpStore, []*ir.Value{b.Unary(ir.OpLoad, off, ir.Tile([]int64{1}, i8, ir.Private)), off}, nil, nil)
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
			c := b.Cmp("eq", b.ConstInt(1, idx), b.ConstInt(2, idx), bits)
			_, then, _ := b.If(c, nil, false)
			ir.NewBuilder(then).Create(ir.OpBarrier, nil, nil, nil)
			ir.NewBuilder(then).Yield()
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
	info := passes.Lookup("dce")
	if info == nil {
		t.Fatal("dce is not registered")
	}
	p, err := info.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	m := kernel(func(b *ir.Builder, _ *ir.Value) { b.ConstInt(1, idx) })
	if err := p.Run(m); err != nil || len(m.Kernels()[0].Body(0).Ops) != 1 {
		t.Errorf("err %v, module:\n%s", err, m)
	}
}
