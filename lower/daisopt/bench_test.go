package daisopt

import (
	"sync"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// Benchmarks of every pass on programs of 100k ops:
//
//	go test ./lower/daisopt -run '^$' -bench . -benchtime 5x
//
// "mixed" is randomProgram (every opcode, duplicates, chains, wide and
// wrapping types); "shiftadd" is alir.RandomShiftAdd, the adder graph of a
// constant-matrix-vector multiplication, as lower-tiles and da4ml produce.
// Each iteration converts a fresh dais.program (not timed) and runs the pass
// on it.

const benchOps = 100_000

var benchPrograms = sync.OnceValue(func() map[string]*alir.Program {
	return map[string]*alir.Program{
		"mixed":    randomProgram(genConfig{inputs: 64, ops: benchOps, outputs: 64, seed: 7}),
		"shiftadd": alir.RandomShiftAdd(alir.ShiftAddConfig{Inputs: 64, Ops: benchOps, Outputs: 64, Seed: 7}),
	}
})

func BenchmarkPasses(b *testing.B) {
	for _, name := range []string{"mixed", "shiftadd"} {
		p := benchPrograms()[name]
		for _, ps := range passFuncs {
			b.Run(name+"/"+ps.name, func(b *testing.B) {
				for range b.N {
					b.StopTimer()
					prog, err := dais.FromALIR(p, "bench")
					if err != nil {
						b.Fatal(err)
					}
					m := ir.NewModule(ir.Location{})
					m.Body().Append(prog)
					b.StartTimer()
					if _, err := ps.run(prog); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(p.Ops))*float64(b.N)/b.Elapsed().Seconds(), "ops/s")
			})
		}
	}
}
