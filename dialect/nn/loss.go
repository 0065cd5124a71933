package nn

import (
	"fmt"
	"slices"

	"github.com/otir-dev/otir/ir"
)

// Losses: nn.mse_loss.

// Operation names of the family.
const OpMseLoss = "nn.mse_loss"

var lossFamily = family{
	ops: []ir.OpDef{
		{Name: OpMseLoss, Summary: "Σ(prediction − target)² / numel (F.mse_loss, reduction='mean'); operands of equal shapes",
			Operands: []ir.ArgDef{{Name: "prediction", Doc: "a tensor"}, {Name: "target", Doc: "a tensor of the same shape"}},
			Results:  []ir.ArgDef{{Name: "output", Doc: "rank 0"}}, Parents: graphParent,
			Verify: nodeHook(checkMseLoss), Infer: inferWith(checkMseLoss),
			Format: "$prediction `,` $target attr-dict `:` functional-type(operands, results)"},
	},
	quant: map[string]quantRule{OpMseLoss: {role: QuantForbidden, why: "a loss belongs to training, not to a circuit"}},
}

// checkMseLoss: the two shapes are equal (PyTorch would broadcast); the
// result has rank 0.
func checkMseLoss(n *node) ([]int64, error) {
	p, t := n.ins[0], n.ins[1]
	if !slices.Equal(p.Shape, t.Shape) {
		return nil, fmt.Errorf("prediction and target must have the same shape, but got '%s' and '%s'", p, t)
	}
	return []int64{}, nil
}
