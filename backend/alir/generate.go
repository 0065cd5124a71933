package alir

import (
	"math"
	"math/rand/v2"
)

// ShiftAddConfig configures RandomShiftAdd.
type ShiftAddConfig struct {
	Inputs  int    // number of inputs (default 64)
	Ops     int    // number of operations, input operations included (default 5000)
	Outputs int    // number of outputs, taken from the last operations (default 16)
	Seed    uint64 // random seed
	// Operands come from the last Window operations with probability
	// Local, else from any earlier one (defaults 256 and 0.75).
	Window int
	Local  float64
	// MaxWidth caps result widths: operands are drawn again (up to 8
	// times) while the sum would be wider; failing that, the operation
	// requantizes an operand to a coarser step (opcode 3). Default 32.
	MaxWidth int
}

// RandomShiftAdd generates an ALIR program like the adder graphs of a
// constant-matrix-vector multiplication: each operation adds or subtracts
// two earlier values, one shifted by -3..3 bits, and its interval is the
// exact interval of the result, so no operation needs wrapping. Inputs are
// signed fixed-point numbers of 6 to 10 bits.
func RandomShiftAdd(c ShiftAddConfig) *Program {
	if c.Inputs <= 0 {
		c.Inputs = 64
	}
	if c.Ops <= 0 {
		c.Ops = 5000
	}
	c.Ops = max(c.Ops, c.Inputs+1)
	if c.Outputs <= 0 {
		c.Outputs = 16
	}
	c.Outputs = min(c.Outputs, c.Ops)
	if c.Window <= 0 {
		c.Window = 256
	}
	if c.Local == 0 {
		c.Local = 0.75
	}
	if c.MaxWidth <= 0 {
		c.MaxWidth = 32
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0x5eed))
	p := &Program{Dialect: ALIR, InShifts: make([]int32, c.Inputs), CarrySize: -1, AdderSize: -1}
	for j := range c.Inputs {
		w := 6 + rng.IntN(5)
		f := rng.IntN(w)
		t := KIF{Signed: true, Integers: w - 1 - f, Fractionals: f}
		p.Ops = append(p.Ops, Op{ID0: int32(j), ID1: -1, Opcode: OpInput, QInt: t.QInterval()})
	}
	pickOperand := func(i int) int32 {
		if rng.Float64() < c.Local {
			return int32(max(0, i-1-rng.IntN(min(c.Window, i))))
		}
		return int32(rng.IntN(i))
	}
	width := func(q QInterval) int {
		t, err := q.KIF()
		if err != nil {
			return math.MaxInt
		}
		return t.Width()
	}
	for i := c.Inputs; i < c.Ops; i++ {
		var op Op
		var q, qa QInterval
		for try := 0; try < 8; try++ {
			a, b := pickOperand(i), pickOperand(i)
			shift := rng.IntN(7) - 3
			sub := rng.IntN(2) == 1
			qa = p.Ops[a].QInt
			q = AddQInt(qa, p.Ops[b].QInt, shift, sub)
			op = Op{ID0: a, ID1: b, Opcode: OpAdd, Data: int64(shift), QInt: q}
			if sub {
				op.Opcode = OpSub
			}
			if width(q) <= c.MaxWidth {
				break
			}
		}
		if width(q) > c.MaxWidth {
			// Requantize a to a step 8 times coarser (floor keeps the
			// interval exact).
			step := qa.Step * 8
			q = QInterval{math.Floor(qa.Min/step) * step, math.Floor(qa.Max/step) * step, step}
			op = Op{ID0: op.ID0, ID1: -1, Opcode: OpQuantize, QInt: q}
		}
		p.Ops = append(p.Ops, op)
	}
	for j := range c.Outputs {
		p.Outputs = append(p.Outputs, Output{Index: int32(c.Ops - c.Outputs + j)})
	}
	return p
}

// RandomInputs returns n rows of values for p's inputs, uniform over each
// input's interval and slightly beyond it (to exercise wrapping).
func RandomInputs(p *Program, n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0x1a9))
	lo := make([]float64, p.NumInputs())
	hi := make([]float64, p.NumInputs())
	for j := range lo {
		lo[j], hi[j] = -1, 1
	}
	for _, op := range p.Ops {
		if op.Opcode == OpInput {
			s := math.Ldexp(1, -int(p.InShifts[op.ID0]))
			lo[op.ID0], hi[op.ID0] = op.QInt.Min*s, op.QInt.Max*s
		}
	}
	in := make([]float64, n*len(lo))
	for i := range in {
		j := i % len(lo)
		span := hi[j] - lo[j]
		in[i] = lo[j] - 0.05*span + 1.1*span*rng.Float64()
	}
	return in
}
