package nn

import (
	"fmt"

	"github.com/otir-dev/otir/ir"
)

// Normalizations: nn.softmax along an axis, nn.layer_norm over the
// dimensions from an axis on (no affine part: gamma and beta are nn.mul and
// nn.add of broadcast constants).

// Operation names of the family.
const (
	OpSoftmax   = "nn.softmax"
	OpLayerNorm = "nn.layer_norm"
)

// DefaultEpsilon is nn.layer_norm's epsilon when the attribute is absent:
// PyTorch's default (TorchLean's is 1e-6).
const DefaultEpsilon = 1e-5

var normFamily = family{
	ops: []ir.OpDef{
		{Name: OpSoftmax, Summary: "softmax along axis (torch.softmax)",
			Operands: unaryOperand, Results: outputResult, Parents: graphParent,
			Attrs:  []ir.AttrDef{{Name: "axis", Kind: ir.AttrInt, Doc: "a dimension of the input"}},
			Verify: nodeHook(checkSoftmax), Infer: inferWith(checkSoftmax), Format: formatUnary},
		{Name: OpLayerNorm, Summary: "normalizes over the dimensions axis..rank-1 jointly, biased variance, no affine (F.layer_norm)",
			Operands: unaryOperand, Results: outputResult, Parents: graphParent,
			Attrs: []ir.AttrDef{
				{Name: "axis", Kind: ir.AttrInt, Doc: "the first normalized dimension"},
				{Name: "epsilon", Kind: ir.AttrFloat, Optional: true, Doc: "added to the variance, finite and non-negative; default 1e-5"},
			},
			Verify: nodeHook(checkLayerNorm), Infer: inferWith(checkLayerNorm), Format: formatUnary},
	},
	quant: map[string]quantRule{
		OpSoftmax:   {role: QuantForbidden, why: "nn-quantize lowers it to lookup tables of exp(x − max) and inv (softmax-bits)"},
		OpLayerNorm: {role: QuantForbidden, why: "nn-quantize decomposes it into primitive nodes (reduce_mean, sub, mul, sqrt, inv)"},
	},
}

// checkSoftmax: axis is a dimension of the input (so a rank-0 input is
// ill-formed); the result has the input's shape.
func checkSoftmax(n *node) ([]int64, error) {
	if _, err := n.axis(n.ins[0].Rank()); err != nil {
		return nil, err
	}
	return n.ins[0].Shape, nil
}

// checkLayerNorm: axis is a dimension of the input; epsilon, when present,
// is finite and non-negative; the result has the input's shape.
func checkLayerNorm(n *node) ([]int64, error) {
	if _, err := n.axis(n.ins[0].Rank()); err != nil {
		return nil, err
	}
	eps, err := n.float("epsilon", DefaultEpsilon)
	if err != nil {
		return nil, err
	}
	if !finite(eps) || eps < 0 {
		return nil, fmt.Errorf("epsilon must be finite and non-negative, but got %s", ir.FormatFloat(eps))
	}
	return n.ins[0].Shape, nil
}
