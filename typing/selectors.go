package typing

import (
	"math/bits"

	"github.com/otir-dev/otir/ir"
)

// The shared helpers of the spec's section "Common Helpers". Every function
// here is total on the kinds its callers pass.

// commonInt is the common integer type selector, identical in both styles
// (ERRATA: "Mixed-sign common integer type (both styles, as the document's
// table says)"):
//
//	both signed                          -> signed max(L, R)
//	both unsigned                        -> unsigned max(L, R)
//	mixed, unsigned_width >= signed_width -> unsigned unsigned_width
//	mixed, unsigned_width <  signed_width -> signed signed_width
func commonInt(l, r ir.Type) ir.Type {
	a, b := l.(*ir.IntType), r.(*ir.IntType)
	if a.Signed == b.Signed {
		return ir.Int(max(a.Width, b.Width), a.Signed)
	}
	s, u := a, b
	if !a.Signed {
		s, u = b, a
	}
	if u.Width >= s.Width {
		return ir.Int(u.Width, false)
	}
	return ir.Int(s.Width, true)
}

// widerFloat is "float op float promotes to the wider float"; on equal widths
// the left operand wins (ERRATA: f16 op bf16 -> f16, bf16 op f16 -> bf16).
func widerFloat(l, r ir.Type) ir.Type {
	if PrimitiveWidth(l) >= PrimitiveWidth(r) {
		return l
	}
	return r
}

// selectFloat is the special-function conversion: "convert integers to f32 if
// their bit width is at most 32, otherwise to f64" (index, whose primitive
// width is huge, gives f64).
func selectFloat(t ir.Type) ir.Type {
	if PrimitiveWidth(t) <= 32 {
		return ir.Float(ir.F32)
	}
	return ir.Float(ir.F64)
}

// ceilLog2 is Allo's _ceil_log2: bit_length(n - 1), for n >= 1.
func ceilLog2(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n - 1))
}

// Small rule bodies shared by the tables.

func pickLeft(l, _ ir.Type) ir.Type  { return l }
func pickRight(_, r ir.Type) ir.Type { return r }
func toIndex(_, _ ir.Type) ir.Type   { return ir.Index() }
func toBool2(_, _ ir.Type) ir.Type   { return ir.Bool() }
func same(t ir.Type) ir.Type         { return t }
func toBool1(ir.Type) ir.Type        { return ir.Bool() }

// growSigned is HLS unary minus: "signed integer with width + 1".
func growSigned(t ir.Type) ir.Type { return ir.Int(PrimitiveWidth(t)+1, true) }
