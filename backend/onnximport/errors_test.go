package onnximport

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/otir-dev/otir/internal/onnxpb"
)

// Builders of small models for the error tests.

func tensorInfo(name string, dims ...int64) *onnxpb.ValueInfoProto {
	shape := &onnxpb.TensorShapeProto{}
	for _, d := range dims {
		shape.Dim = append(shape.Dim, &onnxpb.TensorShapeProto_Dimension{Value: &onnxpb.TensorShapeProto_Dimension_DimValue{DimValue: d}})
	}
	return &onnxpb.ValueInfoProto{Name: proto.String(name), Type: &onnxpb.TypeProto{Value: &onnxpb.TypeProto_TensorType{
		TensorType: &onnxpb.TypeProto_Tensor{ElemType: proto.Int32(int32(onnxpb.TensorProto_DOUBLE)), Shape: shape}}}}
}

func node(op, name string, in []string, out []string, attrs ...*onnxpb.AttributeProto) *onnxpb.NodeProto {
	return &onnxpb.NodeProto{OpType: proto.String(op), Name: proto.String(name), Input: in, Output: out, Attribute: attrs}
}

func intAttrP(name string, v int64) *onnxpb.AttributeProto {
	return &onnxpb.AttributeProto{Name: proto.String(name), Type: onnxpb.AttributeProto_INT.Enum(), I: proto.Int64(v)}
}

func intsAttrP(name string, vs ...int64) *onnxpb.AttributeProto {
	return &onnxpb.AttributeProto{Name: proto.String(name), Type: onnxpb.AttributeProto_INTS.Enum(), Ints: vs}
}

func stringAttrP(name, v string) *onnxpb.AttributeProto {
	return &onnxpb.AttributeProto{Name: proto.String(name), Type: onnxpb.AttributeProto_STRING.Enum(), S: []byte(v)}
}

func doubles(name string, dims []int64, vs ...float64) *onnxpb.TensorProto {
	return &onnxpb.TensorProto{Name: proto.String(name), DataType: proto.Int32(int32(onnxpb.TensorProto_DOUBLE)), Dims: dims, DoubleData: vs}
}

func int64s(name string, vs ...int64) *onnxpb.TensorProto {
	return &onnxpb.TensorProto{Name: proto.String(name), DataType: proto.Int32(int32(onnxpb.TensorProto_INT64)), Dims: []int64{int64(len(vs))}, Int64Data: vs}
}

type testModel struct {
	opset   int64
	nodes   []*onnxpb.NodeProto
	inputs  []*onnxpb.ValueInfoProto
	outputs []*onnxpb.ValueInfoProto
	inits   []*onnxpb.TensorProto
}

func (m testModel) bytes(t testing.TB) []byte {
	if m.opset == 0 {
		m.opset = 13
	}
	mp := &onnxpb.ModelProto{IrVersion: proto.Int64(8),
		OpsetImport: []*onnxpb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(m.opset)}},
		Graph:       &onnxpb.GraphProto{Name: proto.String("g"), Node: m.nodes, Input: m.inputs, Output: m.outputs, Initializer: m.inits}}
	b, err := proto.Marshal(mp)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// image is the [1, 2, 6, 6] input of the window cases, w3 a 3x3 weight.
var (
	image = tensorInfo("x", 1, 2, 6, 6)
	w3    = doubles("w", []int64{2, 2, 3, 3}, make([]float64, 36)...)
)

func convCase(attrs ...*onnxpb.AttributeProto) testModel {
	return testModel{nodes: []*onnxpb.NodeProto{node("Conv", "Conv_3", []string{"x", "w"}, []string{"y"}, attrs...)},
		inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}, inits: []*onnxpb.TensorProto{w3}}
}

func poolCase(op string, attrs ...*onnxpb.AttributeProto) testModel {
	return testModel{nodes: []*onnxpb.NodeProto{node(op, "Pool_1", []string{"x"}, []string{"y"}, attrs...)},
		inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}}
}

func unaryCase(op string, extra []string, inits []*onnxpb.TensorProto, attrs ...*onnxpb.AttributeProto) testModel {
	return testModel{nodes: []*onnxpb.NodeProto{node(op, op+"_0", append([]string{"x"}, extra...), []string{"y"}, attrs...)},
		inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}, inits: inits}
}

// TestUnsupported: every attribute value, operator and file shape nn
// cannot express is an error naming the node and the operator.
func TestUnsupported(t *testing.T) {
	kernel := intsAttrP("kernel_shape", 2, 2)
	for _, c := range []struct {
		name  string
		model testModel
		want  string
	}{
		{"conv group", convCase(intAttrP("group", 3)), "node 'Conv_3' (Conv): group=3 does not divide the 2 input and 2 output channels"},
		{"conv group weight", convCase(intAttrP("group", 2)), "node 'Conv_3' (Conv): weight of shape [2, 2, 3, 3] does not fit an input of shape [1, 2, 6, 6] (group=2)"},
		{"conv dilated beyond the input", convCase(intsAttrP("dilations", 4, 4)), "node 'Conv_3' (Conv): kernel [9 9] does not fit the padded input [1, 2, 6, 6]"},
		{"pool dilations", poolCase("MaxPool", kernel, intsAttrP("dilations", 2, 2)), "node 'Pool_1' (MaxPool): dilations=[2 2] is not supported for a pool (only 1)"},
		{"conv auto_pad", convCase(stringAttrP("auto_pad", "SAME_LEFT")), "node 'Conv_3' (Conv): auto_pad=SAME_LEFT is not supported (NOTSET, VALID, SAME_UPPER or SAME_LOWER)"},
		{"conv pads of three", convCase(intsAttrP("pads", 1, 1, 0)), "node 'Conv_3' (Conv): pads=[1 1 0] does not have a begin and an end per spatial dimension (2)"},
		{"conv unknown attribute", convCase(intAttrP("fancy", 1)), "node 'Conv_3' (Conv): attribute 'fancy' is not supported"},
		{"attribute of another kind", convCase(&onnxpb.AttributeProto{Name: proto.String("group"), Type: onnxpb.AttributeProto_FLOAT.Enum(), F: proto.Float32(2)}),
			"node 'Conv_3' (Conv): attribute 'group' must be of kind INT, but is FLOAT"},
		{"attribute twice", convCase(intAttrP("group", 1), intAttrP("group", 2)), "node 'Conv_3' (Conv): attribute 'group' is given twice"},
		{"maxpool indices", testModel{nodes: []*onnxpb.NodeProto{node("MaxPool", "Pool_1", []string{"x"}, []string{"y", "i"}, kernel)},
			inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}}, "node 'Pool_1' (MaxPool): output #1 ('i') is not supported"},
		{"avgpool of padding only", poolCase("AveragePool", kernel, intsAttrP("pads", 2, 0, 0, 0)), "node 'Pool_1' (AveragePool): output (0, 0) of the pool covers padding only: its average divides by 0"},
		{"maxpool padding of the kernel", poolCase("MaxPool", kernel, intsAttrP("pads", 0, 2, 0, 0)), "node 'Pool_1' (MaxPool): padding 2, 0 of a max pool must be less than its kernel 2, on an axis that has values"},
		{"pool padding over half the kernel", poolCase("MaxPool", kernel, intsAttrP("pads", 2, 2, 2, 2)), "node 'Pool_1' (MaxPool): padding 2, 2 of a max pool must be less than its kernel 2, on an axis that has values"},
		{"pool 3-D", testModel{nodes: []*onnxpb.NodeProto{node("MaxPool", "Pool_1", []string{"x"}, []string{"y"}, intsAttrP("kernel_shape", 2, 2, 2))},
			inputs: []*onnxpb.ValueInfoProto{tensorInfo("x", 1, 1, 4, 4, 4)}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}}, "input must have rank 3 ([N, C, L]) or 4 ([N, C, H, W]), but has shape [1, 1, 4, 4, 4]"},
		{"pow 3", unaryCase("Pow", []string{"e"}, []*onnxpb.TensorProto{doubles("e", nil, 3)}), "node 'Pow_0' (Pow): exponent 3 is not supported (only the constant 2)"},
		{"pow computed", testModel{nodes: []*onnxpb.NodeProto{node("Pow", "Pow_0", []string{"x", "x"}, []string{"y"})},
			inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}}, "node 'Pow_0' (Pow): the exponent (input 'x') must be a constant"},
		{"reshape computed shape", testModel{nodes: []*onnxpb.NodeProto{node("Reshape", "R", []string{"x", "x"}, []string{"y"})},
			inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}}, "the shape (input 'x') must be a constant"},
		{"reshape bad count", unaryCase("Reshape", []string{"s"}, []*onnxpb.TensorProto{int64s("s", 5, 5)}), "node 'Reshape_0' (Reshape): cannot reshape [1, 2, 6, 6] to [5, 5]"},
		{"pad reflect", unaryCase("Pad", []string{"p"}, []*onnxpb.TensorProto{int64s("p", 0, 0, 1, 1, 0, 0, 1, 1)}, stringAttrP("mode", "reflect")), "node 'Pad_0' (Pad): mode=reflect is not supported"},
		{"pad read by relu", testModel{nodes: []*onnxpb.NodeProto{node("Pad", "Pad_0", []string{"x", "p"}, []string{"z"}), node("Relu", "Relu_1", []string{"z"}, []string{"y"})},
			inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}, inits: []*onnxpb.TensorProto{int64s("p", 0, 0, 1, 1, 0, 0, 1, 1)}},
			"node 'Relu_1' (Relu): the output of Pad 'z' is read by a node it cannot be folded into"},
		{"zero pad into max pool", testModel{nodes: []*onnxpb.NodeProto{node("Pad", "Pad_0", []string{"x", "p"}, []string{"z"}), node("MaxPool", "Pool_1", []string{"z"}, []string{"y"}, kernel)},
			inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}, inits: []*onnxpb.TensorProto{int64s("p", 0, 0, 1, 1, 0, 0, 1, 1)}},
			"node 'Pool_1' (MaxPool): the pad value 0 of Pad 'z' cannot be folded into this node"},
		{"unknown operator", unaryCase("Erf", nil, nil), "node 'Erf_0' (Erf): operator Erf is not supported"},
		{"other domain", testModel{nodes: []*onnxpb.NodeProto{{OpType: proto.String("Relu"), Name: proto.String("R"), Domain: proto.String("com.microsoft"), Input: []string{"x"}, Output: []string{"y"}}},
			inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}}, "node 'R' (Relu): the domain 'com.microsoft' is not supported"},
		{"unnamed node", testModel{nodes: []*onnxpb.NodeProto{{OpType: proto.String("Erf"), Input: []string{"x"}, Output: []string{"y"}}},
			inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}}, "node with output 'y' (Erf): operator Erf is not supported"},
		{"undefined input", testModel{nodes: []*onnxpb.NodeProto{node("Relu", "R", []string{"q"}, []string{"y"})},
			inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}}, "node 'R' (Relu): input 'q' is not defined before the node"},
		{"no broadcast", testModel{nodes: []*onnxpb.NodeProto{node("Add", "A", []string{"x", "z"}, []string{"y"})},
			inputs: []*onnxpb.ValueInfoProto{image, tensorInfo("z", 3)}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}}, "node 'A' (Add): shapes [1, 2, 6, 6] and [3] do not broadcast"},
		{"output shape", testModel{nodes: []*onnxpb.NodeProto{node("Relu", "R", []string{"x"}, []string{"y"})},
			inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y", 3)}}, "graph output 'y' is declared of shape [3], but its node computes [1, 2, 6, 6]"},
		{"missing output", testModel{inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}}, "graph output 'y' is not computed by any node"},
		{"opset 5", testModel{opset: 5, inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("x")}}, "opset 5 is not supported (opsets 6 to 17 are)"},
		{"opset 18", testModel{opset: 18, inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("x")}}, "opset 18 is not supported (opsets 6 to 17 are)"},
		{"external data", unaryCase("Add", []string{"k"}, []*onnxpb.TensorProto{{Name: proto.String("k"), DataType: proto.Int32(11), DataLocation: onnxpb.TensorProto_EXTERNAL.Enum()}}), "initializer 'k': external data is not supported"},
		{"short data", unaryCase("Add", []string{"k"}, []*onnxpb.TensorProto{doubles("k", []int64{4}, 1, 2)}), "initializer 'k': 2 values do not fill shape [4] (4 elements)"},
		{"short raw data", unaryCase("Add", []string{"k"}, []*onnxpb.TensorProto{{Name: proto.String("k"), DataType: proto.Int32(11), Dims: []int64{4}, RawData: make([]byte, 31)}}),
			"initializer 'k': raw data of 31 bytes does not hold the 4 elements of shape [4]"},
		{"huge", unaryCase("Add", []string{"k"}, []*onnxpb.TensorProto{{Name: proto.String("k"), DataType: proto.Int32(11), Dims: []int64{1 << 40}}}), "initializer 'k': shape [1099511627776] holds more than 268435456 elements"},
		{"overflowing dims", unaryCase("Add", []string{"k"}, []*onnxpb.TensorProto{{Name: proto.String("k"), DataType: proto.Int32(11), Dims: []int64{1 << 62, 1 << 62, 0}}}), "holds more than"},
		{"negative dim", unaryCase("Add", []string{"k"}, []*onnxpb.TensorProto{{Name: proto.String("k"), DataType: proto.Int32(11), Dims: []int64{-1}}}), "has a negative dimension"},
		{"string tensor", unaryCase("Add", []string{"k"}, []*onnxpb.TensorProto{{Name: proto.String("k"), DataType: proto.Int32(int32(onnxpb.TensorProto_STRING)), Dims: []int64{1}}}), "data type STRING is not supported"},
		{"huge reshape", unaryCase("Reshape", []string{"s"}, []*onnxpb.TensorProto{int64s("s", 1<<40, 1<<40)}), "holds more than 268435456 elements"},
		{"huge constant of shape", testModel{nodes: []*onnxpb.NodeProto{node("ConstantOfShape", "C", []string{"s"}, []string{"y"})},
			inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}, inits: []*onnxpb.TensorProto{int64s("s", 1<<20, 1<<20)}}, "node 'C' (ConstantOfShape): shape [1048576, 1048576] holds more than"},
		{"int input", testModel{nodes: []*onnxpb.NodeProto{node("Relu", "R", []string{"x"}, []string{"y"})},
			inputs:  []*onnxpb.ValueInfoProto{{Name: proto.String("x"), Type: &onnxpb.TypeProto{Value: &onnxpb.TypeProto_TensorType{TensorType: &onnxpb.TypeProto_Tensor{ElemType: proto.Int32(7)}}}}},
			outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}}, "graph input 'x': element type INT64 is not supported"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Import(c.model.bytes(t), "m.onnx", Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

// TestConstantBudget: the constants together are bounded too.
func TestConstantBudget(t *testing.T) {
	m := unaryCase("Add", []string{"k"}, []*onnxpb.TensorProto{doubles("k", []int64{72}, make([]float64, 72)...)})
	_, err := Import(m.bytes(t), "m.onnx", Options{MaxTotalElements: 50})
	if err == nil || !strings.Contains(err.Error(), "initializer 'k': the constants hold more than 50 elements together") {
		t.Errorf("got %v", err)
	}
}

// TestGroupedWeightBudget: a grouped weight is written dense, g times its
// size; the dense weight is bounded by MaxElements as any tensor is, so a
// small file cannot make the importer allocate g times what it holds.
func TestGroupedWeightBudget(t *testing.T) {
	const c = 64 // 64 weights, dense 64·64
	m := testModel{nodes: []*onnxpb.NodeProto{node("Conv", "Conv_3", []string{"x", "w"}, []string{"y"}, intAttrP("group", c))},
		inputs: []*onnxpb.ValueInfoProto{tensorInfo("x", 1, c, 2, 2)}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y", 1, c, 2, 2)},
		inits: []*onnxpb.TensorProto{doubles("w", []int64{c, 1, 1, 1}, make([]float64, c)...)}}
	if _, err := Import(m.bytes(t), "m.onnx", Options{}); err != nil {
		t.Fatalf("a depthwise conv within the bound: %v", err)
	}
	_, err := Import(m.bytes(t), "m.onnx", Options{MaxElements: c*c - 1})
	want := "node 'Conv_3' (Conv): the dense weight of group=64: shape [64, 64, 1, 1] holds more than 4095 elements"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error containing %q", err, want)
	}
}
