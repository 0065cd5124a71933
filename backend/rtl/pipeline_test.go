package rtl

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
)

// wideProgram returns a program of n inputs, one add of inputs 0 and 1 at
// the given latency, and n+1 outputs: the add and every input (each
// registered to the add's stage when pipelined).
func wideProgram(n int, latency float64) *alir.Program {
	q := alir.QInterval{Min: -8, Max: 7, Step: 1}
	p := &alir.Program{Dialect: alir.ALIR, InShifts: make([]int32, n), CarrySize: -1, AdderSize: -1}
	for j := range n {
		p.Ops = append(p.Ops, alir.Op{ID0: int32(j), ID1: -1, Opcode: alir.OpInput, QInt: q})
	}
	p.Ops = append(p.Ops, alir.Op{ID0: 0, ID1: 1, Opcode: alir.OpAdd, QInt: alir.QInterval{Min: -16, Max: 14, Step: 1}, Latency: latency})
	p.Outputs = append(p.Outputs, alir.Output{Index: int32(n)})
	for j := range n {
		p.Outputs = append(p.Outputs, alir.Output{Index: int32(j)})
	}
	return p
}

// TestCutoffBounds: a cutoff that is not a finite number >= 0, or that
// makes more than MaxStages stages or MaxRegisters registers, is a
// CutoffError (the option's fault); a stored latency that is not a finite
// number >= 0 is the program's. Neither recurses nor allocates per stage.
func TestCutoffBounds(t *testing.T) {
	for _, c := range []struct {
		what    string
		p       *alir.Program
		cutoff  float64
		cut     bool   // a CutoffError
		message string // in the error; "": Build succeeds
	}{
		{"negative cutoff", wideProgram(2, 1), -1, true, "latency cutoff -1 is not a finite number >= 0"},
		{"NaN cutoff", wideProgram(2, 1), math.NaN(), true, "latency cutoff NaN is not a finite number >= 0"},
		{"infinite cutoff", wideProgram(2, 1), math.Inf(1), true, "latency cutoff +Inf is not a finite number >= 0"},
		{"-infinite cutoff", wideProgram(2, 1), math.Inf(-1), true, "is not a finite number >= 0"},
		{"cutoff 1e-7", wideProgram(2, 1), 1e-7, true, "would make 1e+07 pipeline stages (the largest op latency is 1); at most 10000 (rtl.MaxStages): use a cutoff of at least 0.0001"},
		{"cutoff 1e-300", wideProgram(2, 1), 1e-300, true, "at most 10000 (rtl.MaxStages)"},
		{"smallest cutoff", wideProgram(2, 1), math.SmallestNonzeroFloat64, true, "would make +Inf pipeline stages"},
		{"latency 1e308", wideProgram(2, 1e308), 1, true, "would make 1e+308 pipeline stages (the largest op latency is 1e+308)"},
		{"latency 1e308, cutoff 1e-300", wideProgram(2, 1e308), 1e-300, true, "would make +Inf pipeline stages"},
		{"latency +Inf", wideProgram(2, math.Inf(1)), 1, false, "op 2: latency +Inf is not a finite number >= 0"},
		{"latency NaN", wideProgram(2, math.NaN()), 1, false, "op 2: latency NaN is not a finite number >= 0"},
		{"latency -1", wideProgram(2, -1), 1, false, "op 2: latency -1 is not a finite number >= 0"},
		{"latency 1e308 combinational", wideProgram(2, 1e308), 0, false, ""},
		{"latency +Inf combinational", wideProgram(2, math.Inf(1)), 0, false, ""},
		{"MaxStages stages", wideProgram(2, 1), 1.0 / MaxStages, false, ""},
		{"registers", wideProgram(60, 1), 1.0 / MaxStages, true, "needs more than 524288 pipeline registers (rtl.MaxRegisters): use a larger cutoff"},
	} {
		t.Run(c.what, func(t *testing.T) {
			d, err := Build(c.p, Options{LatencyCutoff: c.cutoff})
			if c.message == "" {
				if err != nil {
					t.Fatal(err)
				}
				if c.cutoff > 0 && d.Latency != MaxStages {
					t.Errorf("latency %d, want %d", d.Latency, MaxStages)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", c.message)
			}
			if !strings.Contains(err.Error(), c.message) {
				t.Errorf("error %q, want %q in it", err, c.message)
			}
			var ce *CutoffError
			if errors.As(err, &ce) != c.cut {
				t.Errorf("error %q: CutoffError %v, want %v", err, !c.cut, c.cut)
			}
		})
	}
}

// TestSuggestedCutoff: the smallest cutoff a CutoffError suggests gives
// MaxStages stages, or at most 1% fewer (it has 3 significant digits).
func TestSuggestedCutoff(t *testing.T) {
	for _, top := range []float64{1, 3, 21.62109375, 0.1, 1e308, 7e-300} {
		p := wideProgram(2, top)
		_, err := Build(p, Options{LatencyCutoff: top / MaxStages / 10})
		if err == nil {
			t.Fatalf("latency %v: no error", top)
		}
		_, s, ok := strings.Cut(err.Error(), "use a cutoff of at least ")
		if !ok {
			t.Fatalf("latency %v: %v", top, err)
		}
		var c float64
		if _, err := fmt.Sscan(s, &c); err != nil {
			t.Fatal(err)
		}
		d, err := Build(p, Options{LatencyCutoff: c})
		if err != nil {
			t.Fatalf("latency %v, suggested cutoff %v: %v", top, c, err)
		}
		if d.Latency > MaxStages || d.Latency < MaxStages*99/100 {
			t.Errorf("latency %v, suggested cutoff %v: %d stages, want at most %d and 1%% less at the most", top, c, d.Latency, MaxStages)
		}
	}
}
