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
// needs (the sum: 1+ addrs and two data entries per addr). Entries beyond
// them are ignored, as alkaid ignores them.
func v4Arity(code Opcode, spec int, bytecode bool) (nAddr, nData int, ok bool) {
	switch code {
	case OpNeg, OpReLU:
		return 1, 0, true
	case OpInput, OpConst:
		return 0, 1, true
	case OpAdd, OpSub:
		return 2, 1, true
	case OpQuantize:
		if spec >= 4 {
			return 1, 1, true
		}
		return 1, 0, true
	case OpConstAdd:
		return 1, 2, true
	case OpMux:
		return 3, 1, true
	case OpMul:
		return 2, 0, true
	case OpLookup:
		if bytecode {
			return 1, 2, true
		}
		return 1, 1, true
	case OpBitUnary:
		return 1, 1, true
	case OpBitBinary:
		return 2, 2, true
	case OpSum:
		return 0, 0, true // two or more addrs, two data entries each: checked below
	}
	return 0, 0, false
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
	if c == OpSum {
		nData = 2 * len(addr)
	}
	if len(addr) < nAddr {
		return op, 0, false, errf("needs %d addresses, has %d", nAddr, len(addr))
	}
	if len(data) < nData {
		return op, 0, false, errf("needs %d data entries, has %d", nData, len(data))
	}
	i32 := func(k int, what string) (int32, error) {
		v := data[k]
		if v != int64(int32(v)) {
			return 0, errf("%s %d does not fit 32 bits", what, v)
		}
		return int32(v), nil
	}
	op = Op{ID0: -1, ID1: -1, Opcode: c}
	id := func(k int) int32 { return int32(addr[k]) } // below i, so it fits
	switch c {
	case OpNeg, OpReLU:
		op.ID0 = id(0)
	case OpInput:
		j, err := i32(0, "input index")
		if err != nil {
			return op, 0, false, err
		}
		op.ID0 = j
	case OpAdd, OpSub:
		s, err := i32(0, "shift")
		if err != nil {
			return op, 0, false, err
		}
		op.ID0, op.ID1, op.Data = id(0), id(1), int64(s)
	case OpQuantize:
		op.ID0 = id(0)
		if spec >= 4 {
			r, err := i32(0, "relative shift")
			if err != nil {
				return op, 0, false, err
			}
			op.Data = int64(r)
		}
	case OpConstAdd:
		s, err := i32(1, "constant shift")
		if err != nil {
			return op, 0, false, err
		}
		v := data[0]
		// The model keeps a 32-bit constant: a wider one with trailing
		// zero bits is the same value at a coarser exponent.
		for v != int64(int32(v)) && v%2 == 0 && s > math.MinInt32 {
			v, s = v/2, s-1
		}
		if v != int64(int32(v)) {
			return op, 0, false, errf("constant %d*2^-%d: constants wider than 32 bits are not supported", data[0], data[1])
		}
		op.ID0, op.Data = id(0), PackData(int32(v), s)
	case OpConst:
		op.Data = data[0]
	case OpMux:
		s, err := i32(0, "shift")
		if err != nil {
			return op, 0, false, err
		}
		op.ID0, op.ID1, op.Data = id(0), id(1), PackData(id(2), s)
	case OpMul:
		op.ID0, op.ID1 = id(0), id(1)
	case OpLookup:
		op.ID0, op.Data = id(0), data[0]
		if bytecode {
			p32, err := i32(1, "lookup pad")
			if err != nil {
				return op, 0, false, err
			}
			pad, hasPad = int64(p32), true
		}
	case OpBitUnary:
		op.ID0, op.Data = id(0), data[0]
	case OpBitBinary:
		s, err := i32(0, "shift")
		if err != nil {
			return op, 0, false, err
		}
		u := data[1]
		if u < BitAnd || u > BitXor {
			return op, 0, false, errf("unknown bit operation %d", u)
		}
		op.ID0, op.ID1, op.Data = id(0), id(1), BitBinaryData(s, uint8(u))
	case OpSum:
		if len(addr) < 2 {
			return op, 0, false, errf("a sum needs at least two terms, has %d (alkaid asserts it)", len(addr))
		}
		op.Terms = make([]Term, len(addr))
		for k := range addr {
			s, err := i32(2*k+1, fmt.Sprintf("term %d shift", k))
			if err != nil {
				return op, 0, false, err
			}
			op.Terms[k] = Term{ID: id(k), Shift: s, Neg: data[2*k] == 0}
		}
	}
	return op, pad, hasPad, nil
}

// v4Record returns the addr and data lists of op i of p (an ALIR program)
// in spec 4; pad is appended to a lookup's data in bytecode (withPad).
func v4Record(op Op, pad int64, withPad bool) (addr []uint32, data []int64) {
	u := func(ids ...int32) []uint32 {
		a := make([]uint32, len(ids))
		for k, v := range ids {
			a[k] = uint32(v)
		}
		return a
	}
	switch op.Opcode {
	case OpNeg, OpReLU:
		return u(op.ID0), []int64{}
	case OpInput:
		return []uint32{}, []int64{int64(op.ID0)}
	case OpAdd, OpSub:
		return u(op.ID0, op.ID1), []int64{op.Data}
	case OpQuantize:
		return u(op.ID0), []int64{op.Data}
	case OpConstAdd:
		return u(op.ID0), []int64{int64(op.DataLow()), int64(op.DataHigh())}
	case OpConst:
		return []uint32{}, []int64{op.Data}
	case OpMux:
		return u(op.ID0, op.ID1, op.DataLow()), []int64{int64(op.DataHigh())}
	case OpMul:
		return u(op.ID0, op.ID1), []int64{}
	case OpLookup:
		if withPad {
			return u(op.ID0), []int64{op.Data, pad}
		}
		return u(op.ID0), []int64{op.Data}
	case OpBitUnary:
		return u(op.ID0), []int64{op.Data}
	case OpBitBinary:
		return u(op.ID0, op.ID1), []int64{int64(op.DataLow()), int64(uint64(op.Data) >> 56)}
	case OpSum:
		addr = make([]uint32, len(op.Terms))
		data = make([]int64, 2*len(op.Terms))
		for k, t := range op.Terms {
			addr[k] = uint32(t.ID)
			if !t.Neg {
				data[2*k] = 1
			}
			data[2*k+1] = int64(t.Shift)
		}
		return addr, data
	}
	return nil, nil
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
		if op.Opcode == OpSum || (p.Dialect == ALIR && op.Opcode == OpQuantize && op.Data != 0) {
			return true
		}
	}
	return false
}
