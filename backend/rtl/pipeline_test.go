package rtl

import (
	"errors"
	"fmt"
	"math"
	"strconv"
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
// number >= 0 is the program's (DelayProgram). Neither recurses nor
// allocates per stage.
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
			d, err := Build(c.p, Options{LatencyCutoff: c.cutoff, Delay: DelayProgram})
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
		_, err := Build(p, Options{LatencyCutoff: top / MaxStages / 10, Delay: DelayProgram})
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
		d, err := Build(p, Options{LatencyCutoff: c, Delay: DelayProgram})
		if err != nil {
			t.Fatalf("latency %v, suggested cutoff %v: %v", top, c, err)
		}
		if d.Latency > MaxStages || d.Latency < MaxStages*99/100 {
			t.Errorf("latency %v, suggested cutoff %v: %d stages, want at most %d and 1%% less at the most", top, c, d.Latency, MaxStages)
		}
	}
}

// shiftProgram: inputs x0, x1 (4-bit signed), a chain p1 = x1+x1, p2 =
// p1+x1, p3 = p2+x1 (5, 6, 6 bits), k = x0 + 256·x0 (13 bits) and the
// output k + p3 (13 bits). Every adder's estimated delay is
// AdderDelay(n > 1, -1) = 1.119140625.
func shiftProgram() *alir.Program {
	q := func(lo, hi float64) alir.QInterval { return alir.QInterval{Min: lo, Max: hi, Step: 1} }
	p := &alir.Program{Dialect: alir.ALIR, InShifts: make([]int32, 2), CarrySize: -1, AdderSize: -1}
	add := func(a, b int32, data int64, lo, hi float64) {
		p.Ops = append(p.Ops, alir.Op{ID0: a, ID1: b, Opcode: alir.OpAdd, Data: data, QInt: q(lo, hi)})
	}
	p.Ops = append(p.Ops, alir.Op{ID0: 0, ID1: -1, Opcode: alir.OpInput, QInt: q(-8, 7)},
		alir.Op{ID0: 1, ID1: -1, Opcode: alir.OpInput, QInt: q(-8, 7)})
	add(1, 1, 0, -16, 14)     // 2: p1
	add(2, 1, 0, -24, 21)     // 3: p2
	add(3, 1, 0, -32, 28)     // 4: p3
	add(0, 0, 8, -2056, 1799) // 5: k = x0 + 2^8·x0
	add(5, 4, 0, -2088, 1827) // 6: k + p3
	p.Outputs = []alir.Output{{Index: 6}}
	return p
}

// TestPipelineByEstimate: the stages and register bits of shiftProgram,
// counted by hand, and the design equal to the interpreter in Icarus.
//
// Cutoff 1.2 (an adder a stage): p1 and k could start at stage 0, p2 at 1,
// p3 at 2, the output at 3: latency 4. Registers: x1 to stages 1 and 2
// (4+4), p1 (5), p2 (6), p3 (6), the output (13), and k: computed at
// stage 0 it would cross three cuts (39 bits), at stage 2 x0 crosses two
// (8) and k one (13): 8+5+6+6+13+8+13 = 59 bits. But k's bits 0..7 are
// x0's (2^8·x0 adds zeros there), bits 3..7 all x0's sign: a register of
// k keeps one of those five (yosys merges registers of the same bit), 9
// bits: 55.
//
// Cutoff 2.3 (two adders a stage): p1, p2 at 0, p3 and the output at 1:
// latency 2; k at 1 (x0 crosses, 4 bits, not k, 13): x1 4, p2 6, x0 4,
// the output 13 = 27.
func TestPipelineByEstimate(t *testing.T) {
	for _, c := range []struct {
		cutoff        float64
		latency, bits int
		longest       float64
	}{
		{1.2, 4, 55, 1.119140625},
		{2.3, 2, 27, 2 * 1.119140625},
		{10, 1, 13, 4 * 1.119140625}, // one stage (p1, p2, p3, the output): the output register
	} {
		d, err := Build(shiftProgram(), Options{LatencyCutoff: c.cutoff})
		if err != nil {
			t.Fatal(err)
		}
		if d.Latency != c.latency || d.RegisterBits != c.bits || d.FlipFlops != c.bits || d.Delay != c.longest {
			t.Errorf("cutoff %g: latency %d, register bits %d, flip-flops %d, longest stage %g; want %d, %d, %d, %g",
				c.cutoff, d.Latency, d.RegisterBits, d.FlipFlops, d.Delay, c.latency, c.bits, c.bits, c.longest)
		}
	}
	needTool(t, "iverilog")
	var in []float64
	for x0 := -8; x0 < 8; x0++ {
		for x1 := -8; x1 < 8; x1 += 3 {
			in = append(in, float64(x0), float64(x1))
		}
	}
	for _, c := range []float64{1.2, 2.3} {
		check(t, fmt.Sprintf("cutoff %g", c), shiftProgram(), Options{Name: "sp", LatencyCutoff: c}, in)
	}
}

// TestShiftRegisterChains: a value read 5 stages later through registers
// that nothing else reads is a chain synth_xilinx maps to a shift register
// (SRL16E): its bits are register bits, not flip-flops.
func TestShiftRegisterChains(t *testing.T) {
	p := wideProgram(3, 1) // add of inputs 0, 1; outputs: the add and every input
	// The add's latency does not matter: a chain of 5 adders on input 0
	// makes 5 stages at cutoff 1.2, and input 2 (4 bits) waits for them.
	prev := int32(0)
	for k := range 5 {
		lo, hi := -8*float64(int(1)<<(k+1)), 7*float64(int(1)<<(k+1))
		p.Ops = append(p.Ops, alir.Op{ID0: prev, ID1: prev, Opcode: alir.OpAdd, QInt: alir.QInterval{Min: lo, Max: hi, Step: 1}})
		prev = int32(len(p.Ops) - 1)
	}
	p.Outputs = []alir.Output{{Index: prev}, {Index: 2}}
	d, err := Build(p, Options{LatencyCutoff: 1.2})
	if err != nil {
		t.Fatal(err)
	}
	// Stages 0..4; the last adder's 9 bits and input 2's 4 bits each cross
	// 1 and 5 cuts; the chain's values 5, 6, 7, 8 bits one cut each.
	// Input 2's 5 registers are read by the next only: a chain.
	if d.Latency != 5 || d.RegisterBits != 9+4*5+5+6+7+8 || d.FlipFlops != d.RegisterBits-4*5 {
		t.Errorf("latency %d, register bits %d, flip-flops %d; want 5, %d, %d", d.Latency, d.RegisterBits, d.FlipFlops, 9+4*5+5+6+7+8, 9+5+6+7+8)
	}
}

// TestDelayModel: alkaid's surrogate delays (trace/passes/surrogate.py).
func TestDelayModel(t *testing.T) {
	for _, c := range []struct {
		n     int
		carry int32
		want  float64
	}{{1, -1, 1.09375}, {16, -1, 1.119140625}, {16, 4, 1.09375 + 4*0.025390625}, {18, 1, 1.09375 + 17*0.025390625}} {
		if got := AdderDelay(c.n, c.carry); got != c.want {
			t.Errorf("AdderDelay(%d, %d) = %g, want %g", c.n, c.carry, got, c.want)
		}
	}
	for n, want := range map[int]float64{4: 0.075, 6: 0.075, 8: 0.475, 10: 0.075 + 0.6 + 0.8, 14: 4} {
		if got := LookupDelay(n); math.Abs(got-want) > 1e-12 {
			t.Errorf("LookupDelay(%d) = %g, want %g", n, got, want)
		}
	}
	for _, s := range []string{"estimate", "program"} {
		if _, err := ParseDelayModel(s); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseDelayModel("stored"); err == nil {
		t.Error("ParseDelayModel(stored): no error")
	}
}

// TestEstimateMaxStages: with estimated delays only a path of more than
// MaxStages ops makes too many stages: a chain of 12,000 xors (a LUT level
// each) at cutoff 0.5 is a CutoffError naming a cutoff that works.
func TestEstimateMaxStages(t *testing.T) {
	q := alir.QInterval{Min: -8, Max: 7, Step: 1}
	b := alir.NewBuilder(alir.ALIR, 2)
	x, y := b.Input(0, q), b.Input(1, q)
	for range 12000 {
		x = b.BitBinary(x, y, 0, alir.BitXor, q)
	}
	b.Output(x, 0, false)
	p, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(p, Options{LatencyCutoff: 0.5})
	var ce *CutoffError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "would make 12000 pipeline stages; at most 10000 (rtl.MaxStages): use a cutoff of at least ") {
		t.Fatalf("error %v, want a CutoffError for 12000 stages", err)
	}
	_, s, _ := strings.Cut(err.Error(), "at least ")
	c, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Build(p, Options{LatencyCutoff: c})
	if err != nil || d.Latency > MaxStages {
		t.Errorf("suggested cutoff %v: %v", c, err)
	}
}
