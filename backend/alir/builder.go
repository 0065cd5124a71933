package alir

import (
	"fmt"
	"math/big"
)

// Builder constructs a program operation by operation. Each method appends
// one operation and returns its slot; q is the interval of its result (the
// *QInt helpers compute exact intervals). Errors are kept until Build.
type Builder struct {
	p   Program
	err error
}

// NewBuilder starts a program of dialect d with nIn inputs (input shifts 0)
// and the cost model sizes -1.
func NewBuilder(d Dialect, nIn int) *Builder {
	return &Builder{p: Program{Dialect: d, InShifts: make([]int32, nIn), CarrySize: -1, AdderSize: -1}}
}

func (b *Builder) fail(format string, args ...any) int32 {
	if b.err == nil {
		b.err = fmt.Errorf("builder: op %d: %s", len(b.p.Ops), fmt.Sprintf(format, args...))
	}
	return -1
}

// SetInputShift sets the scale 2^s applied to input j.
func (b *Builder) SetInputShift(j int, s int32) { b.p.InShifts[j] = s }

// SetCostModel sets the carry and adder sizes of the cost model.
func (b *Builder) SetCostModel(carry, adder int32) { b.p.CarrySize, b.p.AdderSize = carry, adder }

// Op appends op as it is and returns its slot.
func (b *Builder) Op(op Op) int32 {
	b.p.Ops = append(b.p.Ops, op)
	return int32(len(b.p.Ops) - 1)
}

func (b *Builder) op(code Opcode, id0, id1 int32, data int64, q QInterval) int32 {
	return b.Op(Op{ID0: id0, ID1: id1, Opcode: code, Data: data, QInt: q})
}

// Len returns the number of operations so far.
func (b *Builder) Len() int { return len(b.p.Ops) }

// QInt returns the interval of slot s.
func (b *Builder) QInt(s int32) QInterval {
	if s < 0 || int(s) >= len(b.p.Ops) {
		b.fail("slot %d does not exist", s)
		return QInterval{}
	}
	return b.p.Ops[s].QInt
}

// Input reads input j.
func (b *Builder) Input(j int, q QInterval) int32 { return b.op(OpInput, int32(j), -1, 0, q) }

// Neg computes -a (ALIR; DAIS uses NegQuantize).
func (b *Builder) Neg(a int32, q QInterval) int32 {
	if b.p.Dialect == DAIS {
		return b.op(OpNegQuantize, a, -1, 0, q)
	}
	return b.op(OpNeg, a, -1, 0, q)
}

// Add computes a + c*2^shift.
func (b *Builder) Add(a, c, shift int32, q QInterval) int32 {
	return b.op(OpAdd, a, c, int64(shift), q)
}

// Sub computes a - c*2^shift.
func (b *Builder) Sub(a, c, shift int32, q QInterval) int32 {
	return b.op(OpSub, a, c, int64(shift), q)
}

// ReLU computes quantize(max(a, 0)).
func (b *Builder) ReLU(a int32, q QInterval) int32 { return b.op(OpReLU, a, -1, 0, q) }

// Quantize computes quantize(a).
func (b *Builder) Quantize(a int32, q QInterval) int32 { return b.op(OpQuantize, a, -1, 0, q) }

// NegReLU computes quantize(max(-a, 0)) (DAIS only).
func (b *Builder) NegReLU(a int32, q QInterval) int32 {
	if b.p.Dialect != DAIS {
		return b.fail("NegReLU needs the DAIS dialect")
	}
	return b.op(OpNegReLU, a, -1, 0, q)
}

// NegQuantize computes quantize(-a) (DAIS only; in ALIR use Neg).
func (b *Builder) NegQuantize(a int32, q QInterval) int32 {
	if b.p.Dialect != DAIS {
		return b.fail("NegQuantize needs the DAIS dialect")
	}
	return b.op(OpNegQuantize, a, -1, 0, q)
}

// ConstAdd computes a + k*2^-exp, encoded for the builder's dialect (in
// DAIS the constant must be a whole number of the result's steps).
func (b *Builder) ConstAdd(a int32, k int64, exp int32, q QInterval) int32 {
	if b.p.Dialect == ALIR {
		if k != int64(int32(k)) {
			return b.fail("constant %d does not fit 32 bits", k)
		}
		return b.op(OpConstAdd, a, -1, PackData(int32(k), exp), q)
	}
	t, err := q.KIF()
	if err != nil {
		return b.fail("%v", err)
	}
	d := big.NewInt(k)
	if s := t.Fractionals - int(exp); s >= 0 {
		d.Lsh(d, uint(s))
	} else {
		r := new(big.Int)
		if d.QuoRem(d, new(big.Int).Lsh(big.NewInt(1), uint(-s)), r); r.Sign() != 0 {
			return b.fail("constant %d*2^-%d is finer than the result's step", k, exp)
		}
	}
	if !d.IsInt64() {
		return b.fail("constant does not fit 64 bits")
	}
	return b.op(OpConstAdd, a, -1, d.Int64(), q)
}

// Const defines the constant raw*step.
func (b *Builder) Const(raw int64, q QInterval) int32 { return b.op(OpConst, -1, -1, raw, q) }

// Mux computes msb(cond) ? a : c*2^shift.
func (b *Builder) Mux(cond, a, c, shift int32, q QInterval) int32 {
	return b.op(OpMux, a, c, PackData(cond, shift), q)
}

// NegMux computes msb(cond) ? a : -c*2^shift (DAIS only).
func (b *Builder) NegMux(cond, a, c, shift int32, q QInterval) int32 {
	if b.p.Dialect != DAIS {
		return b.fail("NegMux needs the DAIS dialect")
	}
	return b.op(OpNegMux, a, c, PackData(cond, shift), q)
}

// Mul computes a*c.
func (b *Builder) Mul(a, c int32, q QInterval) int32 { return b.op(OpMul, a, c, 0, q) }

// AddTable adds a lookup table and returns its index.
func (b *Builder) AddTable(t Table) int {
	b.p.Tables = append(b.p.Tables, t)
	return len(b.p.Tables) - 1
}

// Lookup reads table[(a - min_a)/step_a].
func (b *Builder) Lookup(a int32, table int, q QInterval) int32 {
	return b.op(OpLookup, a, -1, int64(table), q)
}

// BitUnary applies BitNot, BitReduceAny or BitReduceAll to a.
func (b *Builder) BitUnary(a int32, sub int, q QInterval) int32 {
	return b.op(OpBitUnary, a, -1, int64(sub), q)
}

// BitBinary applies BitAnd, BitOr or BitXor to a and c, c aligned to a by
// shift.
func (b *Builder) BitBinary(a, c, shift int32, sub uint8, q QInterval) int32 {
	return b.op(OpBitBinary, a, c, BitBinaryData(shift, sub), q)
}

// Output appends an output reading slot s (or -1 for zero), scaled by
// 2^shift and negated if neg.
func (b *Builder) Output(s, shift int32, neg bool) {
	b.p.Outputs = append(b.p.Outputs, Output{Index: s, Shift: shift, Neg: neg})
}

// Build validates and returns the program. The builder may go on being
// used; later operations do not change the returned program.
func (b *Builder) Build() (*Program, error) {
	if b.err != nil {
		return nil, b.err
	}
	p := b.p.Clone()
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}
