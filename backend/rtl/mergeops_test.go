package rtl

import (
	"testing"

	"github.com/otir-dev/otir/backend/alir"
)

// TestMergeEqualOps: a program that computes x*y and x*y + y twice (the
// second time after a long chain, so a pipeline places the copies at other
// stages than the originals) builds the same pipelined design, flip-flops
// and area as the program whose later readers read the first copies; the
// copies merge through their operands (the second sum reads the second
// product).
func TestMergeEqualOps(t *testing.T) {
	q := alir.QInterval{Min: -128, Max: 127, Step: 1}
	wide := alir.QInterval{Min: -1 << 20, Max: 1 << 20, Step: 1}
	build := func(repeat bool) *alir.Program {
		b := alir.NewBuilder(alir.ALIR, 2)
		x, y := b.Input(0, q), b.Input(1, q)
		m := b.Mul(x, y, wide)
		s := b.Add(m, y, 0, wide)
		c := s
		for range 20 {
			c = b.Add(c, x, 1, wide)
		}
		m2, s2 := m, s
		if repeat {
			m2 = b.Mul(x, y, wide)
			s2 = b.Add(m2, y, 0, wide)
		} else {
			b.Mul(x, y, wide) // the same slots as the program with copies
			b.Add(m, y, 0, wide)
		}
		b.Output(c, 0, false)
		b.Output(b.Add(s2, c, 0, wide), 0, false)
		b.Output(m2, 0, false)
		p, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	copies, once := build(true), build(false)
	b := alir.NewBuilder(alir.ALIR, 2)
	b.Output(b.Add(b.Input(0, q), b.Input(1, q), 0, wide), 0, false)
	if p, err := b.Build(); err != nil || mergeEqualOps(p) != p {
		t.Errorf("a program without copies was rewritten (%v)", err)
	}
	merged := mergeEqualOps(copies)
	if n := len(copies.Ops); merged.Ops[n-1].ID0 != 3 || merged.Outputs[2].Index != 2 {
		t.Errorf("the copies still read: last op %+v, output 2 %+v", merged.Ops[n-1], merged.Outputs[2])
	}
	for _, cutoff := range []float64{0, 2} {
		a, err := Build(copies, Options{LatencyCutoff: cutoff})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Build(once, Options{LatencyCutoff: cutoff})
		if err != nil {
			t.Fatal(err)
		}
		if a.FlipFlops != b.FlipFlops || a.Estimate() != b.Estimate() || a.Latency != b.Latency {
			t.Errorf("cutoff %v: with copies %d flip-flops, %+v, latency %d; without %d, %+v, %d", cutoff,
				a.FlipFlops, a.Estimate(), a.Latency, b.FlipFlops, b.Estimate(), b.Latency)
		}
		if cutoff > 0 && a.FlipFlops == 0 {
			t.Errorf("cutoff %v: no pipeline registers", cutoff)
		}
	}
}

// TestMergeEqualSums: sums merge only when every term (slot, shift, sign)
// is the same.
func TestMergeEqualSums(t *testing.T) {
	q := alir.QInterval{Min: -128, Max: 127, Step: 1}
	wide := alir.QInterval{Min: -1 << 12, Max: 1 << 12, Step: 1}
	b := alir.NewBuilder(alir.ALIR, 2)
	x, y := b.Input(0, q), b.Input(1, q)
	sum := func(neg bool) int32 {
		return b.Op(alir.Op{Opcode: alir.OpSum, ID0: -1, ID1: -1, QInt: wide,
			Terms: []alir.Term{{ID: x}, {ID: y, Shift: 1, Neg: neg}}})
	}
	s1, s2, s3 := sum(false), sum(true), sum(false)
	for _, s := range []int32{s1, s2, s3} {
		b.Output(s, 0, false)
	}
	p, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	got := mergeEqualOps(p).Outputs
	if got[0].Index != s1 || got[1].Index != s2 || got[2].Index != s1 {
		t.Errorf("outputs read %d, %d, %d; want %d, %d, %d", got[0].Index, got[1].Index, got[2].Index, s1, s2, s1)
	}
}
