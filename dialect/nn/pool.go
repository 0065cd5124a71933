package nn

import (
	"fmt"

	"github.com/otir-dev/otir/ir"
)

// Pooling: nn.max_pool2d and nn.avg_pool2d (TorchLean's maxPool2d and
// avgPool2d, and their padded forms maxPool2dPad and avgPool2dPad: padding >
// 0).

// Operation names of the family.
const (
	OpMaxPool2d = "nn.max_pool2d"
	OpAvgPool2d = "nn.avg_pool2d"
)

var poolOperand = []ir.ArgDef{{Name: "input", Doc: "[C, H, W], or batched [N, C, H, W]"}}

var poolResult = []ir.ArgDef{{Name: "output", Doc: "[C, ⌊(H+2p−kH)/s⌋+1, ⌊(W+2p−kW)/s⌋+1] (batched: [N, ...])"}}

var poolFamily = family{
	ops: []ir.OpDef{
		{Name: OpMaxPool2d, Summary: "the maximum of each window, padding ignored (F.max_pool2d)",
			Operands: poolOperand, Results: poolResult, Attrs: windowAttrs, Parents: graphParent,
			Verify: nodeHook(checkPool), Infer: inferWith(checkPool), Format: formatUnary},
		{Name: OpAvgPool2d, Summary: "the sum of each zero-padded window over kH·kW (F.avg_pool2d, count_include_pad)",
			Operands: poolOperand, Results: poolResult, Attrs: windowAttrs, Parents: graphParent,
			Verify: nodeHook(checkPool), Infer: inferWith(checkPool), Format: formatUnary},
	},
	quant: map[string]quantRule{OpAvgPool2d: {role: QuantDivide, count: windowSize}},
}

// windowSize is a pool's kH·kW: the count nn.avg_pool2d divides by
// (count_include_pad).
func windowSize(op *ir.Operation) (int64, bool) {
	n := &node{attrs: op.Attrs}
	k, err := n.intList("kernel")
	if err != nil || len(k) != 2 || k[0] <= 0 || k[1] <= 0 || k[0] > maxDim || k[1] > maxDim {
		return 0, false
	}
	return k[0] * k[1], true
}

// checkPool: the window rule, and padding at most half the kernel in each
// direction (PyTorch's rule: a window never holds only padding); the result
// keeps the channels.
func checkPool(n *node) ([]int64, error) {
	batch, c, hw, k, pad, err := n.window()
	if err != nil {
		return nil, err
	}
	if 2*pad > k[0] || 2*pad > k[1] {
		return nil, fmt.Errorf("padding %d must be at most half the kernel %dx%d", pad, k[0], k[1])
	}
	return append(append([]int64{}, batch...), c, hw[0], hw[1]), nil
}
