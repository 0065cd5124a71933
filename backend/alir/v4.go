package alir

import (
	"fmt"
	"math"
)

// ALIR spec 3 and 4 (alkaid c4f8478 and 526222c, ../shared/spec/alir-v4.md)
// store an operation as (addr[], opcode, data[]): variable-length lists of
// operand slots and signed 64-bit integers. This file maps such a record to
// and from the one program model (Op), for the JSON and the bytecode
// formats alike.

// SpecVersionV4 is the newest ALIR spec version this package reads and
// writes. Spec 3 is read as well (its quantize has no relative shift).
const SpecVersionV4 = 4

// maxV4List bounds the addr and data lists of a spec 3/4 record (u16
// counts in the bytecode; alkaid's JSON loader checks the same).
const maxV4List = 65535

// v4Arity gives, per opcode, the addr and data entries a spec-4 record
// needs (the opcode table's V4Addr and V4Data; the sum: 2+ addrs and two
// data entries per addr, checked by its reader). Entries beyond them are
// ignored, as alkaid ignores them.
func v4Arity(code Opcode, spec int, bytecode bool) (nAddr, nData int, ok bool) {
	e := ALIR.Info(code)
	if e == nil {
		return 0, 0, false
	}
	nAddr, nData = e.V4Addr, e.V4Data
	switch e.Data {
	case DataRelShift: // new in spec 4
		if spec < 4 {
			nData--
		}
	case DataTable: // the bytecode stores the pad too
		if bytecode {
			nData++
		}
	}
	return nAddr, nData, true
}

// v4Reader holds one spec-3/4 record while the opcode table's fromV4
// builds its op.
type v4Reader struct {
	addr, data []int64
	spec       int
	bytecode   bool
	errf       func(format string, args ...any) error
	pad        int64 // a bytecode lookup's pad
	hasPad     bool
}

// id returns addr entry k as a slot (below the op's index, so it fits).
func (r *v4Reader) id(k int) int32 { return int32(r.addr[k]) }

// i32 returns data entry k, which must fit 32 bits.
func (r *v4Reader) i32(k int, what string) (int32, error) {
	v := r.data[k]
	if v != int64(int32(v)) {
		return 0, r.errf("%s %d does not fit 32 bits", what, v)
	}
	return int32(v), nil
}

// opFromV4 builds op i of a spec-3/4 program from its record; nIn is the
// number of inputs. For a bytecode lookup it also returns the stored pad
// (hasPad). Every addr entry must name an earlier op (alkaid checks them
// all, used or not). The rest (types, table indices, shift ranges) is
// Validate's.
func opFromV4(i int, code int64, addr []int64, data []int64, spec int, bytecode bool) (op Op, pad int64, hasPad bool, err error) {
	errf := func(format string, args ...any) error {
		name := ALIR.OpName(Opcode(code))
		if code != int64(int32(code)) || name == "" {
			return fmt.Errorf("op %d (opcode %d): %s", i, code, fmt.Sprintf(format, args...))
		}
		return fmt.Errorf("op %d (%s): %s", i, name, fmt.Sprintf(format, args...))
	}
	if code != int64(int32(code)) || ALIR.OpName(Opcode(code)) == "" {
		return op, 0, false, errf("unknown opcode %d for ALIR spec %d", code, spec)
	}
	c := Opcode(code)
	if len(addr) > maxV4List || len(data) > maxV4List {
		return op, 0, false, errf("%d addresses and %d data entries, at most %d each", len(addr), len(data), maxV4List)
	}
	for k, a := range addr {
		if a < 0 || a > math.MaxUint32 {
			return op, 0, false, errf("address %d (%d) is outside the u32 range", k, a)
		}
		if a >= int64(i) {
			return op, 0, false, errf("address %d (%d) does not refer to an earlier operation", k, a)
		}
	}
	nAddr, nData, _ := v4Arity(c, spec, bytecode)
	e := ALIR.Info(c)
	if e.Operands == TermOperands {
		nData = 2 * len(addr)
	}
	if len(addr) < nAddr {
		return op, 0, false, errf("needs %d addresses, has %d", nAddr, len(addr))
	}
	if len(data) < nData {
		return op, 0, false, errf("needs %d data entries, has %d", nData, len(data))
	}
	op = Op{ID0: -1, ID1: -1, Opcode: c}
	r := &v4Reader{addr: addr, data: data, spec: spec, bytecode: bytecode, errf: errf}
	if err := e.fromV4(r, &op); err != nil {
		return op, 0, false, err
	}
	return op, r.pad, r.hasPad, nil
}

// The spec-4 record readers of the opcode table: each fills op (ID0 and
// ID1 -1, Opcode set) from r, whose lists have the lengths v4Arity asks.

func v4InUnary(r *v4Reader, op *Op) error {
	op.ID0 = r.id(0)
	return nil
}

func v4InInput(r *v4Reader, op *Op) error {
	j, err := r.i32(0, "input index")
	op.ID0 = j
	return err
}

func v4InAddSub(r *v4Reader, op *Op) error {
	s, err := r.i32(0, "shift")
	if err != nil {
		return err
	}
	op.ID0, op.ID1, op.Data = r.id(0), r.id(1), int64(s)
	return nil
}

func v4InQuantize(r *v4Reader, op *Op) error {
	op.ID0 = r.id(0)
	if r.spec >= 4 {
		s, err := r.i32(0, "relative shift")
		if err != nil {
			return err
		}
		op.Data = int64(s)
	}
	return nil
}

func v4InConstAdd(r *v4Reader, op *Op) error {
	s, err := r.i32(1, "constant shift")
	if err != nil {
		return err
	}
	v := r.data[0]
	// The model keeps a 32-bit constant: a wider one with trailing
	// zero bits is the same value at a coarser exponent.
	for v != int64(int32(v)) && v%2 == 0 && s > math.MinInt32 {
		v, s = v/2, s-1
	}
	if v != int64(int32(v)) {
		return r.errf("constant %d*2^-%d: constants wider than 32 bits are not supported", r.data[0], r.data[1])
	}
	op.ID0, op.Data = r.id(0), PackData(int32(v), s)
	return nil
}

func v4InConst(r *v4Reader, op *Op) error {
	op.Data = r.data[0]
	return nil
}

func v4InMux(r *v4Reader, op *Op) error {
	s, err := r.i32(0, "shift")
	if err != nil {
		return err
	}
	op.ID0, op.ID1, op.Data = r.id(0), r.id(1), PackData(r.id(2), s)
	return nil
}

func v4InMul(r *v4Reader, op *Op) error {
	op.ID0, op.ID1 = r.id(0), r.id(1)
	return nil
}

func v4InLookup(r *v4Reader, op *Op) error {
	op.ID0, op.Data = r.id(0), r.data[0]
	if r.bytecode {
		p32, err := r.i32(1, "lookup pad")
		if err != nil {
			return err
		}
		r.pad, r.hasPad = int64(p32), true
	}
	return nil
}

func v4InBitUnary(r *v4Reader, op *Op) error {
	op.ID0, op.Data = r.id(0), r.data[0]
	return nil
}

func v4InBitBinary(r *v4Reader, op *Op) error {
	s, err := r.i32(0, "shift")
	if err != nil {
		return err
	}
	u := r.data[1]
	if u < BitAnd || u > BitXor {
		return r.errf("unknown bit operation %d", u)
	}
	op.ID0, op.ID1, op.Data = r.id(0), r.id(1), BitBinaryData(s, uint8(u))
	return nil
}

func v4InSum(r *v4Reader, op *Op) error {
	if len(r.addr) < 2 {
		return r.errf("a sum needs at least two terms, has %d (alkaid asserts it)", len(r.addr))
	}
	op.Terms = make([]Term, len(r.addr))
	for k := range r.addr {
		s, err := r.i32(2*k+1, fmt.Sprintf("term %d shift", k))
		if err != nil {
			return err
		}
		op.Terms[k] = Term{ID: r.id(k), Shift: s, Neg: r.data[2*k] == 0}
	}
	return nil
}

// v4Record returns the addr and data lists of op (of an ALIR program) in
// spec 4; pad is appended to a lookup's data in bytecode (withPad).
func v4Record(op Op, pad int64, withPad bool) (addr []uint32, data []int64) {
	if e := ALIR.Info(op.Opcode); e != nil {
		return e.toV4(op, pad, withPad)
	}
	return nil, nil
}

// slots returns ids as spec-4 addresses.
func slots(ids ...int32) []uint32 {
	a := make([]uint32, len(ids))
	for k, v := range ids {
		a[k] = uint32(v)
	}
	return a
}

// The spec-4 record writers of the opcode table.

func v4OutUnary(op Op, _ int64, _ bool) ([]uint32, []int64) { return slots(op.ID0), []int64{} }

func v4OutInput(op Op, _ int64, _ bool) ([]uint32, []int64) {
	return []uint32{}, []int64{int64(op.ID0)}
}

func v4OutAddSub(op Op, _ int64, _ bool) ([]uint32, []int64) {
	return slots(op.ID0, op.ID1), []int64{op.Data}
}

func v4OutQuantize(op Op, _ int64, _ bool) ([]uint32, []int64) {
	return slots(op.ID0), []int64{op.Data}
}

func v4OutConstAdd(op Op, _ int64, _ bool) ([]uint32, []int64) {
	return slots(op.ID0), []int64{int64(op.DataLow()), int64(op.DataHigh())}
}

func v4OutConst(op Op, _ int64, _ bool) ([]uint32, []int64) { return []uint32{}, []int64{op.Data} }

func v4OutMux(op Op, _ int64, _ bool) ([]uint32, []int64) {
	return slots(op.ID0, op.ID1, op.DataLow()), []int64{int64(op.DataHigh())}
}

func v4OutMul(op Op, _ int64, _ bool) ([]uint32, []int64) { return slots(op.ID0, op.ID1), []int64{} }

func v4OutLookup(op Op, pad int64, withPad bool) ([]uint32, []int64) {
	if withPad {
		return slots(op.ID0), []int64{op.Data, pad}
	}
	return slots(op.ID0), []int64{op.Data}
}

func v4OutBitUnary(op Op, _ int64, _ bool) ([]uint32, []int64) {
	return slots(op.ID0), []int64{op.Data}
}

func v4OutBitBinary(op Op, _ int64, _ bool) ([]uint32, []int64) {
	return slots(op.ID0, op.ID1), []int64{int64(op.DataLow()), int64(uint64(op.Data) >> 56)}
}

func v4OutSum(op Op, _ int64, _ bool) ([]uint32, []int64) {
	addr := make([]uint32, len(op.Terms))
	data := make([]int64, 2*len(op.Terms))
	for k, t := range op.Terms {
		addr[k] = uint32(t.ID)
		if !t.Neg {
			data[2*k] = 1
		}
		data[2*k+1] = int64(t.Shift)
	}
	return addr, data
}

// forV4 returns p as an ALIR program for a spec-4 writer (a DAIS program
// is converted, see Convert) with its analysis.
func forV4(p *Program) (*Program, *info, error) {
	p, err := Convert(p, ALIR)
	if err != nil {
		return nil, nil, err
	}
	inf, err := p.analyze()
	if err != nil {
		return nil, nil, err
	}
	for i, op := range p.Ops {
		if len(op.Terms) > maxV4List {
			return nil, nil, p.opErr(i, "%d terms: spec 4 holds at most %d", len(op.Terms), maxV4List)
		}
	}
	return p, inf, nil
}

// NeedsV4 reports whether p uses what only ALIR spec 3/4 expresses
// directly: a sum (opcode 11) or a quantize with a relative shift. The
// spec-2 writers rewrite these (see ToSpec2).
func (p *Program) NeedsV4() bool {
	for _, op := range p.Ops {
		e := p.Dialect.Info(op.Opcode)
		if e != nil && (e.MinSpec > 2 || (e.Data == DataRelShift && op.Data != 0)) {
			return true
		}
	}
	return false
}
