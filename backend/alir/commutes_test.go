package alir

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCommutesMeansSwappable checks the opcode table's Commutative facts by
// their meaning: on random programs, every op that Op.Commutes says may swap
// its operands computes the same outputs, bit for bit (RunExact), with ID0
// and ID1 swapped; and the opcodes it calls not commutative (sub) do give a
// different result for some program, so the test would notice a wrong fact.
func TestCommutesMeansSwappable(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 7))
	swapped, differed := 0, 0
	for _, d := range []Dialect{ALIR, DAIS} {
		for k := 0; k < 400; k++ {
			p := randomProgram(r, d, 3, 12)
			in := randomInputValues(r, 3, 8)
			want, err := RunExact(p, in, 8)
			if err != nil {
				continue // a program the exact evaluator rejects (too wide)
			}
			for i, op := range p.Ops {
				if op.ID0 < 0 || op.ID1 < 0 || op.ID0 == op.ID1 || len(op.Terms) > 0 {
					continue
				}
				q := p.Clone()
				q.Ops[i].ID0, q.Ops[i].ID1 = op.ID1, op.ID0
				// Only ops whose both operands are plain slot operands.
				if d.Info(op.Opcode).Operands != Binary {
					continue
				}
				got, err := RunExact(q, in, 8)
				if err != nil {
					continue
				}
				same := sameOutputs(got, want)
				if op.Commutes(d) {
					swapped++
					if !same {
						t.Fatalf("%v op #%d (%v, data %#x) Commutes, but swapping its operands changed the outputs", d, i, d.Info(op.Opcode).Name, op.Data)
					}
				} else if op.Opcode == OpSub && !same {
					differed++
				}
			}
		}
	}
	if swapped < 100 || differed == 0 {
		t.Fatalf("too few cases: %d commuting ops swapped, %d subtractions that changed", swapped, differed)
	}
}

func sameOutputs(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}
