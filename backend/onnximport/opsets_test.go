package onnximport

import (
	"math"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/internal/onnxpb"
)

// opsetCase is a model of nodes in an opset reading x ([1, 2, 6, 6]),
// writing y (of a shape left to the importer).
func opsetCase(opset int64, nodes []*onnxpb.NodeProto, inits ...*onnxpb.TensorProto) testModel {
	return testModel{opset: opset, nodes: nodes, inputs: []*onnxpb.ValueInfoProto{image}, outputs: []*onnxpb.ValueInfoProto{unshaped("y")}, inits: inits}
}

// unshaped is a float64 tensor of no declared shape.
func unshaped(name string) *onnxpb.ValueInfoProto {
	v := tensorInfo(name)
	v.Type.GetTensorType().Shape = nil
	return v
}

func one(opset int64, n *onnxpb.NodeProto, inits ...*onnxpb.TensorProto) testModel {
	return opsetCase(opset, []*onnxpb.NodeProto{n}, inits...)
}

// TestOpsetForms: each attribute form of opsets 6 to 17 (the ONNX
// operators' changelog: an attribute that became an input, a default that
// changed) imports as its opset defines it, and the other opset's form is
// an error naming the node.
func TestOpsetForms(t *testing.T) {
	axes0 := int64s("axes", 0)
	axes1 := int64s("axes", 1)
	gemmIn := []*onnxpb.ValueInfoProto{tensorInfo("x", 1, 4)}
	bn := []*onnxpb.TensorProto{doubles("g", []int64{2}, 1, -2), doubles("b", []int64{2}, 0.5, 0), doubles("m", []int64{2}, 1, 2), doubles("v", []int64{2}, 4, 0.25)}
	bnIn := []string{"x", "g", "b", "m", "v"}
	shapeSlice := func(opset int64, slice *onnxpb.NodeProto, inits ...*onnxpb.TensorProto) testModel {
		return opsetCase(opset, []*onnxpb.NodeProto{node("Shape", "S", []string{"x"}, []string{"s"}), slice,
			node("Concat", "C", []string{"h", "minus1"}, []string{"t"}, intAttrP("axis", 0)), node("Reshape", "R", []string{"x", "t"}, []string{"y"})},
			append(inits, int64s("minus1", -1))...)
	}
	for _, c := range []struct {
		name  string
		model testModel
		want  []string // substrings of the printed graph, or
		err   string   // the error
	}{
		{"Unsqueeze-11 axes attribute", one(11, node("Unsqueeze", "U", []string{"x"}, []string{"y"}, intsAttrP("axes", 0))), []string{"-> tensor<1x1x2x6x6xf64>"}, ""},
		{"Unsqueeze-13 axes input", one(13, node("Unsqueeze", "U", []string{"x", "axes"}, []string{"y"}), axes0), []string{"-> tensor<1x1x2x6x6xf64>"}, ""},
		{"Unsqueeze-11 axes input", one(11, node("Unsqueeze", "U", []string{"x", "axes"}, []string{"y"}), axes0), nil, "node 'U' (Unsqueeze): axes is an attribute before opset 13, not input #1 (opset 11)"},
		{"Unsqueeze-13 axes attribute", one(13, node("Unsqueeze", "U", []string{"x"}, []string{"y"}, intsAttrP("axes", 0))), nil, "node 'U' (Unsqueeze): axes is input #1 from opset 13, not an attribute (opset 13)"},
		{"Unsqueeze-9 no axes", one(9, node("Unsqueeze", "U", []string{"x"}, []string{"y"})), nil, "node 'U' (Unsqueeze): the axes are missing"},
		{"Squeeze-9 axes attribute", one(9, node("Squeeze", "Q", []string{"x"}, []string{"y"}, intsAttrP("axes", 0))), []string{"-> tensor<2x6x6xf64>"}, ""},
		{"Squeeze-13 axes input", one(13, node("Squeeze", "Q", []string{"x", "axes"}, []string{"y"}), axes0), []string{"-> tensor<2x6x6xf64>"}, ""},
		{"Squeeze-12 axes input", one(12, node("Squeeze", "Q", []string{"x", "axes"}, []string{"y"}), axes0), nil, "node 'Q' (Squeeze): axes is an attribute before opset 13"},
		{"ReduceSum-12 axes attribute", one(12, node("ReduceSum", "R", []string{"x"}, []string{"y"}, intsAttrP("axes", 1), intAttrP("keepdims", 0))), []string{"nn.reduce_sum %arg0 {axis = 1}", "-> tensor<1x6x6xf64>"}, ""},
		{"ReduceSum-13 axes input", one(13, node("ReduceSum", "R", []string{"x", "axes"}, []string{"y"}, intAttrP("keepdims", 0)), axes1), []string{"nn.reduce_sum %arg0 {axis = 1}"}, ""},
		{"ReduceSum-13 axes attribute", one(13, node("ReduceSum", "R", []string{"x"}, []string{"y"}, intsAttrP("axes", 1))), nil, "node 'R' (ReduceSum): axes is input #1 from opset 13, not an attribute"},
		{"ReduceMean-17 axes attribute", one(17, node("ReduceMean", "R", []string{"x"}, []string{"y"}, intsAttrP("axes", 1))), []string{"nn.reduce_mean %arg0 {axis = 1}", "-> tensor<1x1x6x6xf64>"}, ""},
		{"ReduceMean-13 axes input", one(13, node("ReduceMean", "R", []string{"x", "axes"}, []string{"y"}), axes1), nil, "node 'R' (ReduceMean): axes is an attribute before opset 18, not input #1 (opset 13)"},
		{"Softmax-11 default axis 1 flattens", one(11, node("Softmax", "M", []string{"x"}, []string{"y"})),
			[]string{"nn.reshape %arg0 : (tensor<1x2x6x6xf64>) -> tensor<1x72xf64>", "nn.softmax %0 {axis = 1} : (tensor<1x72xf64>)", "-> tensor<1x2x6x6xf64>"}, ""},
		{"Softmax-9 last axis", one(9, node("Softmax", "M", []string{"x"}, []string{"y"}, intAttrP("axis", -1))), []string{"nn.softmax %arg0 {axis = 3}"}, ""},
		{"Softmax-13 default axis -1", one(13, node("Softmax", "M", []string{"x"}, []string{"y"})), []string{"nn.softmax %arg0 {axis = 3}"}, ""},
		{"Pad-10 attributes", opsetCase(10, []*onnxpb.NodeProto{node("Pad", "P", []string{"x"}, []string{"p"}, intsAttrP("pads", 0, 0, 1, 1, 0, 0, 1, 1), floatAttrP("value", 0)),
			node("Conv", "C", []string{"p", "w"}, []string{"y"})}, w3), []string{"padding = 1"}, ""},
		{"Pad-11 inputs", opsetCase(11, []*onnxpb.NodeProto{node("Pad", "P", []string{"x", "pads"}, []string{"p"}),
			node("Conv", "C", []string{"p", "w"}, []string{"y"})}, w3, int64s("pads", 0, 0, 1, 1, 0, 0, 1, 1)), []string{"padding = 1"}, ""},
		{"Pad-11 pads attribute", one(11, node("Pad", "P", []string{"x"}, []string{"y"}, intsAttrP("pads", 0, 0, 1, 1, 0, 0, 1, 1))), nil, "node 'P' (Pad): pads is input #1 from opset 11, not an attribute"},
		{"Pad-10 pads input", one(10, node("Pad", "P", []string{"x", "pads"}, []string{"y"}), int64s("pads", 0, 0, 1, 1, 0, 0, 1, 1)), nil, "node 'P' (Pad): pads is an attribute before opset 11"},
		{"Pad-9 no pads", one(9, node("Pad", "P", []string{"x"}, []string{"y"})), nil, "node 'P' (Pad): the attribute 'pads' is missing"},
		{"Slice-9 attributes", shapeSlice(9, node("Slice", "L", []string{"s"}, []string{"h"}, intsAttrP("starts", 0), intsAttrP("ends", 2))), []string{"-> tensor<1x2x36xf64>"}, ""},
		{"Slice-10 inputs", shapeSlice(10, node("Slice", "L", []string{"s", "st", "en"}, []string{"h"}), int64s("st", 0), int64s("en", 2)), []string{"-> tensor<1x2x36xf64>"}, ""},
		{"Slice-10 starts attribute", shapeSlice(10, node("Slice", "L", []string{"s", "st", "en"}, []string{"h"}, intsAttrP("starts", 0)), int64s("st", 0), int64s("en", 2)), nil,
			"node 'L' (Slice): starts is input #1 from opset 10, not an attribute"},
		{"BatchNormalization-9", one(9, node("BatchNormalization", "BN", bnIn, []string{"y"}, floatAttrP("epsilon", 0), floatAttrP("momentum", 0.9)), bn...),
			[]string{`nn.const {params = "BN.mean"} : () -> tensor<1x2x1x1xf64>`, "nn.sub", `params = "BN.a"`, "nn.mul", `params = "BN.beta"`, "nn.add", "nn.broadcast_to"}, ""},
		{"BatchNormalization-14 training_mode 0", one(14, node("BatchNormalization", "BN", bnIn, []string{"y"}, intAttrP("training_mode", 0)), bn...), []string{"nn.sub", "nn.mul", "nn.add"}, ""},
		{"BatchNormalization-9 spatial", one(9, node("BatchNormalization", "BN", bnIn, []string{"y"}, intAttrP("spatial", 1)), bn...), nil,
			"node 'BN' (BatchNormalization): attribute 'spatial' exists only before opset 9 (the model's opset is 9)"},
		{"BatchNormalization-7 spatial", one(7, node("BatchNormalization", "BN", bnIn, []string{"y"}, intAttrP("spatial", 1)), bn...), []string{"nn.sub", "nn.mul", "nn.add"}, ""},
		{"BatchNormalization-8 spatial 0", one(8, node("BatchNormalization", "BN", bnIn, []string{"y"}, intAttrP("spatial", 0)), bn...), nil,
			"node 'BN' (BatchNormalization): spatial=0 is not supported (only 1: one mean and variance per channel)"},
		{"BatchNormalization-6 is_test", one(6, node("BatchNormalization", "BN", bnIn, []string{"y"}, intAttrP("is_test", 1)), bn...), []string{"nn.sub", "nn.mul", "nn.add"}, ""},
		{"BatchNormalization-6 training", one(6, node("BatchNormalization", "BN", bnIn, []string{"y"}), bn...), nil,
			"node 'BN' (BatchNormalization): training mode (is_test=0, the default before opset 7) is not supported"},
		{"BatchNormalization-7 is_test", one(7, node("BatchNormalization", "BN", bnIn, []string{"y"}, intAttrP("is_test", 1)), bn...), nil,
			"node 'BN' (BatchNormalization): attribute 'is_test' exists only before opset 7 (the model's opset is 7)"},
		{"Dropout-6 is_test", one(6, node("Dropout", "D", []string{"x"}, []string{"y"}, intAttrP("is_test", 1))), []string{"nn.return %arg0"}, ""},
		{"Dropout-6 training", one(6, node("Dropout", "D", []string{"x"}, []string{"y"})), nil,
			"node 'D' (Dropout): training mode (is_test=0, the default before opset 7) is not supported"},
		{"Add-6 broadcast from axis 1", one(6, node("Add", "A", []string{"x", "k"}, []string{"y"}, intAttrP("broadcast", 1), intAttrP("axis", 1)), doubles("k", []int64{2}, 1, 2)),
			[]string{`nn.const {params = "k"} : () -> tensor<1x2x1x1xf64>`, "nn.add"}, ""},
		{"Sub-6 broadcast of the last axes", one(6, node("Sub", "S", []string{"x", "k"}, []string{"y"}, intAttrP("broadcast", 1)), doubles("k", []int64{6, 1}, 1, 2, 3, 4, 5, 6)),
			[]string{`nn.const {params = "k"} : () -> tensor<1x1x6x1xf64>`, "nn.sub"}, ""},
		{"Mul-6 broadcast of a graph value", opsetCase(6, []*onnxpb.NodeProto{node("ReduceMean", "R", []string{"x"}, []string{"m"}, intsAttrP("axes", 2, 3), intAttrP("keepdims", 0)),
			node("Mul", "M", []string{"x", "m"}, []string{"y"}, intAttrP("broadcast", 1), intAttrP("axis", 0))}),
			[]string{"nn.reshape", "(tensor<1x2xf64>) -> tensor<1x2x1x1xf64>", "nn.mul"}, ""},
		{"Div-6 by a constant of the same shape", one(6, node("Div", "D", []string{"x", "x"}, []string{"y"})), []string{"nn.inv", "nn.mul"}, ""},
		{"Add-6 without broadcast", one(6, node("Add", "A", []string{"x", "k"}, []string{"y"}), doubles("k", []int64{2}, 1, 2)), nil,
			"node 'A' (Add): operands of shapes [1, 2, 6, 6] and [2] need broadcast=1 before opset 7"},
		{"Add-6 axis beyond A", one(6, node("Add", "A", []string{"x", "k"}, []string{"y"}, intAttrP("broadcast", 1), intAttrP("axis", 4)), doubles("k", []int64{2}, 1, 2)), nil,
			"node 'A' (Add): axis=4 does not place B of shape [2] in A of shape [1, 2, 6, 6]"},
		{"Add-6 B of another size", one(6, node("Add", "A", []string{"x", "k"}, []string{"y"}, intAttrP("broadcast", 1), intAttrP("axis", 1)), doubles("k", []int64{3}, 1, 2, 3)), nil,
			"node 'A' (Add): B of shape [3] does not broadcast to A of shape [1, 2, 6, 6] from axis 1"},
		{"Add-7 broadcast attribute", one(7, node("Add", "A", []string{"x", "k"}, []string{"y"}, intAttrP("broadcast", 1)), doubles("k", []int64{6}, 1, 2, 3, 4, 5, 6)), nil,
			"node 'A' (Add): attribute 'broadcast' exists only before opset 7 (the model's opset is 7)"},
		{"Gemm-6 broadcast", testModel{opset: 6, nodes: []*onnxpb.NodeProto{node("Gemm", "G", []string{"x", "B", "C"}, []string{"y"}, intAttrP("transB", 1), intAttrP("broadcast", 1))},
			inputs: gemmIn, outputs: []*onnxpb.ValueInfoProto{unshaped("y")}, inits: []*onnxpb.TensorProto{doubles("B", []int64{3, 4}, make([]float64, 12)...), doubles("C", []int64{3}, 1, 2, 3)}},
			[]string{"nn.linear"}, ""},
		{"Gemm-6 C without broadcast", testModel{opset: 6, nodes: []*onnxpb.NodeProto{node("Gemm", "G", []string{"x", "B", "C"}, []string{"y"}, intAttrP("transB", 1))},
			inputs: gemmIn, outputs: []*onnxpb.ValueInfoProto{unshaped("y")}, inits: []*onnxpb.TensorProto{doubles("B", []int64{3, 4}, make([]float64, 12)...), doubles("C", []int64{3}, 1, 2, 3)}},
			nil, "node 'G' (Gemm): C of shape [3] is not [1, 3], as broadcast=0 requires before opset 7"},
		{"Upsample-7 scales attribute", one(7, node("Upsample", "U", []string{"x"}, []string{"y"}, floatsAttrP("scales", 1, 1, 2, 2))), []string{"-> tensor<1x2x12x12xf64>"}, ""},
		{"Upsample-9 scales attribute", one(9, node("Upsample", "U", []string{"x", "s"}, []string{"y"}, floatsAttrP("scales", 1, 1, 2, 2)), doubles("s", []int64{4}, 1, 1, 2, 2)), nil,
			"node 'U' (Upsample): scales is input #1 from opset 9, not an attribute (opset 9)"},
		{"Upsample-8 scales input", one(8, node("Upsample", "U", []string{"x", "s"}, []string{"y"}), doubles("s", []int64{4}, 1, 1, 2, 2)), nil,
			"node 'U' (Upsample): scales is an attribute before opset 9, not input #1 (opset 8)"},
		{"Upsample-6", one(6, node("Upsample", "U", []string{"x"}, []string{"y"}, floatsAttrP("scales", 1, 1, 2, 2))), nil, "node 'U' (Upsample): Upsample exists from opset 7 (the model's opset is 6)"},
		{"Sin-6", one(6, node("Sin", "S", []string{"x"}, []string{"y"})), nil, "node 'S' (Sin): Sin exists from opset 7 (the model's opset is 6)"},
		{"BatchNormalization-15 training_mode 1", one(15, node("BatchNormalization", "BN", bnIn, []string{"y"}, intAttrP("training_mode", 1)), bn...), nil, "training_mode=1 is not supported (inference only)"},
		{"BatchNormalization-15 training_mode 2", one(15, node("BatchNormalization", "BN", bnIn, []string{"y"}, intAttrP("training_mode", 2)), bn...), nil, "training_mode=2 must lie in [0, 1]"},
		{"BatchNormalization-15 training outputs", one(15, node("BatchNormalization", "BN", bnIn, []string{"y", "rm", "rv"}), bn...), nil, "node 'BN' (BatchNormalization): output #1 ('rm') is not supported"},
		{"BatchNormalization variable mean", one(9, node("BatchNormalization", "BN", []string{"x", "g", "b", "x", "v"}, []string{"y"}), bn...), nil, "the input_mean (input 'x') must be a constant"},
		{"Gemm-9 transB alpha beta", testModel{opset: 9, nodes: []*onnxpb.NodeProto{node("Gemm", "G", []string{"x", "B", "C"}, []string{"y"}, intAttrP("transB", 1), floatAttrP("alpha", 2), floatAttrP("beta", 0.5))},
			inputs: gemmIn, outputs: []*onnxpb.ValueInfoProto{unshaped("y")}, inits: []*onnxpb.TensorProto{doubles("B", []int64{3, 4}, make([]float64, 12)...), doubles("C", []int64{3}, 1, 2, 3)}},
			[]string{"nn.permute", "nn.matmul", "nn.mul", "nn.add"}, ""},
		{"Div-9 by a constant 3", one(9, node("Div", "D", []string{"x", "k"}, []string{"y"}), doubles("k", nil, 3)), []string{`nn.const {params = "k"}`, "nn.inv %0 : (tensor<f64>) -> tensor<f64>", "nn.mul"}, ""},
		{"Pow-9 of constants folds", opsetCase(9, []*onnxpb.NodeProto{node("Pow", "P", []string{"v", "h"}, []string{"s"}), node("Div", "D", []string{"x", "s"}, []string{"y"})},
			doubles("v", []int64{1}, 2), doubles("h", nil, 0.5)), []string{`nn.const {params = "s"} : () -> tensor<1xf64>`, "nn.inv"}, ""},
		{"Clip-6 attributes", one(9, node("Clip", "K", []string{"x"}, []string{"y"}, floatAttrP("min", 0), floatAttrP("max", 6))),
			[]string{`nn.const {params = "y_min"}`, "nn.max", `nn.const {params = "y_max"}`, "nn.min"}, ""},
		{"Clip-6 min only", one(10, node("Clip", "K", []string{"x"}, []string{"y"}, floatAttrP("min", 0))), []string{"nn.max"}, ""},
		{"Clip-11 inputs", one(11, node("Clip", "K", []string{"x", "lo", "hi"}, []string{"y"}), doubles("lo", nil, -1), doubles("hi", nil, 1)),
			[]string{`nn.const {params = "lo"}`, "nn.max", `nn.const {params = "hi"}`, "nn.min"}, ""},
		{"Clip-13 max only", one(13, node("Clip", "K", []string{"x", "", "hi"}, []string{"y"}), doubles("hi", nil, 1)), []string{"nn.min"}, ""},
		{"Clip-11 min attribute", one(11, node("Clip", "K", []string{"x"}, []string{"y"}, floatAttrP("min", 0))), nil, "node 'K' (Clip): min is input #1 from opset 11, not an attribute"},
		{"Clip-10 min input", one(10, node("Clip", "K", []string{"x", "lo"}, []string{"y"}), doubles("lo", nil, -1)), nil, "node 'K' (Clip): min is an attribute before opset 11"},
		{"Dropout-10 ratio attribute", one(10, node("Dropout", "D", []string{"x"}, []string{"y"}, floatAttrP("ratio", 0.5))), []string{"nn.return %arg0"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := importExpecting(t, c.model.bytes(t), "m.onnx", c.err)
			if res == nil {
				return
			}
			checkContains(t, res.Module.String(), c.want)
		})
	}
}

// TestSoftmaxBefore13 evaluates opset 11's Softmax (default axis 1) of a
// [1, 2, 6, 6] input: one softmax over all 72 values, as ONNX's 2-D
// coercion defines it.
func TestSoftmaxBefore13(t *testing.T) {
	res, err := Import(one(11, node("Softmax", "M", []string{"x"}, []string{"y"})).bytes(t), "m.onnx", Options{})
	if err != nil {
		t.Fatal(err)
	}
	x := tensor.New([]int64{1, 2, 6, 6})
	sum := 0.0
	for i := range x.Data {
		x.Data[i] = math.Sin(float64(i))
		sum += math.Exp(x.Data[i])
	}
	r := evalOn(t, res, x)
	for i, got := range r.Outputs[0].Data {
		if want := math.Exp(x.Data[i]) / sum; math.Abs(got-want) > 1e-15 {
			t.Fatalf("y[%d] = %v, want %v", i, got, want)
		}
	}
}

// importExpecting imports data: with wantErr, the import must fail with an
// error containing it (the result is nil); without, it must succeed.
func importExpecting(t *testing.T, data []byte, path, wantErr string) *Result {
	t.Helper()
	res, err := Import(data, path, Options{})
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("got error %v, want one containing %q", err, wantErr)
		}
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkContains: the printed graph text holds each of want.
func checkContains(t *testing.T, text string, want []string) {
	t.Helper()
	for _, s := range want {
		if !strings.Contains(text, s) {
			t.Errorf("the graph has no %q\n%s", s, text)
		}
	}
}

// evalOn evaluates an imported graph, with its payload, on x.
func evalOn(t *testing.T, res *Result, x *tensor.Tensor) *nneval.Result {
	t.Helper()
	r, err := nneval.Eval(res.Module.Body().Ops[0], []*tensor.Tensor{x}, tensor.PayloadOf(res.Payload), nneval.Options{})
	if err != nil {
		t.Fatalf("eval: %v\n%s", err, res.Module)
	}
	return r
}

// TestBatchNormEval evaluates an imported BatchNormalization (opset 9,
// channel axis 1 of [1, 2, 6, 6], a negative gamma) against
// (x − mean)·gamma/√(var + ε) + B in float64, ε the attribute's float32.
func TestBatchNormEval(t *testing.T) {
	gamma, beta, mean, variance := []float64{0.5, -2}, []float64{0.25, 1}, []float64{1, -3}, []float64{4, 0.1}
	eps := float64(float32(1e-3))
	m := one(9, node("BatchNormalization", "BN", []string{"x", "g", "b", "m", "v"}, []string{"y"}, floatAttrP("epsilon", 1e-3)),
		doubles("g", []int64{2}, gamma...), doubles("b", []int64{2}, beta...), doubles("m", []int64{2}, mean...), doubles("v", []int64{2}, variance...))
	res, err := Import(m.bytes(t), "m.onnx", Options{})
	if err != nil {
		t.Fatal(err)
	}
	x := tensor.New([]int64{1, 2, 6, 6})
	for i := range x.Data {
		x.Data[i] = math.Cos(float64(i)) * 3
	}
	r := evalOn(t, res, x)
	for i, got := range r.Outputs[0].Data {
		c := i / 36
		if want := (x.Data[i]-mean[c])*(gamma[c]/math.Sqrt(variance[c]+eps)) + beta[c]; got != want {
			t.Fatalf("y[%d] = %v, want %v", i, got, want)
		}
	}
}

// TestLegacyBroadcastEval: opset 6's Add with broadcast=1 and axis=1 of a
// [2] constant adds k[c] to every element of channel c, as opset 13's Add
// of the [1, 2, 1, 1] constant does.
func TestLegacyBroadcastEval(t *testing.T) {
	legacy := one(6, node("Add", "A", []string{"x", "k"}, []string{"y"}, intAttrP("broadcast", 1), intAttrP("axis", 1)), doubles("k", []int64{2}, 0.5, -3))
	x := &tensor.Tensor{Shape: []int64{1, 2, 6, 6}}
	for i := range 72 {
		x.Data = append(x.Data, float64(i))
	}
	got := evalOn(t, importExpecting(t, legacy.bytes(t), "m.onnx", ""), x).Outputs[0]
	for i, v := range got.Data {
		if want := float64(i) + []float64{0.5, -3}[i/36]; v != want {
			t.Fatalf("y[%d] = %v, want %v", i, v, want)
		}
	}
}
