package parse

import (
	"math"
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

// FuzzFloatStringAttr: a float of any bit pattern and type, a float literal
// of any spelling and a string of any bytes, printed as attributes, parse
// back to the same bits and bytes, and print -> parse -> print is the
// identity (issue 26 item 8).
func FuzzFloatStringAttr(f *testing.F) {
	f.Add(uint64(0x7FC00001), uint8(2), "0.1", "\xff\x00é\"\\\n")
	f.Add(uint64(0x7E01), uint8(0), "65519.0", "caf\xc3\xa9")
	f.Add(uint64(0x7FC1), uint8(1), "1.0e-10", "\a\x7f")
	f.Add(uint64(0x7FF0000000000001), uint8(3), "-0.0", "")
	f.Fuzz(func(t *testing.T, bits uint64, kind uint8, literal, s string) {
		ft := ir.Float(ir.FloatKind(kind % 4))
		if ft.Bits() < 64 {
			bits &= 1<<ft.Bits() - 1
		}
		v := ir.FloatFromBits(bits, ft)
		src := `"test.op"() {f = ` + ir.FormatFloatOf(v, ft) + " : " + ft.String() +
			", s = " + ir.QuoteString(s) + `} : () -> ()`
		m, err := Parse("fuzz.mlir", []byte(src), Options{Workers: 1, AllowUnregistered: true})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		op := m.Op.Body(0).Ops[0]
		if got := ir.FloatBits(op.Attr("f").(*ir.FloatAttr).Value, ft); got != bits {
			t.Fatalf("%s: bits %#x, want %#x", src, got, bits)
		}
		if got := op.Attr("s").(*ir.StringAttr).Value; got != s {
			t.Fatalf("%s: string %q, want %q", src, got, s)
		}
		roundTrip(t, src)
		if strings.ContainsAny(literal, "{}\"\n") {
			return
		}
		lit := `"test.op"() {f = ` + literal + " : " + ft.String() + `} : () -> ()`
		if m, err := Parse("fuzz.mlir", []byte(lit), Options{Workers: 1, AllowUnregistered: true}); err == nil {
			if fa, ok := m.Op.Body(0).Ops[0].Attr("f").(*ir.FloatAttr); ok && !math.IsNaN(fa.Value) && ir.RoundFloat(fa.Value, ft) != fa.Value {
				t.Fatalf("%s: %v is not a value of %s", lit, fa.Value, ft)
			}
			roundTrip(t, lit)
		}
	})
}

// roundTrip checks that src prints as text that parses and prints the same.
func roundTrip(t *testing.T, src string) {
	m, err := Parse("fuzz.mlir", []byte(src), Options{Workers: 1, AllowUnregistered: true})
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	p1 := printText(t, m, false)
	m2, err := Parse("fuzz.mlir", []byte(p1), Options{Workers: 1, AllowUnregistered: true})
	if err != nil {
		t.Fatalf("printed text does not parse: %v\n%s", err, p1)
	}
	if p2 := printText(t, m2, false); p2 != p1 {
		t.Fatalf("round trip differs:\n%s\n%s", p1, p2)
	}
}
