package alir

import (
	"fmt"
	"math/big"
)

// This file is the opcode table: one entry per opcode and dialect holding
// everything the package (and lower/dais, lower/daisopt) needs to know
// about it. The validator, the exact evaluator, the compiler of the fast
// interpreter, the portability analysis, the spec 3/4 record mapping, the
// writers and Info read it instead of switching on opcodes, so adding an
// opcode means adding one entry here (and its functions) plus a test;
// TestOpTableComplete fails when an entry lacks a required field.
//
// The hot loop of the block interpreter (kernels.go) keeps its switch, on
// the instruction kinds that each entry's compile function chooses, not on
// opcodes: TestOpTableFastMatchesExact (and TestFastMatchesExact) tie those
// kernels to the entries' exact semantics for every opcode of both
// dialects. Convert's dialect rewrites (convert.go) stay rules of their own.

// Operands says which fields of an Op hold the slots it reads.
type Operands uint8

const (
	NoOperands   Operands = iota // reads no slot (const)
	InputIndex                   // reads no slot; ID0 is an input index (input)
	Unary                        // ID0
	Binary                       // ID0 and ID1
	MuxOperands                  // ID0, ID1 and the condition slot in DataLow()
	TermOperands                 // Terms, two or more (ID0 and ID1 are -1)
)

// DataUse says what an Op's Data holds.
type DataUse uint8

const (
	DataNone      DataUse = iota // unused (0)
	DataShift                    // the shift of b, 32 bits (add, sub)
	DataRelShift                 // ALIR spec 4's relative shift r (quantize; 0 in DAIS)
	DataConstExp                 // ALIR const_add: constant DataLow()*2^-DataHigh()
	DataConstStep                // DAIS const_add: constant Data*step of the result
	DataRaw                      // the raw value (const)
	DataMux                      // condition slot (low) and shift of b (high)
	DataTable                    // index into Program.Tables (lookup)
	DataBitUnary                 // BitNot, BitReduceAny or BitReduceAll
	DataBitBinary                // shift of b (low) and BitAnd/Or/Xor (bits 63:56)
)

// OpInfo describes one opcode of one dialect.
type OpInfo struct {
	Code    Opcode
	Dialect Dialect
	// Name is the opcode's name as info, reports and messages print it.
	Name     string
	Operands Operands
	Data     DataUse
	// Wraps: the result is brought to the op's step and then wrapped to
	// the width of its type (see semantics.go); otherwise it is exact.
	Wraps bool
	// Linear: the exact result is a linear form of the operands (const,
	// add, sub, sum, const_add, ALIR neg); Portability tracks such forms.
	Linear bool
	// Adder: the cost model (Info's estimate, dais.Annotate) charges the
	// op as an adder (a sum of N terms as N-1).
	Adder bool
	// Kind is the op's category in Info's counts (counts.go,
	// docs/alir.md#what-info-counts).
	Kind Kind
	// Commutative: the two operands may be swapped when the op's shift
	// (see Data) is 0, both at one scale: add, mul, ALIR bit_binary.
	Commutative bool
	// OperandBits: the result depends on the operands' bits in their types
	// (width, signedness), not only on their values: lookup, bit operations.
	OperandBits bool
	// StepFloor: in a portable program the op's step may be any step no
	// finer than its exact result's, the finest of its operands' steps
	// (the second shifted by the op's shift, see Data) and constant's:
	// add, sub, sum, ALIR const_add, quantize, relu, DAIS neg_quantize and
	// neg_relu. Ops reading values that are not StepFloor tie their step
	// to the operands' (neg, mul, mux; DAIS const_add no coarser than its
	// operand) or read their bits (OperandBits). See Portability, StepOK.
	StepFloor bool
	// OriginalDAIS: the headerless DAIS binary of dais.md has the opcode.
	OriginalDAIS bool
	// MinSpec is the first ALIR spec version with the opcode (0 in DAIS).
	MinSpec int
	// V4Addr and V4Data are the addr and data entries of the op's spec-4
	// record (a sum: two or more addrs, two data entries each; a
	// quantize's data entry is new in spec 4; the bytecode adds a lookup's
	// pad). Zero for DAIS-only opcodes, which spec 4 does not have.
	V4Addr, V4Data int

	// exact is the reference semantics: z = the raw result (exact.go).
	exact func(c *exactCtx, i int, op Op, t KIF, pad int64, val func(int32) *big.Int, in []float64, z *big.Int) error
	// compile makes the fast interpreter's instruction (compile.go).
	compile func(m *Machine, i int, ins instr) instr
	// check validates Data (and Terms' shifts); nil: nothing to check.
	check func(p *Program, i int) error
	// span is the value-range rule: the range of the exact result, at
	// fractional bits e, from the operands' ranges (portability.go).
	span func(p *Program, inf *info, i int, operand func(int, int32) rng) (r rng, e int, reason string)
	// shift is the rule on the shifts alkaid's interpreter makes one way
	// only (nil: none).
	shift func(p *Program, inf *info, i int) string
	// step gives a linear op's exact result's fractional bits (nil: the
	// op is not linear).
	step func(p *Program, inf *info, i int) (e int, reason string)
	// form builds a linear op's linear form at fractional bits e.
	form func(pc *portCtx, i, e int) (affine, bool)
	// fromV4 and toV4 map the op to and from its spec-4 record (v4.go);
	// nil for DAIS-only opcodes.
	fromV4 func(r *v4Reader, op *Op) error
	toV4   func(op Op, pad int64, withPad bool) (addr []uint32, data []int64)
}

// Opcodes -9 to 11 are indexed from minOpcode.
const (
	minOpcode = -9
	maxOpcode = 11
)

var opTable [2][maxOpcode - minOpcode + 1]OpInfo

// Info returns the table entry of opcode c in dialect d, or nil if d has no
// such opcode.
func (d Dialect) Info(c Opcode) *OpInfo {
	if d > DAIS || c < minOpcode || c > maxOpcode {
		return nil
	}
	e := &opTable[d][c-minOpcode]
	if e.Name == "" {
		return nil
	}
	return e
}

// Opcodes lists the opcodes of dialect d in increasing order.
func Opcodes(d Dialect) []Opcode {
	var cs []Opcode
	for c := Opcode(minOpcode); c <= maxOpcode; c++ {
		if d.Info(c) != nil {
			cs = append(cs, c)
		}
	}
	return cs
}

// NumOperands returns how many slots op reads in dialect d (the terms of a
// sum; 0 for an unknown opcode).
func (o Op) NumOperands(d Dialect) int {
	e := d.Info(o.Opcode)
	if e == nil {
		return 0
	}
	switch e.Operands {
	case Unary:
		return 1
	case Binary:
		return 2
	case MuxOperands:
		return 3
	case TermOperands:
		return len(o.Terms)
	}
	return 0
}

func init() {
	// Shared entries: the same meaning (modulo what the functions read of
	// the dialect) in ALIR and DAIS.
	input := OpInfo{Code: OpInput, Name: "input", Kind: KindInput, Operands: InputIndex, Wraps: true, OriginalDAIS: true,
		V4Data: 1, exact: exactInput, compile: compileInput, span: spanInput, fromV4: v4InInput, toV4: v4OutInput}
	add := OpInfo{Code: OpAdd, Name: "add", Kind: KindAdder, Operands: Binary, Data: DataShift, Linear: true, Adder: true, Commutative: true, StepFloor: true, OriginalDAIS: true,
		V4Addr: 2, V4Data: 1, exact: exactAddSub, compile: compileAddSub, check: checkShiftData, span: spanAddSub,
		step: stepAddSub, form: formAddSub, fromV4: v4InAddSub, toV4: v4OutAddSub}
	sub := add
	sub.Code, sub.Name, sub.Commutative = OpSub, "sub", false
	relu := OpInfo{Code: OpReLU, Name: "relu", Kind: KindQuantizer, Operands: Unary, Wraps: true, StepFloor: true, OriginalDAIS: true,
		V4Addr: 1, exact: exactReLU, compile: compileReLUOp, span: spanQuantize, shift: shiftQuantize, fromV4: v4InUnary, toV4: v4OutUnary}
	quantize := OpInfo{Code: OpQuantize, Name: "quantize", Kind: KindQuantizer, Operands: Unary, Data: DataRelShift, Wraps: true, StepFloor: true, OriginalDAIS: true,
		V4Addr: 1, V4Data: 1, exact: exactQuantize, compile: compileQuantize, check: checkQuantizeData, span: spanQuantize, shift: shiftQuantize,
		fromV4: v4InQuantize, toV4: v4OutQuantize}
	constAdd := OpInfo{Code: OpConstAdd, Name: "const_add", Kind: KindConstAdd, Operands: Unary, Data: DataConstExp, Linear: true, Adder: true, StepFloor: true, OriginalDAIS: true,
		V4Addr: 1, V4Data: 2, exact: exactConstAdd, compile: compileConstAdd, check: checkConstAddData, span: spanConstAdd,
		step: stepConstAdd, form: formConstAdd, fromV4: v4InConstAdd, toV4: v4OutConstAdd}
	konst := OpInfo{Code: OpConst, Name: "const", Kind: KindConstant, Operands: NoOperands, Data: DataRaw, Linear: true, OriginalDAIS: true,
		V4Data: 1, exact: exactConst, compile: compileConst, span: spanConst, step: stepConst, form: formConst,
		fromV4: v4InConst, toV4: v4OutConst}
	mux := OpInfo{Code: OpMux, Name: "mux", Kind: KindMux, Operands: MuxOperands, Data: DataMux, Wraps: true, OriginalDAIS: true,
		V4Addr: 3, V4Data: 1, exact: exactMux, compile: compileMuxOp, check: checkMuxData, span: spanMux, shift: shiftMux,
		fromV4: v4InMux, toV4: v4OutMux}
	mul := OpInfo{Code: OpMul, Name: "mul", Kind: KindMultiplier, Operands: Binary, Commutative: true, OriginalDAIS: true,
		V4Addr: 2, exact: exactMul, compile: compileMul, span: spanMul, fromV4: v4InMul, toV4: v4OutMul}
	lookup := OpInfo{Code: OpLookup, Name: "lookup", Kind: KindLookup, Operands: Unary, Data: DataTable, OperandBits: true,
		V4Addr: 1, V4Data: 1, exact: exactLookup, compile: compileLookup, check: checkLookupData, span: spanLookup,
		fromV4: v4InLookup, toV4: v4OutLookup}
	bitUnary := OpInfo{Code: OpBitUnary, Name: "bit_unary", Kind: KindBitOp, Operands: Unary, Data: DataBitUnary, OperandBits: true,
		V4Addr: 1, V4Data: 1, exact: exactBitUnary, compile: compileBitUnary, check: checkBitUnaryData, span: spanBitUnary,
		fromV4: v4InBitUnary, toV4: v4OutBitUnary}
	bitBinary := OpInfo{Code: OpBitBinary, Name: "bit_binary", Kind: KindBitOp, Operands: Binary, Data: DataBitBinary, Commutative: true, OperandBits: true,
		V4Addr: 2, V4Data: 2, exact: exactBitBinary, compile: compileBitBinary, check: checkBitBinaryData, span: spanBitBinary,
		fromV4: v4InBitBinary, toV4: v4OutBitBinary}
	shared := []OpInfo{input, add, sub, relu, quantize, constAdd, konst, mux, mul, lookup, bitUnary, bitBinary}

	alirOnly := []OpInfo{
		{Code: OpNeg, Name: "neg", Kind: KindAdder, Operands: Unary, Linear: true, V4Addr: 1,
			exact: exactNeg, compile: compileNeg, span: spanNeg, step: stepNeg, form: formNeg,
			fromV4: v4InUnary, toV4: v4OutUnary},
		{Code: OpSum, Name: "sum", Kind: KindAdder, Operands: TermOperands, Linear: true, Adder: true, StepFloor: true, MinSpec: 3,
			exact: exactSum, compile: compileSum, check: checkSumData, span: spanSum, step: stepSum, form: formSum,
			fromV4: v4InSum, toV4: v4OutSum},
	}
	daisOnly := []OpInfo{
		{Code: OpNegReLU, Name: "neg_relu", Kind: KindQuantizer, Operands: Unary, Wraps: true, StepFloor: true, OriginalDAIS: true,
			exact: exactNegReLU, compile: compileNegReLU, span: spanNegReLU},
		{Code: OpNegQuantize, Name: "neg_quantize", Kind: KindQuantizer, Operands: Unary, Wraps: true, StepFloor: true, OriginalDAIS: true,
			exact: exactNegQuantize, compile: compileNegQuantize, span: spanQuantize, shift: shiftQuantize},
		{Code: OpNegMux, Name: "neg_mux", Kind: KindMux, Operands: MuxOperands, Data: DataMux, Wraps: true, OriginalDAIS: true,
			exact: exactMux, compile: compileMuxOp, check: checkMuxData, span: spanMux, shift: shiftMux},
		{Code: OpNegBitUnary, Name: "neg_bit_unary", Kind: KindBitOp, Operands: Unary, Data: DataBitUnary, OperandBits: true,
			exact: exactBitUnary, compile: compileBitUnary, check: checkBitUnaryData, span: spanBitUnary},
	}
	put := func(d Dialect, es ...OpInfo) {
		for _, e := range es {
			e.Dialect = d
			if d == DAIS {
				e.MinSpec, e.V4Addr, e.V4Data, e.fromV4, e.toV4 = 0, 0, 0, nil, nil
				if e.Code == OpConstAdd {
					e.Data = DataConstStep
					e.StepFloor = false // no coarser than its operand
				}
				if e.Code == OpBitBinary {
					e.Commutative = false // Data negates a and b separately
				}
				if e.Code == OpQuantize {
					e.Data = DataNone // checkQuantizeData insists on 0
				}
			} else {
				e.OriginalDAIS = false
				e.MinSpec = max(e.MinSpec, 2)
			}
			if opTable[d][e.Code-minOpcode].Name != "" {
				panic(fmt.Sprintf("alir: opcode %d of %v listed twice", e.Code, d))
			}
			opTable[d][e.Code-minOpcode] = e
		}
	}
	put(ALIR, shared...)
	put(ALIR, alirOnly...)
	put(DAIS, shared...)
	put(DAIS, daisOnly...)
}

// Commutes reports whether op's two operands may be swapped in dialect d:
// the opcode is Commutative and op's shift, if it has one, is 0.
func (o Op) Commutes(d Dialect) bool {
	e := d.Info(o.Opcode)
	if e == nil || !e.Commutative {
		return false
	}
	switch e.Data {
	case DataShift, DataBitBinary:
		return o.DataLow() == 0
	}
	return true
}
