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
