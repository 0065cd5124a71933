package alir

import (
	"math"
	"math/rand/v2"
)

// randomKIF returns a random valid type: often narrow, sometimes 64 bits
// wide or zero-width, with fractional bits between -8 and 8.
func randomKIF(r *rand.Rand) KIF {
	var w int
	signed := r.IntN(2) == 0
	switch r.IntN(12) {
	case 0:
		return KIF{}
	case 1, 2:
		w = 64
	case 3:
		w = 60 + r.IntN(4)
	default:
		w = 1 + r.IntN(34)
	}
	f := r.IntN(17) - 8
	k := 0
	if signed {
		k = 1
	}
	return KIF{Signed: signed, Integers: w - k - f, Fractionals: f}
}

// randomQInt returns the interval of a random type, sometimes narrowed to
// a sub-range with the same type.
func randomQInt(r *rand.Rand) QInterval {
	t := randomKIF(r)
	q := t.QInterval()
	if t.Width() > 2 && t.Width() < 50 && r.IntN(3) == 0 {
		// A min a few steps inside keeps the type; it moves lookup pads.
		q.Min += float64(r.IntN(3)) * q.Step
		if t.Signed && q.Min >= 0 {
			q.Min = -q.Step
		}
	}
	return q
}

// opcodes are the opcodes RandomProgram draws from, by dialect.
var opcodes = map[Dialect][]Opcode{
	ALIR: {-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
	DAIS: {-9, -6, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
}

func randShift(r *rand.Rand) int32 {
	if r.IntN(20) == 0 {
		return int32(r.IntN(161) - 80)
	}
	return int32(r.IntN(13) - 6)
}

// RandomProgram builds a valid random program using every opcode of d
// (with v4, ALIR spec 4's sums and relative quantize shifts too): the
// generator of the differential tests (the interpreter against the exact
// semantics and the reference tools; backend/rtl's designs against the
// interpreter).
func RandomProgram(r *rand.Rand, d Dialect, nIn, nOps int, v4 bool) *Program {
	p := &Program{Dialect: d, InShifts: make([]int32, nIn), CarrySize: int32(r.IntN(4) - 1), AdderSize: int32(r.IntN(4) - 1)}
	for j := range p.InShifts {
		p.InShifts[j] = int32(r.IntN(7) - 3)
	}
	codes := opcodes[d]
	for i := 0; i < nOps; i++ {
		q := randomQInt(r)
		earlier := func() int32 { return int32(r.IntN(i)) }
		c := codes[r.IntN(len(codes))]
		if v4 && r.IntN(len(codes)+1) == 0 {
			c = OpSum
		}
		if i == 0 || (i < nIn && r.IntN(2) == 0) {
			c = OpInput
		}
		if i == 0 && nIn == 0 {
			c = OpConst
		}
		op := Op{Opcode: c, ID0: -1, ID1: -1, QInt: q, Latency: float64(r.IntN(8)) / 4, Cost: float64(r.IntN(8)) / 2}
		switch c {
		case OpInput:
			if nIn == 0 {
				op.Opcode, op.Data = OpConst, r.Int64()
				break
			}
			op.ID0 = int32(r.IntN(nIn))
		case OpConst:
			op.Data = r.Int64() >> r.IntN(64)
		case OpAdd, OpSub:
			op.ID0, op.ID1, op.Data = earlier(), earlier(), int64(randShift(r))
		case OpMul:
			op.ID0, op.ID1 = earlier(), earlier()
		case OpMux, OpNegMux:
			op.ID0, op.ID1 = earlier(), earlier()
			op.Data = PackData(earlier(), randShift(r))
		case OpConstAdd:
			op.ID0 = earlier()
			if d == ALIR {
				op.Data = PackData(int32(r.Uint32())>>r.IntN(32), int32(r.IntN(21)-10))
			} else {
				op.Data = r.Int64() >> (20 + r.IntN(44))
			}
		case OpLookup:
			// A narrow operand and a table covering all its values.
			a := earlier()
			ta, _ := p.Ops[a].QInt.KIF()
			if ta.Width() > 10 {
				op.Opcode, op.ID0 = OpQuantize, a
				break
			}
			vals := make([]int32, 1<<ta.Width()+r.IntN(3))
			for k := range vals {
				vals[k] = int32(r.Uint32()) >> r.IntN(32)
			}
			p.Tables = append(p.Tables, Table{Values: vals})
			op.ID0, op.Data = a, int64(len(p.Tables)-1)
		case OpBitUnary, OpNegBitUnary:
			op.ID0, op.Data = earlier(), int64(r.IntN(3))
		case OpBitBinary:
			op.ID0, op.ID1 = earlier(), earlier()
			op.Data = BitBinaryData(randShift(r), uint8(r.IntN(3)))
		case OpSum:
			op.Terms = make([]Term, 2+r.IntN(4))
			for k := range op.Terms {
				op.Terms[k] = Term{ID: earlier(), Shift: randShift(r), Neg: r.IntN(2) == 0}
			}
		case OpQuantize:
			op.ID0 = earlier()
			if v4 && r.IntN(2) == 0 {
				op.Data = int64(randShift(r))
			}
		default: // unary: neg, relu, quantize and the DAIS negated forms
			op.ID0 = earlier()
		}
		p.Ops = append(p.Ops, op)
	}
	nOut := 1 + r.IntN(6)
	for range nOut {
		o := Output{Index: int32(r.IntN(nOps+1) - 1), Shift: int32(r.IntN(9) - 4), Neg: r.IntN(2) == 0}
		p.Outputs = append(p.Outputs, o)
	}
	return p
}

// RandomInputValues returns n rows of inputs: mostly moderate values, some
// huge, tiny, negative zero, infinite or NaN.
func RandomInputValues(r *rand.Rand, nIn, n int) []float64 {
	in := make([]float64, n*nIn)
	for i := range in {
		switch r.IntN(40) {
		case 0:
			in[i] = math.NaN()
		case 1:
			in[i] = math.Inf(1 - 2*r.IntN(2))
		case 2:
			in[i] = (r.Float64() - 0.5) * 1e30
		case 3:
			in[i] = math.Copysign(0, -1)
		case 4:
			in[i] = (r.Float64() - 0.5) * 0x1p70
		default:
			in[i] = (r.Float64() - 0.5) * math.Ldexp(1, r.IntN(40)-8)
		}
	}
	return in
}
