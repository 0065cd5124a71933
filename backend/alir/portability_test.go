package alir

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/otir-dev/otir/internal/intrange"
)

// Portability proves what it claims: on random programs it finds portable,
// every value of every operation lies in the operation's type, on random
// inputs (the exact evaluator, operation by operation).
func TestPortabilityIsSound(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	portable := 0
	for it := range 3000 {
		d := Dialect(it % 2)
		nIn := 1 + r.IntN(4)
		var p *Program
		if it%6 == 3 {
			p = randomProgramV4(r, nIn, 1+r.IntN(12))
		} else if it%3 == 0 {
			p = randomProgram(r, d, nIn, 1+r.IntN(12))
		} else {
			p = referenceProgram(r, d, nIn, nIn+1+r.IntN(8))
		}
		bad, err := p.Portability()
		if err != nil {
			t.Fatal(err)
		}
		if len(bad) > 0 {
			continue
		}
		portable++
		inf, _ := p.analyze()
		c := newExactCtx(p, inf)
		vals := make([]big.Int, len(p.Ops))
		val := func(j int32) *big.Int { return &vals[j] }
		in := randomInputValues(r, nIn, 32)
	samples:
		for s := range 32 {
			for i := range p.Ops {
				if err := c.op(i, val, in[s*nIn:(s+1)*nIn], &vals[i]); err != nil {
					continue samples // a lookup outside its table
				}
				if !intrange.Point(&vals[i]).Within(typeRange(inf.kif[i])) {
					t.Fatalf("iteration %d: op %d (%v) holds %v outside its type %v, but the program was found portable\n%+v",
						it, i, p.Ops[i], &vals[i], inf.kif[i], p)
				}
			}
		}
	}
	if portable < 300 {
		t.Errorf("only %d portable programs: the test checks too few", portable)
	}
}

func TestPortabilityReports(t *testing.T) {
	for _, c := range []struct {
		name  string
		build func(b *Builder) int32
		want  string // "" for portable
	}{
		{"add-fits", func(b *Builder) int32 { return b.Add(in8(b, 0), in8(b, 1), 0, kif(1, 6, 2)) }, ""},
		{"add-narrow", func(b *Builder) int32 { return b.Add(in8(b, 0), in8(b, 1), 0, kif(1, 5, 2)) },
			"op 2 (add): its exact result lies in [-64, 63.5] but its type (1, 5, 2) holds [-32, 31.75]: it does not wrap"},
		{"neg-unsigned", func(b *Builder) int32 { return b.Neg(b.Input(0, kif(0, 3, 0)), kif(0, 4, 0)) },
			"op 1 (neg): its exact result lies in [-7, 0]"},
		{"neg-rescaled", func(b *Builder) int32 { return b.Neg(in8(b, 0), kif(1, 7, 0)) },
			"op 1 (neg): negates a value of step 2^-2 into step 2^0"},
		{"const-outside", func(b *Builder) int32 { return b.Const(9, kif(1, 2, 0)) }, "op 0 (const): its exact result lies in [9, 9]"},
		{"sub-same-operand", func(b *Builder) int32 { a := in8(b, 0); return b.Sub(a, a, -2, kif(1, 5, 2)) }, ""}, // 0.75a
		{"quantize-wraps", func(b *Builder) int32 { return b.Quantize(in8(b, 0), kif(1, 2, 0)) }, ""},
		{"relu-finer", func(b *Builder) int32 { return b.ReLU(in8(b, 0), kif(0, 5, 3)) }, "op 1 (relu): has step 2^-3, finer than its operand's 2^-2"},
		{"clamp", func(b *Builder) int32 {
			x := b.Input(0, kif(1, 8, 0))            // [-256, 255]
			c := b.ConstAdd(x, 128, 0, kif(1, 9, 0)) // x + 128 < 0: x < -128
			lo := b.Const(-128, kif(1, 7, 0))
			m := b.Mux(c, lo, x, 0, kif(1, 8, 0))       // max(x, -128)
			return b.ConstAdd(m, -127, 0, kif(1, 8, 0)) // [-255, 128]
		}, ""},
		{"max", func(b *Builder) int32 {
			p := b.Input(0, kif(0, 4, 0))            // [0, 15]
			q := b.Input(1, kif(1, 7, 0))            // [-128, 127]
			d := b.Sub(p, q, 0, kif(1, 8, 0))        // p - q < 0: p < q
			m := b.Mux(d, q, p, 0, kif(1, 7, 0))     // max(p, q), in [0, 127]
			return b.ConstAdd(m, 1, 0, kif(0, 8, 0)) // [1, 128]
		}, ""},
		{"min-branch-never-selected", func(b *Builder) int32 {
			x := b.Input(0, kif(1, 3, 0))            // [-8, 7]
			a := b.ConstAdd(x, -16, 0, kif(1, 5, 0)) // [-24, -9]
			p := b.Sub(a, x, 0, kif(1, 5, 0))        // -16, as a linear form
			d := b.Sub(p, x, 0, kif(1, 6, 0))        // -16 - x < 0 always: p is selected
			m := b.Mux(d, p, x, 0, kif(1, 5, 0))     // min(p, x) = -16, not [-16, 7]
			return b.Neg(m, kif(0, 5, 0))            // 16
		}, ""},
		{"mux-first-never-selected", func(b *Builder) int32 {
			x := b.Input(0, kif(0, 3, 0))            // [0, 7]
			c := b.ConstAdd(x, 1, 0, kif(0, 4, 0))   // [1, 8] (unsigned: bit 3 set only for 8)
			y := b.Input(1, kif(1, 7, 0))            // [-128, 127]
			m := b.Mux(c, y, x, 0, kif(1, 7, 0))     // y when x = 7
			return b.ConstAdd(m, 1, 0, kif(0, 8, 0)) // [-127, 128]: y can be selected
		}, "op 4 (const_add): its exact result lies in [-127, 128]"},
		{"max-unproven", func(b *Builder) int32 {
			p := b.Input(0, kif(0, 4, 0))
			q := b.Input(1, kif(1, 7, 0))
			d := b.Sub(p, q, 0, kif(1, 8, 0))
			m := b.Mux(d, p, q, 0, kif(1, 7, 0)) // min(p, q), in [-128, 15]
			return b.ConstAdd(m, 1, 0, kif(0, 8, 0))
		}, "op 4 (const_add): its exact result lies in [-127, 16]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := NewBuilder(ALIR, 2)
			b.Output(c.build(b), 0, false)
			p := mustBuild(t, b)
			bad, err := p.Portability()
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case c.want == "" && len(bad) > 0:
				t.Fatalf("reported %v", bad)
			case c.want != "" && (len(bad) != 1 || !strings.HasPrefix(bad[0].String(), c.want)):
				t.Fatalf("got %v, want %q", bad, c.want)
			}
		})
	}
}

// Convert keeps what a portable program computes, in both directions (the
// reference test checks the same in alkaid's and da4ml's interpreters).
func TestConvertKeepsOutputs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	converted := [2]int{}
	for it := range 600 {
		d := Dialect(it % 2)
		nIn := 1 + r.IntN(3)
		p := referenceProgram(r, d, nIn, nIn+1+r.IntN(25))
		makePortable(p)
		q, err := Convert(p, 1-d)
		if err != nil {
			continue
		}
		converted[d]++
		in := make([]float64, 16*nIn)
		for k := range in {
			in[k] = float64(r.IntN(1<<16)-1<<15) / 16
		}
		want, werr := RunExact(p, in, 16)
		got, gerr := RunExact(q, in, 16)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("iteration %d: errors %v and %v", it, werr, gerr)
		}
		if k := sameFloats(got, want); werr == nil && k >= 0 {
			t.Fatalf("iteration %d: %v to %v: output %d: %v, was %v\n%+v\n%+v", it, d, 1-d, k, got[k], want[k], p, q)
		}
	}
	if converted[0] < 50 || converted[1] < 20 {
		t.Errorf("converted %d ALIR and %d DAIS programs: too few", converted[0], converted[1])
	}
}

// A form holds up to maxAffineTerms sources: s = x0 + ... + x(n-1), then
// s - x0 is exactly x1 + ... + x(n-1), which its type just holds, while
// s's interval minus x0's does not; with one term more, s is a source of
// its own and s - x0 is not portable.
func TestPortabilityFormLimit(t *testing.T) {
	for _, n := range []int{maxAffineTerms, maxAffineTerms + 1} {
		b := NewBuilder(ALIR, n)
		x0 := b.Input(0, kif(1, 7, 0))
		s := x0
		for j := 1; j < n; j++ {
			s = b.Add(s, b.Input(j, kif(1, 7, 0)), 0, kif(1, 20, 0))
		}
		// x1 + ... + x(n-1) lies in [-128(n-1), 127(n-1)]: 15 bits.
		b.Output(b.Sub(s, x0, 0, kif(1, 14, 0)), 0, false)
		p := mustBuild(t, b)
		for _, check := range []func() ([]NonPortable, error){p.Portability, p.oldPortability} {
			bad, err := check()
			if err != nil {
				t.Fatal(err)
			}
			if want := n > maxAffineTerms; (len(bad) > 0) != want || (want && bad[0].Index != len(p.Ops)-1) {
				t.Errorf("%d terms: reported %v", n, bad)
			}
		}
	}
}
