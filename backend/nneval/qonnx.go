package nneval

import (
	"fmt"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/internal/tileview"
)

// The QONNX quantizers (nn.quant, nn.bipolar_quant, nn.trunc,
// nn.float_quant) element by
// element, by the scalar rules of dialect/nn (qonnxround.go), with their
// payload entries NumPy-broadcast to the input.

// quantEntry is a quantizer's payload entry broadcast to the input: one
// value, or an array that NumPy-broadcasts to the input's shape.
type quantEntry struct {
	data    []float64
	strides []int64 // per dimension of the input; all 0 for one value
}

// quantEntry reads payload entry params.suffix and checks each of its
// values by rule (nn.CheckScale or nn.CheckZeroPoint).
func (n *node) quantEntry(suffix string, rule func(float64) error) (quantEntry, error) {
	key := n.params() + "." + suffix
	shape := n.ins[0].Shape
	t, ok := n.payload[key]
	if !ok || t == nil {
		return quantEntry{}, fmt.Errorf("the payload has no entry '%s'", key)
	}
	e := quantEntry{data: t.Data, strides: make([]int64, len(shape))}
	switch {
	case len(t.Data) == 0:
		return e, fmt.Errorf("payload entry '%s' holds no values", key)
	case len(t.Data) > 1 && !tileview.Fits(t.Shape, shape):
		return e, fmt.Errorf("payload entry '%s' has shape %s, which does not broadcast to the input's shape %s", key, tensor.ShapeText(t.Shape), tensor.ShapeText(shape))
	case len(t.Data) > 1:
		e.strides = tileview.BroadcastStrides(t.Shape, shape)
	}
	for i, v := range t.Data {
		if err := rule(v); err != nil {
			return e, fmt.Errorf("payload entry '%s', element %d: %v", key, i, err)
		}
	}
	return e, nil
}

// quantEntries reads the node's entries (suffixes, each with its rule) and
// applies f to every input element and its entries' values.
func (n *node) quantEntries(suffixes []string, rules []func(float64) error, f func(x float64, p []float64) float64) (*tensor.Tensor, error) {
	es := make([]quantEntry, len(suffixes))
	for i, s := range suffixes {
		var err error
		if es[i], err = n.quantEntry(s, rules[i]); err != nil {
			return nil, err
		}
	}
	x, y := n.ins[0], n.result()
	c := make([]int64, len(x.Shape))
	p := make([]float64, len(es))
	for k, v := range x.Data {
		for i, e := range es {
			p[i] = e.data[tileview.Linear(c, e.strides)]
		}
		y.Data[k] = f(v, p)
		tileview.Next(c, x.Shape)
	}
	return y, nil
}

var (
	scaleAndZero = []string{"scale", "zero_point"}
	scaleRules   = []func(float64) error{nn.CheckScale, nn.CheckZeroPoint, nn.CheckScale}
)

// quantize is nn.quant: QONNX's int_quant.
func quantize(n *node) (*tensor.Tensor, error) {
	s, err := nn.QuantSpecOf(n.op)
	if err != nil {
		return nil, err
	}
	return n.quantEntries(scaleAndZero, scaleRules, func(x float64, p []float64) float64 {
		return s.QuantValue(x, p[0], p[1])
	})
}

// bipolarQuantize is nn.bipolar_quant: QONNX's binary_quant.
func bipolarQuantize(n *node) (*tensor.Tensor, error) {
	return n.quantEntries(scaleAndZero[:1], scaleRules, func(x float64, p []float64) float64 {
		return nn.BipolarValue(x, p[0])
	})
}

// truncate is nn.trunc: QONNX's trunc_v1, or trunc_v2 with the entry
// output_scale.
func truncate(n *node) (*tensor.Tensor, error) {
	s, err := nn.QuantSpecOf(n.op)
	if err != nil {
		return nil, err
	}
	names := scaleAndZero
	if s.Version == 2 {
		names = append(names[:2:2], "output_scale")
	}
	return n.quantEntries(names, scaleRules, func(x float64, p []float64) float64 {
		out := 0.0
		if len(p) > 2 {
			out = p[2]
		}
		return s.TruncValue(x, p[0], p[1], out)
	})
}

// floatQuantize is nn.float_quant: QONNX's float_quant (signed,
// saturating) with the entries scale and max_val.
func floatQuantize(n *node) (*tensor.Tensor, error) {
	s, err := nn.FloatQuantSpecOf(n.op)
	if err != nil {
		return nil, err
	}
	return n.quantEntries([]string{"scale", "max_val"}, []func(float64) error{nn.CheckScale, nn.CheckMaxVal}, func(x float64, p []float64) float64 {
		return s.FloatQuantValue(x, p[0], p[1])
	})
}

// multiThreshold is nn.multithreshold: QONNX's multithreshold, with the
// payload entry params.thresholds (Thresholds).
func multiThreshold(n *node) (*tensor.Tensor, error) {
	m, err := nn.MultiThresholdOf(n.op)
	if err != nil {
		return nil, err
	}
	key := n.params() + ".thresholds"
	t, ok := n.payload[key]
	if !ok || t == nil {
		return nil, fmt.Errorf("the payload has no entry '%s'", key)
	}
	x, y := n.ins[0], n.result()
	row, err := Thresholds(t, key, x.Shape, m.Axis)
	if err != nil {
		return nil, err
	}
	for i, v := range x.Data {
		y.Data[i] = m.Value(nn.Count(v, row(i)))
	}
	return y, nil
}

// Thresholds checks nn.multithreshold's payload entry t (named key) for an
// input of the given shape with its channels along axis: [C, T], C the
// input's size along the axis or 1 (one row for every channel), no NaN.
// It returns each element's row of thresholds, by the element's flat
// index.
func Thresholds(t *tensor.Tensor, key string, shape []int64, axis int) (func(i int) []float64, error) {
	if len(t.Shape) != 2 {
		return nil, fmt.Errorf("payload entry '%s' has shape %s, but thresholds are [C, T]", key, tensor.ShapeText(t.Shape))
	}
	c, k := t.Shape[0], t.Shape[1]
	if c != 1 && c != shape[axis] {
		return nil, fmt.Errorf("payload entry '%s' has %d rows, but the input has %d channels along axis %d (give one row for all, or one per channel)", key, c, shape[axis], axis)
	}
	for i, v := range t.Data {
		if err := nn.CheckThreshold(v); err != nil {
			return nil, fmt.Errorf("payload entry '%s', element %d: %v", key, i, err)
		}
	}
	inner := tensor.NumElements(shape[axis+1:])
	return func(i int) []float64 {
		ch := int64(0)
		if c > 1 {
			ch = int64(i) / inner % shape[axis]
		}
		return t.Data[ch*k : (ch+1)*k]
	}, nil
}
