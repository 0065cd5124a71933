package nn

import (
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// Graphs: nn.graph, the function-like container of a graph's nodes, and
// nn.return, which names its outputs; the GraphSignature directive.

// Operation names of the family.
const (
	OpGraph  = "nn.graph"
	OpReturn = "nn.return"
)

var graphFamily = family{
	ops: []ir.OpDef{
		{Name: OpGraph, Summary: "a neural-network graph: its arguments are the input nodes, its body the nodes in SSA order",
			Attrs: []ir.AttrDef{
				{Name: "sym_name", Kind: ir.AttrString, Doc: "the graph's name"},
				{Name: "function_type", Kind: ir.AttrFuncType, Doc: "the inputs' and outputs' tensor types"},
			},
			Regions: []string{"body"}, Traits: ir.IsolatedFromAbove | ir.SingleBlock | ir.TopLevel | ir.Symbol, Parents: []string{ir.OpModule},
			Verify: hook(checkGraph),
			Format: "$sym_name custom<GraphSignature>($body, $function_type) attr-dict-with-keyword $body"},
		{Name: OpReturn, Summary: "names the graph's outputs", Traits: ir.Terminator, Parents: graphParent,
			Operands: []ir.ArgDef{{Name: "values", Arity: ir.Variadic, Doc: "the outputs, of the graph's result types"}},
			Verify:   hook(checkReturn),
			Format:   "attr-dict ($values^ `:` type($values))?"},
	},
	register: func() {
		gs := ir.RegisterDirective("GraphSignature", printGraphSignature, parseGraphSignature)
		gs.Glued, gs.Fits = true, graphSignatureFits
	},
}

// hook makes a Verify hook of a rule: a nil *diag.Diagnostic must become a
// nil error, not an error holding a nil pointer.
func hook(r func(*ir.Operation, *ir.VerifyContext) *diag.Diagnostic) func(*ir.Operation, *ir.VerifyContext) error {
	return func(op *ir.Operation, ctx *ir.VerifyContext) error {
		if d := r(op, ctx); d != nil {
			return d
		}
		return nil
	}
}

// checkGraph: a non-empty name; a function_type whose inputs are the body's
// argument types and which has at least one result; every input and output
// a tensor of f64 or f32; a body ending with nn.return (whose operands
// checkReturn matches to the results); the rules of quantized graphs
// (checkQuantized) when it is one. Its place in the module is the
// TopLevel trait and Parents; a redefined name the Symbol trait's rule.
func checkGraph(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	name, _ := op.StringAttr("sym_name")
	if name == "" {
		return diag.OpErrorf(op, "attribute 'sym_name' must not be empty")
	}
	fn := op.Attr("function_type").(*ir.FunctionType)
	body := op.Body(0)
	if len(fn.Inputs) != len(body.Args) {
		return diag.OpErrorf(op, "function_type has %s, but the body has %s", diag.Plural(len(fn.Inputs), "input"), diag.Plural(len(body.Args), "argument"))
	}
	for i, a := range body.Args {
		if a.Type != fn.Inputs[i] {
			return diag.OpErrorf(op, "type of argument #%d ('%s') does not match the function_type input '%s'", i, diag.TypeStr(a.Type), diag.TypeStr(fn.Inputs[i]))
		}
		if !isNNTensor(a.Type) {
			return diag.OpErrorf(op, "argument #%d must be a tensor of f64 or f32, but got '%s'", i, diag.TypeStr(a.Type))
		}
	}
	if len(fn.Results) == 0 {
		return diag.OpErrorf(op, "must have at least one output")
	}
	for i, t := range fn.Results {
		if !isNNTensor(t) {
			return diag.OpErrorf(op, "result #%d must be a tensor of f64 or f32, but got '%s'", i, diag.TypeStr(t))
		}
	}
	last := body.Terminator()
	if last == nil {
		return diag.OpErrorf(op, "expects its body to end with '%s', but the body is empty", OpReturn)
	}
	if last.Name != OpReturn {
		return diag.OpErrorf(op, "expects its body to end with '%s', found '%s'", OpReturn, last.Name)
	}
	return checkQuantized(op, fn, body)
}

// isNNTensor reports whether t is a tensor of an nn element type.
func isNNTensor(t ir.Type) bool {
	tt, ok := t.(*ir.TensorType)
	return ok && tt != nil && IsElementType(tt.Elem)
}

// checkReturn: as many operands as the graph has outputs, of its result
// types (func.return's rule).
func checkReturn(op *ir.Operation, ctx *ir.VerifyContext) *diag.Diagnostic {
	g := ctx.Parent(op)
	if g == nil || g.Name != OpGraph {
		return nil // the Parents rule reports it
	}
	fn, ok := g.Attr("function_type").(*ir.FunctionType)
	if !ok || fn == nil {
		return nil // the graph's own rule reports it
	}
	name, _ := g.StringAttr("sym_name")
	if len(op.Operands) != len(fn.Results) {
		return diag.OpErrorf(op, "has %s, but the enclosing graph (@%s) returns %d", diag.Plural(len(op.Operands), "operand"), name, len(fn.Results))
	}
	for i, v := range op.Operands {
		if v.Type != fn.Results[i] {
			return diag.OpErrorf(op, "type of return operand %d ('%s') doesn't match graph result type ('%s') in graph @%s", i, diag.TypeStr(v.Type), diag.TypeStr(fn.Results[i]), name)
		}
	}
	return nil
}

// custom<GraphSignature>($body, $function_type): `(%x: T, ...) -> R` or
// `-> (R1, R2)`: the body's entry block arguments, each with its location
// under --mlir-print-debuginfo, then the result types, printed right after
// the symbol as func.func's signature; the parser makes function_type from
// them.
func printGraphSignature(p ir.AsmPrinter, op *ir.Operation, f *ir.Format, args []ir.FormatElem) {
	ir.PrintBlockArgList(p, op.Regions[args[0].Ref.Index].Blocks[0])
	fn, _ := op.Attr(args[1].Ref.Name).(*ir.FunctionType)
	if fn == nil || len(fn.Results) == 0 {
		return
	}
	p.WriteString(" -> ")
	if len(fn.Results) == 1 {
		p.PrintType(fn.Results[0])
		return
	}
	p.WriteString("(")
	p.PrintTypes(fn.Results)
	p.WriteString(")")
}

// graphSignatureFits: the pretty form can say the graph only when its
// function_type's inputs are its body's argument types (the parser makes
// them from the arguments).
func graphSignatureFits(op *ir.Operation, _ *ir.Format, args []ir.FormatElem) bool {
	fn, ok := op.Attr(args[1].Ref.Name).(*ir.FunctionType)
	r := op.Regions[args[0].Ref.Index]
	if !ok || fn == nil || len(r.Blocks) != 1 || len(fn.Inputs) != len(r.Blocks[0].Args) {
		return false
	}
	for i, a := range r.Blocks[0].Args {
		if a.Type != fn.Inputs[i] {
			return false
		}
	}
	return true
}

func parseGraphSignature(p ir.AsmParser, st *ir.OpState, args []ir.FormatElem) error {
	bargs, err := ir.ParseBlockArgList(p)
	if err != nil {
		return err
	}
	var outs []ir.Type
	if p.ParseOptionalPunct("->") {
		if p.ParseOptionalPunct("(") {
			ts, err := p.ParseTypeList()
			if err != nil {
				return err
			}
			if err := p.ParsePunct(")"); err != nil {
				return err
			}
			outs = append(outs, ts...)
		} else {
			t, err := p.ParseType()
			if err != nil {
				return err
			}
			outs = []ir.Type{t}
		}
	}
	st.Regions[args[0].Ref.Index].Args = bargs
	ins := make([]ir.Type, len(bargs))
	for i, a := range bargs {
		ins[i] = a.Type
	}
	st.Attrs.Set(args[1].Ref.Name, &ir.FunctionType{Inputs: ins, Results: outs})
	return nil
}

// Builders of the family's operations, at a builder's insertion point.

// Graph creates an nn.graph in a module body and returns it and its entry
// block (whose arguments are the graph's inputs).
func Graph(b *ir.Builder, name string, inputs, outputs []ir.Type) (*ir.Operation, *ir.Block) {
	attrs := ir.Attrs{{Name: "function_type", Value: &ir.FunctionType{Inputs: inputs, Results: outputs}}, {Name: "sym_name", Value: &ir.StringAttr{Value: name}}}
	op := b.Create(OpGraph, nil, nil, attrs)
	body := op.NewRegion(inputs...)
	for _, a := range body.Args {
		a.Loc = b.Loc
	}
	return op, body
}

// Return creates nn.return of the graph's outputs.
func Return(b *ir.Builder, outputs ...*ir.Value) *ir.Operation {
	return b.Create(OpReturn, outputs, nil, nil)
}

// Graphs lists the module's nn.graph operations.
func Graphs(m *ir.Module) []*ir.Operation { return m.TopLevel(OpGraph) }
