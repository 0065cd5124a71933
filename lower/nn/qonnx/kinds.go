package qonnx

import "github.com/otir-dev/otir/dialect/nn"

// The nn node kinds nn-absorb-quant reads and builds, named in this one
// file (tests/opnames_test.go: the absorption is a table of kinds like a
// lowering's): the QONNX quantizers, the constants, the affine and shape
// kinds it absorbs, and the integer kinds of the graph it builds.
const (
	kAdd             = nn.OpAdd
	kAvgPool2d       = nn.OpAvgPool2d
	kConcat          = nn.OpConcat
	kConv2d          = nn.OpConv2d
	kBipolarQuant    = nn.OpBipolarQuant
	kBroadcastTo     = nn.OpBroadcastTo
	kConst           = nn.OpConst
	kDetach          = nn.OpDetach
	kExp             = nn.OpExp
	kFlatten         = nn.OpFlatten
	kFloatQuant      = nn.OpFloatQuant
	kGraph           = nn.OpGraph
	kInv             = nn.OpInv
	kLinear          = nn.OpLinear
	kMatmul          = nn.OpMatmul
	kMax             = nn.OpMax
	kMaxPool2d       = nn.OpMaxPool2d
	kMin             = nn.OpMin
	kMultiThreshold  = nn.OpMultiThreshold
	kMul             = nn.OpMul
	kPermute         = nn.OpPermute
	kQuant           = nn.OpQuant
	kReduceSum       = nn.OpReduceSum
	kRelu            = nn.OpRelu
	kSigmoid         = nn.OpSigmoid
	kTanh            = nn.OpTanh
	kReshape         = nn.OpReshape
	kReturn          = nn.OpReturn
	kSoftmax         = nn.OpSoftmax
	kSub             = nn.OpSub
	kSwapFirstTwo    = nn.OpSwapFirstTwo
	kTranspose3dLast = nn.OpTranspose3dLast
	kTrunc           = nn.OpTrunc
)
