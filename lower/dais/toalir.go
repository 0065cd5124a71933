package dais

import (
	"errors"
	"fmt"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// ToALIR converts a dais.program op into an ALIR program (spec version 2):
// a copy of its Dense's program when it is in dense form (checked by
// alir.Program.Validate), else its ops converted.
// Problems are reported as a *diag.Diagnostic at the offending op: an op
// that is not a dais op, an operand that is not an earlier slot of the same
// program, a malformed attribute, or a program alir.Program.Validate rejects
// (located at the op of the failing slot).
func ToALIR(prog *ir.Operation) (*alir.Program, error) {
	if prog == nil || prog.Name != OpProgram {
		return nil, fmt.Errorf("ToALIR: not a %s op", OpProgram)
	}
	if d := DenseOf(prog); d != nil {
		if err := d.P.Validate(); err != nil {
			return nil, d.ErrorAt(prog, err)
		}
		return d.P.Clone(), nil
	}
	fail := func(op *ir.Operation, err error) error {
		return diag.OpErrorf(op, "%v", err)
	}
	body := prog.Body(0)
	if body == nil {
		return nil, fail(prog, errors.New("has no body"))
	}
	p := &alir.Program{Dialect: alir.ALIR}
	carry, err := int32Attr(prog, "carry_size")
	if err != nil {
		return nil, fail(prog, err)
	}
	adder, err := int32Attr(prog, "adder_size")
	if err != nil {
		return nil, fail(prog, err)
	}
	p.CarrySize, p.AdderSize = carry, adder
	shifts, err := i64Array(prog, "inp_shifts")
	if err != nil {
		return nil, fail(prog, err)
	}
	for _, s := range shifts {
		if s != int64(int32(s)) {
			return nil, fail(prog, fmt.Errorf("input shift %d does not fit 32 bits", s))
		}
		p.InShifts = append(p.InShifts, int32(s))
	}
	if prog.Attr("firmware") != nil {
		if p.Firmware, err = int32Attr(prog, "firmware"); err != nil {
			return nil, fail(prog, err)
		}
	}
	slot := make(map[*ir.Value]int32, len(body.Ops))
	slotOps := make([]*ir.Operation, 0, len(body.Ops))
	sawOutput := false
	for _, op := range body.Ops {
		if sawOutput {
			return nil, fail(op, fmt.Errorf("follows the program's '%s'", OpOutput))
		}
		switch op.Name {
		case OpTable:
			t, err := tableOf(op)
			if err != nil {
				return nil, fail(op, err)
			}
			p.Tables = append(p.Tables, t)
			continue
		case OpOutput:
			outs, err := outputsOf(op, slot)
			if err != nil {
				return nil, fail(op, err)
			}
			p.Outputs = outs
			sawOutput = true
			continue
		}
		a, err := opOf(op, slot)
		if err != nil {
			return nil, fail(op, err)
		}
		slot[op.Results[0]] = int32(len(p.Ops))
		p.Ops = append(p.Ops, a)
		slotOps = append(slotOps, op)
	}
	if !sawOutput {
		return nil, fail(prog, fmt.Errorf("body must end with '%s'", OpOutput))
	}
	if err := p.Validate(); err != nil {
		var oe *alir.OpError
		if errors.As(err, &oe) && oe.Index >= 0 && oe.Index < len(slotOps) {
			return nil, fail(slotOps[oe.Index], oe.Err)
		}
		return nil, fail(prog, err)
	}
	return p, nil
}

// opOf converts one slot op; slot maps the earlier results to their slots.
func opOf(op *ir.Operation, slot map[*ir.Value]int32) (alir.Op, error) {
	d := byName[op.Name]
	if d == nil {
		return alir.Op{}, errors.New("is not a slot operation of a dais.program")
	}
	if len(op.Results) != 1 {
		return alir.Op{}, fmt.Errorf("must have one result, has %d", len(op.Results))
	}
	t, ok := op.Results[0].Type.(*FixedType)
	if !ok {
		return alir.Op{}, fmt.Errorf("result must have a !dais.q type, not %s", ir.TypeString(op.Results[0].Type))
	}
	if d.operands < 0 && len(op.Operands) < 2 {
		return alir.Op{}, fmt.Errorf("expects at least 2 operands, got %d", len(op.Operands))
	}
	if d.operands >= 0 && len(op.Operands) != d.operands {
		return alir.Op{}, fmt.Errorf("expects %d operands, got %d", d.operands, len(op.Operands))
	}
	ids := make([]int32, len(op.Operands))
	for i, v := range op.Operands {
		s, ok := slot[v]
		if !ok {
			return alir.Op{}, fmt.Errorf("operand #%d is not an earlier slot of the program", i)
		}
		ids[i] = s
	}
	a := alir.Op{ID0: -1, ID1: -1, Opcode: d.code, QInt: QInt(t)}
	var err error
	if a.Latency, err = floatAttr(op, "latency"); err != nil {
		return a, err
	}
	if a.Cost, err = floatAttr(op, "cost"); err != nil {
		return a, err
	}
	switch alir.ALIR.Info(d.code).Operands {
	case alir.Unary:
		a.ID0 = ids[0]
	case alir.Binary:
		a.ID0, a.ID1 = ids[0], ids[1]
	case alir.MuxOperands: // the condition first
		a.ID0, a.ID1, a.Data = ids[1], ids[2], alir.PackData(ids[0], 0)
	}
	return a, d.get(op, &a, ids)
}

// outputsOf reads a dais.output op.
func outputsOf(op *ir.Operation, slot map[*ir.Value]int32) ([]alir.Output, error) {
	outs, err := i64Array(op, "outputs")
	if err != nil {
		return nil, err
	}
	shifts, err := i64Array(op, "shifts")
	if err != nil {
		return nil, err
	}
	negs, err := i64Array(op, "negs")
	if err != nil {
		return nil, err
	}
	if len(shifts) != len(outs) || len(negs) != len(outs) {
		return nil, fmt.Errorf("attributes 'outputs', 'shifts' and 'negs' must have the same length (%d, %d, %d)", len(outs), len(shifts), len(negs))
	}
	res := make([]alir.Output, len(outs))
	for j, k := range outs {
		o := alir.Output{Index: -1}
		switch {
		case k == -1:
		case k < 0 || k >= int64(len(op.Operands)):
			return nil, fmt.Errorf("output %d refers to operand #%d, but there are %d operands", j, k, len(op.Operands))
		default:
			s, ok := slot[op.Operands[k]]
			if !ok {
				return nil, fmt.Errorf("operand #%d is not a slot of the program", k)
			}
			o.Index = s
		}
		if shifts[j] != int64(int32(shifts[j])) {
			return nil, fmt.Errorf("output %d: shift %d does not fit 32 bits", j, shifts[j])
		}
		o.Shift = int32(shifts[j])
		if negs[j] != 0 && negs[j] != 1 {
			return nil, fmt.Errorf("output %d: negs entries must be 0 or 1, got %d", j, negs[j])
		}
		o.Neg = negs[j] == 1
		res[j] = o
	}
	return res, nil
}

// tableOf reads a dais.table op.
func tableOf(op *ir.Operation) (alir.Table, error) {
	vs, err := i64Array(op, "values")
	if err != nil {
		return alir.Table{}, err
	}
	t := alir.Table{Values: make([]int32, len(vs))}
	for i, v := range vs {
		if v != int64(int32(v)) {
			return t, fmt.Errorf("table entry %d (%d) does not fit 32 bits", i, v)
		}
		t.Values[i] = int32(v)
	}
	if h, ok := op.StringAttr("hash"); ok {
		t.Hash = h
	}
	if a := op.Attr("out_qint"); a != nil {
		ta, ok := a.(*ir.TypeAttr)
		ft, ok2 := (*FixedType)(nil), false
		if ok {
			ft, ok2 = ta.Type.(*FixedType)
		}
		if !ok2 {
			return t, errors.New("attribute 'out_qint' must be a !dais.q type")
		}
		t.OutQInt = QInt(ft)
	}
	if op.Attr("inp_width") != nil {
		w, err := int32Attr(op, "inp_width")
		if err != nil {
			return t, err
		}
		t.InpWidth = int(w)
	}
	return t, nil
}
