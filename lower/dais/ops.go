package dais

import (
	"errors"
	"fmt"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
)

// Operation names of the dialect.
const (
	OpProgram   = "dais.program"
	OpOutput    = "dais.output"
	OpTable     = "dais.table"
	OpInput     = "dais.input"
	OpNeg       = "dais.neg"
	OpAdd       = "dais.add"
	OpSub       = "dais.sub"
	OpReLU      = "dais.relu"
	OpQuantize  = "dais.quantize"
	OpConstAdd  = "dais.const_add"
	OpConst     = "dais.const"
	OpMux       = "dais.mux"
	OpMul       = "dais.mul"
	OpLookup    = "dais.lookup"
	OpBitUnary  = "dais.bit_unary"
	OpBitBinary = "dais.bit_binary"
	OpSum       = "dais.sum"
)

// slotOp describes an op that computes one ALIR slot. Its operands map to
// the slots of the ALIR op as alir's opcode table says (alir.Operands: a
// mux's condition comes first here); get and set map its attributes.
type slotOp struct {
	name     string
	code     alir.Opcode
	operands int      // SSA operands (dais.mux: condition, a, b); -1: two or more
	attrs    []string // integer or string attributes it requires
	summary  string
	// get reads the attributes into a (whose operand fields are set; ids
	// are the operands' slots); set writes op's attributes into at.
	get func(op *ir.Operation, a *alir.Op, ids []int32) error
	set func(op alir.Op, at *ir.Attrs) error
}

// slotOps lists the slot ops in opcode order.
var slotOps = []slotOp{
	{OpInput, alir.OpInput, 0, []string{"index"}, "reads input[index], quantized to the result (ALIR -1)", getInput, setInput},
	{OpNeg, alir.OpNeg, 1, nil, "negation (ALIR -2)", getNone, setNone},
	{OpAdd, alir.OpAdd, 2, []string{"shift"}, "a + b*2^shift (ALIR 0)", getShift, setShift},
	{OpSub, alir.OpSub, 2, []string{"shift"}, "a - b*2^shift (ALIR 1)", getShift, setShift},
	{OpReLU, alir.OpReLU, 1, nil, "max(a, 0), quantized (ALIR 2)", getNone, setNone},
	{OpQuantize, alir.OpQuantize, 1, nil, "quantizes a to the result: floor, then wrap (ALIR 3)", getNone, setNone},
	{OpConstAdd, alir.OpConstAdd, 1, []string{"value", "exp"}, "a + value*2^-exp (ALIR 4)", getConstAdd, setConstAdd},
	{OpConst, alir.OpConst, 0, []string{"value"}, "the constant value*step (ALIR 5)", getConst, setConst},
	{OpMux, alir.OpMux, 3, []string{"shift"}, "msb(c) ? a : b*2^shift, quantized (ALIR 6)", getMux, setMux},
	{OpMul, alir.OpMul, 2, nil, "a * b (ALIR 7)", getNone, setNone},
	{OpLookup, alir.OpLookup, 1, []string{"table"}, "reads lookup table `table` at a's index (ALIR 8)", getLookup, setLookup},
	{OpBitUnary, alir.OpBitUnary, 1, []string{"kind"}, "bitwise not, reduce-any or reduce-all (ALIR 9)", getBitUnary, setBitUnary},
	{OpBitBinary, alir.OpBitBinary, 2, []string{"kind", "shift"}, "bitwise and, or or xor, b aligned by shift (ALIR 10)", getBitBinary, setBitBinary},
	{OpSum, alir.OpSum, -1, []string{"shifts", "negs"}, "Σ ±x_k*2^shifts[k] (negs[k] = 1: minus), exact, floored to the result (ALIR spec 4 opcode 11)", getSum, setSum},
}

var (
	byName   = map[string]*slotOp{}
	byOpcode = map[alir.Opcode]*slotOp{}
)

// Bit operation kinds, indexed by their ALIR code.
var (
	bitUnaryKinds  = []string{"not", "any", "all"}
	bitBinaryKinds = []string{"and", "or", "xor"}
)

// The dais records declare variadic operands, results and regions: ToALIR,
// which every op's Verify hook (verifyOp) reaches through its dais.program,
// checks their form, with its own messages.
var (
	anyOperands = []ir.ArgDef{{Name: "operands", Arity: ir.Variadic}}
	anyResults  = []ir.ArgDef{{Name: "results", Arity: ir.Variadic}}
)

func init() {
	for i := range slotOps {
		d := &slotOps[i]
		byName[d.name] = d
		byOpcode[d.code] = d
		ir.RegisterOp(ir.OpDef{Name: d.name, Summary: d.summary,
			Operands: anyOperands, Results: anyResults, Traits: ir.VariadicRegions, Verify: verifyOp})
	}
	ir.RegisterOp(ir.OpDef{Name: OpProgram, Summary: "a combinational ALIR program: one slot per op", Effect: ir.WriteEffect,
		Operands: anyOperands, Results: anyResults, Regions: []string{"body"}, Traits: ir.VariadicRegions | ir.TopLevel, Verify: verifyOp})
	ir.RegisterOp(ir.OpDef{Name: OpTable, Summary: "a lookup table of a dais.program", Effect: ir.WriteEffect,
		Operands: anyOperands, Results: anyResults, Traits: ir.VariadicRegions, Verify: verifyOp})
	ir.RegisterOp(ir.OpDef{Name: OpOutput, Summary: "ends a dais.program and lists its outputs", Effect: ir.WriteEffect, EndsBlock: true,
		Operands: anyOperands, Results: anyResults, Traits: ir.VariadicRegions, Verify: verifyOp})
}

// IsSlotOp reports whether the named op computes an ALIR slot.
func IsSlotOp(name string) bool { return byName[name] != nil }

// Programs lists the dais.program ops of a module, in order.
func Programs(m *ir.Module) []*ir.Operation { return m.TopLevel(OpProgram) }

// The attribute readers and writers of slotOps.

func getNone(*ir.Operation, *alir.Op, []int32) error { return nil }

func setNone(alir.Op, *ir.Attrs) error { return nil }

func getInput(op *ir.Operation, a *alir.Op, _ []int32) error {
	idx, err := int32Attr(op, "index")
	a.ID0 = idx
	return err
}

func setInput(op alir.Op, at *ir.Attrs) error {
	at.Set("index", i64(int64(op.ID0)))
	return nil
}

func getShift(op *ir.Operation, a *alir.Op, _ []int32) error {
	s, err := int32Attr(op, "shift")
	a.Data = int64(s)
	return err
}

func setShift(op alir.Op, at *ir.Attrs) error {
	at.Set("shift", i64(int64(op.DataLow())))
	return nil
}

func getConstAdd(op *ir.Operation, a *alir.Op, _ []int32) error {
	v, err := int32Attr(op, "value")
	if err != nil {
		return err
	}
	e, err := int32Attr(op, "exp")
	a.Data = alir.PackData(v, e)
	return err
}

func setConstAdd(op alir.Op, at *ir.Attrs) error {
	at.Set("value", i64(int64(op.DataLow())))
	at.Set("exp", i64(int64(op.DataHigh())))
	return nil
}

func getConst(op *ir.Operation, a *alir.Op, _ []int32) error {
	v, err := intAttr(op, "value")
	a.Data = v
	return err
}

func setConst(op alir.Op, at *ir.Attrs) error {
	at.Set("value", i64(op.Data))
	return nil
}

func getMux(op *ir.Operation, a *alir.Op, _ []int32) error {
	s, err := int32Attr(op, "shift")
	a.Data = alir.PackData(a.DataLow(), s)
	return err
}

func setMux(op alir.Op, at *ir.Attrs) error {
	at.Set("shift", i64(int64(op.DataHigh())))
	return nil
}

func getLookup(op *ir.Operation, a *alir.Op, _ []int32) error {
	t, err := int32Attr(op, "table")
	a.Data = int64(t)
	return err
}

func setLookup(op alir.Op, at *ir.Attrs) error {
	at.Set("table", i64(int64(op.DataLow())))
	return nil
}

func getBitUnary(op *ir.Operation, a *alir.Op, _ []int32) error {
	k, err := kindAttr(op, bitUnaryKinds)
	a.Data = int64(k)
	return err
}

func setBitUnary(op alir.Op, at *ir.Attrs) error {
	at.Set("kind", &ir.StringAttr{Value: bitUnaryKinds[op.DataLow()]})
	return nil
}

func getBitBinary(op *ir.Operation, a *alir.Op, _ []int32) error {
	k, err := kindAttr(op, bitBinaryKinds)
	if err != nil {
		return err
	}
	s, err := int32Attr(op, "shift")
	a.Data = alir.BitBinaryData(s, uint8(k))
	return err
}

func setBitBinary(op alir.Op, at *ir.Attrs) error {
	at.Set("kind", &ir.StringAttr{Value: bitBinaryKinds[uint64(op.Data)>>56]})
	at.Set("shift", i64(int64(op.DataLow())))
	return nil
}

func getSum(op *ir.Operation, a *alir.Op, ids []int32) error {
	shifts, err := i64Array(op, "shifts")
	if err != nil {
		return err
	}
	negs, err := i64Array(op, "negs")
	if err != nil {
		return err
	}
	if len(shifts) != len(ids) || len(negs) != len(ids) {
		return fmt.Errorf("has %d operands, %d shifts and %d negs", len(ids), len(shifts), len(negs))
	}
	a.Terms = make([]alir.Term, len(ids))
	for k, id := range ids {
		if shifts[k] != int64(int32(shifts[k])) {
			return fmt.Errorf("shift %d does not fit 32 bits", shifts[k])
		}
		if negs[k] != 0 && negs[k] != 1 {
			return fmt.Errorf("negs[%d] is %d, want 0 or 1", k, negs[k])
		}
		a.Terms[k] = alir.Term{ID: id, Shift: int32(shifts[k]), Neg: negs[k] == 1}
	}
	return nil
}

// setSum is not reached: FromALIR rewrites sums first (alir.ToSpec2).
func setSum(alir.Op, *ir.Attrs) error { return errors.New("a sum is not imported") }
