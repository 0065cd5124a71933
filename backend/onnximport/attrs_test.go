package onnximport

import (
	"math"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/otir-dev/otir/internal/onnxpb"
)

func floatsAttrP(name string, vs ...float32) *onnxpb.AttributeProto {
	return &onnxpb.AttributeProto{Name: proto.String(name), Type: onnxpb.AttributeProto_FLOATS.Enum(), Floats: vs}
}

func floatAttrP(name string, v float32) *onnxpb.AttributeProto {
	return &onnxpb.AttributeProto{Name: proto.String(name), Type: onnxpb.AttributeProto_FLOAT.Enum(), F: proto.Float32(v)}
}

// oneNode is a model of one node op named N reading x ([1, 2, 6, 6]) and
// the initializers, writing y.
func oneNode(op string, in []string, inits []*onnxpb.TensorProto, attrs ...*onnxpb.AttributeProto) testModel {
	return testModel{nodes: []*onnxpb.NodeProto{node(op, "N", in, []string{"y"}, attrs...)},
		inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}, inits: inits}
}

// hostileAttributes are models whose attributes are out of range: each is
// an error naming the node and the operator (TestHostileAttributes), and a
// seed of FuzzImportONNX.
var hostileAttributes = []struct {
	name  string
	model testModel
	want  string
}{
	{"conv zero strides", convCase(intsAttrP("strides", 0, 0)), "node 'Conv_3' (Conv): strides=[0 0]: every entry must lie in [1, 2147483647]"},
	{"conv negative strides", convCase(intsAttrP("strides", -1, -1)), "node 'Conv_3' (Conv): strides=[-1 -1]: every entry must lie in [1, 2147483647]"},
	{"conv huge strides", convCase(intsAttrP("strides", 1<<40, 1<<40)), "node 'Conv_3' (Conv): strides=[1099511627776 1099511627776]: every entry"},
	{"conv one stride", convCase(intsAttrP("strides", 1)), "node 'Conv_3' (Conv): strides=[1] does not have one entry per spatial dimension (2)"},
	{"conv negative pads", convCase(intsAttrP("pads", -1, -1, -1, -1)), "node 'Conv_3' (Conv): pads=[-1 -1 -1 -1]: every entry must lie in [0, 2147483647]"},
	{"conv huge pads", convCase(intsAttrP("pads", math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64)), "node 'Conv_3' (Conv): pads=[9223372036854775807"},
	{"conv zero kernel", convCase(intsAttrP("kernel_shape", 0, 0)), "node 'Conv_3' (Conv): kernel_shape=[0 0]: every entry must lie in [1, 2147483647]"},
	{"conv zero dilations", convCase(intsAttrP("dilations", 0, 0)), "node 'Conv_3' (Conv): dilations=[0 0]: every entry must lie in [1, 2147483647]"},
	{"conv one dilation", convCase(intsAttrP("dilations", 1)), "node 'Conv_3' (Conv): dilations=[1] does not have one entry per kernel dimension (2)"},
	{"conv group 0", convCase(intAttrP("group", 0)), "node 'Conv_3' (Conv): group=0 must lie in [1, 2147483647]"},
	{"conv group negative", convCase(intAttrP("group", -3)), "node 'Conv_3' (Conv): group=-3 must lie in [1, 2147483647]"},
	{"maxpool zero strides", poolCase("MaxPool", intsAttrP("kernel_shape", 2, 2), intsAttrP("strides", 0, 0)), "node 'Pool_1' (MaxPool): strides=[0 0]: every entry"},
	{"maxpool negative kernel", poolCase("MaxPool", intsAttrP("kernel_shape", -2, -2)), "node 'Pool_1' (MaxPool): kernel_shape=[-2 -2]: every entry"},
	{"maxpool huge kernel", poolCase("MaxPool", intsAttrP("kernel_shape", 1<<40, 1<<40)), "node 'Pool_1' (MaxPool): kernel_shape=[1099511627776 1099511627776]: every entry"},
	{"avgpool negative pads", poolCase("AveragePool", intsAttrP("kernel_shape", 2, 2), intsAttrP("pads", -1, -1, -1, -1)), "node 'Pool_1' (AveragePool): pads=[-1 -1 -1 -1]: every entry"},
	{"avgpool count_include_pad 2", poolCase("AveragePool", intsAttrP("kernel_shape", 2, 2), intAttrP("count_include_pad", 2)), "count_include_pad=2 must lie in [0, 1]"},
	{"gemm alpha NaN", oneNode("Gemm", []string{"x", "x"}, nil, floatAttrP("alpha", float32(math.NaN()))), "node 'N' (Gemm): alpha=NaN must be finite"},
	{"gemm beta inf", oneNode("Gemm", []string{"x", "x"}, nil, floatAttrP("beta", float32(math.Inf(1)))), "node 'N' (Gemm): beta=+Inf must be finite"},
	{"gemm transA 2", oneNode("Gemm", []string{"x", "x"}, nil, intAttrP("transA", 2)), "node 'N' (Gemm): transA=2 must lie in [0, 1]"},
	{"layer norm epsilon negative", oneNode("LayerNormalization", []string{"x", "x"}, nil, floatAttrP("epsilon", -1)), "node 'N' (LayerNormalization): epsilon=-1 must be finite and non-negative"},
	{"layer norm epsilon NaN", oneNode("LayerNormalization", []string{"x", "x"}, nil, floatAttrP("epsilon", float32(math.NaN()))), "epsilon=NaN must be finite and non-negative"},
	{"dropout ratio 1.5", oneNode("Dropout", []string{"x"}, nil, floatAttrP("ratio", 1.5)), "node 'N' (Dropout): ratio=1.5 must be in [0, 1)"},
	{"reduce keepdims 7", oneNode("ReduceMean", []string{"x"}, nil, intAttrP("keepdims", 7)), "node 'N' (ReduceMean): keepdims=7 must lie in [0, 1]"},
	{"reduce axes beyond the rank", oneNode("ReduceMean", []string{"x"}, nil, intsAttrP("axes", 9)), "node 'N' (ReduceMean): axis 9 is out of range for rank 4"},
	{"reduce axes repeated", oneNode("ReduceMean", []string{"x"}, nil, intsAttrP("axes", 1, -3)), "node 'N' (ReduceMean): axis -3 is repeated"},
	{"softmax axis beyond the rank", oneNode("Softmax", []string{"x"}, nil, intAttrP("axis", 4)), "node 'N' (Softmax): axis 4 is out of range for rank 4"},
	{"softmax axis huge", oneNode("Softmax", []string{"x"}, nil, intAttrP("axis", math.MinInt64)), "node 'N' (Softmax): axis -9223372036854775808 is out of range for rank 4"},
	{"transpose perm beyond the rank", oneNode("Transpose", []string{"x"}, nil, intsAttrP("perm", 5, 9, 0, 1)), "node 'N' (Transpose): perm [5 9 0 1] is not a permutation of 4 dimensions"},
	{"transpose perm short", oneNode("Transpose", []string{"x"}, nil, intsAttrP("perm", 1, 0)), "node 'N' (Transpose): perm [1 0] does not permute 4 dimensions"},
	{"concat axis beyond the rank", oneNode("Concat", []string{"x", "x"}, nil, intAttrP("axis", 4)), "node 'N' (Concat): axis 4 is out of range for rank 4"},
	{"flatten axis beyond the rank", oneNode("Flatten", []string{"x"}, nil, intAttrP("axis", 5)), "node 'N' (Flatten): axis 5 is out of range for rank 4"},
	{"gather axis beyond the rank", oneNode("Gather", []string{"x", "i"}, []*onnxpb.TensorProto{int64s("i", 0)}, intAttrP("axis", -5)), "node 'N' (Gather):"},
	{"pad input huge", testModel{nodes: []*onnxpb.NodeProto{node("Pad", "N", []string{"x", "p"}, []string{"z"}), node("MaxPool", "Pool_1", []string{"z"}, []string{"y"}, intsAttrP("kernel_shape", 2, 2))},
		inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}, inits: []*onnxpb.TensorProto{int64s("p", 0, 0, 1<<62, 1<<62, 0, 0, 1<<62, 1<<62)}},
		"node 'N' (Pad): pads=[0 0 4611686018427387904 4611686018427387904 0 0 4611686018427387904 4611686018427387904]: every entry must lie in [0, 2147483647]"},
	{"shape start huge", oneNode("Shape", []string{"x"}, nil, intAttrP("start", math.MaxInt64), intAttrP("end", math.MinInt64)), "graph output 'y' is declared of shape [], but its node computes [0]"},
}

// TestHostileAttributes: an attribute out of its range, for the operator
// or for the input's rank, is an error naming the node and the operator,
// before the translation uses it.
func TestHostileAttributes(t *testing.T) {
	for _, c := range hostileAttributes {
		t.Run(c.name, func(t *testing.T) {
			_, err := Import(c.model.bytes(t), "m.onnx", Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}
