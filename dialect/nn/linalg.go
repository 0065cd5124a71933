package nn

import (
	"errors"
	"fmt"

	"github.com/otir-dev/otir/ir"
)

// Linear algebra: nn.linear and nn.conv2d, whose weights and biases are the
// payload's entries params.weight and params.bias, and nn.matmul.

// Operation names of the family.
const (
	OpLinear = "nn.linear"
	OpMatmul = "nn.matmul"
	OpConv2d = "nn.conv2d"
)

var paramsAttr = ir.AttrDef{Name: "params", Kind: ir.AttrString, Doc: "the payload prefix: params.weight, params.bias"}

// Attribute names of the parameter types of nn.linear and nn.conv2d (only
// in a quantized graph): the payload's weight (bias) is first rounded to
// that !quant.uniform type (quant.UniformType.Round: nearest, ties to even,
// saturating).
const (
	WeightTypeAttr = "weight_type"
	BiasTypeAttr   = "bias_type"
)

// paramTypeAttrs are the optional parameter types of nn.linear and
// nn.conv2d (checked by the quantized graph's rules).
var paramTypeAttrs = []ir.AttrDef{
	{Name: WeightTypeAttr, Kind: ir.AttrAny, Optional: true, Doc: "a !quant.uniform type the payload weight is rounded to (quantized graphs)"},
	{Name: BiasTypeAttr, Kind: ir.AttrAny, Optional: true, Doc: "a !quant.uniform type the payload bias is rounded to (quantized graphs)"},
}

// windowAttrs are the attributes of nn.conv2d and the pools.
var windowAttrs = []ir.AttrDef{
	{Name: "kernel", Kind: ir.AttrArray, Doc: "[kH, kW], positive"},
	{Name: "stride", Kind: ir.AttrInt, Doc: "positive"},
	{Name: "padding", Kind: ir.AttrInt, Optional: true, Doc: "zero padding on every side, default 0"},
}

var linalgFamily = family{
	ops: []ir.OpDef{
		{Name: OpLinear, Summary: "W·x + b over the last dimension (F.linear); W [out, in] and b [out] from the payload",
			Operands: []ir.ArgDef{{Name: "input", Doc: "a tensor [in], or batched [..., in]"}},
			Results:  []ir.ArgDef{{Name: "output", Doc: "[out], or [..., out]: out is the weight's rows"}},
			Attrs:    append([]ir.AttrDef{paramsAttr}, paramTypeAttrs...),
			Parents:  graphParent, Verify: nodeHook(checkLinear),
			Format: formatUnary},
		{Name: OpMatmul, Summary: "the matrix product [m, n]·[n, p] → [m, p], or per batch [B, m, n]·[B, n, p] → [B, m, p]",
			Operands: []ir.ArgDef{{Name: "lhs", Doc: "[m, n] or [B, m, n]"}, {Name: "rhs", Doc: "[n, p] or [B, n, p]"}},
			Results:  outputResult, Parents: graphParent,
			Verify: nodeHook(checkMatmul), Infer: inferWith(checkMatmul),
			Format: formatBinary},
		{Name: OpConv2d, Summary: "2-D cross-correlation with zero padding, plus bias (F.conv2d); W [outC, inC, kH, kW] and b [outC] from the payload",
			Operands: []ir.ArgDef{{Name: "input", Doc: "[inC, H, W], or batched [N, inC, H, W]"}},
			Results:  []ir.ArgDef{{Name: "output", Doc: "[outC, ⌊(H+2p−kH)/s⌋+1, ⌊(W+2p−kW)/s⌋+1] (batched: [N, ...]); outC is the weight's"}},
			Attrs:    append(append([]ir.AttrDef{paramsAttr}, windowAttrs...), paramTypeAttrs...),
			Parents:  graphParent, Verify: nodeHook(checkConv2d),
			Format: formatUnary},
	},
}

// checkLinear: a payload name; the input has rank 1 or more; the result has
// the input's shape with the last dimension (in) replaced by out, the
// declared one.
func checkLinear(n *node) ([]int64, error) {
	if err := n.params(); err != nil {
		return nil, err
	}
	x := n.ins[0]
	if x.Rank() == 0 {
		return nil, fmt.Errorf("input must have rank 1 ([in]) or more ([..., in]), but got '%s'", x)
	}
	if n.res == nil {
		return nil, errNeedsResult
	}
	if n.res.Rank() != x.Rank() {
		return nil, fmt.Errorf("result type '%s' must have the input's rank %d ([..., out])", n.res, x.Rank())
	}
	out := append(append([]int64{}, x.Shape[:x.Rank()-1]...), n.res.Shape[x.Rank()-1])
	return out, nil
}

// checkMatmul: [m, n]·[n, p] → [m, p] or [B, m, n]·[B, n, p] → [B, m, p];
// any other ranks, unequal inner dimensions or unequal B are ill-formed.
func checkMatmul(n *node) ([]int64, error) {
	a, b := n.ins[0], n.ins[1]
	if a.Rank() != b.Rank() || a.Rank() != 2 && a.Rank() != 3 {
		return nil, fmt.Errorf("operands must both have rank 2 ([m, n]·[n, p]) or both rank 3 ([B, m, n]·[B, n, p]), but got '%s' and '%s'", a, b)
	}
	r := a.Rank()
	if a.Shape[r-1] != b.Shape[r-2] {
		return nil, fmt.Errorf("inner dimensions differ: '%s' has %d columns, '%s' has %d rows", a, a.Shape[r-1], b, b.Shape[r-2])
	}
	if r == 3 && a.Shape[0] != b.Shape[0] {
		return nil, fmt.Errorf("batch dimensions differ: %d and %d", a.Shape[0], b.Shape[0])
	}
	return append(append([]int64{}, a.Shape[:r-1]...), b.Shape[r-1]), nil
}

// checkConv2d: a payload name; the window rule (rank 3 or 4, kernel, stride,
// padding, fit); a non-zero number of input channels; the result is
// [outC, Ho, Wo] (batched: [N, outC, Ho, Wo]) with outC the declared one.
func checkConv2d(n *node) ([]int64, error) {
	if err := n.params(); err != nil {
		return nil, err
	}
	batch, c, hw, _, _, err := n.window()
	if err != nil {
		return nil, err
	}
	if c == 0 {
		return nil, errors.New("input must have at least one channel, but has 0")
	}
	if n.res == nil {
		return nil, errNeedsResult
	}
	r := n.ins[0].Rank()
	if n.res.Rank() != r {
		return nil, fmt.Errorf("result type '%s' must have the input's rank %d", n.res, r)
	}
	return append(append([]int64{}, batch...), n.res.Shape[r-3], hw[0], hw[1]), nil
}

// TakesParamTypes reports whether op may carry weight_type and bias_type:
// nn.linear and nn.conv2d, the nodes of payload weights and biases.
func TakesParamTypes(op *ir.Operation) bool {
	return op.Name == OpLinear || op.Name == OpConv2d
}
