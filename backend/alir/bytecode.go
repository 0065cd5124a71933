package alir

import (
	"encoding/binary"
	"fmt"
	"math"
)

// The binary formats are arrays of little-endian int32 words:
//
//	header      ALIR v2 / DAIS v1: [version, firmware, n_in, n_out, n_ops, n_tables]
//	            original DAIS:     [n_in, n_out, n_ops]
//	inp_shifts  [n_in]
//	out_idxs    [n_out]
//	out_shifts  [n_out]
//	out_negs    [n_out]
//	ops         [n_ops][opcode, id0, id1, data_low, data_high, signed, integers, fractionals]
//	table_sizes [n_tables]            (not in the original DAIS)
//	tables      concatenated values   (not in the original DAIS)

// binLayout describes one binary format.
type binLayout struct {
	name    string
	version int32 // header version word; 0 for the headerless original DAIS
	dialect Dialect
}

var (
	alirBytecode = binLayout{"ALIR v2 bytecode", SpecVersion, ALIR}
	daisV1       = binLayout{"DAIS v1 binary", 1, DAIS}
	daisOriginal = binLayout{"original DAIS binary", 0, DAIS}
)

const opWords = 8

// words converts data to int32 words.
func words(name string, data []byte) ([]int32, error) {
	if len(data)%4 != 0 {
		return nil, fmt.Errorf("%s: size %d bytes is not a multiple of 4", name, len(data))
	}
	w := make([]int32, len(data)/4)
	for i := range w {
		w[i] = int32(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return w, nil
}

// decodeBinary reads a program in layout l and validates it.
func decodeBinary(l binLayout, data []byte) (*Program, error) {
	w, err := words(l.name, data)
	if err != nil {
		return nil, err
	}
	errf := func(format string, args ...any) error {
		return fmt.Errorf("%s: %s", l.name, fmt.Sprintf(format, args...))
	}
	hdr := 3
	if l.version != 0 {
		hdr = 6
	}
	if len(w) < hdr {
		return nil, errf("truncated: %d bytes, the header alone needs %d", len(data), 4*hdr)
	}
	// Binaries do not store the cost model; -1 counts each adder as 1.
	p := &Program{Dialect: l.dialect, CarrySize: -1, AdderSize: -1}
	if l.dialect == ALIR {
		p.Spec = SpecVersion
	}
	var nIn, nOut, nOps, nTab int64
	if l.version != 0 {
		if w[0] != l.version {
			return nil, errf("version %d, want %d", w[0], l.version)
		}
		p.Firmware = w[1]
		nIn, nOut, nOps, nTab = int64(w[2]), int64(w[3]), int64(w[4]), int64(w[5])
	} else {
		nIn, nOut, nOps = int64(w[0]), int64(w[1]), int64(w[2])
	}
	if nIn < 0 || nOut < 0 || nOps < 0 || nTab < 0 {
		return nil, errf("negative count in header (inputs %d, outputs %d, ops %d, tables %d)", nIn, nOut, nOps, nTab)
	}
	// Every count is below 2^31, so these sums cannot overflow int64.
	tabSizesAt := int64(hdr) + nIn + 3*nOut + opWords*nOps
	need := tabSizesAt + nTab
	have := int64(len(w))
	if need > have {
		return nil, errf("truncated: %d bytes, need at least %d", 4*have, 4*need)
	}
	for t := range nTab {
		size := int64(w[tabSizesAt+t])
		if size < 0 {
			return nil, errf("table %d has negative size %d", t, size)
		}
		need += size
	}
	if need > have {
		return nil, errf("truncated: %d bytes, need %d", 4*have, 4*need)
	}
	if need < have {
		return nil, errf("%d trailing bytes after the program", 4*(have-need))
	}

	pos := int64(hdr)
	take := func(n int64) []int32 { s := w[pos : pos+n]; pos += n; return s }
	p.InShifts = append([]int32(nil), take(nIn)...)
	idx, shifts, negs := take(nOut), take(nOut), take(nOut)
	p.Outputs = make([]Output, nOut)
	for j := range p.Outputs {
		if negs[j] != 0 && negs[j] != 1 {
			return nil, errf("output %d: negation flag %d is not 0 or 1", j, negs[j])
		}
		p.Outputs[j] = Output{Index: idx[j], Shift: shifts[j], Neg: negs[j] == 1}
	}
	p.Ops = make([]Op, nOps)
	pads := make(map[int]int64)
	for i := range p.Ops {
		r := take(opWords)
		op := Op{Opcode: Opcode(r[0]), ID0: r[1], ID1: r[2], Data: PackData(r[3], r[4])}
		if r[5] != 0 && r[5] != 1 {
			return nil, errf("op %d: signed flag %d is not 0 or 1", i, r[5])
		}
		t := KIF{Signed: r[5] == 1, Integers: int(r[6]), Fractionals: int(r[7])}
		if err := t.Check(); err != nil {
			return nil, errf("op %d: %v", i, err)
		}
		op.QInt = t.QInterval()
		if op.Opcode == OpLookup {
			pads[i] = int64(r[4])
		}
		op = canonicalData(op)
		if l.version == 0 && !originalDAISOpcode(op.Opcode) {
			return nil, errf("op %d: opcode %d is not part of the original DAIS format", i, op.Opcode)
		}
		p.Ops[i] = op
	}
	sizes := take(nTab)
	p.Tables = make([]Table, nTab)
	for t := range p.Tables {
		p.Tables[t].Values = append([]int32(nil), take(int64(sizes[t]))...)
	}
	if nTab == 0 {
		p.Tables = nil
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", l.name, err)
	}
	if err := applyLookupPads(p, pads); err != nil {
		return nil, fmt.Errorf("%s: %w", l.name, err)
	}
	inf, err := p.analyze()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", l.name, err)
	}
	specs := tableSpecs(p, inf)
	for i := range p.Tables {
		p.Tables[i] = specs[i]
	}
	return p, nil
}

// originalDAISOpcode reports whether the original DAIS format (dais.md) has
// opcode c.
func originalDAISOpcode(c Opcode) bool {
	e := DAIS.Info(c)
	return e != nil && e.OriginalDAIS
}

// applyLookupPads records the pad offsets a binary file stores for lookups
// in the operands' intervals: the lookup's operand gets the min that yields
// the stored pad (its fixed-point type does not change). Pads that are
// inconsistent for one operand, or that no min of the type yields, are
// rejected.
func applyLookupPads(p *Program, pads map[int]int64) error {
	for i := range p.Ops {
		pad, ok := pads[i]
		if !ok {
			continue
		}
		if cur, err := p.LookupPad(i); err == nil && cur == pad {
			continue
		}
		a := p.Ops[i].ID0
		q := p.Ops[a].QInt
		t, err := q.KIF()
		if err != nil {
			return err
		}
		min := float64(pad) * q.Step
		if t.Signed {
			min -= math.Ldexp(1, t.Integers)
		}
		nq := QInterval{min, q.Max, q.Step}
		if nt, err := nq.KIF(); err != nil || nt != t {
			return p.opErr(i, "lookup pad %d does not fit operand %d of type %v", pad, a, t)
		}
		p.Ops[a].QInt = nq
		if got, err := p.LookupPad(i); err != nil || got != pad {
			return p.opErr(i, "lookup pad %d cannot be represented", pad)
		}
	}
	// A later lookup may have moved an operand shared with an earlier one.
	for i, pad := range pads {
		if got, err := p.LookupPad(i); err != nil || got != pad {
			return p.opErr(i, "lookup pads of operand %d conflict", p.Ops[i].ID0)
		}
	}
	return nil
}

// encodeBinary writes p in layout l; p must be valid and of l's dialect.
func encodeBinary(l binLayout, p *Program) ([]byte, error) {
	p, err := Convert(p, l.dialect)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", l.name, err)
	}
	if p, err = ToSpec2(p); err != nil {
		return nil, fmt.Errorf("%s: %w", l.name, err)
	}
	inf, err := p.analyze()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", l.name, err)
	}
	var w []int32
	if l.version != 0 {
		w = append(w, l.version, p.Firmware, int32(p.NumInputs()), int32(p.NumOutputs()), int32(len(p.Ops)), int32(len(p.Tables)))
	} else {
		if len(p.Tables) > 0 {
			return nil, fmt.Errorf("%s: the format has no lookup tables", l.name)
		}
		w = append(w, int32(p.NumInputs()), int32(p.NumOutputs()), int32(len(p.Ops)))
	}
	w = append(w, p.InShifts...)
	for _, o := range p.Outputs {
		w = append(w, o.Index)
	}
	for _, o := range p.Outputs {
		w = append(w, o.Shift)
	}
	for _, o := range p.Outputs {
		neg := int32(0)
		if o.Neg {
			neg = 1
		}
		w = append(w, neg)
	}
	for i, op := range p.Ops {
		if l.version == 0 && !originalDAISOpcode(op.Opcode) {
			return nil, fmt.Errorf("%s: op %d: opcode %d is not part of the format", l.name, i, op.Opcode)
		}
		lo, hi := op.DataLow(), op.DataHigh()
		if op.Opcode == OpLookup {
			hi = int32(inf.padOf(i))
			if int64(hi) != inf.padOf(i) {
				return nil, fmt.Errorf("%s: op %d: lookup pad %d does not fit 32 bits", l.name, i, inf.padOf(i))
			}
		}
		t := inf.kif[i]
		signed := int32(0)
		if t.Signed {
			signed = 1
		}
		w = append(w, int32(op.Opcode), op.ID0, op.ID1, lo, hi, signed, int32(t.Integers), int32(t.Fractionals))
	}
	for _, t := range p.Tables {
		w = append(w, int32(len(t.Values)))
	}
	for _, t := range p.Tables {
		w = append(w, t.Values...)
	}
	out := make([]byte, 4*len(w))
	for i, v := range w {
		binary.LittleEndian.PutUint32(out[4*i:], uint32(v))
	}
	return out, nil
}

// DecodeBytecode reads an ALIR v2 int32 bytecode program.
func DecodeBytecode(data []byte) (*Program, error) { return decodeBinary(alirBytecode, data) }

// EncodeBytecode writes p as ALIR v2 int32 bytecode (converting a DAIS
// program first, see Convert).
func EncodeBytecode(p *Program) ([]byte, error) { return encodeBinary(alirBytecode, p) }
