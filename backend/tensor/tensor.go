// Package tensor holds the values of nn graphs outside any one tool: a
// Tensor (flat row-major float64 data and its shape), a Payload (a graph's
// parameters by key, read from an .npz archive, each file once a run by
// Payloads), tensor files (.npy), and batches of samples. The evaluator
// (backend/nneval), the network lowerings (lower/nn/...) and the commands
// share them without one importing the other for its data.
package tensor

import (
	"fmt"
	"strings"
)

// Tensor is an nn value: row-major float64 data and its shape ([] for
// rank 0, one value).
type Tensor struct {
	Shape []int64
	Data  []float64
}

// NumElements is the product of the dimensions.
func NumElements(shape []int64) int64 {
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	return n
}

// New returns a zero tensor of the given shape.
func New(shape []int64) *Tensor {
	return &Tensor{Shape: append([]int64{}, shape...), Data: make([]float64, NumElements(shape))}
}

// Payload holds the parameters of a graph by key: NAME for nn.const,
// NAME.weight and NAME.bias for nn.linear and nn.conv2d (PyTorch's
// state_dict names).
type Payload map[string]*Tensor

// ShapeText prints a shape as the spec does: [2, 3], [] for rank 0.
func ShapeText(s []int64) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = fmt.Sprint(d)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
