package ir

import "testing"

func TestParseTypeRoundTrip(t *testing.T) {
	cases := []struct{ in, want string }{
		{"i8", "i8"}, {"u8", "u8"}, {"i1", "i1"}, {"bool", "i1"}, {"u1", "i1"},
		{"i1024", "i1024"}, {"u4096", "u4096"}, {"i4098", "i4098"},
		{"i16777215", "i16777215"}, {"u16777215", "u16777215"}, {"f16", "f16"}, {"bf16", "bf16"},
		{"f32", "f32"}, {"f64", "f64"}, {"index", "index"}, {"!otir.token", "!otir.token"},
		{"!otir.tile<4x8xi8, #private>", "!otir.tile<4x8xi8, #private>"},
		{"!otir.tile<4x8xbf16,#global>", "!otir.tile<4x8xbf16, #global>"},
		{"!otir.tile<i8, #private>", "!otir.tile<i8, #private>"},
		{"!otir.tile<1xindex, #global>", "!otir.tile<1xindex, #global>"},
		{"!otir.tile<index, #private>", "!otir.tile<index, #private>"},
		{"!otir.tile<2x3xu16, #private>", "!otir.tile<2x3xu16, #private>"},
		{"!otir.tile<16xbool, #workgroup>", "!otir.tile<16xi1, #workgroup>"},
	}
	checkParseTypes(t, cases)
}

// checkParseTypes checks that each in parses to a type printed as want,
// and that parsing the printed text gives the same (interned) type.
func checkParseTypes(t *testing.T, cases []struct{ in, want string }) {
	t.Helper()
	for _, c := range cases {
		ty, err := ParseType(c.in)
		if err != nil {
			t.Errorf("ParseType(%q): %v", c.in, err)
			continue
		}
		if ty.String() != c.want {
			t.Errorf("ParseType(%q) = %q, want %q", c.in, ty, c.want)
		}
		if again, _ := ParseType(ty.String()); again != ty {
			t.Errorf("%q is not interned", c.in)
		}
	}
}

func TestParseTypeErrors(t *testing.T) {
	cases := map[string]string{
		"i0":                                  "integer width must be between 1 and 16777215 in 'i0'",
		"i16777216":                           "integer width must be between 1 and 16777215 in 'i16777216'",
		"u99999999999999999999999":            "integer width must be between 1 and 16777215 in 'u99999999999999999999999'",
		"i08":                                 "invalid integer type 'i08'",
		"x32":                                 "unknown type 'x32'",
		"!otir.tile<4x8xi8>":                  "tile type needs a memory space: '!otir.tile<4x8xi8>'",
		"!otir.tile<4x8xi8, #shared>":         "unknown memory space '#shared' (expected #global, #workgroup or #private)",
		"!otir.tile<4x0xi8, #private>":        "tile dimension '0' out of range",
		"!otir.tile<4x?xi8, #private>":        "invalid tile dimension '?' (dimensions are static positive integers)",
		"!otir.tile<4x!otir.token, #private>": "tile element type must be an integer, float or index type, not '!otir.token'",
	}
	for in, want := range cases {
		_, err := ParseType(in)
		if err == nil || err.Error() != want {
			t.Errorf("ParseType(%q) error = %v, want %q", in, err, want)
		}
	}
}

func TestTypeInterning(t *testing.T) {
	a := Tile([]int64{4, 8}, Int(8, true), Private)
	b := Tile([]int64{4, 8}, Int(8, true), Private)
	if a != b {
		t.Fatal("equal tile types are different pointers")
	}
	if Int(8, true) == Int(8, false) {
		t.Fatal("i8 and u8 are the same type")
	}
	if Int(1, true) != Bool() {
		t.Fatal("i1 is not the boolean")
	}
	if WithElement(a, Float(F32)) != Tile([]int64{4, 8}, Float(F32), Private) {
		t.Fatal("WithElement")
	}
	if a.NumElements() != 32 || a.Rank() != 2 {
		t.Fatal("NumElements/Rank")
	}
}

func TestMustParseType(t *testing.T) {
	if got := MustParseType("i8"); got != Int(8, true) {
		t.Errorf("MustParseType(i8) = %v", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("MustParseType(i0x) did not panic")
		}
	}()
	MustParseType("i0x")
}
