package nneval

import (
	"math"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/ir/optable"
)

// The evaluator's meaning of every nn operation, in one table keyed by
// operation name (an optable.Table): this is the only file of the package that names
// operations. TestSemanticsComplete checks that every nn operation has an
// entry (or is the graph itself, which Eval runs).

// semantics is the meaning of one operation. Exactly one of eval, ends and
// unsupported is set.
type semantics struct {
	// eval computes the node's value from its operands' values.
	eval func(*node) (*tensor.Tensor, error)
	// fn is a function kind's float function: eval applies it to every
	// element, a quantized graph tabulates it (quant.LookupTable).
	fn func(float64) float64
	// ends marks nn.return: its operands are the graph's outputs.
	ends bool
	// unsupported is why the evaluator cannot run the operation; running
	// it is an error that shows the reason.
	unsupported string
	// work, when set, is the node's multiply-accumulates (Options.MaxWork).
	work func(*node) int64
}

// function is the entry of a function kind: f element-wise (and a lookup
// table of f in a quantized graph).
func function(f func(float64) float64) semantics { return semantics{eval: unaryFn(f), fn: f} }

var ops *optable.Table[semantics]

func init() {
	ops = optable.New("the nn evaluator's semantics", "semantics.go", map[string]semantics{
		nn.OpReturn: {ends: true},

		// QONNX's quantizers (qonnx.go), on the scalar rules of dialect/nn.
		nn.OpQuant:          {eval: quantize},
		nn.OpBipolarQuant:   {eval: bipolarQuantize},
		nn.OpTrunc:          {eval: truncate},
		nn.OpFloatQuant:     {eval: floatQuantize},
		nn.OpMultiThreshold: {eval: multiThreshold},
		// nn.requantize belongs to quantized graphs (exactOps); their
		// float reading quantizes nothing.
		nn.OpRequantize: {eval: identity},

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
		nn.OpSqrt:    function(math.Sqrt), // NaN below 0 (PyTorch; TorchLean: 0)
		nn.OpInv:     function(func(x float64) float64 { return 1 / x }),
		nn.OpRelu:    {eval: unaryFn(relu)},
		nn.OpTanh:    function(math.Tanh),
		nn.OpSigmoid: function(sigmoid),
		nn.OpExp:     function(math.Exp),
		nn.OpLog:     function(math.Log), // −inf at 0, NaN below (PyTorch)
		nn.OpSin:     function(math.Sin),
		nn.OpCos:     function(math.Cos),

		nn.OpLinear: {eval: linear, work: func(n *node) int64 { return n.innerWork() }},
		nn.OpMatmul: {eval: matmul, work: func(n *node) int64 { return n.innerWork() }},
		nn.OpConv2d: {eval: conv2d, work: func(n *node) int64 { return n.convWork() }},

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
	}, func(s semantics) string { return s.unsupported })
}

// semOf returns the entry of an operation.
func semOf(name string) (semantics, bool) { return ops.Lookup(name) }

// Computes reports whether the evaluator computes values for the named
// node kind (not nn.return, which only names the outputs, nor a kind it
// does not support), and if not, why.
func Computes(name string) (ok bool, why string) {
	if s, _ := semOf(name); s.ends {
		return false, "names the graph's outputs"
	}
	return ops.Support(name)
}

// UnaryFunc is the float function of a function kind (nn.exp, nn.tanh,
// ...): the one the float evaluator applies and the quantized evaluator
// tabulates with quant.LookupTable, for a circuit's lookup table to hold
// the same values. false for other kinds.
func UnaryFunc(opName string) (func(float64) float64, bool) {
	s, ok := semOf(opName)
	return s.fn, ok && s.fn != nil
}

// exactOps is the meaning of every kind allowed in a quantized graph
// (quantized.go): its exact value from its operands' exact values. A kind
// not listed is not allowed there (nn.QuantForbidden: the verifier rejects
// it); TestExactOpsComplete checks the two agree.
var exactOps *optable.Table[func(*node) (*Exact, error)]

func init() {
	exactOps = optable.New("the nn evaluator's exact meanings (quantized graphs)", "semantics.go", map[string]func(*node) (*Exact, error){
		nn.OpConst:      exactConstant,
		nn.OpRequantize: exactRequantize,

		nn.OpAdd: exactAligned(addExact),
		nn.OpSub: exactAligned(subExact),
		nn.OpMul: exactMul,
		nn.OpMax: exactAligned(maxExact),
		nn.OpMin: exactAligned(minExact),

		nn.OpDetach: exactGather,
		nn.OpAbs:    exactUnary(absExact),
		nn.OpRelu:   exactUnary(reluExact),
		// The function kinds: lookup tables of their fn.
		nn.OpSqrt: lookup, nn.OpInv: lookup, nn.OpTanh: lookup, nn.OpSigmoid: lookup,
		nn.OpExp: lookup, nn.OpLog: lookup, nn.OpSin: lookup, nn.OpCos: lookup,

		nn.OpLinear: exactLinear,
		nn.OpMatmul: exactMatmul,
		nn.OpConv2d: exactConv2d,

		nn.OpMaxPool2d: exactMaxPool,
		nn.OpAvgPool2d: exactAvgPool,

		nn.OpReduceSum:  exactReduce(false),
		nn.OpReduceMean: exactReduce(true),
		nn.OpSum:        exactSumAll,

		nn.OpPermute:         exactGather,
		nn.OpBroadcastTo:     exactGather,
		nn.OpReshape:         exactGather,
		nn.OpFlatten:         exactGather,
		nn.OpConcat:          exactGather,
		nn.OpSwapFirstTwo:    exactGather,
		nn.OpTranspose3dLast: exactGather,
	}, nil)
}
