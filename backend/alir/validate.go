package alir

import (
	"fmt"
	"math"
)

// MaxShift bounds the shifts stored in Data (add/sub, mux, bit-binary and
// ALIR const-add exponents). Real programs use a few dozen at most; the bound
// keeps exact evaluation cheap.
const MaxShift = 1 << 12

// OpError is a problem with one operation.
type OpError struct {
	Index  int
	Opcode Opcode
	Name   string // the opcode's name in the program's dialect, if any
	Err    error
}

func (e *OpError) Error() string {
	if e.Name != "" {
		return fmt.Sprintf("op %d (%s): %v", e.Index, e.Name, e.Err)
	}
	return fmt.Sprintf("op %d (opcode %d): %v", e.Index, e.Opcode, e.Err)
}

func (e *OpError) Unwrap() error { return e.Err }

// info holds what validation derives from a program: the type of every slot
// and the lookup pad of every lookup operation.
type info struct {
	kif []KIF
	pad []int64 // lookup ops only (see padOf); nil in a program without any
	// plain: the span rules use interval arithmetic only (Ranges), without
	// Portability's refinements for a repeated operand (a - a, a * a) and
	// for the kind of a bit operation.
	plain bool
	// last is the last op that reads each op (0 if none does), made by
	// analyzeUses only.
	last []int32
}

// Validate checks p: dialect and opcodes, causality, operand, condition,
// input, output and table indices, unused operands set to -1, intervals with
// power-of-two steps and widths up to 64 bits, and shift ranges.
func (p *Program) Validate() error {
	_, err := p.analyze()
	return err
}

// padOf returns the pad of lookup op i (0 for other ops).
func (inf *info) padOf(i int) int64 {
	if inf.pad == nil {
		return 0
	}
	return inf.pad[i]
}

func (p *Program) opErr(i int, format string, args ...any) error {
	op := p.Ops[i]
	return &OpError{Index: i, Opcode: op.Opcode, Name: p.Dialect.OpName(op.Opcode), Err: fmt.Errorf(format, args...)}
}

func (p *Program) analyze() (*info, error) { return p.analyzeUses(false) }

// analyzeUses is analyze, which also records inf.last if uses (in the same
// pass over the ops: Portability's walk is memory-bound).
func (p *Program) analyzeUses(uses bool) (*info, error) {
	if p.Dialect != ALIR && p.Dialect != DAIS {
		return nil, fmt.Errorf("unknown dialect %d", p.Dialect)
	}
	n := len(p.Ops)
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("too many operations (%d)", n)
	}
	inf := &info{kif: make([]KIF, n)}
	if uses {
		inf.last = make([]int32, n)
	}
	var kifs KIFCache
	var ids []int32 // the operands of one op, reused
	for i := range p.Ops {
		op := &p.Ops[i]
		oi := p.Dialect.Info(op.Opcode)
		if oi == nil {
			return nil, p.opErr(i, "unknown opcode %d for %v", op.Opcode, p.Dialect)
		}
		if i > 0 && op.QInt == p.Ops[i-1].QInt { // (runs of one type: no hash)
			inf.kif[i] = inf.kif[i-1]
		} else {
			t, err := kifs.KIF(op.QInt)
			if err != nil {
				return nil, p.opErr(i, "%v", err)
			}
			inf.kif[i] = t
		}
		if err := p.checkOperands(i, oi); err != nil {
			return nil, err
		}
		if oi.check != nil {
			if err := oi.check(p, i); err != nil {
				return nil, err
			}
		}
		if uses {
			ids = op.appendOperandsOf(ids[:0], oi)
			for _, id := range ids {
				inf.last[id] = int32(i)
			}
		}
		if oi.Data == DataTable {
			pad, err := p.lookupPad(i, inf.kif[op.ID0])
			if err != nil {
				return nil, err
			}
			if inf.pad == nil {
				inf.pad = make([]int64, n)
			}
			inf.pad[i] = pad
		}
	}
	for j, s := range p.InShifts {
		if s < -MaxShift || s > MaxShift {
			return nil, fmt.Errorf("input %d: shift %d out of range [%d, %d]", j, s, -MaxShift, MaxShift)
		}
	}
	for j, o := range p.Outputs {
		if o.Index < -1 || int(o.Index) >= n {
			return nil, fmt.Errorf("output %d: index %d does not refer to an operation (have %d)", j, o.Index, n)
		}
		if o.Shift < -MaxShift || o.Shift > MaxShift {
			return nil, fmt.Errorf("output %d: shift %d out of range [%d, %d]", j, o.Shift, -MaxShift, MaxShift)
		}
	}
	return inf, nil
}

// checkOperands checks that op i reads only earlier slots (or a valid input)
// and leaves unused operand fields at -1, by its table entry's Operands.
func (p *Program) checkOperands(i int, oi *OpInfo) error {
	op := &p.Ops[i]
	earlier := func(what string, id int32) error {
		if id < 0 || int(id) >= i {
			return p.opErr(i, "%s %d does not refer to an earlier operation", what, id)
		}
		return nil
	}
	unused := func(what string, id int32) error {
		if id != -1 {
			return p.opErr(i, "unused %s must be -1, got %d", what, id)
		}
		return nil
	}
	switch oi.Operands {
	case InputIndex:
		if op.ID0 < 0 || int(op.ID0) >= len(p.InShifts) {
			return p.opErr(i, "input index %d out of range (have %d inputs)", op.ID0, len(p.InShifts))
		}
		return unused("id1", op.ID1)
	case NoOperands:
		if err := unused("id0", op.ID0); err != nil {
			return err
		}
		return unused("id1", op.ID1)
	case Binary:
		if err := earlier("id0", op.ID0); err != nil {
			return err
		}
		return earlier("id1", op.ID1)
	case MuxOperands:
		if err := earlier("id0", op.ID0); err != nil {
			return err
		}
		if err := earlier("id1", op.ID1); err != nil {
			return err
		}
		return earlier("condition", op.DataLow())
	case TermOperands:
		if len(op.Terms) < 2 {
			return p.opErr(i, "a sum needs at least two terms, has %d (alkaid asserts it)", len(op.Terms))
		}
		for k, t := range op.Terms {
			if err := earlier(fmt.Sprintf("term %d", k), t.ID); err != nil {
				return err
			}
		}
		if err := unused("id0", op.ID0); err != nil {
			return err
		}
		return unused("id1", op.ID1)
	}
	if op.Terms != nil {
		return p.opErr(i, "only a sum has terms")
	}
	if err := earlier("id0", op.ID0); err != nil {
		return err
	}
	return unused("id1", op.ID1)
}

// checkShift checks a shift (what) of op i against MaxShift.
func (p *Program) checkShift(i int, what string, s int64) error {
	if s < -MaxShift || s > MaxShift {
		return p.opErr(i, "%s %d out of range [%d, %d]", what, s, -MaxShift, MaxShift)
	}
	return nil
}

// Data rules of the opcode table.

func checkShiftData(p *Program, i int) error { return p.checkShift(i, "shift", p.Ops[i].Data) }

func checkConstAddData(p *Program, i int) error {
	if p.Dialect == ALIR {
		return p.checkShift(i, "constant exponent", int64(p.Ops[i].DataHigh()))
	}
	return nil
}

func checkQuantizeData(p *Program, i int) error {
	op := p.Ops[i]
	if p.Dialect == DAIS && op.Data != 0 {
		return p.opErr(i, "a DAIS quantize has no relative shift (data %d)", op.Data)
	}
	return p.checkShift(i, "relative shift", op.Data)
}

func checkSumData(p *Program, i int) error {
	op := p.Ops[i]
	if op.Data != 0 {
		return p.opErr(i, "a sum keeps its data in its terms (data %d)", op.Data)
	}
	for k, t := range op.Terms {
		if err := p.checkShift(i, fmt.Sprintf("term %d shift", k), int64(t.Shift)); err != nil {
			return err
		}
	}
	return nil
}

func checkMuxData(p *Program, i int) error {
	return p.checkShift(i, "shift", int64(p.Ops[i].DataHigh()))
}

func checkLookupData(p *Program, i int) error {
	if op := p.Ops[i]; op.Data < 0 || op.Data >= int64(len(p.Tables)) {
		return p.opErr(i, "lookup table %d out of range (have %d tables)", op.Data, len(p.Tables))
	}
	return nil
}

func checkBitUnaryData(p *Program, i int) error {
	if op := p.Ops[i]; op.Data < BitNot || op.Data > BitReduceAll {
		return p.opErr(i, "unknown bit operation %d", op.Data)
	}
	return nil
}

func checkBitBinaryData(p *Program, i int) error {
	op := p.Ops[i]
	if sub := uint64(op.Data) >> 56; sub > BitXor {
		return p.opErr(i, "unknown bit operation %d", sub)
	}
	return p.checkShift(i, "shift", int64(op.DataLow()))
}

// lookupPad returns the pad offset of lookup op i whose operand has type t:
// round((min + 2^i)/step) for a signed operand, round(min/step) otherwise,
// with min and step from the operand's interval.
func (p *Program) lookupPad(i int, t KIF) (int64, error) {
	return p.lookupPadOf(i, p.Ops[p.Ops[i].ID0].QInt, t)
}

// lookupPadOf returns the pad offset of lookup op i whose operand has
// interval q and type t.
func (p *Program) lookupPadOf(i int, q QInterval, t KIF) (int64, error) {
	x := q.Min
	if t.Signed {
		x += math.Ldexp(1, t.Integers)
	}
	pad := math.Round(x / q.Step)
	if !(pad > -(1<<62) && pad < 1<<62) {
		return 0, p.opErr(i, "lookup pad %v out of range", pad)
	}
	return int64(pad), nil
}

// LookupPad returns the pad offset that the bytecode stores in data_high of
// lookup operation i (see ERRATA: index = raw + (signed ? 2^(W-1) : 0) - pad).
func (p *Program) LookupPad(i int) (int64, error) {
	if i < 0 || i >= len(p.Ops) || p.Ops[i].Opcode != OpLookup {
		return 0, fmt.Errorf("op %d is not a lookup", i)
	}
	a := p.Ops[i].ID0
	if a < 0 || int(a) >= i {
		return 0, p.opErr(i, "id0 %d does not refer to an earlier operation", a)
	}
	t, err := p.Ops[a].QInt.KIF()
	if err != nil {
		return 0, err
	}
	return p.lookupPad(i, t)
}
