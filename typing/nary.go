package typing

import "github.com/otir-dev/otir/ir"

// hlsNary is the HLS n-ary promoter (Allo's _hls_nary_int_promotion), asked
// first for every promotion in the hls style. It only handles expressions whose
// terms are all integers (ERRATA: "Only all-integer expressions use the n-ary
// rules"); ok is false otherwise, and promotion falls back to pairwise lookup.
//
// add/sub (spec "HLS Integer Add/Sub", ERRATA "HLS n-ary add/sub"): the result
// is signed if any term is signed or any term is subtracted (a sign < 0); when
// it is signed every unsigned term counts width + 1; the width is
// max(adjusted widths) + ceil_log2(N). So u8 - u8 -> i10, u8 + u8 -> u9,
// u8 + i8 -> i10, i32 + i32 - i32 -> i34.
//
// mul (spec "HLS Integer Mul"): the width is the sum of the widths, signed if
// any term is signed (u8 * i8 * u4 -> i20).
func hlsNary(key string, ts []ir.Type, signs []int) (ir.Type, bool) {
	for _, t := range ts {
		if !IsInt(t) {
			return nil, false
		}
	}
	switch key {
	case "add", "sub":
		signed := false
		for i, t := range ts {
			if t.(*ir.IntType).Signed || (signs != nil && signs[i] < 0) {
				signed = true
			}
		}
		width := 0
		for _, t := range ts {
			tw := t.(*ir.IntType).Width
			if signed && !t.(*ir.IntType).Signed {
				tw++
			}
			width = max(width, tw)
		}
		return ir.Int(width+ceilLog2(len(ts)), signed), true
	case "mul":
		signed, width := false, 0
		for _, t := range ts {
			it := t.(*ir.IntType)
			signed = signed || it.Signed
			width += it.Width
		}
		return ir.Int(width, signed), true
	}
	return nil, false
}
