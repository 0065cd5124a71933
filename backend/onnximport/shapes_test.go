package onnximport

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/internal/onnxpb"
)

// TestZeroSizeHugeShapes: a shape with a zero dimension holds no elements,
// but its other dimensions must still make a type the parser reads back
// (each at most 2^31, their product bounded): the importer used to write
// tensor<0x4611686018427387904x...> graphs that otir-opt rejects.
func TestZeroSizeHugeShapes(t *testing.T) {
	info := func(n string, d ...int64) []*onnxpb.ValueInfoProto {
		return []*onnxpb.ValueInfoProto{tensorInfo(n, d...)}
	}
	reshape := []*onnxpb.NodeProto{node("Reshape", "R", []string{"x", "s"}, []string{"y"})}
	relu := []*onnxpb.NodeProto{node("Relu", "N", []string{"x"}, []string{"y"})}
	cases := []struct {
		name  string
		model testModel
		want  string
	}{
		{"reshape to huge dims after a zero", testModel{nodes: reshape, inputs: info("x", 0, 3), outputs: info("y", 0, 1<<62, 1<<62),
			inits: []*onnxpb.TensorProto{int64s("s", 0, 1<<62, 1<<62)}}, "node 'R' (Reshape): shape [0, 4611686018427387904] holds more than 268435456 elements"},
		{"graph input with a zero and a huge dimension", testModel{nodes: relu, inputs: info("x", 0, 1<<40), outputs: info("y", 0, 1<<40)},
			"graph input 'x': shape [0, 1099511627776] holds more than 268435456 elements"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Import(c.model.bytes(t), "m.onnx", Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error containing %q", err, c.want)
			}
			// Above the element limit, a dimension the parser rejects.
			_, err = Import(c.model.bytes(t), "m.onnx", Options{MaxElements: 1 << 62})
			if err == nil || !strings.Contains(err.Error(), "has a dimension larger than 2147483648") {
				t.Errorf("with MaxElements 2^62: got %v, want a dimension error", err)
			}
		})
	}
}
