package daisopt

import (
	"fmt"
	"testing"

	"otir/ir"
)

// passFuncs are the passes under test, by name, as functions of a program.
var passFuncs = []struct {
	name string
	run  func(*ir.Operation) (int, error)
}{
	{"fold", Fold},
	{"cse", CSE},
	{"dce", DCE},
	{"narrow", func(p *ir.Operation) (int, error) { return Narrow(p, true) }},
	{"balance", func(p *ir.Operation) (int, error) { return Balance(p, true) }},
	{"optimize", func(p *ir.Operation) (int, error) { return Optimize(p, true) }},
}

// Every pass keeps every output bit-identical on random programs that use
// every opcode, and leaves a valid program that prints and parses back.
func TestRandomProgramsKeepOutputs(t *testing.T) {
	for _, ps := range passFuncs {
		t.Run(ps.name, func(t *testing.T) {
			changed := 0
			for seed := uint64(1); seed <= 60; seed++ {
				p := randomProgram(genConfig{inputs: 6, ops: 150, outputs: 10, seed: seed})
				m, prog := toDais(t, p)
				n, err := ps.run(prog)
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				changed += n
				after := check(t, m)
				t.Run(fmt.Sprint(seed), func(t *testing.T) { sameOutputs(t, p, after, 2000, seed) })
			}
			if changed == 0 {
				t.Errorf("the pass changed nothing in 60 random programs")
			}
		})
	}
}

// Running a pass twice changes nothing the second time. (The whole
// pipeline is not idempotent: narrowing can make a quantize a no-op that only
// a later fold removes, which can lengthen a chain for balance.)
func TestPassesAreIdempotent(t *testing.T) {
	for _, ps := range passFuncs[:5] {
		t.Run(ps.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 20; seed++ {
				m, prog := toDais(t, randomProgram(genConfig{inputs: 5, ops: 120, outputs: 8, seed: seed}))
				if _, err := ps.run(prog); err != nil {
					t.Fatal(err)
				}
				once := m.String()
				if _, err := ps.run(prog); err != nil {
					t.Fatal(err)
				}
				if twice := m.String(); twice != once {
					t.Fatalf("seed %d: a second run changed the program", seed)
				}
			}
		})
	}
}
