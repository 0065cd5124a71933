package alir

import "fmt"

// Dialect selects the meaning of the opcodes that ALIR and DAIS define
// differently.
type Dialect uint8

const (
	// ALIR is alkaid's ALIR, spec versions 2 to 4 (Program.Spec).
	ALIR Dialect = iota
	// DAIS is da4ml's DAIS: the v1 binary and the original headerless binary.
	DAIS
)

func (d Dialect) String() string {
	switch d {
	case ALIR:
		return "ALIR"
	case DAIS:
		return "DAIS"
	}
	return fmt.Sprintf("Dialect(%d)", uint8(d))
}

// Opcode is an operation code. The constants are named after their ALIR
// meaning; the DAIS-only negated forms have their own names.
type Opcode int32

const (
	OpNeg       Opcode = -2 // ALIR: -a. In DAIS this code is OpNegReLU.
	OpInput     Opcode = -1 // input[id0], quantized
	OpAdd       Opcode = 0  // a + b*2^data
	OpSub       Opcode = 1  // a - b*2^data
	OpReLU      Opcode = 2  // quantize(max(a, 0))
	OpQuantize  Opcode = 3  // quantize(a)
	OpConstAdd  Opcode = 4  // a + constant (encoding differs by dialect)
	OpConst     Opcode = 5  // raw value data
	OpMux       Opcode = 6  // msb(c) ? a : b*2^shift
	OpMul       Opcode = 7  // a * b
	OpLookup    Opcode = 8  // table[index(a)]
	OpBitUnary  Opcode = 9  // NOT / reduce-any / reduce-all
	OpBitBinary Opcode = 10 // AND / OR / XOR
	OpSum       Opcode = 11 // ALIR spec 3/4: Σ ±x_k*2^s_k (Op.Terms)

	OpNegReLU     Opcode = -2 // DAIS: quantize(max(-a, 0))
	OpNegQuantize Opcode = -3 // DAIS: quantize(-a)
	OpNegMux      Opcode = -6 // DAIS: msb(c) ? a : -b*2^shift
	OpNegBitUnary Opcode = -9 // DAIS: unary bit operation on -a
)

// Sub-operations of OpBitUnary (in Data) and OpBitBinary (in Data bits 63:56).
const (
	BitNot       = 0
	BitReduceAny = 1
	BitReduceAll = 2

	BitAnd = 0
	BitOr  = 1
	BitXor = 2
)

// OpName returns a short name of opcode c in dialect d, or "" if d has no such
// opcode (the opcode table's Name).
func (d Dialect) OpName(c Opcode) string {
	if e := d.Info(c); e != nil {
		return e.Name
	}
	return ""
}

// Op is one operation. Unused operand fields hold -1.
//
// Data depends on the opcode: the shift of b for OpAdd and OpSub; for
// OpConstAdd in ALIR the constant DataLow()*2^-DataHigh(), in DAIS the
// constant Data*step of the result; the raw value for OpConst; for OpMux the
// condition slot in the low and the shift of b in the high 32 bits; the table
// index for OpLookup (the bytecode's pad offset is derived from the operand's
// interval, see Program.LookupPad); the sub-operation for OpBitUnary; for
// OpBitBinary the shift aligning b to a in the low 32 bits and the
// sub-operation in bits 63:56; for OpQuantize in ALIR the relative shift r
// of spec 4 (quantize(a*2^r); 0 in spec 2 and 3, and always 0 in DAIS).
//
// OpSum (ALIR spec 3/4 only) reads its operands from Terms, at least two
// (ID0 and ID1 are -1, Data is 0); no other opcode has Terms.
type Op struct {
	ID0, ID1 int32
	Opcode   Opcode
	Data     int64
	QInt     QInterval // interval of the result; fixes its fixed-point type
	Latency  float64   // estimated time at which the result is available
	Cost     float64   // estimated cost of the operation
	Terms    []Term    // OpSum: the addends, at least one
}

// Term is one addend ±x*2^Shift of an OpSum: the value of slot ID scaled by
// 2^Shift, subtracted if Neg.
type Term struct {
	ID    int32
	Shift int32
	Neg   bool
}

// Equal reports whether o and q are the same operation (Terms compared
// element by element).
func (o Op) Equal(q Op) bool {
	if len(o.Terms) != len(q.Terms) || (o.Terms == nil) != (q.Terms == nil) {
		return false
	}
	for k := range o.Terms {
		if o.Terms[k] != q.Terms[k] {
			return false
		}
	}
	return o.ID0 == q.ID0 && o.ID1 == q.ID1 && o.Opcode == q.Opcode && o.Data == q.Data &&
		o.QInt == q.QInt && o.Latency == q.Latency && o.Cost == q.Cost
}

// RelShift returns the relative shift r of an ALIR quantize (spec 4:
// quantize(a*2^r)), 0 for every other op.
func (o Op) RelShift() int {
	if o.Opcode == OpQuantize {
		return int(o.Data)
	}
	return 0
}

// DataLow returns the low 32 bits of Data as a signed integer.
func (o Op) DataLow() int32 { return int32(uint32(uint64(o.Data))) }

// DataHigh returns the high 32 bits of Data as a signed integer.
func (o Op) DataHigh() int32 { return int32(uint64(o.Data) >> 32) }

// PackData joins a low and a high 32-bit word into an int64 Data value.
func PackData(low, high int32) int64 {
	return int64(uint64(uint32(high))<<32 | uint64(uint32(low)))
}

// BitBinaryData encodes OpBitBinary's Data: the shift aligning b to a and the
// sub-operation (BitAnd, BitOr or BitXor).
func BitBinaryData(shift int32, sub uint8) int64 {
	return int64(uint64(sub)<<56 | uint64(uint32(shift)))
}

// Output selects one output: slot Index (or -1 for a constant zero), scaled
// by 2^Shift and negated if Neg.
type Output struct {
	Index int32
	Shift int32
	Neg   bool
}

// Table is a lookup table. Values are raw results in units of the step of
// the operation that reads the table. Hash, OutQInt and InpWidth are the
// ALIR JSON "spec" record; binary formats do not store them.
type Table struct {
	Values   []int32
	Hash     string
	OutQInt  QInterval
	InpWidth int
}

// Program is one ALIR or DAIS program.
type Program struct {
	Dialect Dialect
	// InShifts has one entry per input: input j is scaled by 2^InShifts[j]
	// before it is quantized.
	InShifts []int32
	Outputs  []Output
	Ops      []Op
	// CarrySize and AdderSize parametrize the cost model (see Estimate).
	CarrySize int32
	AdderSize int32
	Tables    []Table
	// Firmware is the firmware_version word of the binary headers.
	Firmware int32
	// Spec is the ALIR spec version the program was read from (2, 3 or
	// 4), or 0 (DAIS, or built in memory). Writers that pick a version by
	// themselves keep it (see WriteFile); it does not change the meaning.
	Spec int
}

// NumInputs returns the number of inputs.
func (p *Program) NumInputs() int { return len(p.InShifts) }

// NumOutputs returns the number of outputs.
func (p *Program) NumOutputs() int { return len(p.Outputs) }

// Clone returns a deep copy of p.
func (p *Program) Clone() *Program {
	q := *p
	q.InShifts = append([]int32(nil), p.InShifts...)
	q.Outputs = append([]Output(nil), p.Outputs...)
	q.Ops = append([]Op(nil), p.Ops...)
	for i := range q.Ops {
		if q.Ops[i].Terms != nil {
			q.Ops[i].Terms = append([]Term(nil), q.Ops[i].Terms...)
		}
	}
	q.Tables = make([]Table, len(p.Tables))
	for i, t := range p.Tables {
		t.Values = append([]int32(nil), t.Values...)
		q.Tables[i] = t
	}
	if p.Tables == nil {
		q.Tables = nil
	}
	return &q
}

// canonicalData returns op with Data reduced to the words the original
// interpreters of spec 2 and DAIS read: the low 32 bits for add/sub shifts,
// lookup table indices and unary bit operations, and no relative shift for
// quantize (spec 2 ignores the data of opcode 3).
func canonicalData(op Op) Op {
	switch dataUse(op.Opcode) {
	case DataShift, DataTable, DataBitUnary:
		op.Data = int64(op.DataLow())
	case DataRelShift:
		op.Data = 0
	}
	return op
}

// dataUse returns what Data holds for opcode c in whichever dialect has it
// (the uses that canonicalData reduces agree between the dialects).
func dataUse(c Opcode) DataUse {
	if e := ALIR.Info(c); e != nil {
		return e.Data
	}
	if e := DAIS.Info(c); e != nil {
		return e.Data
	}
	return DataNone
}

// mapOperands returns o with every slot it reads replaced by f(slot).
func (o Op) mapOperands(d Dialect, f func(int32) int32) Op {
	e := d.Info(o.Opcode)
	if e == nil {
		e = &OpInfo{Operands: Unary}
	}
	switch e.Operands {
	case NoOperands, InputIndex:
	case TermOperands:
		ts := make([]Term, len(o.Terms))
		for k, t := range o.Terms {
			t.ID = f(t.ID)
			ts[k] = t
		}
		o.Terms = ts
	case MuxOperands:
		o.ID0, o.ID1 = f(o.ID0), f(o.ID1)
		o.Data = PackData(f(o.DataLow()), o.DataHigh())
	case Binary:
		o.ID0, o.ID1 = f(o.ID0), f(o.ID1)
	default:
		o.ID0 = f(o.ID0)
	}
	return o
}

// MapOperands returns o with every slot it reads (operands, a mux's
// condition, a sum's terms) replaced by f(slot), in dialect d.
func (o Op) MapOperands(d Dialect, f func(int32) int32) Op { return o.mapOperands(d, f) }

// MarkLive sets live[i] for every op that an op already marked live
// reads, directly or not: the roots (the ops the outputs read, and any
// other the caller keeps) are marked on entry. Operands precede their
// readers, so one backward pass does it.
func MarkLive(d Dialect, ops []Op, live []bool) {
	for i := len(ops) - 1; i >= 0; i-- {
		if live[i] {
			ops[i].ForOperands(d, func(j int32) { live[j] = true })
		}
	}
}

// ForOperands calls f with every slot o reads, in dialect d, without
// allocating.
func (o Op) ForOperands(d Dialect, f func(int32)) {
	e := d.Info(o.Opcode)
	if e == nil {
		f(o.ID0)
		return
	}
	switch e.Operands {
	case NoOperands, InputIndex:
	case Binary:
		f(o.ID0)
		f(o.ID1)
	case MuxOperands:
		f(o.ID0)
		f(o.ID1)
		f(o.DataLow())
	case TermOperands:
		for _, t := range o.Terms {
			f(t.ID)
		}
	default:
		f(o.ID0)
	}
}

// operands returns the slots op i reads (operands, then the mux condition;
// the terms of a sum, in order).
func (o Op) operands(d Dialect) []int32 {
	ids := o.appendOperands(nil, d)
	if len(ids) == 0 {
		return nil
	}
	return ids
}

// appendOperands appends o.operands(d) to ids: a walk over many ops that
// reuses one buffer allocates nothing.
func (o Op) appendOperands(ids []int32, d Dialect) []int32 {
	return o.appendOperandsOf(ids, d.Info(o.Opcode))
}

// appendOperandsOf is appendOperands for the opcode's table entry e.
func (o *Op) appendOperandsOf(ids []int32, e *OpInfo) []int32 {
	if e == nil {
		return append(ids, o.ID0)
	}
	switch e.Operands {
	case NoOperands, InputIndex:
		return ids
	case Binary:
		return append(ids, o.ID0, o.ID1)
	case MuxOperands:
		return append(ids, o.ID0, o.ID1, o.DataLow())
	case TermOperands:
		for _, t := range o.Terms {
			ids = append(ids, t.ID)
		}
		return ids
	}
	return append(ids, o.ID0)
}
