package nn

import (
	"fmt"
	"slices"

	"github.com/otir-dev/otir/ir"
)

// Element-wise nodes: the binary nn.add, nn.sub, nn.mul, nn.max, nn.min, whose
// operands have equal shapes (no implicit broadcasting: an explicit
// nn.broadcast_to makes them so), and the unary kinds, whose result has
// their operand's shape.

// Operation names of the family.
const (
	OpAdd     = "nn.add"
	OpSub     = "nn.sub"
	OpMul     = "nn.mul"
	OpMax     = "nn.max"
	OpMin     = "nn.min"
	OpDetach  = "nn.detach"
	OpAbs     = "nn.abs"
	OpSqrt    = "nn.sqrt"
	OpInv     = "nn.inv"
	OpRelu    = "nn.relu"
	OpTanh    = "nn.tanh"
	OpSigmoid = "nn.sigmoid"
	OpExp     = "nn.exp"
	OpLog     = "nn.log"
	OpSin     = "nn.sin"
	OpCos     = "nn.cos"
)

var elementwiseFamily = family{
	ops: []ir.OpDef{
		binary(OpAdd, "a + b, element-wise"),
		binary(OpSub, "a - b, element-wise"),
		binary(OpMul, "a * b, element-wise"),
		binary(OpMax, "the element-wise maximum (torch.maximum: NaN propagates)"),
		binary(OpMin, "the element-wise minimum (torch.minimum: NaN propagates)"),
		unary(OpDetach, "the identity (x.detach())"),
		unary(OpAbs, "|x|"),
		unary(OpSqrt, "the square root (torch.sqrt: NaN below 0)"),
		unary(OpInv, "1/x (torch.reciprocal: ±inf at ±0)"),
		unary(OpRelu, "max(x, 0)"),
		unary(OpTanh, "tanh(x)"),
		unary(OpSigmoid, "1/(1 + exp(-x))"),
		unary(OpExp, "exp(x)"),
		unary(OpLog, "the natural logarithm (torch.log: -inf at 0, NaN below)"),
		unary(OpSin, "sin(x)"),
		unary(OpCos, "cos(x)"),
	},
	quant: map[string]quantRule{OpSqrt: function, OpInv: function, OpTanh: function, OpSigmoid: function,
		OpExp: function, OpLog: function, OpSin: function, OpCos: function},
}

// binary is the record of a binary element-wise kind.
func binary(name, summary string) ir.OpDef {
	return ir.OpDef{Name: name, Summary: summary + "; operands of equal shapes",
		Operands: binaryOperands, Results: outputResult, Parents: graphParent,
		Verify: nodeHook(equalShapes), Infer: inferWith(equalShapes), Format: formatBinary}
}

// unary is the record of a unary element-wise kind.
func unary(name, summary string) ir.OpDef {
	return ir.OpDef{Name: name, Summary: summary,
		Operands: unaryOperand, Results: outputResult, Parents: graphParent,
		Verify: nodeHook(same), Infer: inferWith(same), Format: formatUnary}
}

// equalShapes: both operands have one shape, the result's.
func equalShapes(n *node) ([]int64, error) {
	a, b := n.ins[0], n.ins[1]
	if !slices.Equal(a.Shape, b.Shape) {
		return nil, fmt.Errorf("operands must have the same shape (element-wise operands do not broadcast: use nn.broadcast_to), but got '%s' and '%s'", a, b)
	}
	return a.Shape, nil
}
