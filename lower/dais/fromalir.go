package dais

import (
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
	if err := buildOps(prog, &Dense{P: p, OutLoc: -1}); err != nil {
		return nil, err
	}
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
