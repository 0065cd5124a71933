package typing

import (
	"fmt"

	"github.com/otir-dev/otir/ir"
)

// Style is an Allo typing style (spec "Type promotion rules": the active table
// is selected by typing_style).
type Style string

// The two typing styles. HLS is the default.
const (
	HLS Style = "hls"
	CPP Style = "cpp"
)

// ParseStyle reads a typing style; the empty string means the default, hls.
func ParseStyle(s string) (Style, error) {
	switch s {
	case "", "hls":
		return HLS, nil
	case "cpp":
		return CPP, nil
	}
	return "", fmt.Errorf("unknown typing style '%s' (expected \"hls\" or \"cpp\")", s)
}

// Kind is the category a rule dispatches on: the spec's table "Typing rules
// operate on frontend DType categories". Boolean is not a kind of its own: bool
// is u1, an unsigned integer (spec: "bool is the frontend alias of u1").
type Kind uint8

// The kinds. KindNone is any type that takes part in no rule (tokens, tiles).
const (
	KindNone Kind = iota
	KindSigned
	KindUnsigned
	KindFloat
	KindIndex
)

var kindNames = [...]string{"none", "signed", "unsigned", "float", "index"}

func (k Kind) String() string { return kindNames[k] }

// KindOf classifies a scalar type.
func KindOf(t ir.Type) Kind {
	switch t := t.(type) {
	case *ir.IntType:
		if t.Signed {
			return KindSigned
		}
		return KindUnsigned
	case *ir.FloatType:
		return KindFloat
	case *ir.IndexType:
		return KindIndex
	}
	return KindNone
}

// IsInt reports whether t is a signed or unsigned integer (bool included,
// index excluded): Allo's is_int_signless.
func IsInt(t ir.Type) bool {
	_, ok := t.(*ir.IntType)
	return ok
}

// AlloName is Allo's long name of a scalar type, used in its diagnostics:
// int32, uint8, uint1 (bool is u1), float16, bfloat16, float32, float64, index.
// Other types keep their OTIR spelling.
func AlloName(t ir.Type) string {
	switch t := t.(type) {
	case *ir.IntType:
		if t.Signed {
			return fmt.Sprintf("int%d", t.Width)
		}
		return fmt.Sprintf("uint%d", t.Width)
	case *ir.FloatType:
		switch t.Kind {
		case ir.F16:
			return "float16"
		case ir.BF16:
			return "bfloat16"
		case ir.F32:
			return "float32"
		}
		return "float64"
	case *ir.IndexType:
		return "index"
	case nil:
		return "<none>"
	}
	return t.String()
}

// PrimitiveWidth is Allo's DType.primitive_width: the bit width of integers and
// floats, and 2^32-1 for index ("index has a very large opaque primitive width
// internally").
func PrimitiveWidth(t ir.Type) int {
	switch t := t.(type) {
	case *ir.IntType:
		return t.Width
	case *ir.FloatType:
		return t.Bits()
	case *ir.IndexType:
		return 1<<32 - 1
	}
	return 0
}

// KnownStyle reports whether style has a rule table (hls or cpp).
func KnownStyle(style Style) bool {
	_, ok := tables[style]
	return ok
}
