package ir

import "testing"

func TestMLIRSpelling(t *testing.T) {
	for in, want := range map[string]string{
		"u8":                              "ui8",
		"i8":                              "i8",
		"!otir.tile<16xu8, #global>":      "!otir.tile<16xui8, #global>",
		"!otir.tile<4x4xu32, #private>":   "!otir.tile<4x4xui32, #private>",
		"(u8, i8) -> (u16, index)":        "(ui8, i8) -> (ui16, index)",
		"!otir.tile<4xindex, #workgroup>": "!otir.tile<4xindex, #workgroup>",
		"!foo.bu8<u8>":                    "!foo.bu8<ui8>",
		"u":                               "u",
		"u8x":                             "u8x",
		"tensor<4x!quant.uniform<u7:f64, 0.125>>":             "tensor<4x!quant.uniform<u7:f64, 0.125>>",
		"(tensor<u8>, tensor<2x!quant.uniform<u3:f64, 1.0>>)": "(tensor<ui8>, tensor<2x!quant.uniform<u3:f64, 1.0>>)",
	} {
		if got := mlirSpelling(in); got != want {
			t.Errorf("mlirSpelling(%q) = %q, want %q", in, got, want)
		}
	}
	if got := MLIRTypeString(Tile([]int64{2, 3}, Int(7, false), Private)); got != "!otir.tile<2x3xui7, #private>" {
		t.Errorf("MLIRTypeString: %q", got)
	}
	if got := Tile([]int64{2, 3}, Int(7, false), Global).TensorString(); got != "tensor<2x3xui7>" {
		t.Errorf("TensorString: %q", got)
	}
	for _, s := range []string{"ui8", "ui1", "ui16777215"} {
		if _, err := ParseType(s); err != nil {
			t.Errorf("ParseType(%q): %v", s, err)
		}
	}
	if ty, _ := ParseType("ui8"); ty != Int(8, false) {
		t.Errorf("ui8 is %v", ty)
	}
	for _, s := range []string{"ui0", "ui08", "ui16777216", "ui"} {
		if _, err := ParseType(s); err == nil {
			t.Errorf("ParseType(%q): no error", s)
		}
	}
}

// TestDenseInDictionary: a dense constant of a #private tile in an
// attribute dictionary (nn.const's value) prints its type as tensor<...>,
// which the parser reads back as that tile; another memory space keeps the
// tile type (the tensor spelling would lose it).
func TestDenseInDictionary(t *testing.T) {
	priv := Attrs{{Name: "value", Value: &DenseAttr{Type: Tile([]int64{2}, Float(F64), Private), Floats: []float64{1, 2.5}}}}
	if got, want := priv.String(), "{value = dense<[1.0, 2.5]> : tensor<2xf64>}"; got != want {
		t.Errorf("private: %s, want %s", got, want)
	}
	glob := Attrs{{Name: "value", Value: &DenseAttr{Type: Tile([]int64{2}, Float(F64), Global), Floats: []float64{1}}}}
	if got, want := glob.String(), "{value = dense<1.0> : "+Tile([]int64{2}, Float(F64), Global).String()+"}"; got != want {
		t.Errorf("global: %s, want %s", got, want)
	}
}
