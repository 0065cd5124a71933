// Package nncircuit measures the circuits nn-to-circuit makes of quantized
// networks against alkaid's (BENCHMARKS.md, "A quantized MLP as a circuit:
// otir against alkaid"): adders, constant adds, lookups and adder depth of
// an ALIR program, counted as issue 19 counts them.
package nncircuit

import (
	"fmt"

	"github.com/otir-dev/otir/backend/alir"
	cmvmbench "github.com/otir-dev/otir/bench/cmvm"
)

// Figures are the counts of one ALIR program: Adders are ops of opcode 0,
// 1 and -2 (Negs of them -2), ConstAdds of opcode 4 and Lookups of opcode
// 8, counted apart; Depth is the longest chain of adders from an input to
// an output, DepthWithConstAdds the same counting constant adds too.
type Figures struct {
	Ops, Adders, Negs, ConstAdds, Lookups int
	Depth, DepthWithConstAdds             int
}

// Count counts a program's figures.
func Count(p *alir.Program) Figures {
	c := cmvmbench.Count(p)
	f := Figures{Ops: len(p.Ops), Adders: c.Adders, Negs: c.Negs, Depth: c.Depth}
	depth := make([]int, len(p.Ops))
	for i, op := range p.Ops {
		d := 0
		for _, id := range p.Operands(i) {
			if id >= 0 && int(id) < i {
				d = max(d, depth[id])
			}
		}
		switch op.Opcode {
		case alir.OpAdd, alir.OpSub, alir.OpNeg:
			d++
		case alir.OpConstAdd:
			f.ConstAdds++
			d++
		case alir.OpLookup:
			f.Lookups++
		}
		depth[i] = d
	}
	for _, o := range p.Outputs {
		if o.Index >= 0 {
			f.DepthWithConstAdds = max(f.DepthWithConstAdds, depth[o.Index])
		}
	}
	return f
}

// Row is the figures as a row of BENCHMARKS.md's table.
func (f Figures) Row(name string) string {
	return fmt.Sprintf("| %s | %d | %d | %d | %d (%d counting constant adds) | %d |", name, f.Adders, f.ConstAdds, f.Lookups, f.Depth, f.DepthWithConstAdds, f.Ops)
}
