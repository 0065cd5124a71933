package verify

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
)

// env builds a module with one kernel "k" for a test. Setup ops get line 1;
// the op a case means to break is created at line 2 (bad), so each expected
// diagnostic names its line.
type env struct {
	m      *ir.Module
	kernel *ir.Operation
	body   *ir.Block
	b      *ir.Builder
}

func at(line int) ir.Location { return ir.Location{File: "t.otir", Line: line, Col: 1} }

// ty parses a type; test inputs are always valid.
func ty(s string) ir.Type {
	t, err := ir.ParseType(s)
	if err != nil {
		panic(err)
	}
	return t
}

func newEnv(grid []int64) *env {
	m := ir.NewModule(at(1))
	mb := ir.NewBuilder(m.Body())
	mb.Loc = at(1)
	k, body := otir.Kernel(mb, "k", nil, grid)
	b := ir.NewBuilder(body)
	b.Loc = at(1)
	return &env{m: m, kernel: k, body: body, b: b}
}

// arg adds a kernel argument of type s (keeping function_type in step).
func (e *env) arg(s string) *ir.Value {
	t := ty(s)
	a := e.body.AddArg(t, at(1))
	fn := e.kernel.Attr("function_type").(*ir.FunctionType)
	fn.Inputs = append(fn.Inputs, t)
	return a
}

// val makes some value of type s at line 1: a kernel argument for #global
// tiles, an alloc for #workgroup tiles, a DMA for tokens, else a constant.
func (e *env) val(s string) *ir.Value {
	t := ty(s)
	switch x := t.(type) {
	case *ir.TileType:
		switch x.Space {
		case ir.Global:
			return e.arg(s)
		case ir.Workgroup:
			return e.op(otir.OpAlloc, nil, nil, s).Results[0]
		}
		a := &ir.DenseAttr{Type: x, Ints: []*big.Int{big.NewInt(0)}}
		if asFloat(x.Elem) != nil {
			a = &ir.DenseAttr{Type: x, Floats: []float64{0}}
		}
		return otir.ConstDense(e.b, a)
	case *ir.TokenType:
		src, dst := e.val("!otir.tile<1xi8, #global>"), e.val("!otir.tile<1xi8, #workgroup>")
		return e.op(otir.OpDMA, []*ir.Value{src, dst}, nil, "!otir.token").Results[0]
	case *ir.FloatType:
		return otir.ConstFloat(e.b, 0, x)
	}
	return otir.ConstInt(e.b, 0, t)
}

// vals makes one value per type.
func (e *env) vals(ss ...string) []*ir.Value {
	vs := make([]*ir.Value, len(ss))
	for i, s := range ss {
		vs[i] = e.val(s)
	}
	return vs
}

// create builds an op at the given line with result types given as text.
func (e *env) create(line int, name string, operands []*ir.Value, attrs ir.Attrs, results ...string) *ir.Operation {
	ts := make([]ir.Type, len(results))
	for i, r := range results {
		ts[i] = ty(r)
	}
	op := ir.NewOp(name, at(line), operands, ts, attrs)
	e.b.Insert(op)
	return op
}

// op creates a setup op at line 1; bad creates the op under test at line 2.
func (e *env) op(name string, operands []*ir.Value, attrs ir.Attrs, results ...string) *ir.Operation {
	return e.create(1, name, operands, attrs, results...)
}

func (e *env) bad(name string, operands []*ir.Value, attrs ir.Attrs, results ...string) *ir.Operation {
	return e.create(2, name, operands, attrs, results...)
}

// in returns a builder at the end of block b, with setup locations.
func (e *env) in(b *ir.Block) *env {
	nb := ir.NewBuilder(b)
	nb.Loc = at(1)
	return &env{m: e.m, kernel: e.kernel, body: e.body, b: nb}
}

// finish ends the kernel body with otir.return.
func (e *env) finish() {
	e.body.Append(ir.NewOp(otir.OpReturn, at(1), nil, nil, nil))
}

// render formats diagnostics as "line: message" with notes as
// "line: note: message", for exact comparison.
func render(l diag.List) []string {
	var out []string
	for _, d := range l {
		out = append(out, fmt.Sprintf("%d: %s", d.Loc.Line, d.Msg))
		for _, n := range d.Notes {
			out = append(out, fmt.Sprintf("%d: note: %s", n.Loc.Line, n.Msg))
		}
	}
	return out
}

// checkDiags compares diagnostics with the wanted lines.
func checkDiags(t *testing.T, got diag.List, want []string) {
	t.Helper()
	g := render(got)
	if strings.Join(g, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n got: %s\nwant: %s", strings.Join(g, "\n      "), strings.Join(want, "\n      "))
	}
}

// Attribute shorthands.
func kind(k string) ir.Attrs { return ir.Attrs{{Name: "kind", Value: &ir.StringAttr{Value: k}}} }

func atomicAttrs(k, order string) ir.Attrs {
	return ir.Attrs{{Name: "kind", Value: &ir.StringAttr{Value: k}}, {Name: "memory_order", Value: &ir.StringAttr{Value: order}}}
}

func perm(p ...int64) ir.Attrs {
	return ir.Attrs{{Name: "permutation", Value: &ir.DenseI64Attr{Values: p}}}
}

func slice(offs, sizes, strides []int64) ir.Attrs { return otir.SliceAttrs(offs, sizes, strides) }

func ints(v ...int64) []int64 { return v }

func ops(vs ...*ir.Value) []*ir.Value { return vs }

const dyn = otir.DynamicOffset
