package quantize

import (
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/parse"
	"github.com/otir-dev/otir/passes/verify"
)

// TestTypeOfRange: k from the sign seen, i the fewest integer bits that
// hold the range, f the rest of the width.
func TestTypeOfRange(t *testing.T) {
	for _, c := range []struct {
		r     valueRange
		width int
		want  string
	}{
		{valueRange{0, 3}, 8, "!quant.uniform<u8:f64, 0.015625>"},      // i = 2
		{valueRange{0, 4}, 8, "!quant.uniform<u8:f64, 0.03125>"},       // 4 needs i = 3
		{valueRange{-4, 3.9}, 8, "!quant.uniform<i8:f64, 0.03125>"},    // -4 = -2^2 fits i = 2
		{valueRange{-4.01, 1}, 8, "!quant.uniform<i8:f64, 0.0625>"},    // i = 3
		{valueRange{0, 0.1}, 6, "!quant.uniform<u6:f64, 0.001953125>"}, // i = -3, f = 9
		{valueRange{0, 1000}, 4, "!quant.uniform<u4:f64, 64.0>"},       // i = 10, f = -6
		{valueRange{0, 0}, 5, "!quant.uniform<u5:f64, 0.03125>"},       // only zeros: i = 0
		{valueRange{-0.5, -0.25}, 4, "!quant.uniform<i4:f64, 0.0625>"}, // -0.5 = -2^-1: i = -1
	} {
		got, err := typeOfRange(c.r, c.width, 0)
		if err != nil || got.String() != c.want {
			t.Errorf("typeOfRange(%v, %d) = %v, %v; want %s", c.r, c.width, got, err, c.want)
		}
	}
}

// TestDecompose: the decomposed layer_norm computes, in float, what the
// kind computes, its epsilon included (the default, a
// large one, over the whole tensor), also on a constant row (deviation 0:
// the epsilon alone keeps inv finite).
func TestDecompose(t *testing.T) {
	src := `nn.graph @g(%x: tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3x3xf64>, tensor<3x3xf64>) {
  %l = nn.layer_norm %x {axis = 1} : (tensor<3x3xf64>) -> tensor<3x3xf64>
  %l2 = nn.layer_norm %x {axis = 1, epsilon = 0.25} : (tensor<3x3xf64>) -> tensor<3x3xf64>
  %l3 = nn.layer_norm %x {axis = 0, epsilon = 1.0e-03} : (tensor<3x3xf64>) -> tensor<3x3xf64>
  nn.return %l, %l2, %l3 : tensor<3x3xf64>, tensor<3x3xf64>, tensor<3x3xf64>
}`
	eps := map[string]float64{}
	eval := func(decomposed bool) []*tensor.Tensor {
		m, err := parse.ParseString("d.mlir", src, parse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		g := nn.Graphs(m)[0]
		if decomposed {
			if err := decompose(g, valueNames(g)); err != nil {
				t.Fatal(err)
			}
			if ds := verify.Verify(m); ds.HasErrors() {
				t.Fatal(ds)
			}
			for _, op := range g.Body(0).Ops {
				if op.Name == nn.OpLayerNorm {
					t.Fatalf("%s is left", op.Name)
				}
				if v, ok := nn.InlineValue(op); ok {
					eps[op.Results[0].Name] = v[0]
				}
			}
		}
		x := &tensor.Tensor{Shape: []int64{3, 3}, Data: []float64{0.5, -1, 2, 3, 0.25, -0.75, 1.5, 1.5, 1.5}}
		res, err := nneval.Eval(g, []*tensor.Tensor{x}, nil, nneval.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return res.Outputs
	}
	want, got := eval(false), eval(true)
	for i := range want {
		for k, w := range want[i].Data {
			if math.Abs(got[i].Data[k]-w) > 1e-12 {
				t.Errorf("output #%d, element %d: decomposed %v, kind %v", i, k, got[i].Data[k], w)
			}
		}
	}
	if want := map[string]float64{"l.eps": 1e-5, "l2.eps": 0.25, "l3.eps": 1e-3}; !maps.Equal(eps, want) {
		t.Errorf("the epsilon constants: %v, want %v", eps, want)
	}
}

// FuzzParseQuantSpec: any bytes are a quant.json or an error naming the
// file; never a panic.
func FuzzParseQuantSpec(f *testing.F) {
	f.Add([]byte(`{"tensors": {"%x": {"kif": [1, 5, 3]}, "%0": {"kif": null, "mode": "exact"}}}`))
	f.Add([]byte(`{"tensors": {"%x": {"kif": [1, 5, 3], "type": "!quant.uniform<i9:f64, 0.125>"}}}`))
	f.Add([]byte(`{"tensors": {"%x": {"kif": [1, 5]}, "%x": {}}}`))
	f.Add([]byte(`{"tensors": []}`))
	f.Add([]byte(`{"tensors": {"%1": {"kif": [0, 70, -200], "mode": "exact"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := parseQuantSpec("q.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "q.json: ") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		for _, k := range s.keys {
			e := s.tensors[k]
			if !e.exact && e.elem == nil {
				t.Fatalf("key %s: neither exact nor typed", k)
			}
		}
	})
}
