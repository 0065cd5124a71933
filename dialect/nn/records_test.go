package nn

import (
	"testing"

	"github.com/otir-dev/otir/ir"
)

// specKinds are the node kinds of ../shared/spec/nn-graph-ops.md, section 1
// (TorchLean's 40 kinds: the padded pools are the unpadded ops' padding > 0;
// graph arguments are nn.graph's), with nn.return and nn.graph, which hold
// them.
var specKinds = []string{
	"nn.const", "nn.permute", "nn.detach", "nn.rand_uniform", "nn.bernoulli_mask",
	"nn.add", "nn.sub", "nn.mul", "nn.max", "nn.min",
	"nn.abs", "nn.sqrt", "nn.inv", "nn.relu", "nn.tanh", "nn.sigmoid", "nn.exp", "nn.log", "nn.sin", "nn.cos",
	"nn.max_pool2d", "nn.avg_pool2d", "nn.conv2d", "nn.linear", "nn.matmul", "nn.broadcast_to",
	"nn.reduce_sum", "nn.reduce_mean", "nn.sum", "nn.softmax", "nn.layer_norm",
	"nn.reshape", "nn.flatten", "nn.concat", "nn.swap_first_two", "nn.transpose3d_last_two", "nn.mse_loss",
	"nn.return",
}

// extensionKinds are otir's node kinds beyond the spec (docs/nn.md): the
// QONNX quantizers and nn.requantize.
var extensionKinds = []string{"nn.quant", "nn.bipolar_quant", "nn.trunc", "nn.float_quant", "nn.multithreshold", "nn.requantize"}

// Every node kind of the specification has a record, and the dialect has no
// other operation than those and nn.graph.
func TestEverySpecKindHasARecord(t *testing.T) {
	if len(specKinds) != 37+1 {
		t.Fatalf("the spec has 37 node kinds and nn.return, the list has %d", len(specKinds))
	}
	want := map[string]bool{OpGraph: true}
	for _, k := range specKinds {
		want[k] = true
		if ir.LookupOp(k) == nil {
			t.Errorf("spec node kind %s has no record", k)
		}
	}
	for _, k := range extensionKinds {
		want[k] = true
	}
	for _, d := range ir.DialectOps("nn") {
		if !want[d.Name] {
			t.Errorf("%s is not a node kind of the spec nor a documented extension", d.Name)
		}
	}
}

// Every record is complete: a summary, a format whose $names are declared
// (and that names every operand group and region), a Verify hook unless
// NoVerify says why none is needed; every node but nn.graph and nn.return
// lives in a graph; nothing is Elementwise (that trait means the otir
// typing rules).
func TestRecordsAreComplete(t *testing.T) {
	for _, p := range ir.DialectRecordProblems("nn", NoVerify) {
		t.Error(p)
	}
	for _, d := range ir.DialectOps("nn") {
		if d.Name != OpGraph && (len(d.Parents) != 1 || d.Parents[0] != OpGraph) {
			t.Errorf("%s: its parent must be %s, got %v", d.Name, OpGraph, d.Parents)
		}
		if d.Has(ir.Elementwise) || d.Typing != "" {
			t.Errorf("%s: Elementwise or a Typing key (the otir typing rules do not apply to nn)", d.Name)
		}
	}
	for _, p := range ir.FamilyProblems("nn", 39, registered...) {
		t.Error(p)
	}
}

// The random nodes are never merged (each is a fresh draw) but may be
// dropped when unused; every other node is pure.
func TestEffects(t *testing.T) {
	for _, d := range ir.DialectOps("nn") {
		want := ir.NoEffect
		if d.Name == OpRandUniform || d.Name == OpBernoulliMask {
			want = ir.AllocEffect
		}
		if d.Effect != want || d.EffectOf != nil {
			t.Errorf("%s: effect %s, want %s", d.Name, d.Effect, want)
		}
	}
}

// Inference gives the shape rule's result where the operands and
// attributes determine it, and says so where they do not.
func TestInferResult(t *testing.T) {
	f64 := ir.Float(ir.F64)
	ten := func(s ...int64) ir.Type { return ir.Tensor(s, f64) }
	ints := func(vs ...int64) *ir.ArrayAttr {
		a := &ir.ArrayAttr{}
		for _, v := range vs {
			a.Elems = append(a.Elems, ir.I64(v))
		}
		return a
	}
	cases := []struct {
		name  string
		ins   []ir.Type
		attrs ir.Attrs
		want  string
	}{
		{OpRelu, []ir.Type{ten(3, 4)}, nil, "tensor<3x4xf64>"},
		{OpAdd, []ir.Type{ten(3), ten(3)}, nil, "tensor<3xf64>"},
		{OpAdd, []ir.Type{ten(3), ten(1)}, nil, "'nn.add' op operands must have the same shape (element-wise operands do not broadcast: use nn.broadcast_to), but got 'tensor<3xf64>' and 'tensor<1xf64>'"},
		{OpMatmul, []ir.Type{ten(2, 3, 4), ten(2, 4, 5)}, nil, "tensor<2x3x5xf64>"},
		{OpPermute, []ir.Type{ten(2, 3, 4)}, ir.Attrs{{Name: "perm", Value: ints(2, 0, 1)}}, "tensor<4x2x3xf64>"},
		{OpReduceMean, []ir.Type{ten(2, 3, 4)}, ir.Attrs{{Name: "axis", Value: ir.I64(1)}}, "tensor<2x4xf64>"},
		{OpSum, []ir.Type{ten(2, 3)}, nil, "tensor<f64>"},
		{OpFlatten, []ir.Type{ten(2, 3)}, nil, "tensor<6xf64>"},
		{OpConcat, []ir.Type{ten(2, 3), ten(2, 5)}, ir.Attrs{{Name: "axis", Value: ir.I64(1)}}, "tensor<2x8xf64>"},
		{OpMaxPool2d, []ir.Type{ten(5, 3, 8, 8)}, ir.Attrs{{Name: "kernel", Value: ints(2, 2)}, {Name: "stride", Value: ir.I64(2)}}, "tensor<5x3x4x4xf64>"},
		{OpSwapFirstTwo, []ir.Type{ten(2, 3, 4)}, nil, "tensor<3x2x4xf64>"},
		{OpTranspose3dLast, []ir.Type{ten(2, 3, 4)}, nil, "tensor<2x4x3xf64>"},
		{OpMseLoss, []ir.Type{ten(3), ten(3)}, nil, "tensor<f64>"},
		{OpLinear, []ir.Type{ten(3)}, ir.Attrs{{Name: "params", Value: &ir.StringAttr{Value: "fc"}}}, "'nn.linear' op the result type must be written"},
		{OpReshape, []ir.Type{ten(6)}, nil, "'nn.reshape' op the result type must be written"},
	}
	for _, c := range cases {
		got, err := InferResult(c.name, c.ins, c.attrs)
		s := ""
		if err != nil {
			s = err.Error()
		} else {
			s = got.String()
		}
		if s != c.want {
			t.Errorf("InferResult(%s, %v) = %s, want %s", c.name, c.ins, s, c.want)
		}
	}
}
