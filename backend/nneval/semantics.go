package nneval

import (
	"math"

	"github.com/otir-dev/otir/dialect/nn"
)

// The evaluator's meaning of every nn operation, in one table keyed by
// operation name: this is the only file of the package that names
// operations. TestSemanticsComplete checks that every nn operation has an
// entry (or is the graph itself, which Eval runs).

// semantics is the meaning of one operation. Exactly one of eval, ends and
// unsupported is set.
type semantics struct {
	// eval computes the node's value from its operands' values.
	eval func(*node) (*Tensor, error)
	// ends marks nn.return: its operands are the graph's outputs.
	ends bool
	// unsupported is why the evaluator cannot run the operation; running
	// it is an error that shows the reason.
	unsupported string
	// work, when set, is the node's multiply-accumulates (Options.MaxWork).
	work func(*node) int64
}

var ops map[string]semantics

func init() {
	ops = map[string]semantics{
		nn.OpReturn: {ends: true},

		nn.OpConst:         {eval: constant},
		nn.OpRandUniform:   {eval: randUniform},
		nn.OpBernoulliMask: {eval: bernoulliMask},

		nn.OpAdd: {eval: binaryFn(func(a, b float64) float64 { return a + b })},
		nn.OpSub: {eval: binaryFn(func(a, b float64) float64 { return a - b })},
		nn.OpMul: {eval: binaryFn(func(a, b float64) float64 { return a * b })},
		// torch.maximum and torch.minimum propagate NaN, as math.Max and
		// math.Min do.
		nn.OpMax: {eval: binaryFn(math.Max)},
		nn.OpMin: {eval: binaryFn(math.Min)},

		nn.OpDetach:  {eval: identity},
		nn.OpAbs:     {eval: unaryFn(math.Abs)},
		nn.OpSqrt:    {eval: unaryFn(math.Sqrt)}, // NaN below 0 (PyTorch; TorchLean: 0)
		nn.OpInv:     {eval: unaryFn(func(x float64) float64 { return 1 / x })},
		nn.OpRelu:    {eval: unaryFn(relu)},
		nn.OpTanh:    {eval: unaryFn(math.Tanh)},
		nn.OpSigmoid: {eval: unaryFn(sigmoid)},
		nn.OpExp:     {eval: unaryFn(math.Exp)},
		nn.OpLog:     {eval: unaryFn(math.Log)}, // −inf at 0, NaN below (PyTorch)
		nn.OpSin:     {eval: unaryFn(math.Sin)},
		nn.OpCos:     {eval: unaryFn(math.Cos)},

		nn.OpLinear: {eval: linear, work: func(n *node) int64 { return n.innerWork() }},
		nn.OpMatmul: {eval: matmul, work: func(n *node) int64 { return n.innerWork() }},
		nn.OpConv2d: {eval: conv2d, work: func(n *node) int64 { return n.windowWork(true) }},

		nn.OpMaxPool2d: {eval: pool(true), work: func(n *node) int64 { return n.windowWork(false) }},
		nn.OpAvgPool2d: {eval: pool(false), work: func(n *node) int64 { return n.windowWork(false) }},

		nn.OpSoftmax:   {eval: softmax},
		nn.OpLayerNorm: {eval: layerNorm},

		nn.OpReduceSum:  {eval: reduce(false)},
		nn.OpReduceMean: {eval: reduce(true)},
		nn.OpSum:        {eval: sumAll},

		nn.OpPermute:         {eval: permute},
		nn.OpBroadcastTo:     {eval: broadcastTo},
		nn.OpReshape:         {eval: reshape},
		nn.OpFlatten:         {eval: reshape},
		nn.OpConcat:          {eval: concat},
		nn.OpSwapFirstTwo:    {eval: swapAxes(0, 1)},
		nn.OpTranspose3dLast: {eval: swapAxes(1, 2)},

		nn.OpMseLoss: {eval: mseLoss},
	}
}

// semOf returns the entry of an operation.
func semOf(name string) (semantics, bool) {
	s, ok := ops[name]
	return s, ok
}
