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
	// exact computes the node's exact value in a quantized graph (nil:
	// the kind is not allowed there; the verifier rejects it).
	exact func(*node) (*Exact, error)
	// fn is a function kind's float function: eval applies it to every
	// element, a quantized graph tabulates it (quant.LookupTable).
	fn func(float64) float64
	// ends marks nn.return: its operands are the graph's outputs.
	ends bool
	// unsupported is why the evaluator cannot run the operation; running
	// it is an error that shows the reason.
	unsupported string
}

// function is the entry of a function kind: f element-wise, a lookup
// table in a quantized graph.
func function(f func(float64) float64) semantics {
	return semantics{eval: unaryFn(f), exact: lookup, fn: f}
}

var ops map[string]semantics

func init() {
	ops = map[string]semantics{
		nn.OpReturn: {ends: true},

		nn.OpConst:         {eval: constant, exact: exactConstant},
		nn.OpRandUniform:   {eval: randUniform},
		nn.OpBernoulliMask: {eval: bernoulliMask},

		nn.OpAdd: {eval: binaryFn(func(a, b float64) float64 { return a + b }), exact: exactAligned(addExact)},
		nn.OpSub: {eval: binaryFn(func(a, b float64) float64 { return a - b }), exact: exactAligned(subExact)},
		nn.OpMul: {eval: binaryFn(func(a, b float64) float64 { return a * b }), exact: exactMul},
		// torch.maximum and torch.minimum propagate NaN, as math.Max and
		// math.Min do.
		nn.OpMax: {eval: binaryFn(math.Max), exact: exactAligned(maxExact)},
		nn.OpMin: {eval: binaryFn(math.Min), exact: exactAligned(minExact)},

		nn.OpDetach:  {eval: identity, exact: exactGather},
		nn.OpAbs:     {eval: unaryFn(math.Abs), exact: exactUnary(absExact)},
		nn.OpSqrt:    function(math.Sqrt), // NaN below 0 (PyTorch; TorchLean: 0)
		nn.OpInv:     function(func(x float64) float64 { return 1 / x }),
		nn.OpRelu:    {eval: unaryFn(relu), exact: exactUnary(reluExact)},
		nn.OpTanh:    function(math.Tanh),
		nn.OpSigmoid: function(sigmoid),
		nn.OpExp:     function(math.Exp),
		nn.OpLog:     function(math.Log), // −inf at 0, NaN below (PyTorch)
		nn.OpSin:     function(math.Sin),
		nn.OpCos:     function(math.Cos),

		nn.OpLinear: {eval: linear, exact: exactLinear},
		nn.OpMatmul: {eval: matmul, exact: exactMatmul},
		nn.OpConv2d: {eval: conv2d, exact: exactConv2d},

		nn.OpMaxPool2d: {eval: pool(true), exact: exactMaxPool},
		nn.OpAvgPool2d: {eval: pool(false), exact: exactAvgPool},

		nn.OpSoftmax:   {eval: softmax},
		nn.OpLayerNorm: {eval: layerNorm},

		nn.OpReduceSum:  {eval: reduce(false), exact: exactReduce(false)},
		nn.OpReduceMean: {eval: reduce(true), exact: exactReduce(true)},
		nn.OpSum:        {eval: sumAll, exact: exactSumAll},

		nn.OpPermute:         {eval: permute, exact: exactGather},
		nn.OpBroadcastTo:     {eval: broadcastTo, exact: exactGather},
		nn.OpReshape:         {eval: reshape, exact: exactGather},
		nn.OpFlatten:         {eval: reshape, exact: exactGather},
		nn.OpConcat:          {eval: concat, exact: exactGather},
		nn.OpSwapFirstTwo:    {eval: swapAxes(0, 1), exact: exactGather},
		nn.OpTranspose3dLast: {eval: swapAxes(1, 2), exact: exactGather},

		nn.OpMseLoss: {eval: mseLoss},
	}
}

// semOf returns the entry of an operation.
func semOf(name string) (semantics, bool) {
	s, ok := ops[name]
	return s, ok
}

// UnaryFunc is the float function of a function kind (nn.exp, nn.tanh,
// ...): the one the float evaluator applies and the quantized evaluator
// tabulates with quant.LookupTable, for a circuit's lookup table to hold
// the same values. false for other kinds.
func UnaryFunc(opName string) (func(float64) float64, bool) {
	s, ok := ops[opName]
	return s.fn, ok && s.fn != nil
}
