package ir

import "testing"

func TestOpEffect(t *testing.T) {
	i8 := Int(8, true)
	g := &Value{Type: Tile([]int64{4}, i8, Global)}
	w := &Value{Type: Tile([]int64{4}, i8, Workgroup)}
	p := &Value{Type: Tile([]int64{4}, i8, Private)}
	op := func(name string, operands ...*Value) *Operation { return NewOp(name, Location{}, operands, nil, nil) }
	cases := []struct {
		op   *Operation
		want Effect
	}{
		{op(OpConstant), NoEffect},
		{op(OpAdd, p, p), NoEffect},
		{op(OpProgramID), NoEffect},
		{op(OpExtractSlice, g), NoEffect},
		{op(OpReshape, g), NoEffect},
		{op(OpAlloc), AllocEffect},
		{op(OpLoad, g), ReadEffect},
		{op(OpLoad, w), ReadEffect},
		{op(OpLoad, p), NoEffect},
		{op(OpInsertSlice, p, p), NoEffect},
		{op(OpInsertSlice, p, w), WriteEffect},
		{op(OpDMA, g, w), WriteEffect},
		{op(OpStore, p, g), WriteEffect},
		{op(OpAtomic, g, p), WriteEffect},
		{op(OpWait), WriteEffect},
		{op(OpBarrier), WriteEffect},
		{op("test.unknown"), WriteEffect},
	}
	for _, c := range cases {
		if got := OpEffect(c.op); got != c.want {
			t.Errorf("%s: effect %d, want %d", c.op.Name, got, c.want)
		}
	}
}

func TestPurityOfRegions(t *testing.T) {
	m := NewModule(Location{})
	_, body := NewBuilder(m.Body()).Kernel("k", nil, nil)
	b := NewBuilder(body)
	c := b.ConstInt(1, Index())
	pureFor, fb := b.For(c, c, c)
	NewBuilder(fb).Create(OpAlloc, nil, []Type{Tile([]int64{4}, Int(8, true), Private)}, nil)
	NewBuilder(fb).Yield()
	barrierIf, then, _ := b.If(b.Cmp("eq", c, c, Bool()), nil, false)
	NewBuilder(then).Create(OpBarrier, nil, nil, nil)
	NewBuilder(then).Yield()
	ret := b.Return()
	cases := []struct {
		name            string
		op              *Operation
		pure, removable bool
	}{
		{"constant", c.Def, true, true},
		{"loop with an alloc", pureFor, false, true},
		{"if with a barrier", barrierIf, false, false},
		{"return", ret, true, false},
		{"kernel", body.ParentOp(), false, false},
	}
	for _, tc := range cases {
		if got := IsPure(tc.op); got != tc.pure {
			t.Errorf("%s: IsPure = %v", tc.name, got)
		}
		if got := IsRemovableWhenUnused(tc.op); got != tc.removable {
			t.Errorf("%s: IsRemovableWhenUnused = %v", tc.name, got)
		}
	}
}
