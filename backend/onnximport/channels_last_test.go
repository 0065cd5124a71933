package onnximport

import (
	"slices"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/internal/onnxpb"
	"google.golang.org/protobuf/proto"
)

// clNode is a node of QONNX's channels-last domain.
func clNode(op, name string, in, out []string, attrs ...*onnxpb.AttributeProto) *onnxpb.NodeProto {
	n := node(op, name, in, out, attrs...)
	n.Domain = proto.String(ChannelsLastDomain)
	return n
}

// TestChannelsLast: a chain of channels-last nodes (a Conv with padding
// and a bias, a BatchNormalization, a MaxPool, on [1, 5, 5, 2]) gives, on
// one input, the very outputs of the channels-first model QONNX's wrapper
// executes (Transpose, the same operators with the weight transposed,
// Transpose back); between channels-last nodes the permutes cancel, and
// the BatchNormalization folds into the Conv as it does channels-first.
func TestChannelsLast(t *testing.T) {
	const oc, c, k = 3, 2, 3
	wFirst := make([]float64, oc*c*k*k) // [O, C, kH, kW]
	for i := range wFirst {
		wFirst[i] = float64(i%7) - 3
	}
	wLast := make([]float64, len(wFirst)) // [O, kH, kW, C]
	for o := range oc {
		for ch := range c {
			for i := range k * k {
				wLast[(o*k*k+i)*c+ch] = wFirst[(o*c+ch)*k*k+i]
			}
		}
	}
	conv := []*onnxpb.AttributeProto{intsAttrP("kernel_shape", k, k), intsAttrP("pads", 1, 0, 1, 2)}
	pool := []*onnxpb.AttributeProto{intsAttrP("kernel_shape", 2, 2), intsAttrP("strides", 2, 2)}
	params := append(bnParams(oc), doubles("bias", []int64{oc}, 0.5, -1, 2))
	last := testModel{opset: 13, inputs: []*onnxpb.ValueInfoProto{tensorInfo("x", 1, 5, 5, c)}, outputs: []*onnxpb.ValueInfoProto{unshaped("y")},
		inits: append(slices.Clone(params), doubles("w", []int64{oc, k, k, c}, wLast...)),
		nodes: []*onnxpb.NodeProto{clNode("Conv", "C", []string{"x", "w", "bias"}, []string{"h"}, conv...),
			clNode("BatchNormalization", "BN", []string{"h", "g", "b", "m", "v"}, []string{"n"}),
			clNode("MaxPool", "P", []string{"n"}, []string{"y"}, pool...)}}
	first := testModel{opset: 13, inputs: last.inputs, outputs: last.outputs,
		inits: append(slices.Clone(params), doubles("w", []int64{oc, c, k, k}, wFirst...)),
		nodes: []*onnxpb.NodeProto{node("Transpose", "T", []string{"x"}, []string{"xf"}, intsAttrP("perm", 0, 3, 1, 2)),
			node("Conv", "C", []string{"xf", "w", "bias"}, []string{"h"}, conv...),
			node("BatchNormalization", "BN", []string{"h", "g", "b", "m", "v"}, []string{"n"}),
			node("MaxPool", "P", []string{"n"}, []string{"p"}, pool...),
			node("Transpose", "U", []string{"p"}, []string{"y"}, intsAttrP("perm", 0, 2, 3, 1))}}
	x := &tensor.Tensor{Shape: []int64{1, 5, 5, c}}
	for i := range 5 * 5 * c {
		x.Data = append(x.Data, float64((i*5)%11)-5)
	}
	res := importExpecting(t, last.bytes(t), "last.onnx", "")
	text := res.Module.String()
	if n := strings.Count(text, "nn.permute"); n != 2 {
		t.Errorf("%d permutes, want 2 (in and out; those between the nodes cancel):\n%s", n, text)
	}
	checkContains(t, text, []string{"nn.conv2d", "nn.max_pool2d", "-> tensor<1x2x2x3xf64>"})
	if strings.Contains(text, "nn.mul") {
		t.Errorf("the BatchNormalization did not fold into the Conv:\n%s", text)
	}
	got := evalOn(t, res, x).Outputs[0]
	want := evalOn(t, importExpecting(t, first.bytes(t), "first.onnx", ""), x).Outputs[0]
	if !slices.Equal(got.Shape, want.Shape) || !slices.Equal(got.Data, want.Data) {
		t.Errorf("channels-last %v %v\nchannels-first %v %v", got.Shape, got.Data, want.Shape, want.Data)
	}
}

// TestChannelsLastErrors: what the domain does not hold, each naming the node.
func TestChannelsLastErrors(t *testing.T) {
	w := doubles("w", []int64{1, 1, 1, 2}, 1, 1)
	for _, c := range []struct {
		name  string
		model testModel
		err   string
	}{
		{"operator", seq(13, []int64{1, 2, 2, 2}, []*onnxpb.NodeProto{clNode("Relu", "R", []string{"x"}, []string{"y"})}),
			"node 'R' (Relu): operator Relu of the domain 'qonnx.custom_op.channels_last' is not supported (only BatchNormalization, Conv, MaxPool)"},
		{"rank", seq(13, []int64{1, 2}, []*onnxpb.NodeProto{clNode("MaxPool", "P", []string{"x"}, []string{"y"}, intsAttrP("kernel_shape", 1))}),
			"node 'P' (MaxPool): input must have rank 3 or more ([N, ..., C]), but has shape [1, 2]"},
		{"weight rank", seq(13, []int64{1, 2, 2, 2}, []*onnxpb.NodeProto{clNode("Conv", "C", []string{"x", "w"}, []string{"y"})}, doubles("w", []int64{1, 2}, 1, 1)),
			"node 'C' (Conv): weight of shape [1, 2] does not fit an input of shape [1, 2, 2, 2]"},
		{"after Pad", seq(13, []int64{1, 2, 2, 2}, []*onnxpb.NodeProto{node("Pad", "Q", []string{"x", "p"}, []string{"z"}),
			clNode("Conv", "C", []string{"z", "w"}, []string{"y"})}, int64s("p", 0, 0, 1, 1, 0, 0, 1, 1), w),
			"node 'C' (Conv): the output of Pad 'z' cannot be read by a channels-last node"},
	} {
		t.Run(c.name, func(t *testing.T) {
			importExpecting(t, c.model.bytes(t), "m.onnx", c.err)
		})
	}
}
