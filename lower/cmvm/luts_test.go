package cmvm

import (
	"math/rand/v2"
	"testing"
)

// TestAdderLUTs keeps adderLUTs the count yosys 0.23 synth_xilinx -flatten
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
		if got := adderLUTs(c.width, c.wa, c.wb, c.shift); got != c.luts {
			t.Errorf("adderLUTs(%d, %d, %d, %d) = %d, yosys %d", c.width, c.wa, c.wb, c.shift, got, c.luts)
		}
	}
}

// TestReduceNarrowDepth: the width-aware final tree is never deeper than
// the minimal adder tree, and still computes M·x.
func TestReduceNarrowDepth(t *testing.T) {
	m := [][]int64{{89, 35, 2, -59, -50, -118, -109, -124}, {33, 11, 15, 111, -57, 80, 43, -128}}
	in := make([]Interval, len(m[0]))
	for i := range in {
		in[i] = Interval{Lo: -128, Hi: 127}
	}
	p := Problem{Matrix: m, Inputs: in}
	g, err := Solve(p, Options{MaxDepth: DepthMinimal, Restarts: -1, NoDecompose: true})
	if err != nil {
		t.Fatal(err)
	}
	md, err := MinimalDepth(p)
	if err != nil {
		t.Fatal(err)
	}
	if d := g.Stats().Depth; d > md {
		t.Errorf("depth %d, minimal %d", d, md)
	}
	n, err := normalize(p)
	if err != nil {
		t.Fatal(err)
	}
	checkGraph(t, rand.New(rand.NewPCG(1, 2)), n, g, md)
}
