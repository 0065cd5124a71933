package alir

import "testing"

// TestAdderLUTs keeps AdderLUTs the count yosys 0.23 synth_xilinx -flatten
// gives for one signed adder y = a ± (b << s) (measured one adder a design).
func TestAdderLUTs(t *testing.T) {
	for _, c := range []struct{ wa, wb, shift, width, luts int }{
		{8, 8, 0, 9, 8},
		{8, 8, 4, 13, 8},
		{12, 8, 4, 13, 8},
		{8, 12, 4, 17, 12},
		{8, 8, 8, 17, 8},
		{16, 8, 2, 17, 14},
		{8, 16, 2, 19, 16},
		{10, 10, 1, 12, 10},
	} {
		if got := AdderLUTs(c.width, c.wa, c.wb, c.shift); got != c.luts {
			t.Errorf("AdderLUTs(%d, %d, %d, %d) = %d, yosys %d", c.width, c.wa, c.wb, c.shift, got, c.luts)
		}
		// Placed, either operand first, anywhere: the same adder.
		for _, at := range []int{-3, 0, 5} {
			lr := at
			for _, swap := range []bool{false, true} {
				la, wa, lb, wb := at, c.wa, at+c.shift, c.wb
				if swap {
					la, wa, lb, wb = lb, wb, la, wa
				}
				if got := PlacedAdderLUTs(la, wa, lb, wb, lr, c.width); got != c.luts {
					t.Errorf("PlacedAdderLUTs(%d, %d, %d, %d, %d, %d) = %d, want %d", la, wa, lb, wb, lr, c.width, got, c.luts)
				}
			}
		}
	}
}
