package onnximport

import (
	"math"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/internal/onnxpb"
)

// TestConvQuantizedWeights imports a Conv whose weight is a BipolarQuant
// (per-output-channel scales [3, 1, 1, 1]) and whose bias is a Trunc of
// constants: the payload holds the codes ±1 and the scales, and the
// evaluator equals the convolution by the quantized values, computed here.
func TestConvQuantizedWeights(t *testing.T) {
	const oc, c, k = 3, 2, 3
	w := make([]float64, oc*c*k*k)
	for i := range w {
		w[i] = float64(i%5) - 2.5
	}
	scales := []float64{0.75, 0.1875, 3}
	bias := []float64{1.3, -0.6, 2.2}
	m := testModel{
		inputs:  []*onnxpb.ValueInfoProto{tensorInfo("x", 1, c, 4, 4)},
		outputs: []*onnxpb.ValueInfoProto{tensorInfo("y", 1, oc, 4, 4)},
		inits: []*onnxpb.TensorProto{doubles("w", []int64{oc, c, k, k}, w...), doubles("s", []int64{oc, 1, 1, 1}, scales...),
			doubles("b", []int64{oc}, bias...), doubles("ts", nil, 0.5), doubles("tz", nil, 0), doubles("ib", nil, 8), doubles("ob", nil, 6)},
		nodes: []*onnxpb.NodeProto{
			node("BipolarQuant", "Q", []string{"w", "s"}, []string{"wq"}),
			node("Trunc", "T", []string{"b", "ts", "tz", "ib", "ob"}, []string{"bq"}),
			node("Conv", "C", []string{"x", "wq", "bq"}, []string{"y"}, intsAttrP("pads", 1, 1, 1, 1)),
		},
	}
	m.nodes[0].Domain = proto.String("qonnx.custom_op.general")
	m.nodes[1].Domain = proto.String("qonnx.custom_op.general")
	res, err := Import(m.bytes(t), "conv.onnx", Options{})
	if err != nil {
		t.Fatal(err)
	}
	codes := res.Payload.Arrays["C.weight"].Floats
	for i, v := range codes {
		if want := math.Copysign(1, w[i]); v != want {
			t.Fatalf("C.weight[%d] = %v, want %v", i, v, want)
		}
	}
	if got := res.Payload.Arrays["C.weight_scale"].Floats; !slices.Equal(got, scales) {
		t.Errorf("C.weight_scale = %v, want %v", got, scales)
	}
	x := &tensor.Tensor{Shape: []int64{1, c, 4, 4}}
	for i := range 1 * c * 16 {
		x.Data = append(x.Data, float64(i%7)-3)
	}
	r := evalOn(t, res, x)
	// trunc v1 with scale 0.5, 8 to 6 bits, FLOOR: floor(round(b/0.5)/4)·0.5
	for o := range oc {
		b := math.Floor(math.RoundToEven(bias[o]/0.5)/4) * 0.5
		for i := range int64(4) {
			for j := range int64(4) {
				want := b
				nneval.Taps(4, 4, k, k, 1, 1, i, j, func(at, di, dj int64) {
					for ch := range int64(c) {
						want += math.Copysign(scales[o], w[((int64(o)*c+ch)*k+di)*k+dj]) * x.Data[ch*16+at]
					}
				})
				if got := r.Outputs[0].Data[(int64(o)*4+i)*4+j]; got != want {
					t.Errorf("y[%d, %d, %d] = %v, want %v", o, i, j, got, want)
				}
			}
		}
	}
}
