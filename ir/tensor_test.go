package ir

import "testing"

func TestParseTensorType(t *testing.T) {
	cases := []struct{ in, want string }{
		{"tensor<2x3xf64>", "tensor<2x3xf64>"}, {"tensor<f64>", "tensor<f64>"},
		{"tensor<0x4xf32>", "tensor<0x4xf32>"}, {"tensor<4xindex>", "tensor<4xindex>"},
		{"tensor<8xui8>", "tensor<8xu8>"}, {"tensor< 16xf64 >", "tensor<16xf64>"},
	}
	checkParseTypes(t, cases)
	tt := Tensor([]int64{2, 3}, Float(F64))
	if tt.Rank() != 2 || tt.NumElements() != 6 || ElementType(tt) != Float(F64) || Tensor(nil, Float(F64)).NumElements() != 1 {
		t.Errorf("Rank/NumElements/ElementType of %s", tt)
	}
	if got := MLIRTypeString(Tensor([]int64{4}, Int(8, false))); got != "tensor<4xui8>" {
		t.Errorf("MLIR spelling: %s", got)
	}
	errs := map[string]string{
		"tensor<?x4xf64>":            "invalid tensor dimension '?' (dimensions are static non-negative integers)",
		"tensor<*xf64>":              "invalid tensor dimension '*' (dimensions are static non-negative integers)",
		"tensor<4x!otir.token>":      "tensor element type must be an integer, float, index or dialect type, not '!otir.token'",
		"tensor<99999999999xf64>":    "tensor dimension '99999999999' out of range",
		"tensor<4xfoo>":              "unknown type 'foo'",
		"tensor<65536x65536x512xi8>": "tensor has too many elements",
	}
	for in, want := range errs {
		if _, err := ParseType(in); err == nil || err.Error() != want {
			t.Errorf("ParseType(%q) error = %v, want %q", in, err, want)
		}
	}
}
