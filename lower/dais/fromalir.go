package dais

import (
	"fmt"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
)

// FromALIR returns a dais.program op (detached, named sym_name) holding p.
// A DAIS program is first converted to ALIR (alir.Convert), which fails for
// the DAIS-only opcodes -2 (relu of -a), -6 and -9: they have no dais op.
// ALIR spec 3/4 sums and relative quantize shifts are rewritten into spec-2
// operations first (alir.ToSpec2). The program must be valid
// (alir.Program.Validate).
func FromALIR(p *alir.Program, symName string) (*ir.Operation, error) {
	if p.Dialect != alir.ALIR {
		q, err := alir.Convert(p, alir.ALIR)
		if err != nil {
			return nil, err
		}
		p = q
	}
	p, err := alir.ToSpec2(p)
	if err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	inShifts := make([]int64, len(p.InShifts))
	for i, s := range p.InShifts {
		inShifts[i] = int64(s)
	}
	attrs := ir.Attrs{}
	attrs.Set("sym_name", &ir.StringAttr{Value: symName})
	attrs.Set("carry_size", i64(int64(p.CarrySize)))
	attrs.Set("adder_size", i64(int64(p.AdderSize)))
	attrs.Set("inp_shifts", &ir.DenseI64Attr{Values: inShifts})
	if p.Firmware != 0 {
		attrs.Set("firmware", i64(int64(p.Firmware)))
	}
	prog := ir.NewOp(OpProgram, ir.Location{}, nil, nil, attrs)
	b := ir.NewBuilder(prog.NewRegion())
	for _, t := range p.Tables {
		b.Create(OpTable, nil, nil, tableAttrs(t))
	}
	vals := make([]*ir.Value, len(p.Ops))
	for i, op := range p.Ops {
		d := byOpcode[op.Opcode]
		if d == nil {
			return nil, fmt.Errorf("op %d: opcode %d has no dais operation", i, op.Opcode)
		}
		var operands []*ir.Value
		at := ir.Attrs{}
		switch alir.ALIR.Info(op.Opcode).Operands {
		case alir.Unary:
			operands = []*ir.Value{vals[op.ID0]}
		case alir.Binary:
			operands = []*ir.Value{vals[op.ID0], vals[op.ID1]}
		case alir.MuxOperands: // the condition first
			operands = []*ir.Value{vals[op.DataLow()], vals[op.ID0], vals[op.ID1]}
		}
		if err := d.set(op, &at); err != nil {
			return nil, fmt.Errorf("op %d: %v", i, err)
		}
		if op.Latency != 0 {
			at.Set("latency", f64(op.Latency))
		}
		if op.Cost != 0 {
			at.Set("cost", f64(op.Cost))
		}
		vals[i] = b.Create(d.name, operands, []ir.Type{Fixed(op.QInt)}, at).Results[0]
	}
	var used []*ir.Value
	outs := make([]int64, len(p.Outputs))
	shifts := make([]int64, len(p.Outputs))
	negs := make([]int64, len(p.Outputs))
	for j, o := range p.Outputs {
		outs[j] = -1
		if o.Index >= 0 {
			outs[j] = int64(len(used))
			used = append(used, vals[o.Index])
		}
		shifts[j] = int64(o.Shift)
		if o.Neg {
			negs[j] = 1
		}
	}
	b.Create(OpOutput, used, nil, outputAttrs(outs, shifts, negs))
	return prog, nil
}

func outputAttrs(outs, shifts, negs []int64) ir.Attrs {
	at := ir.Attrs{}
	at.Set("outputs", &ir.DenseI64Attr{Values: outs})
	at.Set("shifts", &ir.DenseI64Attr{Values: shifts})
	at.Set("negs", &ir.DenseI64Attr{Values: negs})
	return at
}

func tableAttrs(t alir.Table) ir.Attrs {
	vs := make([]int64, len(t.Values))
	for i, v := range t.Values {
		vs[i] = int64(v)
	}
	at := ir.Attrs{}
	at.Set("values", &ir.DenseI64Attr{Values: vs})
	if t.Hash != "" {
		at.Set("hash", &ir.StringAttr{Value: t.Hash})
	}
	if alir.IsPow2(t.OutQInt.Step) {
		at.Set("out_qint", &ir.TypeAttr{Type: Fixed(t.OutQInt)})
	}
	if t.InpWidth != 0 {
		at.Set("inp_width", i64(int64(t.InpWidth)))
	}
	return at
}
