package nn

import (
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/ir"
)

// Quantized graphs (../shared/design/nn-graph.md §5, docs/nn.md "Quantized
// graphs"): a graph is quantized when a tensor type in it has a
// !quant.uniform element. Then every tensor is quantized or f64 (an exact
// value), every argument is quantized (it quantizes the caller's input),
// the function kinds read a quantized operand into a quantized result
// through a lookup table, nn.requantize rounds and saturates (or wraps)
// by its attributes, a division by a count with an f64 result divides
// by a power of two, and the kinds a circuit has no counterpart for are
// rejected. These rules are the graph's: checkQuantized runs from nn.graph's
// hook, once per graph.

// QuantRole says how a node kind computes in a quantized graph.
type QuantRole uint8

const (
	// QuantExact kinds compute their exact result with adders, constant
	// multiplications and comparisons (add, linear, relu, max_pool2d, the
	// shape kinds, ...).
	QuantExact QuantRole = iota
	// QuantDivide kinds divide an exact sum by a count (reduce_mean,
	// avg_pool2d): floor division into a quantized result, or an exact
	// shift when the count is a power of two.
	QuantDivide
	// QuantFunction kinds apply a float function through a lookup table
	// over the quantized operand's values (exp, log, tanh, sigmoid, sqrt,
	// inv, sin, cos).
	QuantFunction
	// QuantForbidden kinds are not allowed in a quantized graph.
	QuantForbidden
	// QuantRequantize kinds round and saturate (or wrap) their operand
	// into their quantized result type by their attributes (nn.requantize):
	// they belong to quantized graphs only, their result type making the
	// graph one.
	QuantRequantize
)

// quantRule is a non-exact kind's role; why is a forbidden kind's reason,
// and count a dividing kind's divisor (the number of summed values).
type quantRule struct {
	role  QuantRole
	why   string
	count func(op *ir.Operation) (int64, bool)
}

var quantRules = map[string]quantRule{}

// function is the rule of a function kind.
var function = quantRule{role: QuantFunction}

// QuantRoleOf is how the node kind name computes in a quantized graph.
func QuantRoleOf(name string) QuantRole { return quantRules[name].role }

// DivisionCount is the count a QuantDivide node divides its sum by (the
// size of the reduced axis, the pool's kH·kW); false for other nodes or
// when the node's types do not say it.
func DivisionCount(op *ir.Operation) (int64, bool) {
	r := quantRules[op.Name]
	if r.role != QuantDivide || r.count == nil {
		return 0, false
	}
	return r.count(op)
}

// IsQuantized reports whether graph g (an nn.graph) is quantized: one of
// its argument, result or node result types is a tensor of quantized
// element type.
func IsQuantized(g *ir.Operation) bool {
	if fn, ok := g.Attr("function_type").(*ir.FunctionType); ok && fn != nil {
		for _, t := range append(append([]ir.Type{}, fn.Inputs...), fn.Results...) {
			if quant.ElementOf(t) != nil {
				return true
			}
		}
	}
	if len(g.Regions) != 1 || len(g.Regions[0].Blocks) != 1 {
		return false
	}
	for _, a := range g.Body(0).Args {
		if quant.ElementOf(a.Type) != nil {
			return true
		}
	}
	for _, op := range g.Body(0).Ops {
		for _, r := range op.Results {
			if r != nil && quant.ElementOf(r.Type) != nil {
				return true
			}
		}
	}
	return false
}

// isF32Tensor reports whether t is a tensor of f32.
func isF32Tensor(t ir.Type) bool {
	tt, ok := t.(*ir.TensorType)
	return ok && tt != nil && tt.Elem == ir.Type(ir.Float(ir.F32))
}

// checkQuantized applies the rules of quantized graphs to graph g when it
// is one.
func checkQuantized(g *ir.Operation, fn *ir.FunctionType, body *ir.Block) *diag.Diagnostic {
	if !IsQuantized(g) {
		for _, op := range body.Ops {
			for _, name := range []string{WeightTypeAttr, BiasTypeAttr} {
				if op.Attr(name) != nil {
					return diag.OpErrorf(op, "has '%s' in a graph that is not quantized: parameter types belong to quantized graphs (give its tensors quantized types, nn-quantize)", name)
				}
			}
		}
		return nil
	}
	for i, a := range body.Args {
		if quant.ElementOf(a.Type) == nil {
			return diag.OpErrorf(g, "argument #%d of a quantized graph must have a quantized element type, but got '%s': an argument quantizes the caller's input (f64 is for exact intermediate values)", i, diag.TypeStr(a.Type))
		}
	}
	for i, t := range fn.Results {
		if isF32Tensor(t) {
			return diag.OpErrorf(g, "result #%d of a quantized graph has type '%s': every tensor of a quantized graph is quantized or f64 (exact)", i, diag.TypeStr(t))
		}
	}
	for _, op := range body.Ops {
		for _, r := range op.Results {
			if r != nil && isF32Tensor(r.Type) {
				return diag.OpErrorf(op, "result type '%s' in a quantized graph: every tensor of a quantized graph is quantized or f64 (exact)", diag.TypeStr(r.Type))
			}
		}
		if d := checkQuantizedNode(op); d != nil {
			return d
		}
	}
	return nil
}

// ParamType is the parameter type attribute name (WeightTypeAttr,
// BiasTypeAttr) of op, or nil when absent (or not a !quant.uniform type,
// which the verifier rejects).
func ParamType(op *ir.Operation, name string) *quant.UniformType {
	a, ok := op.Attr(name).(*ir.TypeAttr)
	if !ok || a == nil {
		return nil
	}
	t, _ := a.Type.(*quant.UniformType)
	return t
}

// checkQuantizedNode applies the rule of op's role, and checks its
// parameter types.
func checkQuantizedNode(op *ir.Operation) *diag.Diagnostic {
	for _, name := range []string{WeightTypeAttr, BiasTypeAttr} {
		a := op.Attr(name)
		if a == nil {
			continue
		}
		if ta, ok := a.(*ir.TypeAttr); !ok || ta == nil || ParamType(op, name) == nil {
			return diag.OpErrorf(op, "attribute '%s' must be a !quant.uniform scalar type, but got '%s'", name, a)
		}
	}
	r := quantRules[op.Name]
	switch r.role {
	case QuantForbidden:
		return diag.OpErrorf(op, "is not allowed in a quantized graph: %s", r.why)
	case QuantFunction:
		if len(op.Operands) != 1 || len(op.Results) != 1 {
			return nil // the node's own rule reports it
		}
		in, out := quant.ElementOf(op.Operands[0].Type), quant.ElementOf(op.Results[0].Type)
		if in == nil || out == nil {
			return diag.OpErrorf(op, "needs quantized operand and result types in a quantized graph: a circuit computes it as a lookup table")
		}
		if in.Width > quant.MaxTableWidth {
			return diag.OpErrorf(op, "operand type '%s' would need a lookup table of 2^%d entries (at most 2^%d: narrow the operand)", diag.TypeStr(op.Operands[0].Type), in.Width, quant.MaxTableWidth)
		}
	case QuantDivide:
		if len(op.Results) != 1 || quant.ElementOf(op.Results[0].Type) != nil {
			return nil
		}
		if n, ok := DivisionCount(op); ok && (n <= 0 || n&(n-1) != 0) {
			return diag.OpErrorf(op, "divides by %d, not a power of two, so its exact result is not a fixed-point value: give it a quantized result type (floor division)", n)
		}
	}
	return nil
}
