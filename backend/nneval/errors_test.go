package nneval

import (
	"fmt"
	"math"
	"math/rand/v2"
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
	g := parseGraph(t, "g.mlir", errGraph)
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
	g := parseGraph(t, "b.mlir", src)
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
// cells per result element (one cell for an in-channel whose weights are
// all zero: a grouped convolution written dense), a pool's its kernel
// cells.
func TestWindowWork(t *testing.T) {
	src := `nn.graph @g(%x: tensor<1x2x4x4xf64>) -> tensor<1x3x2x2xf64> {
  %c = nn.conv2d %x {kernel = [3, 3], params = "conv", stride = 1} : (tensor<1x2x4x4xf64>) -> tensor<1x3x2x2xf64>
  %p = nn.max_pool2d %c {kernel = [2, 2], stride = 1, padding = 1} : (tensor<1x3x2x2xf64>) -> tensor<1x3x3x3xf64>
  nn.return %c : tensor<1x3x2x2xf64>
}
`
	g := parseGraph(t, "w.mlir", src)
	w := tensor.New([]int64{3, 2, 3, 3})
	for i := range w.Data {
		w.Data[i] = 1
	}
	p := tensor.Payload{"conv.weight": w, "conv.bias": tensor.New([]int64{3})}
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
	// Output channel o reads input channel o % 2 only: 3 of the 6 blocks
	// are zeros, 4 results · (3 · 9 + 3) = 120.
	for o := range int64(3) {
		for k := range int64(9) {
			w.Data[(o*2+(o+1)%2)*9+k] = 0
		}
	}
	if _, err := Eval(g, []*tensor.Tensor{x}, p, Options{MaxWork: 119}); err == nil || !strings.Contains(err.Error(), "'nn.conv2d' op %c") {
		t.Errorf("grouped conv: got %v", err)
	}
	if _, err := Eval(g, []*tensor.Tensor{x}, p, Options{MaxWork: 120 + 108}); err != nil {
		t.Errorf("grouped conv within the budget: %v", err)
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
		g := parseGraph(t, "c.mlir", src)
		_, err := Eval(g, []*tensor.Tensor{{Shape: []int64{2}, Data: []float64{1, 2}}}, nil, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.what, err, c.want)
		}
	}
}

// TestConvZeroBlocks: nn.conv2d, which skips its weight blocks of zeros
// (a grouped convolution written dense), gives the dense sum's values: on
// 400 random convolutions (strides, padding, blocks of zeros) of inputs
// that hold ±inf and NaN, each output equals the dense left-to-right sum
// from +0, bit for bit (its sign of zero too), or both are NaN.
func TestConvZeroBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 11))
	for trial := range 400 {
		c, oc, h, w := 1+rng.Int64N(3), 1+rng.Int64N(3), 1+rng.Int64N(6), 1+rng.Int64N(6)
		pad, stride := rng.Int64N(2), 1+rng.Int64N(2)
		kh, kw := 1+rng.Int64N(min(h+2*pad, 3)), 1+rng.Int64N(min(w+2*pad, 3))
		oh, ow := (h+2*pad-kh)/stride+1, (w+2*pad-kw)/stride+1
		wt := tensor.New([]int64{oc, c, kh, kw})
		for bl := range oc * c {
			if rng.IntN(2) == 0 {
				continue // a block of zeros (+0 and −0)
			}
			for k := range kh * kw {
				wt.Data[bl*kh*kw+k] = float64(rng.IntN(7)-3) / 2
			}
		}
		if rng.IntN(4) == 0 {
			wt.Data[rng.Int64N(oc*c*kh*kw)] = math.Copysign(0, -1)
		}
		x := tensor.New([]int64{1, c, h, w})
		for i := range x.Data {
			switch rng.IntN(12) {
			case 0:
				x.Data[i] = math.Inf(1)
			case 1:
				x.Data[i] = math.Inf(-1)
			case 2:
				x.Data[i] = math.NaN()
			default:
				x.Data[i] = float64(rng.IntN(9) - 4)
			}
		}
		bias := tensor.New([]int64{oc})
		src := fmt.Sprintf(`nn.graph @g(%%x: tensor<1x%dx%dx%dxf64>) -> tensor<1x%dx%dx%dxf64> {
  %%c = nn.conv2d %%x {kernel = [%d, %d], params = "k", stride = %d, padding = %d} : (tensor<1x%dx%dx%dxf64>) -> tensor<1x%dx%dx%dxf64>
  nn.return %%c : tensor<1x%dx%dx%dxf64>
}
`, c, h, w, oc, oh, ow, kh, kw, stride, pad, c, h, w, oc, oh, ow, oc, oh, ow)
		g := parseGraph(t, "c.mlir", src)
		r, err := Eval(g, []*tensor.Tensor{x}, tensor.Payload{"k.weight": wt, "k.bias": bias}, Options{})
		if err != nil {
			t.Fatalf("trial %d: %v\n%s", trial, err, src)
		}
		for o := range oc {
			for i := range oh {
				for j := range ow {
					s := 0.0
					for ch := range c {
						Taps(h, w, kh, kw, stride, pad, i, j, func(at, di, dj int64) {
							s += x.Data[ch*h*w+at] * wt.Data[((o*c+ch)*kh+di)*kw+dj]
						})
					}
					got := r.Outputs[0].Data[(o*oh+i)*ow+j]
					if !(math.IsNaN(s) && math.IsNaN(got)) && math.Float64bits(s) != math.Float64bits(got) {
						t.Fatalf("trial %d: y[%d, %d, %d] = %v, the dense sum %v\n%s", trial, o, i, j, got, s, src)
					}
				}
			}
		}
	}
}
