package alir

import (
	"encoding/binary"
	"fmt"
	"math"
)

// The spec 3/4 bytecode (CombLogic.to_bytecode, alir-v4.md section 3) is
// little-endian and packed:
//
//	"ALIR" u32 version, u32 n_in, n_out, n_ops, n_tables
//	i32 inp_shifts[n_in], i32 out_idxs[n_out], i32 out_shifts[n_out], u8 out_negs[n_out]
//	ops:    i8 opcode, u8 signed, i8 integers, i8 fractionals, u16 n_addr, u16 n_data,
//	        u32 addr[n_addr], i64 data[n_data]
//	tables: u32 size, i32 values[size]   (for each table)
//
// and must end after the last table.

const bytecodeV4Name = "ALIR v4 bytecode"

// bcReader reads the packed fields, failing on a short buffer.
type bcReader struct {
	b   []byte
	pos int
	err error
}

func (r *bcReader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.b)-r.pos < n {
		r.err = fmt.Errorf("truncated at byte %d: %d more bytes needed, %d left", r.pos, n, len(r.b)-r.pos)
		return nil
	}
	s := r.b[r.pos : r.pos+n]
	r.pos += n
	return s
}

func (r *bcReader) u8() uint8 {
	if s := r.take(1); s != nil {
		return s[0]
	}
	return 0
}

func (r *bcReader) u16() uint16 {
	if s := r.take(2); s != nil {
		return binary.LittleEndian.Uint16(s)
	}
	return 0
}

func (r *bcReader) u32() uint32 {
	if s := r.take(4); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}

func (r *bcReader) i64() int64 {
	if s := r.take(8); s != nil {
		return int64(binary.LittleEndian.Uint64(s))
	}
	return 0
}

// room fails unless n items of at least size bytes each can follow.
func (r *bcReader) room(n uint32, size int, what string) bool {
	if r.err == nil && uint64(n)*uint64(size) > uint64(len(r.b)-r.pos) {
		r.err = fmt.Errorf("truncated: %d %s need at least %d bytes, %d left", n, what, uint64(n)*uint64(size), len(r.b)-r.pos)
	}
	return r.err == nil
}

// IsBytecodeV4 reports whether data starts with the spec 3/4 bytecode magic.
func IsBytecodeV4(data []byte) bool { return len(data) >= 4 && string(data[:4]) == "ALIR" }

// DecodeBytecodeV4 reads an ALIR spec 3 or 4 bytecode program and validates
// it. The bytecode stores types, not intervals: every op gets its type's
// whole interval (a lookup's operand the min that yields the stored pad).
func DecodeBytecodeV4(data []byte) (*Program, error) {
	p, err := decodeBytecodeV4(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", bytecodeV4Name, err)
	}
	return p, nil
}

func decodeBytecodeV4(data []byte) (*Program, error) {
	if !IsBytecodeV4(data) {
		return nil, fmt.Errorf("no ALIR magic")
	}
	r := &bcReader{b: data, pos: 4}
	version := r.u32()
	if r.err == nil && version != 3 && version != 4 {
		return nil, fmt.Errorf("version %d, want 4 (or 3)", version)
	}
	nIn, nOut, nOps, nTab := r.u32(), r.u32(), r.u32(), r.u32()
	if r.err != nil {
		return nil, r.err
	}
	p := &Program{Dialect: ALIR, CarrySize: -1, AdderSize: -1, Spec: int(version)}
	if !r.room(nIn, 4, "input shifts") || !r.room(nOut, 9, "outputs") {
		return nil, r.err
	}
	p.InShifts = make([]int32, nIn)
	for j := range p.InShifts {
		p.InShifts[j] = int32(r.u32())
	}
	p.Outputs = make([]Output, nOut)
	for j := range p.Outputs {
		p.Outputs[j].Index = int32(r.u32())
	}
	for j := range p.Outputs {
		p.Outputs[j].Shift = int32(r.u32())
	}
	for j := range p.Outputs {
		switch neg := r.u8(); neg {
		case 0, 1:
			p.Outputs[j].Neg = neg == 1
		default:
			return nil, fmt.Errorf("output %d: negation flag %d is not 0 or 1", j, neg)
		}
	}
	if !r.room(nOps, 8, "ops") {
		return nil, r.err
	}
	p.Ops = make([]Op, nOps)
	pads := map[int]int64{}
	for i := range p.Ops {
		code := int8(r.u8())
		signed := r.u8()
		ints, fracs := int8(r.u8()), int8(r.u8())
		nAddr, nData := r.u16(), r.u16()
		if !r.room(uint32(nAddr), 4, "addresses") {
			return nil, fmt.Errorf("op %d: %w", i, r.err)
		}
		addr := make([]int64, nAddr)
		for k := range addr {
			addr[k] = int64(r.u32())
		}
		if !r.room(uint32(nData), 8, "data entries") {
			return nil, fmt.Errorf("op %d: %w", i, r.err)
		}
		d := make([]int64, nData)
		for k := range d {
			d[k] = r.i64()
		}
		if r.err != nil {
			return nil, fmt.Errorf("op %d: %w", i, r.err)
		}
		if signed > 1 {
			return nil, fmt.Errorf("op %d: signed flag %d is not 0 or 1", i, signed)
		}
		t := KIF{Signed: signed == 1, Integers: int(ints), Fractionals: int(fracs)}
		if err := t.Check(); err != nil {
			return nil, fmt.Errorf("op %d: %v", i, err)
		}
		op, pad, hasPad, err := opFromV4(i, int64(code), addr, d, int(version), true)
		if err != nil {
			return nil, err
		}
		op.QInt = t.QInterval()
		if hasPad {
			pads[i] = pad
		}
		p.Ops[i] = op
	}
	if !r.room(nTab, 4, "tables") {
		return nil, r.err
	}
	if nTab > 0 {
		p.Tables = make([]Table, nTab)
	}
	for k := range p.Tables {
		size := r.u32()
		if !r.room(size, 4, fmt.Sprintf("entries of table %d", k)) {
			return nil, r.err
		}
		vals := make([]int32, size)
		for v := range vals {
			vals[v] = int32(r.u32())
		}
		p.Tables[k].Values = vals
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.pos != len(data) {
		return nil, fmt.Errorf("%d trailing bytes after the program", len(data)-r.pos)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := applyLookupPads(p, pads); err != nil {
		return nil, err
	}
	inf, err := p.analyze()
	if err != nil {
		return nil, err
	}
	specs := tableSpecs(p, inf)
	for i := range p.Tables {
		p.Tables[i] = specs[i]
	}
	return p, nil
}

// EncodeBytecodeV4 writes p as ALIR spec 4 bytecode, as alkaid's
// CombLogic.to_bytecode does (a DAIS program is converted first, see
// Convert). It fails where the format cannot hold p: integers or
// fractionals outside -128..127, a lookup pad beyond 32 bits.
func EncodeBytecodeV4(p *Program) ([]byte, error) {
	b, err := encodeBytecodeV4(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", bytecodeV4Name, err)
	}
	return b, nil
}

func encodeBytecodeV4(p *Program) ([]byte, error) {
	p, inf, err := forV4(p)
	if err != nil {
		return nil, err
	}
	b := []byte("ALIR")
	u32 := func(v uint32) { b = binary.LittleEndian.AppendUint32(b, v) }
	u32(SpecVersionV4)
	u32(uint32(p.NumInputs()))
	u32(uint32(p.NumOutputs()))
	u32(uint32(len(p.Ops)))
	u32(uint32(len(p.Tables)))
	for _, s := range p.InShifts {
		u32(uint32(s))
	}
	for _, o := range p.Outputs {
		u32(uint32(o.Index))
	}
	for _, o := range p.Outputs {
		u32(uint32(o.Shift))
	}
	for _, o := range p.Outputs {
		if o.Neg {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	for i, op := range p.Ops {
		t := inf.kif[i]
		if t.Integers < math.MinInt8 || t.Integers > math.MaxInt8 || t.Fractionals < math.MinInt8 || t.Fractionals > math.MaxInt8 {
			return nil, p.opErr(i, "type %v: integers and fractionals must lie in -128..127", t)
		}
		if op.Opcode == OpLookup && inf.padOf(i) != int64(int32(inf.padOf(i))) {
			return nil, p.opErr(i, "lookup pad %d does not fit 32 bits", inf.padOf(i))
		}
		addr, data := v4Record(op, inf.padOf(i), true)
		signed := uint8(0)
		if t.Signed {
			signed = 1
		}
		b = append(b, uint8(int8(op.Opcode)), signed, uint8(int8(t.Integers)), uint8(int8(t.Fractionals)))
		b = binary.LittleEndian.AppendUint16(b, uint16(len(addr)))
		b = binary.LittleEndian.AppendUint16(b, uint16(len(data)))
		for _, a := range addr {
			u32(a)
		}
		for _, d := range data {
			b = binary.LittleEndian.AppendUint64(b, uint64(d))
		}
	}
	for _, t := range p.Tables {
		u32(uint32(len(t.Values)))
		for _, v := range t.Values {
			u32(uint32(v))
		}
	}
	return b, nil
}
