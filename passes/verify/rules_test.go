package verify

import (
	"math/big"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/scf"
	"github.com/otir-dev/otir/ir"
)

// ruleCase is one broken rule: build adds ops to a kernel (the offending op at
// line 2, see env.bad) and want lists every diagnostic Verify must report.
type ruleCase struct {
	name     string
	grid     []int64
	noReturn bool // build ends the kernel body itself
	build    func(e *env)
	want     []string
}

func runRules(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(c.grid)
			c.build(e)
			if !c.noReturn {
				e.finish()
			}
			checkDiags(t, Verify(e.m), c.want)
		})
	}
}

const (
	p16i8  = "!otir.tile<16xi8, #private>"
	p16i9  = "!otir.tile<16xi9, #private>"
	g16i8  = "!otir.tile<16xi8, #global>"
	w16i8  = "!otir.tile<16xi8, #workgroup>"
	p16i1  = "!otir.tile<16xi1, #private>"
	g1i32  = "!otir.tile<1xi32, #global>"
	p1i32  = "!otir.tile<1xi32, #private>"
	g4i32  = "!otir.tile<4xi32, #global>"
	p4x8i8 = "!otir.tile<4x8xi8, #private>"
)

func TestStructureRules(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "module body holds only kernels", build: func(e *env) {
			e.m.Body().Append(ir.NewOp(otir.OpBarrier, at(2), nil, nil, nil))
		}, want: []string{"2: 'otir.barrier' op cannot appear in the module body, which holds only 'otir.kernel' operations"}},
		{name: "typing style", build: func(e *env) {
			e.m.Op.Loc = at(2)
			e.m.Op.SetAttr("otir.typing_style", &ir.StringAttr{Value: "c"})
		}, want: []string{`2: 'builtin.module' op attribute 'otir.typing_style' must be "hls" or "cpp", but got "c"`}},
		{name: "nested module", build: func(e *env) {
			e.bad(ir.OpModule, nil, nil).NewRegion()
		}, want: []string{"2: 'builtin.module' op must be the top-level operation"}},
		{name: "kernel inside a kernel", build: func(e *env) {
			k := e.bad(otir.OpKernel, nil, ir.Attrs{{Name: "function_type", Value: &ir.FunctionType{}}, {Name: "sym_name", Value: &ir.StringAttr{Value: "inner"}}})
			k.NewRegion()
			k.Body(0).Append(ir.NewOp(otir.OpReturn, at(1), nil, nil, nil))
		}, want: []string{"2: 'otir.kernel' op expects parent op 'builtin.module'"}},
		{name: "kernel without sym_name", build: func(e *env) {
			e.kernel.Attrs.Delete("sym_name")
			e.kernel.Loc = at(2)
		}, want: []string{"2: 'otir.kernel' op requires attribute 'sym_name'"}},
		{name: "sym_name of the wrong kind", build: func(e *env) {
			e.kernel.SetAttr("sym_name", ir.I64(3))
			e.kernel.Loc = at(2)
		}, want: []string{"2: 'otir.kernel' op attribute 'sym_name' must be a string attribute, but got an integer attribute"}},
		{name: "empty sym_name", build: func(e *env) {
			e.kernel.SetAttr("sym_name", &ir.StringAttr{})
			e.kernel.Loc = at(2)
		}, want: []string{"2: 'otir.kernel' op attribute 'sym_name' must not be empty"}},
		{name: "redefinition", build: func(e *env) {
			b := ir.NewBuilder(e.m.Body())
			b.Loc = at(2)
			_, body := otir.Kernel(b, "k", nil, nil)
			body.Append(ir.NewOp(otir.OpReturn, at(1), nil, nil, nil))
		}, want: []string{"2: redefinition of symbol named 'k'", "1: note: see existing symbol definition here"}},
		{name: "function_type results", build: func(e *env) {
			e.kernel.Attr("function_type").(*ir.FunctionType).Results = []ir.Type{ir.Int(8, true)}
			e.kernel.Loc = at(2)
		}, want: []string{"2: 'otir.kernel' op function_type must have no results (kernels write their outputs to #global arguments), but has 1"}},
		{name: "function_type input count", build: func(e *env) {
			e.body.AddArg(ir.Int(8, true), at(1))
			e.kernel.Loc = at(2)
		}, want: []string{"2: 'otir.kernel' op function_type has no inputs, but the body has 1 argument"}},
		{name: "function_type input type", build: func(e *env) {
			e.arg("i8")
			e.body.Args[0].Type = ir.Int(16, true)
			e.kernel.Loc = at(2)
		}, want: []string{"2: 'otir.kernel' op type of argument #0 ('i16') does not match the function_type input 'i8'"}},
		{name: "private kernel argument", build: func(e *env) {
			e.arg(p16i8)
			e.kernel.Loc = at(2)
		}, want: []string{"2: 'otir.kernel' op argument #0 must be a #global tile or a scalar (integer, float or index), but got '!otir.tile<16xi8, #private>'"}},
		{name: "token kernel argument", build: func(e *env) {
			e.arg("!otir.token")
			e.kernel.Loc = at(2)
		}, want: []string{"2: 'otir.kernel' op argument #0 must be a #global tile or a scalar (integer, float or index), but got '!otir.token'"}},
		{name: "grid rank", grid: []int64{1, 2, 3, 4}, build: func(e *env) {
			e.kernel.Loc = at(2)
		}, want: []string{"2: 'otir.kernel' op grid must have 1 to 3 dimensions, but has 4"}},
		{name: "grid size", grid: []int64{4, 0}, build: func(e *env) {
			e.kernel.Loc = at(2)
		}, want: []string{"2: 'otir.kernel' op grid dimension #1 must be a positive integer, but got 0"}},
		{name: "grid kind", build: func(e *env) {
			e.kernel.SetAttr("grid", &ir.StringAttr{Value: "4"})
			e.kernel.Loc = at(2)
		}, want: []string{"2: 'otir.kernel' op attribute 'grid' must be an array attribute, but got a string attribute"}},
		{name: "body must end with return", noReturn: true, build: func(e *env) {
			e.kernel.Loc = at(2)
			e.op(otir.OpBarrier, nil, nil)
		}, want: []string{"2: 'otir.kernel' op expects regions to end with 'otir.return', found 'otir.barrier'"}},
		{name: "empty body", noReturn: true, build: func(e *env) {
			e.kernel.Loc = at(2)
		}, want: []string{"2: 'otir.kernel' op expects regions to end with 'otir.return', but the block is empty"}},
		{name: "return not last", build: func(e *env) {
			e.bad(otir.OpReturn, nil, nil)
			e.op(otir.OpBarrier, nil, nil)
		}, want: []string{"2: 'otir.return' op must be the last operation in its block"}},
		{name: "return inside scf.if", build: func(e *env) {
			_, then, _ := scf.If(e.b, cond0(e), nil, false)
			e.in(then).bad(otir.OpReturn, nil, nil)
		}, want: []string{
			"1: 'scf.if' op expects regions to end with 'scf.yield', found 'otir.return'",
			"2: 'otir.return' op expects parent op 'otir.kernel'"}},
		{name: "return with operands", noReturn: true, build: func(e *env) {
			e.bad(otir.OpReturn, e.vals("i8"), nil)
		}, want: []string{"2: 'otir.return' op expects no operands, but got 1"}},
		{name: "unregistered op", build: func(e *env) {
			e.bad("otir.frob", nil, nil)
		}, want: []string{"2: unregistered operation 'otir.frob'"}},
		{name: "operand count", build: func(e *env) {
			e.bad(otir.OpAdd, e.vals("i8"), nil, "i8")
		}, want: []string{"2: 'otir.add' op expects 2 operands, but got 1"}},
		{name: "operand range", build: func(e *env) {
			e.bad(otir.OpDMA, e.vals(g16i8), nil, "!otir.token")
		}, want: []string{"2: 'otir.dma_copy_async' op expects 2 or 3 operands, but got 1"}},
		{name: "result count", build: func(e *env) {
			e.bad(otir.OpAdd, e.vals("i8", "i8"), nil)
		}, want: []string{"2: 'otir.add' op expects 1 result, but got 0"}},
		{name: "region count", build: func(e *env) {
			e.bad(otir.OpBarrier, nil, nil).NewRegion()
		}, want: []string{"2: 'otir.barrier' op expects no regions, but got 1"}},
		{name: "missing attribute", build: func(e *env) {
			e.bad(otir.OpCmp, e.vals("i8", "i8"), nil, "i1")
		}, want: []string{"2: 'otir.cmp' op requires attribute 'kind'"}},
		{name: "attribute kind", build: func(e *env) {
			e.bad(otir.OpCmp, e.vals("i8", "i8"), ir.Attrs{{Name: "kind", Value: ir.I64(1)}}, "i1")
		}, want: []string{"2: 'otir.cmp' op attribute 'kind' must be a string attribute, but got an integer attribute"}},
		{name: "token from another op", build: func(e *env) {
			e.bad(otir.OpAlloc, nil, nil, "!otir.token")
		}, want: []string{"2: 'otir.alloc' op result #0 cannot be !otir.token (only 'otir.dma_copy_async' produces tokens)"}},
	})
}

func TestDominanceRules(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "use before definition", build: func(e *env) {
			c := ir.NewOp(otir.OpConstant, at(3), nil, []ir.Type{ir.Int(8, true)}, ir.Attrs{{Name: "value", Value: &ir.IntAttr{Value: big.NewInt(1), Type: ir.Int(8, true)}}})
			e.bad(otir.OpNeg, ops(c.Results[0]), nil, "i8")
			e.b.Insert(c)
		}, want: []string{"2: 'otir.neg' op operand #0 does not dominate this use", "3: note: operand defined here (op in the same block)"}},
		{name: "use of its own result", build: func(e *env) {
			op := e.bad(otir.OpNeg, nil, nil, "i8")
			op.Operands = ops(op.Results[0])
		}, want: []string{"2: 'otir.neg' op operand #0 does not dominate this use", "2: note: operand defined here (the operation uses its own result)"}},
		{name: "use of a value from inside a loop after it", build: func(e *env) {
			i := otir.ConstInt(e.b, 0, ir.Index())
			_, body := scf.For(e.b, i, i, i)
			inner := e.in(body).create(3, otir.OpNeg, e.in(body).vals("i8"), nil, "i8").Results[0]
			scf.Yield(e.in(body).b)
			e.bad(otir.OpNeg, ops(inner), nil, "i8")
		}, want: []string{"2: 'otir.neg' op operand #0 does not dominate this use", "3: note: operand defined here (op is neither in a parent nor in a child region)"}},
		{name: "loop bound from its own body", build: func(e *env) {
			i := otir.ConstInt(e.b, 0, ir.Index())
			op := e.bad(scf.OpFor, ops(i, i, i), nil)
			body := op.NewRegion(ir.Index())
			c := e.in(body).create(3, otir.OpConstant, nil, ir.Attrs{{Name: "value", Value: ir.IndexAttr(1)}}, "index").Results[0]
			scf.Yield(e.in(body).b)
			op.Operands[2] = c
		}, want: []string{"2: 'scf.for' op operand #2 does not dominate this use", "3: note: operand defined here (op in a child region)"}},
		{name: "induction variable outside the loop", build: func(e *env) {
			i := otir.ConstInt(e.b, 0, ir.Index())
			_, body := scf.For(e.b, i, i, i)
			body.Args[0].Loc = at(3)
			scf.Yield(e.in(body).b)
			e.bad(otir.OpAdd, ops(body.Args[0], i), nil, "index")
		}, want: []string{"2: 'otir.add' op operand #0 does not dominate this use", "3: note: operand defined as a block argument (of a region that does not enclose this use)"}},
		{name: "value of another kernel", build: func(e *env) {
			c := e.create(3, otir.OpConstant, nil, ir.Attrs{{Name: "value", Value: ir.IndexAttr(1)}}, "index").Results[0]
			b := ir.NewBuilder(e.m.Body())
			b.Loc = at(1)
			_, body := otir.Kernel(b, "k2", nil, nil)
			nb := ir.NewBuilder(body)
			nb.Loc = at(2)
			nb.Unary(otir.OpNeg, c, ir.Index())
			nb.Loc = at(1)
			otir.Return(nb)
		}, want: []string{"2: 'otir.neg' op operand #0 does not dominate this use", "3: note: operand defined here (op is neither in a parent nor in a child region)"}},
	})
}

func TestContextAndConstantRules(t *testing.T) {
	i8 := ir.Int(8, true)
	intConst := func(v int64, typ string) ir.Attrs {
		return ir.Attrs{{Name: "value", Value: &ir.IntAttr{Value: big.NewInt(v), Type: ty(typ)}}}
	}
	dense := func(typ string, vals ...int64) ir.Attrs {
		a := &ir.DenseAttr{Type: ty(typ).(*ir.TileType)}
		for _, v := range vals {
			a.Ints = append(a.Ints, big.NewInt(v))
		}
		return ir.Attrs{{Name: "value", Value: a}}
	}
	axis := func(n int64) ir.Attrs { return ir.Attrs{{Name: "axis", Value: ir.I64(n)}} }
	runRules(t, []ruleCase{
		{name: "program_id axis beyond grid", grid: []int64{4}, build: func(e *env) {
			e.bad(otir.OpProgramID, nil, axis(1), "index")
		}, want: []string{"2: 'otir.program_id' op axis 1 is out of range: the kernel's grid has rank 1"}},
		{name: "program_id axis with default grid", build: func(e *env) {
			e.bad(otir.OpProgramID, nil, axis(2), "index")
		}, want: []string{"2: 'otir.program_id' op axis 2 is out of range: the kernel's grid has rank 1"}},
		{name: "num_programs axis beyond grid", grid: []int64{2, 2}, build: func(e *env) {
			e.bad(otir.OpNumProgs, nil, axis(2), "index")
		}, want: []string{"2: 'otir.num_programs' op axis 2 is out of range: the kernel's grid has rank 2"}},
		{name: "negative axis", build: func(e *env) {
			e.bad(otir.OpProgramID, nil, axis(-1), "index")
		}, want: []string{"2: 'otir.program_id' op axis must be a non-negative integer, but got -1"}},
		{name: "program_id result", build: func(e *env) {
			e.bad(otir.OpProgramID, nil, axis(0), "i32")
		}, want: []string{"2: 'otir.program_id' op result must be 'index', but got 'i32'"}},
		{name: "axis attribute kind", build: func(e *env) {
			e.bad(otir.OpProgramID, nil, ir.Attrs{{Name: "axis", Value: &ir.StringAttr{Value: "x"}}}, "index")
		}, want: []string{"2: 'otir.program_id' op attribute 'axis' must be an integer attribute, but got a string attribute"}},
		{name: "constant type", build: func(e *env) {
			e.bad(otir.OpConstant, nil, intConst(1, "i8"), "i16")
		}, want: []string{"2: 'otir.constant' op value type 'i8' does not match the result type 'i16'"}},
		{name: "constant signed range", build: func(e *env) {
			e.bad(otir.OpConstant, nil, intConst(128, "i8"), "i8")
		}, want: []string{"2: 'otir.constant' op value 128 does not fit in 'i8' (range [-128, 127])"}},
		{name: "constant unsigned range", build: func(e *env) {
			e.bad(otir.OpConstant, nil, intConst(-1, "u8"), "u8")
		}, want: []string{"2: 'otir.constant' op value -1 does not fit in 'u8' (range [0, 255])"}},
		{name: "constant odd width", build: func(e *env) {
			e.bad(otir.OpConstant, nil, intConst(-5, "i3"), "i3")
		}, want: []string{"2: 'otir.constant' op value -5 does not fit in 'i3' (range [-4, 3])"}},
		{name: "constant bool", build: func(e *env) {
			e.bad(otir.OpConstant, nil, intConst(2, "i1"), "i1")
		}, want: []string{"2: 'otir.constant' op value 2 is not a boolean: i1 values are 0 or 1"}},
		{name: "integer value on a float", build: func(e *env) {
			e.bad(otir.OpConstant, nil, ir.Attrs{{Name: "value", Value: &ir.IntAttr{Value: big.NewInt(1), Type: ir.Float(ir.F32)}}}, "f32")
		}, want: []string{"2: 'otir.constant' op integer value needs an integer or index type, but got 'f32'"}},
		{name: "float constant type", build: func(e *env) {
			e.bad(otir.OpConstant, nil, ir.Attrs{{Name: "value", Value: &ir.FloatAttr{Value: 1, Type: ir.Float(ir.F16)}}}, "f32")
		}, want: []string{"2: 'otir.constant' op value type 'f16' does not match the result type 'f32'"}},
		{name: "value attribute kind", build: func(e *env) {
			e.bad(otir.OpConstant, nil, ir.Attrs{{Name: "value", Value: &ir.StringAttr{Value: "1"}}}, "i8")
		}, want: []string{"2: 'otir.constant' op attribute 'value' must be an integer, float or dense attribute, but got a string attribute"}},
		{name: "dense type", build: func(e *env) {
			e.bad(otir.OpConstant, nil, dense("!otir.tile<4xi8, #private>", 0), "!otir.tile<4xi16, #private>")
		}, want: []string{"2: 'otir.constant' op value type '!otir.tile<4xi8, #private>' does not match the result type '!otir.tile<4xi16, #private>'"}},
		{name: "dense in global", build: func(e *env) {
			e.bad(otir.OpConstant, nil, dense("!otir.tile<4xi8, #global>", 0), "!otir.tile<4xi8, #global>")
		}, want: []string{"2: 'otir.constant' op dense constant must be a #private tile, but got '!otir.tile<4xi8, #global>'"}},
		{name: "dense count", build: func(e *env) {
			e.bad(otir.OpConstant, nil, dense("!otir.tile<2x2xi4, #private>", 1, 2, 3), "!otir.tile<2x2xi4, #private>")
		}, want: []string{"2: 'otir.constant' op dense constant has 3 values, but its type '!otir.tile<2x2xi4, #private>' needs 1 (a splat) or 4"}},
		{name: "dense range", build: func(e *env) {
			e.bad(otir.OpConstant, nil, dense("!otir.tile<2x2xi4, #private>", 1, 8, 3, 4), "!otir.tile<2x2xi4, #private>")
		}, want: []string{"2: 'otir.constant' op dense value #1 (8) does not fit in 'i4' (range [-8, 7])"}},
		{name: "dense bool", build: func(e *env) {
			e.bad(otir.OpConstant, nil, dense(p16i1, 2), p16i1)
		}, want: []string{"2: 'otir.constant' op dense value #0 (2) is not a boolean: i1 values are 0 or 1"}},
		{name: "dense kind", build: func(e *env) {
			typ := ty("!otir.tile<4xi8, #private>")
			e.bad(otir.OpConstant, nil, ir.Attrs{{Name: "value", Value: &ir.DenseAttr{Type: typ.(*ir.TileType), Floats: []float64{1}}}}, "!otir.tile<4xi8, #private>")
		}, want: []string{"2: 'otir.constant' op dense constant of '!otir.tile<4xi8, #private>' must hold integer values"}},
		{name: "dense floats needed", build: func(e *env) {
			e.bad(otir.OpConstant, nil, dense("!otir.tile<4xf32, #private>", 1), "!otir.tile<4xf32, #private>")
		}, want: []string{"2: 'otir.constant' op dense constant of '!otir.tile<4xf32, #private>' must hold float values"}},
		{name: "dense on a scalar", build: func(e *env) {
			e.bad(otir.OpConstant, nil, dense("!otir.tile<1xi8, #private>", 1), "i8")
		}, want: []string{"2: 'otir.constant' op value type '!otir.tile<1xi8, #private>' does not match the result type 'i8'"}},
		{name: "scalar constant on a tile", build: func(e *env) {
			e.bad(otir.OpConstant, nil, ir.Attrs{{Name: "value", Value: &ir.IntAttr{Value: big.NewInt(1), Type: i8}}}, p16i8)
		}, want: []string{"2: 'otir.constant' op value type 'i8' does not match the result type '!otir.tile<16xi8, #private>'"}},
	})
}
