package dais

import (
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

// slotOp describes an op that computes one ALIR slot.
type slotOp struct {
	name     string
	code     alir.Opcode
	operands int      // SSA operands (dais.mux: condition, a, b); -1: two or more
	attrs    []string // integer or string attributes it requires
	summary  string
}

// slotOps lists the slot ops in opcode order.
var slotOps = []slotOp{
	{OpInput, alir.OpInput, 0, []string{"index"}, "reads input[index], quantized to the result (ALIR -1)"},
	{OpNeg, alir.OpNeg, 1, nil, "negation (ALIR -2)"},
	{OpAdd, alir.OpAdd, 2, []string{"shift"}, "a + b*2^shift (ALIR 0)"},
	{OpSub, alir.OpSub, 2, []string{"shift"}, "a - b*2^shift (ALIR 1)"},
	{OpReLU, alir.OpReLU, 1, nil, "max(a, 0), quantized (ALIR 2)"},
	{OpQuantize, alir.OpQuantize, 1, nil, "quantizes a to the result: floor, then wrap (ALIR 3)"},
	{OpConstAdd, alir.OpConstAdd, 1, []string{"value", "exp"}, "a + value*2^-exp (ALIR 4)"},
	{OpConst, alir.OpConst, 0, []string{"value"}, "the constant value*step (ALIR 5)"},
	{OpMux, alir.OpMux, 3, []string{"shift"}, "msb(c) ? a : b*2^shift, quantized (ALIR 6)"},
	{OpMul, alir.OpMul, 2, nil, "a * b (ALIR 7)"},
	{OpLookup, alir.OpLookup, 1, []string{"table"}, "reads lookup table `table` at a's index (ALIR 8)"},
	{OpBitUnary, alir.OpBitUnary, 1, []string{"kind"}, "bitwise not, reduce-any or reduce-all (ALIR 9)"},
	{OpBitBinary, alir.OpBitBinary, 2, []string{"kind", "shift"}, "bitwise and, or or xor, b aligned by shift (ALIR 10)"},
	{OpSum, alir.OpSum, -1, []string{"shifts", "negs"}, "Σ ±x_k*2^shifts[k] (negs[k] = 1: minus), exact, floored to the result (ALIR spec 4 opcode 11)"},
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
		ir.RegisterOp(ir.OpDef{Name: d.name, Summary: d.summary, Syntax: ir.SyntaxGeneric,
			Operands: anyOperands, Results: anyResults, Traits: ir.VariadicRegions, Verify: verifyOp})
	}
	ir.RegisterOp(ir.OpDef{Name: OpProgram, Summary: "a combinational ALIR program: one slot per op", Syntax: ir.SyntaxGeneric, Effect: ir.WriteEffect,
		Operands: anyOperands, Results: anyResults, Regions: []string{"body"}, Traits: ir.VariadicRegions | ir.TopLevel, Verify: verifyOp})
	ir.RegisterOp(ir.OpDef{Name: OpTable, Summary: "a lookup table of a dais.program", Syntax: ir.SyntaxGeneric, Effect: ir.WriteEffect,
		Operands: anyOperands, Results: anyResults, Traits: ir.VariadicRegions, Verify: verifyOp})
	ir.RegisterOp(ir.OpDef{Name: OpOutput, Summary: "ends a dais.program and lists its outputs", Syntax: ir.SyntaxGeneric, Effect: ir.WriteEffect, Terminator: true,
		Operands: anyOperands, Results: anyResults, Traits: ir.VariadicRegions, Verify: verifyOp})
}

// IsSlotOp reports whether the named op computes an ALIR slot.
func IsSlotOp(name string) bool { return byName[name] != nil }

// Programs lists the dais.program ops of a module, in order.
func Programs(m *ir.Module) []*ir.Operation {
	var ps []*ir.Operation
	for _, op := range m.Body().Ops {
		if op.Name == OpProgram {
			ps = append(ps, op)
		}
	}
	return ps
}
