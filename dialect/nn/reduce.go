package nn

import "github.com/otir-dev/otir/ir"

// Reductions: nn.reduce_sum and nn.reduce_mean along an axis, nn.sum of
// every element.

// Operation names of the family.
const (
	OpReduceSum  = "nn.reduce_sum"
	OpReduceMean = "nn.reduce_mean"
	OpSum        = "nn.sum"
)

var reduceAxis = []ir.AttrDef{{Name: "axis", Kind: ir.AttrInt, Doc: "the dimension folded away"}}

var reduceFamily = family{
	ops: []ir.OpDef{
		{Name: OpReduceSum, Summary: "the sum along axis (torch.sum(x, dim=axis))",
			Operands: unaryOperand, Results: []ir.ArgDef{{Name: "output", Doc: "the input's shape without axis"}},
			Attrs: reduceAxis, Parents: graphParent,
			Verify: nodeHook(checkReduce), Infer: inferWith(checkReduce), Format: formatUnary},
		{Name: OpReduceMean, Summary: "the mean along axis: the sum over the axis' size (torch.mean(x, dim=axis))",
			Operands: unaryOperand, Results: []ir.ArgDef{{Name: "output", Doc: "the input's shape without axis"}},
			Attrs: reduceAxis, Parents: graphParent,
			Verify: nodeHook(checkReduce), Infer: inferWith(checkReduce), Format: formatUnary},
		{Name: OpSum, Summary: "the sum of every element (torch.sum(x))",
			Operands: unaryOperand, Results: []ir.ArgDef{{Name: "output", Doc: "rank 0"}}, Parents: graphParent,
			Verify: nodeHook(scalar), Infer: inferWith(scalar), Format: formatUnary},
	},
	quant: map[string]quantRule{OpReduceMean: {role: QuantDivide, count: axisSize}},
}

// axisSize is the size of a reduction's axis: the count nn.reduce_mean
// divides by.
func axisSize(op *ir.Operation) (int64, bool) {
	a, ok := op.IntAttr("axis")
	if len(op.Operands) != 1 || !ok {
		return 0, false
	}
	t, isTensor := op.Operands[0].Type.(*ir.TensorType)
	if !isTensor || t == nil || a < 0 || a >= int64(t.Rank()) {
		return 0, false
	}
	return t.Shape[a], true
}

// checkReduce: axis is a dimension of the input, which the result drops.
func checkReduce(n *node) ([]int64, error) {
	x := n.ins[0]
	a, err := n.axis(x.Rank())
	if err != nil {
		return nil, err
	}
	return append(append([]int64{}, x.Shape[:a]...), x.Shape[a+1:]...), nil
}

// scalar is the rule of a kind whose result has rank 0.
func scalar(*node) ([]int64, error) { return []int64{}, nil }
