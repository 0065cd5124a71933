package scf

import "github.com/otir-dev/otir/ir"

// The scf dialect's custom directive of the assembly format
// (docs/assembly-format.md), and its implicit terminator. This file's init
// runs before ops.go's, so the directive exists when the formats compile.

func init() {
	fh := ir.RegisterDirective("ForHeader", printForHeader, parseForHeader)
	fh.SetsTypes, fh.Fits = true, forHeaderFits
	ir.RegisterImplicitTerminator(OpFor, OpYield)
	ir.RegisterImplicitTerminator(OpIf, OpYield)
}

// custom<ForHeader>($lowerBound, $upperBound, $step, $initArgs, $region):
// `%iv = %lb to %ub step %s` and, with loop-carried values,
// ` iter_args(%x = %init, ...) -> (T, ...)`; the induction variable and the
// iter_args names are the region's entry block arguments.
func printForHeader(p ir.AsmPrinter, op *ir.Operation, f *ir.Format, args []ir.FormatElem) {
	b := op.Regions[args[4].Ref.Index].Blocks[0]
	p.PrintOperand(b.Args[0])
	p.WriteString(" = ")
	p.PrintOperand(f.OperandGroup(op, args[0].Ref.Index)[0])
	p.WriteString(" to ")
	p.PrintOperand(f.OperandGroup(op, args[1].Ref.Index)[0])
	p.WriteString(" step ")
	p.PrintOperand(f.OperandGroup(op, args[2].Ref.Index)[0])
	inits := f.OperandGroup(op, args[3].Ref.Index)
	if len(inits) == 0 {
		return
	}
	p.WriteString(" iter_args(")
	for i, init := range inits {
		if i > 0 {
			p.WriteString(", ")
		}
		p.PrintOperand(b.Args[i+1])
		p.WriteString(" = ")
		p.PrintOperand(init)
	}
	p.WriteString(") -> (")
	p.PrintValueTypes(op.Results)
	p.WriteString(")")
}

func forHeaderFits(op *ir.Operation, f *ir.Format, args []ir.FormatElem) bool {
	b := op.Regions[args[4].Ref.Index].Blocks[0]
	iters := len(f.OperandGroup(op, args[3].Ref.Index))
	return len(b.Args) == iters+1 && len(op.Results) == iters
}

func parseForHeader(p ir.AsmParser, st *ir.OpState, args []ir.FormatElem) error {
	ivLoc := p.CurrentLoc()
	iv, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if err := p.ParsePunct("="); err != nil {
		return err
	}
	idx := ir.Index()
	for i, kw := range []string{"", "to", "step"} {
		if kw != "" {
			if err := p.ParseKeyword(kw); err != nil {
				return err
			}
		}
		name, err := p.ParseOperand()
		if err != nil {
			return err
		}
		ns, ts := p.Names(1), p.Types(1)
		ns[0], ts[0] = name, idx
		g := args[i].Ref.Index
		st.Operands[g], st.OperandTypes[g] = ns, ts
	}
	bargs := []ir.BlockArg{{Name: iv, Type: idx, Loc: ivLoc}}
	var inits []string
	var types []ir.Type
	if p.ParseOptionalKeyword("iter_args") {
		if err := p.ParsePunct("("); err != nil {
			return err
		}
		for {
			at := p.CurrentLoc()
			name, err := p.ParseOperand()
			if err != nil {
				return err
			}
			if err := p.ParsePunct("="); err != nil {
				return err
			}
			init, err := p.ParseOperand()
			if err != nil {
				return err
			}
			bargs = append(bargs, ir.BlockArg{Name: name, Loc: at})
			inits = append(inits, init)
			if !p.ParseOptionalPunct(",") {
				break
			}
		}
		if err := p.ParsePunct(")"); err != nil {
			return err
		}
		if err := p.ParsePunct("->"); err != nil {
			return err
		}
		if err := p.ParsePunct("("); err != nil {
			return err
		}
		if types, err = p.ParseTypeList(); err != nil {
			return err
		}
		if err := p.ParsePunct(")"); err != nil {
			return err
		}
		if len(types) != len(inits) {
			return p.Errorf(p.NameLoc(), "mismatch in number of loop-carried values and defined values")
		}
		for i, t := range types {
			bargs[i+1].Type = t
		}
	}
	g := args[3].Ref.Index
	st.Operands[g], st.OperandTypes[g] = inits, types
	st.ResultTypes[0] = types
	st.Regions[args[4].Ref.Index].Args = bargs
	return nil
}
