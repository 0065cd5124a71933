package onnximport

import (
	"math"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/internal/onnxpb"
	"google.golang.org/protobuf/proto"
)

// seq is a model of nodes reading x of the given shape, writing y.
func seq(opset int64, x []int64, nodes []*onnxpb.NodeProto, inits ...*onnxpb.TensorProto) testModel {
	return testModel{opset: opset, nodes: nodes, inputs: []*onnxpb.ValueInfoProto{tensorInfo("x", x...)}, outputs: []*onnxpb.ValueInfoProto{unshaped("y")}, inits: inits}
}

// bnParams are a BatchNormalization's constants for c channels (g, b, m,
// v), and its inputs reading in.
func bnParams(c int) []*onnxpb.TensorProto {
	f := func(k float64) []float64 {
		out := make([]float64, c)
		for i := range out {
			out[i] = k + float64(i)/4
		}
		return out
	}
	return []*onnxpb.TensorProto{doubles("g", []int64{int64(c)}, f(-1)...), doubles("b", []int64{int64(c)}, f(0.5)...),
		doubles("m", []int64{int64(c)}, f(0.25)...), doubles("v", []int64{int64(c)}, f(2)...)}
}

func bnNode(name, in, out string) *onnxpb.NodeProto {
	return node("BatchNormalization", name, []string{in, "g", "b", "m", "v"}, []string{out})
}

// TestNewOperators: the translations of the operators of issue 28, and
// their errors, each naming the node.
func TestNewOperators(t *testing.T) {
	gemm := func(out string) *onnxpb.NodeProto {
		return node("Gemm", "G", []string{"x", "W", "C"}, []string{out}, intAttrP("transB", 1))
	}
	lin := []*onnxpb.TensorProto{doubles("W", []int64{2, 4}, 1, 2, 3, 4, 5, 6, 7, 8), doubles("C", []int64{2}, 1, -1)}
	w1 := doubles("w", []int64{3, 2, 3}, make([]float64, 18)...)
	for _, c := range []struct {
		name  string
		model testModel
		want  []string
		err   string
	}{
		{"LeakyRelu", one(13, node("LeakyRelu", "L", []string{"x"}, []string{"y"}, floatAttrP("alpha", 0.1))), []string{`params = "y_alpha"`, "nn.mul", "nn.max %arg0, %2"}, ""},
		{"LeakyRelu default alpha", one(9, node("LeakyRelu", "L", []string{"x"}, []string{"y"})), []string{"nn.max"}, ""},
		{"LeakyRelu alpha above 1", one(13, node("LeakyRelu", "L", []string{"x"}, []string{"y"}, floatAttrP("alpha", 2))), []string{"nn.min %arg0, %2"}, ""},
		{"LeakyRelu alpha NaN", one(13, node("LeakyRelu", "L", []string{"x"}, []string{"y"}, floatAttrP("alpha", float32(math.NaN())))), nil, "node 'L' (LeakyRelu): alpha=NaN must be finite"},
		{"HardSigmoid", one(13, node("HardSigmoid", "H", []string{"x"}, []string{"y"})), []string{"nn.mul", "nn.add", "nn.min", "nn.max"}, ""},
		{"HardSigmoid beta inf", one(13, node("HardSigmoid", "H", []string{"x"}, []string{"y"}, floatAttrP("beta", float32(math.Inf(1))))), nil, "node 'H' (HardSigmoid): beta=+Inf must be finite"},
		{"HardSwish", one(14, node("HardSwish", "H", []string{"x"}, []string{"y"})), []string{"nn.min", "nn.max", "nn.mul %arg0,"}, ""},
		{"HardSwish before opset 14", one(13, node("HardSwish", "H", []string{"x"}, []string{"y"})), nil, "node 'H' (HardSwish): HardSwish exists from opset 14 (the model's opset is 13)"},
		{"LayerNormalization before opset 17", one(16, node("LayerNormalization", "N", []string{"x", "g"}, []string{"y"}), doubles("g", []int64{6}, 1, 1, 1, 1, 1, 1)), nil,
			"node 'N' (LayerNormalization): LayerNormalization exists from opset 17 (the model's opset is 16)"},
		{"GlobalAveragePool", one(13, node("GlobalAveragePool", "P", []string{"x"}, []string{"y"})), []string{"nn.avg_pool2d %arg0 {kernel = [6, 6], stride = 1} : (tensor<1x2x6x6xf64>) -> tensor<1x2x1x1xf64>"}, ""},
		{"GlobalAveragePool 1-D", seq(13, []int64{1, 2, 5}, []*onnxpb.NodeProto{node("GlobalAveragePool", "P", []string{"x"}, []string{"y"})}),
			[]string{"nn.avg_pool2d %0 {kernel = [1, 5], stride = 1}", "-> tensor<1x2x1xf64>"}, ""},
		{"GlobalAveragePool rank 2", seq(13, []int64{2, 5}, []*onnxpb.NodeProto{node("GlobalAveragePool", "P", []string{"x"}, []string{"y"})}), nil,
			"node 'P' (GlobalAveragePool): input must have rank 3 ([N, C, L]) or 4 ([N, C, H, W]), but has shape [2, 5]"},
		{"Conv 1-D", seq(13, []int64{1, 2, 8}, []*onnxpb.NodeProto{node("Conv", "C", []string{"x", "w"}, []string{"y"}, intsAttrP("pads", 1, 1), intsAttrP("strides", 2))}, w1),
			[]string{"nn.concat", "nn.conv2d %3 {kernel = [1, 3], params = \"C\", stride = 2} : (tensor<1x2x1x10xf64>) -> tensor<1x3x1x4xf64>", "-> tensor<1x3x4xf64>"}, ""},
		{"Conv 1-D uneven pads", seq(13, []int64{1, 2, 8}, []*onnxpb.NodeProto{node("Conv", "C", []string{"x", "w"}, []string{"y"}, intsAttrP("pads", 1, 0))}, w1),
			[]string{"nn.concat %2, %0 {axis = 3} : (tensor<1x2x1x1xf64>, tensor<1x2x1x8xf64>) -> tensor<1x2x1x9xf64>", "-> tensor<1x3x7xf64>"}, ""},
		{"Conv asymmetric pads", seq(13, []int64{1, 2, 6, 6}, []*onnxpb.NodeProto{node("Conv", "C", []string{"x", "w"}, []string{"y"}, intsAttrP("pads", 1, 0, 0, 2))}, w3),
			[]string{"nn.concat %arg0, %1 {axis = 3} : (tensor<1x2x6x6xf64>, tensor<1x2x6x2xf64>) -> tensor<1x2x6x8xf64>",
				"nn.concat %3, %2 {axis = 2} : (tensor<1x2x1x8xf64>, tensor<1x2x6x8xf64>) -> tensor<1x2x7x8xf64>",
				"nn.conv2d %4 {kernel = [3, 3], params = \"C\", stride = 1} : (tensor<1x2x7x8xf64>) -> tensor<1x2x5x6xf64>"}, ""},
		{"Conv SAME_UPPER stride 2 (Keras's 'same')", seq(13, []int64{1, 2, 6, 6}, []*onnxpb.NodeProto{node("Conv", "C", []string{"x", "w"}, []string{"y"}, stringAttrP("auto_pad", "SAME_UPPER"), intsAttrP("strides", 2, 2))}, w3),
			[]string{"{axis = 3} : (tensor<1x2x6x6xf64>, tensor<1x2x6x1xf64>) -> tensor<1x2x6x7xf64>", "{axis = 2} : (tensor<1x2x6x7xf64>, tensor<1x2x1x7xf64>) -> tensor<1x2x7x7xf64>",
				"-> tensor<1x2x3x3xf64>"}, ""},
		{"Conv dilated", seq(13, []int64{1, 2, 6, 6}, []*onnxpb.NodeProto{node("Conv", "C", []string{"x", "w"}, []string{"y"}, intsAttrP("dilations", 2, 1), intsAttrP("pads", 2, 1, 2, 1))}, w3),
			[]string{"{kernel = [5, 3], params = \"C\", stride = 1} : (tensor<1x2x10x8xf64>) -> tensor<1x2x6x6xf64>"}, ""},
		{"Resize nearest by 2", seq(13, []int64{1, 2, 3, 3}, []*onnxpb.NodeProto{node("Resize", "R", []string{"x", "", "s"}, []string{"y"}, stringAttrP("mode", "nearest"))}, doubles("s", []int64{4}, 1, 1, 2, 2)),
			[]string{`%0 = nn.linear %arg0 {params = "R"} : (tensor<1x2x3x3xf64>) -> tensor<1x2x3x6xf64>`, "nn.permute %0 {perm = [0, 1, 3, 2]}", `params = "R_1"`, "-> tensor<1x2x6x6xf64>"}, ""},
		{"Resize linear", seq(13, []int64{1, 2, 3, 3}, []*onnxpb.NodeProto{node("Resize", "R", []string{"x", "", "s"}, []string{"y"}, stringAttrP("mode", "linear"))}, doubles("s", []int64{4}, 1, 1, 2, 2)), nil,
			"node 'R' (Resize): mode=linear is not supported (only nearest)"},
		{"Resize of the channels", seq(13, []int64{1, 2, 3, 3}, []*onnxpb.NodeProto{node("Resize", "R", []string{"x", "", "s"}, []string{"y"})}, doubles("s", []int64{4}, 1, 2, 1, 1)),
			[]string{"nn.permute %arg0 {perm = [0, 3, 2, 1]}", `nn.linear %0 {params = "R"} : (tensor<1x3x3x2xf64>) -> tensor<1x3x3x4xf64>`, "-> tensor<1x4x3x3xf64>"}, ""},
		{"Resize channels-last", seq(13, []int64{1, 2, 3, 4}, []*onnxpb.NodeProto{node("Resize", "R", []string{"x", "", "s"}, []string{"y"})}, doubles("s", []int64{4}, 1, 2, 2, 1)),
			[]string{"-> tensor<1x2x6x4xf64>", "-> tensor<1x4x6x4xf64>"}, ""},
		{"Resize sizes of three", seq(13, []int64{1, 2, 3, 3}, []*onnxpb.NodeProto{node("Resize", "R", []string{"x", "", "", "z"}, []string{"y"})}, int64s("z", 1, 2, 6)), nil,
			"node 'R' (Resize): sizes of shape [3] do not have one entry per dimension (4)"},
		{"Resize cubic coordinates", seq(13, []int64{1, 2, 3, 3}, []*onnxpb.NodeProto{node("Resize", "R", []string{"x", "", "s"}, []string{"y"}, stringAttrP("coordinate_transformation_mode", "tf_crop_and_resize"))}, doubles("s", []int64{4}, 1, 1, 2, 2)), nil,
			"node 'R' (Resize): coordinate_transformation_mode=tf_crop_and_resize is not supported"},
		{"Resize nearest mode", seq(13, []int64{1, 2, 3, 3}, []*onnxpb.NodeProto{node("Resize", "R", []string{"x", "", "s"}, []string{"y"}, stringAttrP("nearest_mode", "round"))}, doubles("s", []int64{4}, 1, 1, 2, 2)), nil,
			"node 'R' (Resize): nearest_mode=round is not supported"},
		{"Resize negative scale", seq(13, []int64{1, 2, 3, 3}, []*onnxpb.NodeProto{node("Resize", "R", []string{"x", "", "s"}, []string{"y"})}, doubles("s", []int64{4}, 1, 1, -2, 2)), nil,
			"node 'R' (Resize): scales [1 1 -2 2]: each must be positive, and the output at most 2^31 cells"},
		{"Resize fractional sizes", seq(13, []int64{1, 2, 3, 3}, []*onnxpb.NodeProto{node("Resize", "R", []string{"x", "", "", "z"}, []string{"y"})}, doubles("z", []int64{4}, 1, 2, 6.5, 6)), nil,
			"node 'R' (Resize): sizes [1 2 6.5 6]: each must be a positive integer, of a non-empty dimension"},
		{"Resize without scales", seq(13, []int64{1, 2, 3, 3}, []*onnxpb.NodeProto{node("Resize", "R", []string{"x", ""}, []string{"y"})}), nil,
			"node 'R' (Resize): the scales must be a constant with one entry per dimension (4)"},
		{"ConvTranspose", seq(13, []int64{1, 2, 3, 3}, []*onnxpb.NodeProto{node("ConvTranspose", "D", []string{"x", "w"}, []string{"y"}, intsAttrP("strides", 2, 2), intsAttrP("pads", 1, 1, 1, 1))}, w3),
			[]string{`nn.linear %arg0 {params = "D"} : (tensor<1x2x3x3xf64>) -> tensor<1x2x3x7xf64>`, `nn.linear %1 {params = "D_1"} : (tensor<1x2x7x3xf64>) -> tensor<1x2x7x7xf64>`,
				`nn.conv2d %3 {kernel = [3, 3], params = "D_2", stride = 1} : (tensor<1x2x7x7xf64>) -> tensor<1x2x5x5xf64>`}, ""},
		{"ConvTranspose of strides per axis", seq(13, []int64{1, 2, 2, 5}, []*onnxpb.NodeProto{node("ConvTranspose", "D", []string{"x", "w"}, []string{"y"}, intsAttrP("strides", 3, 2))}, w3),
			[]string{"-> tensor<1x2x6x11xf64>"}, ""},
		{"ConvTranspose weight", seq(13, []int64{1, 3, 3, 3}, []*onnxpb.NodeProto{node("ConvTranspose", "D", []string{"x", "w"}, []string{"y"})}, w3), nil,
			"node 'D' (ConvTranspose): weight of shape [2, 2, 3, 3] does not fit an input of shape [1, 3, 3, 3] (a ConvTranspose's weight is [C, M, k...])"},
		{"ConvTranspose output_padding", seq(13, []int64{1, 2, 3, 3}, []*onnxpb.NodeProto{node("ConvTranspose", "D", []string{"x", "w"}, []string{"y"}, intsAttrP("output_padding", 1))}, w3), nil,
			"node 'D' (ConvTranspose): output_padding=[1] does not have one entry per spatial dimension (2)"},
		{"PRelu slope wider than the input", seq(13, []int64{1, 2}, []*onnxpb.NodeProto{node("PRelu", "P", []string{"x", "s"}, []string{"y"})}, doubles("s", []int64{3, 2}, 1, 2, 3, 4, 5, 6)), nil,
			"node 'P' (PRelu): slope of shape [3, 2] does not broadcast to the input's [1, 2]"},
		{"Resize of a scalar", seq(13, []int64{}, []*onnxpb.NodeProto{node("Resize", "R", []string{"x", "", "s"}, []string{"y"})}, doubles("s", []int64{0})), nil,
			"node 'R' (Resize): input must have rank 1 or more, but is a scalar"},
		{"ConvTranspose groups", seq(13, []int64{1, 2, 3, 3}, []*onnxpb.NodeProto{node("ConvTranspose", "D", []string{"x", "w"}, []string{"y"}, intAttrP("group", 3))}, w3), nil,
			"node 'D' (ConvTranspose): group=3 does not divide the 2 input channels"},
		{"ConvTranspose pads beyond the kernel", seq(13, []int64{1, 2, 3, 3}, []*onnxpb.NodeProto{node("ConvTranspose", "D", []string{"x", "w"}, []string{"y"}, intsAttrP("pads", 3, 0, 0, 0))}, w3), nil,
			"node 'D' (ConvTranspose): pads=[3 0 0 0] and output_padding=[0 0] are not supported for kernel [3 3] and stride 1"},
		{"ConvTranspose output_shape", seq(13, []int64{1, 2, 3, 3}, []*onnxpb.NodeProto{node("ConvTranspose", "D", []string{"x", "w"}, []string{"y"}, intsAttrP("output_shape", 4, 5))}, w3),
			[]string{"-> tensor<1x2x4x5xf64>"}, ""},
		{"ConvTranspose output_shape of three", seq(13, []int64{1, 2, 3, 3}, []*onnxpb.NodeProto{node("ConvTranspose", "D", []string{"x", "w"}, []string{"y"}, intsAttrP("output_shape", 4, 6, 6))}, w3), nil,
			"node 'D' (ConvTranspose): output_shape=[4 6 6] has neither one entry per spatial dimension (2) nor one per dimension"},
		{"ConvTranspose output_shape 0", seq(13, []int64{1, 2, 3, 3}, []*onnxpb.NodeProto{node("ConvTranspose", "D", []string{"x", "w"}, []string{"y"}, intsAttrP("output_shape", 0, 6))}, w3), nil,
			"node 'D' (ConvTranspose): output_shape=[0 6] is not supported for an input of shape [1, 2, 3, 3] (each size from 1 to the size without padding, 5"},
		{"ConvTranspose output_shape above the unpadded size", seq(13, []int64{1, 2, 3, 3}, []*onnxpb.NodeProto{node("ConvTranspose", "D", []string{"x", "w"}, []string{"y"}, intsAttrP("output_shape", 1, 2, 5, 6))}, w3), nil,
			"node 'D' (ConvTranspose): output_shape=[5 6] is not supported for an input of shape [1, 2, 3, 3] (each size from 1 to the size without padding, 5;"},
		{"MaxPool padding over half the kernel", seq(13, []int64{1, 2, 4, 4}, []*onnxpb.NodeProto{node("MaxPool", "P", []string{"x"}, []string{"y"}, intsAttrP("kernel_shape", 3, 3), intsAttrP("pads", 2, 2, 2, 2))}),
			[]string{`nn.linear %arg0 {params = "P"}`, "{kernel = [3, 3], stride = 1} : (tensor<1x2x8x8xf64>) -> tensor<1x2x6x6xf64>"}, ""},
		{"MaxPool ceil_mode whose partial window makes an axis slide, strides 2 and 3", seq(13, []int64{1, 2, 4, 7}, []*onnxpb.NodeProto{node("MaxPool", "P", []string{"x"}, []string{"y"}, intsAttrP("kernel_shape", 3, 3), intsAttrP("strides", 2, 3), intAttrP("ceil_mode", 1))}),
			[]string{"nn.max_pool2d %6 {kernel = [3, 3], stride = 1} : (tensor<1x2x5x9xf64>) -> tensor<1x2x3x7xf64>", "nn.return %11 : tensor<1x2x2x3xf64>"}, ""},
		{"MaxPool ceil_mode", seq(13, []int64{1, 2, 6, 6}, []*onnxpb.NodeProto{node("MaxPool", "P", []string{"x"}, []string{"y"}, intsAttrP("kernel_shape", 3, 3), intsAttrP("strides", 2, 2), intAttrP("ceil_mode", 1))}),
			[]string{"nn.max_pool2d %5 {kernel = [3, 3], stride = 2} : (tensor<1x2x7x7xf64>) -> tensor<1x2x3x3xf64>"}, ""},
		{"AveragePool ceil_mode", seq(13, []int64{1, 2, 6, 6}, []*onnxpb.NodeProto{node("AveragePool", "P", []string{"x"}, []string{"y"}, intsAttrP("kernel_shape", 3, 3), intsAttrP("strides", 2, 2), intAttrP("ceil_mode", 1), intAttrP("count_include_pad", 1))}),
			[]string{"-> tensor<1x2x3x3xf64>", `nn.const {params = "y_count"} : () -> tensor<1x1x3x3xf64>`}, ""},
		{"Conv SAME_LOWER", seq(13, []int64{1, 2, 6, 6}, []*onnxpb.NodeProto{node("Conv", "C", []string{"x", "w"}, []string{"y"}, stringAttrP("auto_pad", "SAME_LOWER"), intsAttrP("strides", 2, 2))}, w3),
			[]string{"{axis = 3} : (tensor<1x2x6x1xf64>, tensor<1x2x6x6xf64>) -> tensor<1x2x6x7xf64>", "-> tensor<1x2x3x3xf64>"}, ""},
		{"Conv SAME_UPPER stride 1 is the padding attribute", seq(13, []int64{1, 2, 6, 6}, []*onnxpb.NodeProto{node("Conv", "C", []string{"x", "w"}, []string{"y"}, stringAttrP("auto_pad", "SAME_UPPER"))}, w3),
			[]string{"nn.conv2d %arg0 {kernel = [3, 3], padding = 1, params = \"C\", stride = 1} : (tensor<1x2x6x6xf64>) -> tensor<1x2x6x6xf64>"}, ""},
		{"AveragePool count_include_pad=0", seq(13, []int64{1, 2, 4, 4}, []*onnxpb.NodeProto{node("AveragePool", "P", []string{"x"}, []string{"y"}, intsAttrP("kernel_shape", 3, 3), intsAttrP("pads", 1, 1, 1, 1))}),
			[]string{"nn.avg_pool2d %arg0 {kernel = [3, 3], padding = 1, stride = 1}", `nn.const {params = "y_count"} : () -> tensor<1x1x4x4xf64>`, "nn.mul %0, %2"}, ""},
		{"MaxPool asymmetric pads", seq(13, []int64{1, 2, 5, 5}, []*onnxpb.NodeProto{node("MaxPool", "P", []string{"x"}, []string{"y"}, intsAttrP("kernel_shape", 3, 3), intsAttrP("strides", 2, 2), intsAttrP("pads", 0, 0, 1, 1))}),
			[]string{`%0 = nn.linear %arg0 {params = "P"} : (tensor<1x2x5x5xf64>) -> tensor<1x2x5x1xf64>`, "%1 = nn.concat %arg0, %0 {axis = 3}",
				"%2 = nn.permute %1 {perm = [0, 1, 3, 2]}", `%3 = nn.linear %2 {params = "P_1"} : (tensor<1x2x6x5xf64>) -> tensor<1x2x6x1xf64>`,
				"%5 = nn.concat %1, %4 {axis = 2}", "nn.max_pool2d %5 {kernel = [3, 3], stride = 2} : (tensor<1x2x6x6xf64>) -> tensor<1x2x2x2xf64>"}, ""},
		{"Conv 1-D 2-D kernel", seq(13, []int64{1, 2, 8}, []*onnxpb.NodeProto{node("Conv", "C", []string{"x", "w"}, []string{"y"}, intsAttrP("kernel_shape", 3, 3))}, w1), nil,
			"node 'C' (Conv): kernel_shape [3 3] does not have one entry per spatial dimension of the input (1)"},
		{"MaxPool 1-D", seq(13, []int64{1, 2, 8}, []*onnxpb.NodeProto{node("MaxPool", "P", []string{"x"}, []string{"y"}, intsAttrP("kernel_shape", 2), intsAttrP("strides", 2))}),
			[]string{"nn.max_pool2d %0 {kernel = [1, 2], stride = 2} : (tensor<1x2x1x8xf64>) -> tensor<1x2x1x4xf64>", "-> tensor<1x2x4xf64>"}, ""},
		{"MaxPool 1-D padding of the kernel", seq(13, []int64{1, 2, 8}, []*onnxpb.NodeProto{node("MaxPool", "P", []string{"x"}, []string{"y"}, intsAttrP("kernel_shape", 3), intsAttrP("pads", 3, 3))}), nil,
			"node 'P' (MaxPool): padding 3, 3 of a max pool must be less than its kernel 3, on an axis that has values"},
		{"MaxPool 1-D padded, empty", seq(13, []int64{1, 2, 0}, []*onnxpb.NodeProto{node("MaxPool", "P", []string{"x"}, []string{"y"}, intsAttrP("kernel_shape", 3), intsAttrP("pads", 1, 1))}), nil,
			"node 'P' (MaxPool): padding 1, 1 of a max pool must be less than its kernel 3, on an axis that has values"},
		{"MaxPool 1-D padded", seq(13, []int64{1, 2, 4}, []*onnxpb.NodeProto{node("MaxPool", "P", []string{"x"}, []string{"y"}, intsAttrP("kernel_shape", 3), intsAttrP("pads", 1, 1))}),
			[]string{`nn.linear %0 {params = "P"}`, `nn.linear %0 {params = "P_1"}`, "nn.concat %1, %0, %2 {axis = 3}", "nn.max_pool2d %3 {kernel = [1, 3], stride = 1}"}, ""},
		{"GlobalAveragePool empty", seq(13, []int64{1, 2, 0, 3}, []*onnxpb.NodeProto{node("GlobalAveragePool", "P", []string{"x"}, []string{"y"})}), nil, "node 'P' (GlobalAveragePool):"},
		{"Conv 1-D empty", seq(13, []int64{1, 2, 0}, []*onnxpb.NodeProto{node("Conv", "C", []string{"x", "w"}, []string{"y"}, intsAttrP("pads", 1, 1))}, w1), nil, "node 'C' (Conv):"},
		{"AveragePool 1-D after Pad", seq(13, []int64{1, 2, 8}, []*onnxpb.NodeProto{node("Pad", "Q", []string{"x", "p"}, []string{"z"}), node("AveragePool", "P", []string{"z"}, []string{"y"}, intsAttrP("kernel_shape", 3))},
			int64s("p", 0, 0, 1, 0, 0, 1)), []string{"nn.concat", "nn.avg_pool2d %3 {kernel = [1, 3], stride = 1} : (tensor<1x2x1x10xf64>) -> tensor<1x2x1x8xf64>"}, ""},
		{"Pad 1-D uneven", seq(13, []int64{1, 2, 8}, []*onnxpb.NodeProto{node("Pad", "Q", []string{"x", "p"}, []string{"z"}), node("AveragePool", "P", []string{"z"}, []string{"y"}, intsAttrP("kernel_shape", 3))},
			int64s("p", 0, 0, 1, 0, 0, 2)), []string{"nn.concat %2, %0, %3 {axis = 3} : (tensor<1x2x1x1xf64>, tensor<1x2x1x8xf64>, tensor<1x2x1x2xf64>) -> tensor<1x2x1x11xf64>"}, ""},
		{"Pad of the channels", seq(13, []int64{1, 2, 8}, []*onnxpb.NodeProto{node("Pad", "Q", []string{"x", "p"}, []string{"y"})}, int64s("p", 0, 1, 0, 0, 0, 0)), nil,
			"node 'Q' (Pad): pads=[0 1 0 0 0 0] is not supported (only non-negative padding of the spatial dimensions)"},
		{"Clip bound of two values", one(13, node("Clip", "K", []string{"x", "lo"}, []string{"y"}), doubles("lo", []int64{2}, -1, 1)), nil,
			"node 'K' (Clip): the min bound (input 'lo') must be one value, but has shape [2]"},
		{"Clip computed bound", seq(13, []int64{1, 2}, []*onnxpb.NodeProto{node("ReduceMean", "R", []string{"x"}, []string{"m"}, intAttrP("keepdims", 0)), node("Clip", "K", []string{"x", "m"}, []string{"y"})}),
			[]string{"nn.max %arg0"}, ""},
		{"Cast to int8 wraps integers", seq(13, []int64{1, 2}, []*onnxpb.NodeProto{node("Cast", "C", []string{"k"}, []string{"k8"}, intAttrP("to", int64(onnxpb.TensorProto_INT8))),
			node("Add", "A", []string{"x", "k8"}, []string{"y"})}, int64s("k", 300, -129)), []string{`nn.const {params = "k8"}`}, ""},
		{"Cast of 300.5 to uint8", seq(13, []int64{1, 2}, []*onnxpb.NodeProto{node("Cast", "C", []string{"k"}, []string{"y"}, intAttrP("to", int64(onnxpb.TensorProto_UINT8)))}, doubles("k", []int64{1}, 300.5)), nil,
			"node 'C' (Cast): cannot cast 300.5 to UINT8 (out of its range)"},
		{"Cast to string", seq(13, []int64{1, 2}, []*onnxpb.NodeProto{node("Cast", "C", []string{"k"}, []string{"y"}, intAttrP("to", int64(onnxpb.TensorProto_STRING)))}, doubles("k", []int64{1}, 1)), nil,
			"node 'C' (Cast): a cast to STRING is not supported"},
		{"BatchNormalization after Gemm folds", seq(13, []int64{3, 4}, []*onnxpb.NodeProto{gemm("h"), bnNode("BN", "h", "y")}, append(lin, bnParams(2)...)...),
			[]string{`nn.linear %arg0 {params = "G"}`, "nn.return %0"}, ""},
		{"BatchNormalization after a Gemm read twice", seq(13, []int64{3, 4}, []*onnxpb.NodeProto{gemm("h"), bnNode("BN", "h", "z"), node("Add", "A", []string{"h", "z"}, []string{"y"})}, append(lin, bnParams(2)...)...),
			[]string{"nn.sub", "nn.add %0,"}, ""},
		{"BatchNormalization after an Identity of a Gemm read twice", seq(13, []int64{3, 4}, []*onnxpb.NodeProto{gemm("h"), node("Identity", "I", []string{"h"}, []string{"i"}),
			bnNode("BN", "i", "z"), node("Add", "A", []string{"h", "z"}, []string{"y"})}, append(lin, bnParams(2)...)...), []string{"nn.sub"}, ""},
		{"BatchNormalization on the input", seq(13, []int64{3, 2}, []*onnxpb.NodeProto{bnNode("BN", "x", "y")}, bnParams(2)...), []string{"nn.sub %arg0"}, ""},
		{"BatchNormalization after Conv folds", seq(13, []int64{1, 2, 6, 6}, []*onnxpb.NodeProto{node("Conv", "C", []string{"x", "w"}, []string{"h"}), bnNode("BN", "h", "y")}, append(bnParams(2), w3)...),
			[]string{"nn.conv2d", "nn.return %0"}, ""},
		{"BatchNormalization between Unsqueeze and Squeeze after a Gemm folds", seq(11, []int64{3, 4}, []*onnxpb.NodeProto{gemm("h"),
			node("Unsqueeze", "U", []string{"h"}, []string{"u"}, intsAttrP("axes", 2)), bnNode("BN", "u", "n"),
			node("Squeeze", "S", []string{"n"}, []string{"y"}, intsAttrP("axes", 2))}, append(lin, bnParams(2)...)...),
			[]string{`nn.linear %arg0 {params = "G"}`, "-> tensor<3x2xf64>"}, ""},
		{"BatchNormalization after Conv 1-D folds", seq(13, []int64{1, 2, 8}, []*onnxpb.NodeProto{node("Conv", "C", []string{"x", "w"}, []string{"h"}), bnNode("BN", "h", "y")}, append(bnParams(3), w1)...),
			[]string{"nn.conv2d", "nn.reshape %1"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := importExpecting(t, c.model.bytes(t), "m.onnx", c.err)
			if res == nil {
				return
			}
			checkContains(t, res.Module.String(), c.want)
			for _, s := range []string{"nn.sub", "nn.mul"} {
				if strings.HasSuffix(c.name, "folds") && strings.Contains(res.Module.String(), s) {
					t.Errorf("a folded batch norm left %s:\n%s", s, res.Module)
				}
			}
		})
	}
}

// TestBatchNormFoldEval: a BatchNormalization folded into the Gemm before
// it evaluates to (x·Wᵀ + C − mean)·gamma/√(var + ε) + beta, ε the
// attribute's float32 (1e-5 by default), within 1e-14 relative (the
// folded w·a and (b − mean)·a + beta are float64 products, each rounded).
func TestBatchNormFoldEval(t *testing.T) {
	W, C := []float64{1, 2, 3, 4, 5, 6, 7, 8}, []float64{1, -1}
	m := seq(13, []int64{3, 4}, []*onnxpb.NodeProto{node("Gemm", "G", []string{"x", "W", "C"}, []string{"h"}, intAttrP("transB", 1)), bnNode("BN", "h", "y")},
		append([]*onnxpb.TensorProto{doubles("W", []int64{2, 4}, W...), doubles("C", []int64{2}, C...)}, bnParams(2)...)...)
	res, err := Import(m.bytes(t), "m.onnx", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Module.String(), "nn.sub") {
		t.Fatalf("not folded:\n%s", res.Module)
	}
	x := tensor.New([]int64{3, 4})
	for i := range x.Data {
		x.Data[i] = math.Sin(float64(i)) * 2
	}
	r := evalOn(t, res, x)
	eps := float64(float32(1e-5))
	for i, got := range r.Outputs[0].Data {
		row, o := i/2, i%2
		h := C[o]
		for k := range 4 {
			h += x.Data[row*4+k] * W[o*4+k]
		}
		g, b, mean, v := -1+float64(o)/4, 0.5+float64(o)/4, 0.25+float64(o)/4, 2+float64(o)/4
		want := (h-mean)*(g/math.Sqrt(v+eps)) + b
		if math.Abs(got-want) > 1e-14*(1+math.Abs(want)) {
			t.Errorf("y[%d] = %v, want %v", i, got, want)
		}
	}
}

// TestMultiThresholdImport: QONNX's MultiThreshold and its channel axis
// (1 for NCHW, 3 for NHWC, the last for other ranks, QONNX's), and each
// diagnostic of its import.
func TestMultiThresholdImport(t *testing.T) {
	mt := func(shape []int64, rows int64, attrs ...*onnxpb.AttributeProto) testModel {
		n := node("MultiThreshold", "M", []string{"x", "t"}, []string{"y"}, attrs...)
		n.Domain = proto.String("qonnx.custom_op.general")
		th := make([]float64, rows*3)
		for i := range th {
			th[i] = float64(i % 3)
		}
		return seq(13, shape, []*onnxpb.NodeProto{n}, doubles("t", []int64{rows, 3}, th...))
	}
	nan := mt([]int64{1, 4}, 1)
	nan.inits[0].DoubleData[1] = math.NaN()
	for _, c := range []struct {
		name  string
		model testModel
		want  []string
		err   string
	}{
		{"NCHW", mt([]int64{1, 4, 2, 2}, 4, floatAttrP("out_bias", -1)), []string{`nn.multithreshold %arg0 {axis = 1, out_bias = -1.0 : f64, out_scale = 1.0 : f64, params = "M"}`}, ""},
		{"NHWC", mt([]int64{1, 2, 2, 4}, 4, stringAttrP("data_layout", "NHWC")), []string{"axis = 3"}, ""},
		{"rank 3: the last axis", mt([]int64{2, 3, 4}, 4), []string{"axis = 2"}, ""},
		{"one row", mt([]int64{1, 4}, 1, floatAttrP("out_scale", 0.5)), []string{"axis = 1", "out_scale = 0.5 : f64"}, ""},
		{"rows", mt([]int64{1, 4}, 3), nil, "node 'M' (MultiThreshold): the thresholds of shape [3, 3] must be [C, T] with C = 1 or the input's 4 channels (axis 1 of [1, 4])"},
		{"rank 0", mt([]int64{}, 1), nil, "node 'M' (MultiThreshold): the input has no channel axis (rank 0)"},
		{"layout", mt([]int64{1, 4}, 1, stringAttrP("data_layout", "NWC")), nil, "node 'M' (MultiThreshold): data_layout=NWC is not supported (NCHW or NHWC)"},
		{"NaN", nan, nil, "node 'M' (MultiThreshold): the thresholds, element 1: a threshold must not be NaN"},
		{"out_scale", mt([]int64{1, 4}, 1, floatAttrP("out_scale", float32(math.Inf(1)))), nil, "node 'M' (MultiThreshold): out_scale=+Inf must be finite"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := importExpecting(t, c.model.bytes(t), "m.onnx", c.err)
			if res != nil {
				checkContains(t, res.Module.String(), c.want)
			}
		})
	}
}

// TestBatchNormFoldThroughReshape: PyTorch 0.3's BatchNorm1d after a
// Linear (Gemm, Unsqueeze, BatchNormalization, Squeeze) folds into the
// nn.linear and computes (x·Wᵀ + C − mean)·g/√(v + ε) + b per channel.
func TestBatchNormFoldThroughReshape(t *testing.T) {
	W, C := []float64{1, 2, 3, 4, 5, 6, 7, 8}, []float64{1, -1}
	g, b, m, v := []float64{-1, -0.75}, []float64{0.5, 0.75}, []float64{0.25, 0.5}, []float64{2, 2.25}
	model := seq(6, []int64{3, 4}, []*onnxpb.NodeProto{
		node("Gemm", "G", []string{"x", "W", "C"}, []string{"h"}, intAttrP("transB", 1), intAttrP("broadcast", 1)),
		node("Unsqueeze", "U", []string{"h"}, []string{"u"}, intsAttrP("axes", 2)),
		node("BatchNormalization", "BN", []string{"u", "g", "b", "m", "v"}, []string{"n"}, intAttrP("is_test", 1)),
		node("Squeeze", "S", []string{"n"}, []string{"y"}, intsAttrP("axes", 2))},
		doubles("W", []int64{2, 4}, W...), doubles("C", []int64{2}, C...), doubles("g", []int64{2}, g...), doubles("b", []int64{2}, b...),
		doubles("m", []int64{2}, m...), doubles("v", []int64{2}, v...))
	res := importExpecting(t, model.bytes(t), "m.onnx", "")
	if text := res.Module.String(); strings.Contains(text, "nn.sub") {
		t.Fatalf("the batch norm did not fold:\n%s", text)
	}
	x := &tensor.Tensor{Shape: []int64{3, 4}, Data: []float64{1, -2, 0.5, 3, 0, 1, -1, 2, 4, -3, 2, -0.5}}
	got := evalOn(t, res, x).Outputs[0]
	eps := float64(float32(1e-5))
	for r := range 3 {
		for o := range 2 {
			h := C[o]
			for k := range 4 {
				h += x.Data[r*4+k] * W[o*4+k]
			}
			want := (h-m[o])*g[o]/math.Sqrt(v[o]+eps) + b[o]
			if d := got.Data[r*2+o] - want; math.Abs(d) > 1e-12 {
				t.Errorf("y[%d, %d] = %v, want %v", r, o, got.Data[r*2+o], want)
			}
		}
	}
}
