package ir_test

import (
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/scf"
	"github.com/otir-dev/otir/ir"
)

func TestOpEffect(t *testing.T) {
	i8 := ir.Int(8, true)
	g := &ir.Value{Type: ir.Tile([]int64{4}, i8, ir.Global)}
	w := &ir.Value{Type: ir.Tile([]int64{4}, i8, ir.Workgroup)}
	p := &ir.Value{Type: ir.Tile([]int64{4}, i8, ir.Private)}
	op := func(name string, operands ...*ir.Value) *ir.Operation {
		return ir.NewOp(name, ir.Location{}, operands, nil, nil)
	}
	cases := []struct {
		op   *ir.Operation
		want ir.Effect
	}{
		{op(otir.OpConstant), ir.NoEffect},
		{op(otir.OpAdd, p, p), ir.NoEffect},
		{op(otir.OpProgramID), ir.NoEffect},
		{op(otir.OpExtractSlice, g), ir.NoEffect},
		{op(otir.OpReshape, g), ir.NoEffect},
		{op(otir.OpAlloc), ir.AllocEffect},
		{op(otir.OpLoad, g), ir.ReadEffect},
		{op(otir.OpLoad, w), ir.ReadEffect},
		{op(otir.OpLoad, p), ir.NoEffect},
		{op(otir.OpInsertSlice, p, p), ir.NoEffect},
		{op(otir.OpInsertSlice, p, w), ir.WriteEffect},
		{op(otir.OpDMA, g, w), ir.WriteEffect},
		{op(otir.OpStore, p, g), ir.WriteEffect},
		{op(otir.OpAtomic, g, p), ir.WriteEffect},
		{op(otir.OpWait), ir.WriteEffect},
		{op(otir.OpBarrier), ir.WriteEffect},
		{op("test.unknown"), ir.WriteEffect},
	}
	for _, c := range cases {
		if got := ir.OpEffect(c.op); got != c.want {
			t.Errorf("%s: effect %d, want %d", c.op.Name, got, c.want)
		}
	}
}

func TestPurityOfRegions(t *testing.T) {
	m := ir.NewModule(ir.Location{})
	_, body := otir.Kernel(ir.NewBuilder(m.Body()), "k", nil, nil)
	b := ir.NewBuilder(body)
	c := otir.ConstInt(b, 1, ir.Index())
	pureFor, fb := scf.For(b, c, c, c)
	ir.NewBuilder(fb).Create(otir.OpAlloc, nil, []ir.Type{ir.Tile([]int64{4}, ir.Int(8, true), ir.Private)}, nil)
	scf.Yield(ir.NewBuilder(fb))
	barrierIf, then, _ := scf.If(b, otir.Cmp(b, "eq", c, c, ir.Bool()), nil, false)
	ir.NewBuilder(then).Create(otir.OpBarrier, nil, nil, nil)
	scf.Yield(ir.NewBuilder(then))
	ret := otir.Return(b)
	cases := []struct {
		name            string
		op              *ir.Operation
		pure, removable bool
	}{
		{"constant", c.Def, true, true},
		{"loop with an alloc", pureFor, false, true},
		{"if with a barrier", barrierIf, false, false},
		{"return", ret, true, false},
		{"kernel", body.ParentOp(), false, false},
	}
	for _, tc := range cases {
		if got := ir.IsPure(tc.op); got != tc.pure {
			t.Errorf("%s: IsPure = %v", tc.name, got)
		}
		if got := ir.IsRemovableWhenUnused(tc.op); got != tc.removable {
			t.Errorf("%s: IsRemovableWhenUnused = %v", tc.name, got)
		}
	}
}
