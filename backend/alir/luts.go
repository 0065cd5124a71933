package alir

// AdderLUTs is the LUT cost of one adder a ± (b << shift) whose operands
// are wa and wb bits wide and whose result is width bits wide (measured on
// yosys 0.23 synth_xilinx, one adder a design: TestAdderLUTs). Each bit of
// a carry chain takes a LUT computing a_i ^ b_i, but the low shift bits
// pass a through unchanged (b's shifted-in bits are constant zeros: wires),
// and a bit above both operands' spans XORs the same two sign bits as the
// bit below, sharing its LUT. So the LUTs are the bits from shift up to the
// top of the wider operand span, max(wa, wb + shift), or of the result when
// it is narrower; at least one. It is the cost model of the CMVM solver's
// LUT objective (lower/cmvm, Graph.LUTs) and of dais-balance (lower/daisopt).
func AdderLUTs(width, wa, wb, shift int) int {
	return max(min(width, max(wa, wb+shift))-shift, 1)
}

// PlacedAdderLUTs is AdderLUTs of an adder whose operands and result are
// placed by their least significant bits: a is wa bits from bit la up, b
// (shifted already) wb bits from lb, the result wr bits from lr, all in
// one unit. The bits below the higher operand's are wires, so the adder
// starts at the lower operand.
func PlacedAdderLUTs(la, wa, lb, wb, lr, wr int) int {
	if la > lb {
		la, wa, lb, wb = lb, wb, la, wa
	}
	return AdderLUTs(lr+wr-la, wa, wb, lb-la)
}
