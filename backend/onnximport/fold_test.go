package onnximport

import (
	"math"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/otir-dev/otir/internal/onnxpb"
)

// foldModel is a model whose output is computed from constants only
// (folded at import, then one nn.const), with a graph input x it ignores;
// the output's shape is left to the importer.
func foldModel(nodes []*onnxpb.NodeProto, inits ...*onnxpb.TensorProto) testModel {
	return testModel{nodes: nodes, inputs: []*onnxpb.ValueInfoProto{tensorInfo("x", 1)},
		outputs: []*onnxpb.ValueInfoProto{{Name: proto.String(nodes[len(nodes)-1].Output[0]),
			Type: &onnxpb.TypeProto{Value: &onnxpb.TypeProto_TensorType{TensorType: &onnxpb.TypeProto_Tensor{ElemType: proto.Int32(int32(onnxpb.TensorProto_DOUBLE))}}}}}, inits: inits}
}

// TestFold: the constant-only operators fold to the values ONNX defines
// (worked out by hand), and the output constant is a payload entry.
func TestFold(t *testing.T) {
	ten := int64s("d", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
	for _, c := range []struct {
		name  string
		model testModel
		shape []int
		want  []float64
	}{
		{"slice back by 3", foldModel([]*onnxpb.NodeProto{node("Slice", "S", []string{"d", "st", "en", "ax", "sp"}, []string{"y"})},
			ten, int64s("st", 8), int64s("en", math.MinInt64), int64s("ax", 0), int64s("sp", -3)), []int{3}, []float64{8, 5, 2}},
		{"slice huge step", foldModel([]*onnxpb.NodeProto{node("Slice", "S", []string{"d", "st", "en", "", "sp"}, []string{"y"})},
			ten, int64s("st", 2), int64s("en", math.MaxInt64), int64s("sp", math.MaxInt64)), []int{1}, []float64{2}},
		{"slice clamped", foldModel([]*onnxpb.NodeProto{node("Slice", "S", []string{"d", "st", "en"}, []string{"y"})},
			ten, int64s("st", -100), int64s("en", -7)), []int{3}, []float64{0, 1, 2}},
		{"slice empty", foldModel([]*onnxpb.NodeProto{node("Slice", "S", []string{"d", "st", "en"}, []string{"y"})},
			ten, int64s("st", 5), int64s("en", 2)), []int{0}, nil},
		{"gather negative", foldModel([]*onnxpb.NodeProto{node("Gather", "G", []string{"d", "i"}, []string{"y"})},
			ten, int64s("i", -1, 0, 3)), []int{3}, []float64{9, 0, 3}},
		{"concat cast transpose", foldModel([]*onnxpb.NodeProto{
			node("Concat", "C", []string{"d", "d"}, []string{"c"}, intAttrP("axis", 0)),
			node("Reshape", "R", []string{"c", "s"}, []string{"r"}),
			node("Transpose", "T", []string{"r"}, []string{"tr"}),
			node("Cast", "F", []string{"tr"}, []string{"y"}, intAttrP("to", int64(onnxpb.TensorProto_DOUBLE)))},
			ten, int64s("s", 4, 5)), []int{5, 4}, []float64{0, 5, 0, 5, 1, 6, 1, 6, 2, 7, 2, 7, 3, 8, 3, 8, 4, 9, 4, 9}},
		{"shape of an input", foldModel([]*onnxpb.NodeProto{node("Shape", "S", []string{"x"}, []string{"y"})}), []int{1}, []float64{1}},
		{"constant of shape", foldModel([]*onnxpb.NodeProto{node("ConstantOfShape", "C", []string{"s"}, []string{"y"})}, int64s("s", 2, 3)), []int{2, 3}, make([]float64, 6)},
		{"int arithmetic", foldModel([]*onnxpb.NodeProto{node("Mul", "M", []string{"d", "k"}, []string{"m"}), node("Sub", "S", []string{"m", "d"}, []string{"y"})},
			ten, int64s("k", 3)), []int{10}, []float64{0, 2, 4, 6, 8, 10, 12, 14, 16, 18}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Import(c.model.bytes(t), "m.onnx", Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Payload.Names) != 1 {
				t.Fatalf("payload %v, want the output's constant only", res.Payload.Names)
			}
			a := res.Payload.Arrays[res.Payload.Names[0]]
			if !slices.Equal(a.Shape, c.shape) || !slices.Equal(a.Floats, c.want) && len(c.want)+len(a.Floats) > 0 {
				t.Errorf("got %v %v, want %v %v", a.Shape, a.Floats, c.shape, c.want)
			}
		})
	}
}

// TestMissingConstant: an absent input that must be a constant is an
// error, not a nil constant.
func TestMissingConstant(t *testing.T) {
	for _, op := range []string{"Reshape", "Pow", "Pad", "Gather", "Slice", "Conv"} {
		in := []string{"x", ""}
		switch op {
		case "Gather":
			in = []string{"", "x"}
		case "Slice":
			in = []string{"", "x", "x"}
		}
		m := testModel{nodes: []*onnxpb.NodeProto{node(op, op+"_0", in, []string{"y"})},
			inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{tensorInfo("y")}}
		_, err := Import(m.bytes(t), "m.onnx", Options{})
		if err == nil || !strings.Contains(err.Error(), "node '"+op+"_0' ("+op+"): ") || !strings.Contains(err.Error(), "is missing") {
			t.Errorf("%s: got %v", op, err)
		}
	}
}

// TestFactorRows checks the exact per-row factoring of quantized Conv
// weights: codes times a positive scale give the values back, and rows
// with no 53-bit form keep their values.
func TestFactorRows(t *testing.T) {
	s := float64(float32(0.1234))
	for _, c := range []struct {
		name          string
		data          []float64
		rows          int64
		codes, scales []float64
	}{
		{"per-row float32 scales", []float64{2 * s, -4 * s, 6 * s, -0.75, 0.5, 0}, 2, []float64{1, -2, 3, -3, 2, 0}, []float64{2 * s, 0.25}},
		{"a zero row", []float64{0, 0, 3, 5}, 2, []float64{0, 0, 3, 5}, []float64{1, 1}},
		{"a subnormal", []float64{5e-324, 1.5e-323}, 1, []float64{1, 3}, []float64{5e-324}},
		{"exponents too far apart", []float64{1, 0x1p-60}, 1, []float64{1, 0x1p-60}, nil},
		{"not finite", []float64{math.Inf(1), 1}, 1, []float64{math.Inf(1), 1}, nil},
	} {
		codes, scales := factorRows(c.data, c.rows)
		if !slices.Equal(codes, c.codes) || !slices.Equal(scales, c.scales) {
			t.Errorf("%s: factorRows(%v) = %v, %v, want %v, %v", c.name, c.data, codes, scales, c.codes, c.scales)
		}
	}
}
