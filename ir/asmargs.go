package ir

// The argument list of a function-like op's entry block, `(%a: T, %b: U)`,
// each argument with its location under --mlir-print-debuginfo (MLIR's
// parseArgumentList with types): custom directives of otir.kernel and
// nn.graph print and read their signatures with these.

// PrintBlockArgList prints b's arguments as `(%a: T, ...)`.
func PrintBlockArgList(p AsmPrinter, b *Block) {
	p.WriteString("(")
	for i, a := range b.Args {
		if i > 0 {
			p.WriteString(", ")
		}
		p.PrintOperand(a)
		p.WriteString(": ")
		p.PrintType(a.Type)
		p.PrintOptionalLocation(a.Loc)
	}
	p.WriteString(")")
}

// ParseBlockArgList reads `(%a: T, ...)` (a loc(...) after a type is the
// argument's location) and returns the arguments, each located at its name
// unless a location follows.
func ParseBlockArgList(p AsmParser) ([]BlockArg, error) {
	if err := p.ParsePunct("("); err != nil {
		return nil, err
	}
	var bargs []BlockArg
	if !p.IsPunct(")") {
		for {
			at := p.CurrentLoc()
			name, err := p.ParseOperand()
			if err != nil {
				return nil, err
			}
			if err := p.ParsePunct(":"); err != nil {
				return nil, err
			}
			t, err := p.ParseType()
			if err != nil {
				return nil, err
			}
			bargs = append(bargs, BlockArg{Name: name, Type: t, Loc: at})
			if !p.ParseOptionalPunct(",") {
				break
			}
		}
	}
	if err := p.ParsePunct(")"); err != nil {
		return nil, err
	}
	return bargs, nil
}
