package verify

import (
	"math/big"
	"math/rand"
	"runtime/debug"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/scf"
	"github.com/otir-dev/otir/ir"
)

// malformed generates arbitrary, mostly broken IR: wrong counts, nil and
// typed-nil types, values and attributes, broken links and odd regions.
type malformed struct {
	r    *rand.Rand
	vals []*ir.Value
}

func (g *malformed) typ() ir.Type {
	pool := []func() ir.Type{
		func() ir.Type { return nil },
		func() ir.Type { return (*ir.TileType)(nil) },
		func() ir.Type { return (*ir.IntType)(nil) },
		func() ir.Type { return &ir.IntType{Width: 0} },
		func() ir.Type { return ir.Bool() },
		func() ir.Type { return ir.Int(8, true) },
		func() ir.Type { return ir.Int(8, false) },
		func() ir.Type { return ir.Int(32, true) },
		func() ir.Type { return ir.Float(ir.F32) },
		func() ir.Type { return ir.Float(ir.BF16) },
		func() ir.Type { return ir.Index() },
		func() ir.Type { return ir.Token() },
		func() ir.Type { return ir.Tile([]int64{16}, ir.Int(8, true), ir.MemSpace(g.r.Intn(3))) },
		func() ir.Type { return ir.Tile([]int64{4, 4}, ir.Int(8, true), ir.MemSpace(g.r.Intn(3))) },
		func() ir.Type { return ir.Tile([]int64{16}, ir.Bool(), ir.Private) },
		func() ir.Type { return ir.Tile(nil, ir.Float(ir.F32), ir.Private) },
		func() ir.Type { return ir.Tile([]int64{0, -3}, ir.Int(8, true), ir.Private) },
		func() ir.Type { return ir.Tile([]int64{1}, ir.Token(), ir.Global) },
		func() ir.Type { return &ir.TileType{Shape: []int64{2}, Elem: nil} },
		func() ir.Type { return &ir.TileType{Shape: []int64{2}, Elem: ir.Int(8, true), Space: 7} },
	}
	return pool[g.r.Intn(len(pool))]()
}

func (g *malformed) attr() ir.Attr {
	pool := []func() ir.Attr{
		func() ir.Attr { return nil },
		func() ir.Attr { return (*ir.IntAttr)(nil) },
		func() ir.Attr { return &ir.IntAttr{} },
		func() ir.Attr { return &ir.IntAttr{Value: big.NewInt(int64(g.r.Intn(5) - 2)), Type: g.typ()} },
		func() ir.Attr { return &ir.IntAttr{Value: new(big.Int).Lsh(big.NewInt(1), 70), Type: ir.Int(64, true)} },
		func() ir.Attr { return (*ir.FloatAttr)(nil) },
		func() ir.Attr { return &ir.FloatAttr{Value: 1} },
		func() ir.Attr { return &ir.FloatAttr{Value: 1, Type: ir.Float(ir.F32)} },
		func() ir.Attr { return (*ir.StringAttr)(nil) },
		func() ir.Attr { return &ir.StringAttr{} },
		func() ir.Attr {
			return &ir.StringAttr{Value: []string{"add", "slt", "olt", "relaxed", "k", "xor"}[g.r.Intn(6)]}
		},
		func() ir.Attr { return (*ir.DenseI64Attr)(nil) },
		func() ir.Attr { return &ir.DenseI64Attr{} },
		func() ir.Attr {
			return &ir.DenseI64Attr{Values: []int64{int64(g.r.Intn(4)) - 1, otir.DynamicOffset, 1 << 62}[:1+g.r.Intn(3)]}
		},
		func() ir.Attr { return (*ir.DenseAttr)(nil) },
		func() ir.Attr { return &ir.DenseAttr{} },
		func() ir.Attr {
			return &ir.DenseAttr{Type: ir.Tile([]int64{4}, ir.Int(8, true), ir.Private), Ints: []*big.Int{nil}}
		},
		func() ir.Attr { return &ir.DenseAttr{Type: ir.Tile([]int64{4}, ir.Int(8, true), ir.Private)} },
		func() ir.Attr { return (*ir.FunctionType)(nil) },
		func() ir.Attr { return &ir.FunctionType{Inputs: []ir.Type{nil}} },
		func() ir.Attr { return (*ir.ArrayAttr)(nil) },
		func() ir.Attr { return &ir.ArrayAttr{Elems: []ir.Attr{nil, (*ir.IntAttr)(nil), &ir.IntAttr{}}} },
		func() ir.Attr { return &ir.ArrayAttr{Elems: []ir.Attr{ir.I64(2)}} },
		func() ir.Attr { return &ir.TypeAttr{} },
		func() ir.Attr { return &ir.UnitAttr{} },
	}
	return pool[g.r.Intn(len(pool))]()
}

func (g *malformed) value() *ir.Value {
	switch n := g.r.Intn(10); {
	case n == 0:
		return nil
	case n == 1:
		return &ir.Value{Type: g.typ()}
	case n == 2:
		return &ir.Value{Type: ir.Index(), Def: &ir.Operation{Name: otir.OpConstant}, Index: 3}
	case len(g.vals) > 0:
		return g.vals[g.r.Intn(len(g.vals))]
	}
	return nil
}

var attrNames = []string{"value", "axis", "kind", "memory_order", "permutation", "static_offsets",
	"static_sizes", "static_strides", "sym_name", "function_type", "grid", "otir.typing_style"}

// op builds one random operation (with nested regions up to depth).
func (g *malformed) op(names []string, depth int) *ir.Operation {
	name := names[g.r.Intn(len(names))]
	var operands []*ir.Value
	for i := g.r.Intn(5); i > 0; i-- {
		operands = append(operands, g.value())
	}
	var results []ir.Type
	for i := g.r.Intn(3); i > 0; i-- {
		results = append(results, g.typ())
	}
	var attrs ir.Attrs
	for _, a := range attrNames {
		if g.r.Intn(3) == 0 {
			attrs = append(attrs, ir.NamedAttr{Name: a, Value: g.attr()})
		}
	}
	op := ir.NewOp(name, at(2), operands, results, attrs)
	if g.r.Intn(8) == 0 && len(op.Results) > 0 {
		op.Results[0] = nil
	}
	for i := g.r.Intn(3); i > 0 && depth > 0; i-- {
		if g.r.Intn(8) == 0 {
			op.Regions = append(op.Regions, nil)
			continue
		}
		r := &ir.Region{Parent: op}
		if g.r.Intn(8) == 0 {
			r.Parent = nil
		}
		op.Regions = append(op.Regions, r)
		for j := g.r.Intn(3); j > 0; j-- {
			if g.r.Intn(8) == 0 {
				r.Blocks = append(r.Blocks, nil)
				continue
			}
			b := &ir.Block{Parent: r}
			r.Blocks = append(r.Blocks, b)
			for k := g.r.Intn(3); k > 0; k-- {
				a := b.AddArg(g.typ(), at(1))
				g.vals = append(g.vals, a)
			}
			if g.r.Intn(8) == 0 {
				b.Args = append(b.Args, nil)
			}
			for k := g.r.Intn(4); k > 0; k-- {
				if g.r.Intn(10) == 0 {
					b.Ops = append(b.Ops, nil)
					continue
				}
				b.Append(g.op(names, depth-1))
			}
		}
	}
	for _, v := range op.Results {
		if v != nil {
			g.vals = append(g.vals, v)
		}
	}
	return op
}

// TestMalformedIRNeverPanics verifies thousands of random broken modules:
// the verifier must not panic, and must report something for each.
func TestMalformedIRNeverPanics(t *testing.T) {
	names := append(ir.OpNames(), "otir.frob")
	for seed := int64(0); seed < 400; seed++ {
		g := &malformed{r: rand.New(rand.NewSource(seed))}
		e := newEnv(nil)
		e.arg("!otir.tile<16xi8, #global>")
		e.arg("i32")
		g.vals = append(g.vals, e.body.Args...)
		for i := 0; i < 12; i++ {
			e.b.Insert(g.op(names, 2))
		}
		if seed%4 == 0 {
			e.m.Body().Append(g.op(names, 2))
		}
		e.finish()
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("seed %d: Verify panicked: %v\n%s", seed, r, debug.Stack())
				}
			}()
			if l := Verify(e.m); len(l) == 0 {
				t.Errorf("seed %d: random malformed module verified clean", seed)
			}
			safeWalk(e.m.Op, 0, func(op *ir.Operation) { VerifyOp(op) })
		}()
	}
}

// safeWalk visits ops like ir.Operation.Walk but skips nil regions, blocks
// and ops (which ir's Walk does not expect).
func safeWalk(op *ir.Operation, depth int, fn func(*ir.Operation)) {
	fn(op)
	if depth > 20 {
		return
	}
	for _, r := range op.Regions {
		if r == nil {
			continue
		}
		for _, b := range r.Blocks {
			if b == nil {
				continue
			}
			for _, o := range b.Ops {
				if o != nil {
					safeWalk(o, depth+1, fn)
				}
			}
		}
	}
}

// TestDegenerateInputs covers nil modules, detached ops and cyclic nesting.
func TestDegenerateInputs(t *testing.T) {
	checkDiags(t, Verify(nil), []string{"0: module is null"})
	checkDiags(t, Verify(&ir.Module{}), []string{"0: module is null"})
	checkDiags(t, VerifyOp(nil), []string{"0: operation is null"})

	// A detached, well-formed op verifies on its own; a broken one does not.
	c := ir.NewOp(otir.OpConstant, at(2), nil, []ir.Type{ir.Index()}, ir.Attrs{{Name: "value", Value: ir.IndexAttr(3)}})
	checkDiags(t, VerifyOp(c), nil)
	c.Results[0].Type = ir.Int(8, true)
	checkDiags(t, VerifyOp(c), []string{"2: 'otir.constant' op value type 'index' does not match the result type 'i8'"})

	// A detached op using a detached op's result (this once panicked).
	use := ir.NewOp(otir.OpAdd, at(3), ops(c.Results[0], c.Results[0]), []ir.Type{ir.Index()}, nil)
	c.Results[0].Type = ir.Index()
	checkDiags(t, VerifyOp(use), []string{"3: 'otir.add' op operand #0 does not dominate this use", "2: note: operand defined here (op is neither in a parent nor in a child region)"})

	// A module whose op is not a module, and one without a body.
	checkDiags(t, Verify(&ir.Module{Op: ir.NewOp(otir.OpBarrier, at(2), nil, nil, nil)}), []string{"2: 'otir.barrier' op cannot be the top-level operation (expected 'builtin.module')"})
	checkDiags(t, Verify(&ir.Module{Op: ir.NewOp(ir.OpModule, at(2), nil, nil, nil)}), []string{"2: 'builtin.module' op expects 1 region, but got 0"})

	// An op nested inside itself is reported, not followed forever.
	e := newEnv(nil)
	i := otir.ConstInt(e.b, 0, ir.Index())
	loop, body := scf.For(e.b, i, i, i)
	body.Append(loop)
	e.finish()
	// Appending the loop to its own body re-linked it there, so the outer
	// occurrence is the stale one; the inner one is not walked again.
	checkDiags(t, Verify(e.m), []string{
		"1: 'scf.for' op is not linked to the block that holds it",
		"1: 'scf.for' op expects regions to end with 'scf.yield', found 'scf.for'"})
}

// TestSharedOps covers ops listed more than once, including a nest in which
// each level lists the next twice (2^40 paths if walked naively).
func TestSharedOps(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "op listed twice", build: func(e *env) {
			c := e.create(2, otir.OpConstant, nil, ir.Attrs{{Name: "value", Value: ir.IndexAttr(1)}}, "index")
			e.body.Append(c)
		}, want: []string{"2: 'otir.constant' op appears more than once in the IR"}},
		{name: "region op listed twice", build: func(e *env) {
			_, then, _ := scf.If(e.b, cond0(e), nil, false)
			scf.Yield(e.in(then).b)
			e.body.Ops[len(e.body.Ops)-1].Loc = at(2)
			e.body.Append(e.body.Ops[len(e.body.Ops)-1])
		}, want: []string{"2: 'scf.if' op appears more than once in the IR (or inside its own regions)"}},
		{name: "doubling nest", build: func(e *env) {
			c := cond0(e)
			var inner *ir.Operation
			for i := 0; i < 40; i++ {
				op := ir.NewOp(scf.OpIf, at(1), ops(c), nil, nil)
				b := op.NewRegion()
				if inner != nil {
					b.Append(inner)
					b.Ops = append(b.Ops, inner)
				}
				b.Append(ir.NewOp(scf.OpYield, at(1), nil, nil, nil))
				op.Regions = append(op.Regions, &ir.Region{Parent: op})
				inner = op
			}
			e.body.Append(inner)
		}, want: repeat("1: 'scf.if' op appears more than once in the IR (or inside its own regions)", 39)},
	})
}

// TestDepthLimit: nesting deeper than maxDepth is reported once, not followed.
func TestDepthLimit(t *testing.T) {
	e := newEnv(nil)
	c := cond0(e)
	b := e.b
	for i := 0; i < maxDepth+5; i++ {
		_, then, _ := scf.If(b, c, nil, false)
		b = e.in(then).b
	}
	// Each then-block holds the next scf.if; end them all with scf.yield.
	for blk := b.Block; blk != e.body; blk = blk.ParentOp().Block {
		blk.Append(ir.NewOp(scf.OpYield, at(1), nil, nil, nil))
	}
	e.finish()
	checkDiags(t, Verify(e.m), []string{"1: 'scf.if' op regions are nested more than 1000 deep"})
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// TestVerifyOpInContext checks that VerifyOp sees enclosing definitions and
// the kernel's grid, and rejects uses of later values.
func TestVerifyOpInContext(t *testing.T) {
	e := newEnv([]int64{2, 2})
	i := otir.ConstInt(e.b, 0, ir.Index())
	_, body := scf.For(e.b, i, i, i)
	f := e.in(body)
	pid := f.op(otir.OpProgramID, nil, ir.Attrs{{Name: "axis", Value: ir.I64(1)}}, "index")
	use := f.op(otir.OpAdd, ops(i, body.Args[0]), nil, "index")
	late := ir.NewOp(otir.OpConstant, at(3), nil, []ir.Type{ir.Index()}, ir.Attrs{{Name: "value", Value: ir.IndexAttr(1)}})
	bad := f.create(2, otir.OpAdd, ops(i, late.Results[0]), nil, "index")
	f.b.Insert(late)
	scf.Yield(f.b)
	e.finish()
	checkDiags(t, VerifyOp(pid), nil)
	checkDiags(t, VerifyOp(use), nil)
	checkDiags(t, VerifyOp(bad), []string{"2: 'otir.add' op operand #1 does not dominate this use", "3: note: operand defined here (op in the same block)"})
	checkDiags(t, VerifyOp(e.kernel), []string{"2: 'otir.add' op operand #1 does not dominate this use", "3: note: operand defined here (op in the same block)"})
}

// TestStructuralLinks covers IR whose links disagree (as a buggy pass might
// leave them).
func TestStructuralLinks(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "stale block link", build: func(e *env) {
			e.bad(otir.OpBarrier, nil, nil).Block = nil
		}, want: []string{"2: 'otir.barrier' op is not linked to the block that holds it"}},
		{name: "null operand", build: func(e *env) {
			e.bad(otir.OpNeg, []*ir.Value{nil}, nil, "i8")
		}, want: []string{"2: 'otir.neg' op operand #0 is null"}},
		{name: "operand without a type", build: func(e *env) {
			v := e.val("i8")
			v.Type = nil
			e.bad(otir.OpNeg, ops(v), nil, "i8")
		}, want: []string{"1: 'otir.constant' op result #0 has no type", "2: 'otir.neg' op operand #0 has no type"}},
		{name: "stale operand", build: func(e *env) {
			v := e.val("i8")
			v.Def.Results = []*ir.Value{{Type: v.Type, Def: v.Def}}
			e.bad(otir.OpNeg, ops(v), nil, "i8")
		}, want: []string{"2: 'otir.neg' op operand #0 refers to a value that its defining operation or block no longer holds"}},
		{name: "null result", build: func(e *env) {
			e.bad(otir.OpAlloc, nil, nil, p16i8).Results[0] = nil
		}, want: []string{"2: 'otir.alloc' op result #0 is null"}},
		{name: "result of another op", build: func(e *env) {
			other := e.val("i8")
			e.bad(otir.OpAlloc, nil, nil, p16i8).Results[0] = other
		}, want: []string{"2: 'otir.alloc' op result #0 is not linked to this operation"}},
		{name: "invalid tile type", build: func(e *env) {
			e.b.Insert(ir.NewOp(otir.OpAlloc, at(2), nil, []ir.Type{ir.Tile([]int64{4, 0}, ir.Int(8, true), ir.Private)}, nil))
		}, want: []string{"2: 'otir.alloc' op result #0 has an invalid type: tile dimension #1 must be positive, but got 0"}},
		{name: "tile of tokens", build: func(e *env) {
			e.b.Insert(ir.NewOp(otir.OpAlloc, at(2), nil, []ir.Type{ir.Tile([]int64{4}, ir.Token(), ir.Private)}, nil))
		}, want: []string{"2: 'otir.alloc' op result #0 has an invalid type: tile element type must be an integer, float or index type, but got '!otir.token'"}},
		{name: "integer width", build: func(e *env) {
			e.b.Insert(ir.NewOp(otir.OpAlloc, at(2), nil, []ir.Type{ir.Int(1<<24, true)}, nil))
		}, want: []string{"2: 'otir.alloc' op result #0 has an invalid type: integer width 16777216 is out of range [1, 16777215]"}},
		{name: "null region", build: func(e *env) {
			i := otir.ConstInt(e.b, 0, ir.Index())
			e.bad(scf.OpFor, ops(i, i, i), nil).Regions = []*ir.Region{nil}
		}, want: []string{"2: 'scf.for' op region #0 is null"}},
		{name: "null op in a block", build: func(e *env) {
			i := otir.ConstInt(e.b, 0, ir.Index())
			op := e.bad(scf.OpFor, ops(i, i, i), nil)
			b := op.NewRegion(ir.Index())
			b.Ops = append(b.Ops, nil)
			scf.Yield(e.in(b).b)
		}, want: []string{"2: 'scf.for' op region #0 holds a null operation"}},
		{name: "block argument without a type", build: func(e *env) {
			i := otir.ConstInt(e.b, 0, ir.Index())
			op := e.bad(scf.OpFor, ops(i, i, i), nil)
			b := op.NewRegion(nil)
			scf.Yield(e.in(b).b)
		}, want: []string{"2: 'scf.for' op region #0 argument #0 has no type"}},
		{name: "else region with two blocks", build: func(e *env) {
			e.b.Loc = at(2)
			op, then, els := scf.If(e.b, cond0(e), nil, true)
			scf.Yield(e.in(then).b)
			scf.Yield(e.in(els).b)
			op.Regions[1].Blocks = append(op.Regions[1].Blocks, els)
		}, want: []string{"2: 'scf.if' op expects region #1 to have 0 or 1 blocks, but it has 2"}},
		{name: "null block", build: func(e *env) {
			i := otir.ConstInt(e.b, 0, ir.Index())
			op := e.bad(scf.OpFor, ops(i, i, i), nil)
			op.Regions = []*ir.Region{{Parent: op, Blocks: []*ir.Block{nil}}}
		}, want: []string{"2: 'scf.for' op region #0 holds a null block"}},
		{name: "block of another region", build: func(e *env) {
			i := otir.ConstInt(e.b, 0, ir.Index())
			op := e.bad(scf.OpFor, ops(i, i, i), nil)
			scf.Yield(e.in(op.NewRegion(ir.Index())).b)
			op.Regions[0].Blocks[0].Parent = nil
		}, want: []string{"2: 'scf.for' op region #0 holds a block that is not linked to it"}},
		{name: "null block argument", build: func(e *env) {
			i := otir.ConstInt(e.b, 0, ir.Index())
			op := e.bad(scf.OpFor, ops(i, i, i), nil)
			b := op.NewRegion(ir.Index())
			scf.Yield(e.in(b).b)
			b.Args[0] = nil
		}, want: []string{"2: 'scf.for' op region #0 argument #0 is null"}},
		{name: "block argument of another block", build: func(e *env) {
			i := otir.ConstInt(e.b, 0, ir.Index())
			op := e.bad(scf.OpFor, ops(i, i, i), nil)
			b := op.NewRegion(ir.Index())
			scf.Yield(e.in(b).b)
			b.Args[0] = (&ir.Block{}).AddArg(ir.Index(), at(1))
		}, want: []string{"2: 'scf.for' op region #0 argument #0 is not linked to its block"}},
		{name: "module body arguments", build: func(e *env) {
			e.m.Op.Loc = at(2)
			e.m.Body().AddArg(ir.Index(), at(1))
		}, want: []string{"2: 'builtin.module' op body must have no arguments, but has 1"}},
		{name: "null dense value", build: func(e *env) {
			typ := ty("!otir.tile<2xi8, #private>").(*ir.TileType)
			e.bad(otir.OpConstant, nil, ir.Attrs{{Name: "value", Value: &ir.DenseAttr{Type: typ, Ints: []*big.Int{big.NewInt(1), nil}}}}, "!otir.tile<2xi8, #private>")
		}, want: []string{"2: 'otir.constant' op dense value #1 is null"}},
		{name: "region of another op", build: func(e *env) {
			i := otir.ConstInt(e.b, 0, ir.Index())
			op := e.bad(scf.OpFor, ops(i, i, i), nil)
			scf.Yield(e.in(op.NewRegion(ir.Index())).b)
			op.Regions[0].Parent = nil
		}, want: []string{"2: 'scf.for' op region #0 is not linked to this operation"}},
	})
}

// TestMutatedValidModuleNeverPanics breaks the valid module one or a few
// places at a time (operands, result and argument types, attributes), so the
// semantic rules, not only the form checks, see odd inputs.
func TestMutatedValidModuleNeverPanics(t *testing.T) {
	broken := 0
	for seed := int64(0); seed < 300; seed++ {
		g := &malformed{r: rand.New(rand.NewSource(seed))}
		m := validModule()
		var all []*ir.Operation
		safeWalk(m.Op, 0, func(op *ir.Operation) {
			all = append(all, op)
			g.vals = append(g.vals, op.Results...)
			for _, r := range op.Regions {
				for _, b := range r.Blocks {
					g.vals = append(g.vals, b.Args...)
				}
			}
		})
		for n := 1 + g.r.Intn(3); n > 0; n-- {
			op := all[1+g.r.Intn(len(all)-1)]
			switch g.r.Intn(4) {
			case 0:
				if len(op.Operands) > 0 {
					op.Operands[g.r.Intn(len(op.Operands))] = g.value()
				}
			case 1:
				if len(op.Results) > 0 {
					op.Results[g.r.Intn(len(op.Results))].Type = g.typ()
				}
			case 2:
				if len(op.Attrs) > 0 {
					op.Attrs[g.r.Intn(len(op.Attrs))].Value = g.attr()
				}
			case 3:
				if b := op.Body(0); b != nil && len(b.Args) > 0 {
					b.Args[g.r.Intn(len(b.Args))].Type = g.typ()
				}
			}
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("seed %d: Verify panicked: %v\n%s", seed, r, debug.Stack())
				}
			}()
			if len(Verify(m)) > 0 {
				broken++
			}
			safeWalk(m.Op, 0, func(op *ir.Operation) { VerifyOp(op) })
		}()
	}
	if broken < 150 { // 194 at the time of writing; many mutations are no-ops or stay valid
		t.Errorf("only %d of 300 mutated modules were diagnosed; the mutations are too weak", broken)
	}
	t.Logf("%d of 300 mutated modules diagnosed", broken)
}
