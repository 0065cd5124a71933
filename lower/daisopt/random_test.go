package daisopt

import (
	"fmt"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
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
	{"rescale", func(p *ir.Operation) (int, error) { return Rescale(p, true) }},
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

// The random programs are portable, use every opcode, and have ops of every
// kind the generator varies: wrapping quantizes, relus and muxes, flooring
// adders, and types wider than their values.
func TestRandomProgramsArePortable(t *testing.T) {
	seen := map[alir.Opcode]int{}
	for seed := uint64(1); seed <= 60; seed++ {
		p := randomProgram(genConfig{inputs: 6, ops: 150, outputs: 10, seed: seed})
		if bad, err := p.Portability(); err != nil || len(bad) > 0 {
			t.Fatalf("seed %d: not portable: %v %v", seed, bad, err)
		}
		for _, op := range p.Ops {
			seen[op.Opcode]++
		}
	}
	for _, c := range []alir.Opcode{alir.OpInput, alir.OpAdd, alir.OpSub, alir.OpNeg, alir.OpReLU, alir.OpQuantize,
		alir.OpConstAdd, alir.OpConst, alir.OpMux, alir.OpMul, alir.OpLookup, alir.OpBitUnary, alir.OpBitBinary} {
		if seen[c] == 0 {
			t.Errorf("no op of opcode %d in 60 random programs", c)
		}
	}
}

// Every pass keeps a portable program portable (alir.Program.Portability,
// which the dais verifier that check runs also applies): it never gives a
// value a type narrower than what Portability proves of it, nor a step
// that the original interpreters cannot reach.
func TestPassesKeepProgramsPortable(t *testing.T) {
	for _, ps := range passFuncs {
		t.Run(ps.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 60; seed++ {
				_, prog := toDais(t, randomProgram(genConfig{inputs: 6, ops: 150, outputs: 10, seed: seed}))
				if _, err := ps.run(prog); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				p, err := dais.ToALIR(prog)
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if bad, err := p.Portability(); err != nil || len(bad) > 0 {
					t.Fatalf("seed %d: not portable after %s: %v %v", seed, ps.name, bad, err)
				}
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
				once := text(m)
				if _, err := ps.run(prog); err != nil {
					t.Fatal(err)
				}
				if twice := text(m); twice != once {
					t.Fatalf("seed %d: a second run changed the program", seed)
				}
			}
		})
	}
}
