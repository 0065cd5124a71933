package nneval

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/parse"
)

const errGraph = `nn.graph @g(%x: tensor<3xf64>) -> tensor<2xf64> {
  %c = nn.const {params = "k"} : () -> tensor<2x2xf64>
  %y = nn.linear %x {params = "fc"} : (tensor<3xf64>) -> tensor<2xf64>
  nn.return %y : tensor<2xf64>
}
`

// TestPayloadErrors: a missing or misshapen payload entry, or an input of
// the wrong shape, is an error at the node (or argument) naming it and the
// key.
func TestPayloadErrors(t *testing.T) {
	m, err := parse.Parse("g.mlir", []byte(errGraph), parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := FindGraph(m, "@g")
	if err != nil {
		t.Fatal(err)
	}
	x := &tensor.Tensor{Shape: []int64{3}, Data: []float64{1, 2, 3}}
	k := &tensor.Tensor{Shape: []int64{4}, Data: []float64{1, 2, 3, 4}}
	w := &tensor.Tensor{Shape: []int64{2, 3}, Data: make([]float64, 6)}
	b := &tensor.Tensor{Shape: []int64{2}, Data: []float64{1, 2}}
	for _, c := range []struct {
		what string
		in   *tensor.Tensor
		p    tensor.Payload
		want string
	}{
		{"no const entry", x, tensor.Payload{}, "g.mlir:2:3: error: 'nn.const' op %c: the payload has no entry 'k'"},
		{"const count", x, tensor.Payload{"k": b}, "g.mlir:2:3: error: 'nn.const' op %c: payload entry 'k' has 2 elements (shape [2]), but the node's type 'tensor<2x2xf64>' holds 4"},
		{"no weight", x, tensor.Payload{"k": k}, "g.mlir:3:3: error: 'nn.linear' op %y: the payload has no entry 'fc.weight'"},
		{"weight shape", x, tensor.Payload{"k": k, "fc.weight": k, "fc.bias": b}, "g.mlir:3:3: error: 'nn.linear' op %y: payload entry 'fc.weight' has shape [4], but the node needs [2, 3]"},
		{"bias shape", x, tensor.Payload{"k": k, "fc.weight": w, "fc.bias": k}, "payload entry 'fc.bias' has shape [4], but the node needs [2]"},
		{"input shape", k, tensor.Payload{}, "g.mlir:1:13: error: graph @g: input #0 (%x) has shape [4], but the argument's type is 'tensor<3xf64>'"},
	} {
		_, err := Eval(g, []*tensor.Tensor{c.in}, c.p, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.what, err, c.want)
		}
	}
	if res, err := Eval(g, []*tensor.Tensor{x}, tensor.Payload{"k": k, "fc.weight": w, "fc.bias": b}, Options{}); err != nil || res.Outputs[0].Data[1] != 2 || len(res.Values) != 3 {
		t.Fatalf("got %v, %v", res, err)
	}
	if _, err := Eval(g, []*tensor.Tensor{x}, tensor.Payload{"k": k}, Options{MaxElements: 3}); err == nil || !strings.Contains(err.Error(), "more than 3 elements") {
		t.Errorf("MaxElements: got %v", err)
	}
}

func TestFindGraph(t *testing.T) {
	src := errGraph + strings.ReplaceAll(errGraph, "@g", "@h")
	m, err := parse.Parse("g.mlir", []byte(src), parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g, err := FindGraph(m, "h"); err != nil || g == nil {
		t.Fatalf("h: %v", err)
	}
	for name, want := range map[string]string{"": "holds 2 graphs (@g, @h): choose one with --entry", "@z": "has no graph @z (it has @g, @h)"} {
		if _, err := FindGraph(m, name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", name, err, want)
		}
	}
}

// TestBudget: the values together and the multiply-accumulates of linear,
// matmul, conv2d and the pools are bounded, and the node that crosses a
// bound is named.
func TestBudget(t *testing.T) {
	src := `nn.graph @g(%x: tensor<4x8xf64>) -> tensor<4x4xf64> {
  %a = nn.matmul %x, %w : (tensor<4x8xf64>, tensor<8x4xf64>) -> tensor<4x4xf64>
  nn.return %a : tensor<4x4xf64>
}
`
	src = strings.Replace(src, "%w", "%t", 1)
	src = strings.Replace(src, "  %a", "  %t = nn.permute %x {perm = [1, 0]} : (tensor<4x8xf64>) -> tensor<8x4xf64>\n  %a", 1)
	m, err := parse.Parse("b.mlir", []byte(src), parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := FindGraph(m, "@g")
	if err != nil {
		t.Fatal(err)
	}
	x := tensor.New([]int64{4, 8})
	// x (32) + %t (32) + %a (16) = 80 elements; %a takes 4·4·8 = 128 MACs.
	for _, c := range []struct {
		opts Options
		want string
	}{
		{Options{MaxTotalElements: 79}, "b.mlir:3:3: error: 'nn.matmul' op %a: the graph's values up to this node hold more than 79 elements together"},
		{Options{MaxTotalElements: 63}, "b.mlir:2:3: error: 'nn.permute' op %t: the graph's values up to this node hold more than 63 elements together"},
		{Options{MaxWork: 127}, "b.mlir:3:3: error: 'nn.matmul' op %a: the graph's nodes up to this one take more than 127 multiply-accumulates"},
		{Options{MaxTotalElements: 80, MaxWork: 128}, ""},
	} {
		_, err := Eval(g, []*tensor.Tensor{x}, nil, c.opts)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: got %v, want %q", c.opts, err, c.want)
		}
	}
}

// TestWindowWork: a convolution's work counts its in-channels and kernel
// cells per result element, a pool's its kernel cells.
func TestWindowWork(t *testing.T) {
	src := `nn.graph @g(%x: tensor<1x2x4x4xf64>) -> tensor<1x3x2x2xf64> {
  %c = nn.conv2d %x {kernel = [3, 3], params = "conv", stride = 1} : (tensor<1x2x4x4xf64>) -> tensor<1x3x2x2xf64>
  %p = nn.max_pool2d %c {kernel = [2, 2], stride = 1, padding = 1} : (tensor<1x3x2x2xf64>) -> tensor<1x3x3x3xf64>
  nn.return %c : tensor<1x3x2x2xf64>
}
`
	m, err := parse.Parse("w.mlir", []byte(src), parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := FindGraph(m, "@g")
	if err != nil {
		t.Fatal(err)
	}
	p := tensor.Payload{"conv.weight": tensor.New([]int64{3, 2, 3, 3}), "conv.bias": tensor.New([]int64{3})}
	x := tensor.New([]int64{1, 2, 4, 4})
	// conv: 12 results · 2 channels · 9 cells = 216; pool: 27 · 4 = 108.
	if _, err := Eval(g, []*tensor.Tensor{x}, p, Options{MaxWork: 215}); err == nil || !strings.Contains(err.Error(), "'nn.conv2d' op %c") {
		t.Errorf("conv: got %v", err)
	}
	if _, err := Eval(g, []*tensor.Tensor{x}, p, Options{MaxWork: 323}); err == nil || !strings.Contains(err.Error(), "'nn.max_pool2d' op %p") {
		t.Errorf("pool: got %v", err)
	}
	if _, err := Eval(g, []*tensor.Tensor{x}, p, Options{MaxWork: 324}); err != nil {
		t.Errorf("within the budget: %v", err)
	}
}

// TestInlineConstErrors: an inline constant's values that its quantized
// result type cannot hand over as float64 numbers, or that need more than
// the exact arithmetic's bits, are errors at the node naming the inline
// value (not a payload entry); the payload is not read.
func TestInlineConstErrors(t *testing.T) {
	for _, c := range []struct{ what, typ, value, want string }{
		{"saturated wide type", "!quant.uniform<i60:f64, 1.0>", "dense<1.0e+300> : tensor<2xf64>",
			"c.mlir:2:3: error: 'nn.const' op %c: inline value rounds to 576460752303423487·2^0 at flat index 0, which a float64 cannot hold"},
		{"exact, too many bits", "f64", "dense<[1.0e+10, 1.0e-10]> : tensor<2xf64>",
			"c.mlir:2:3: error: 'nn.const' op %c: inline value needs more than 62 bits at one scale"},
	} {
		src := `nn.graph @g(%x: tensor<2x!quant.uniform<i8:f64, 1.0>>) -> tensor<2x` + c.typ + `> {
  %c = nn.const {value = ` + c.value + `} : () -> tensor<2x` + c.typ + `>
  nn.return %c : tensor<2x` + c.typ + `>
}
`
		m, err := parse.Parse("c.mlir", []byte(src), parse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		g, err := FindGraph(m, "@g")
		if err != nil {
			t.Fatal(err)
		}
		_, err = Eval(g, []*tensor.Tensor{{Shape: []int64{2}, Data: []float64{1, 2}}}, nil, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.what, err, c.want)
		}
	}
}
