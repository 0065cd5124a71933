// Package scf defines the operations of MLIR's scf dialect that OTIR uses
// (scf.for, scf.if, scf.yield): their names, records, Verify hooks, the
// ForHeader directive of their assembly format and their builders,
// registered with the IR on import.
package scf

import (
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// Operation names of the scf operations OTIR uses.
const (
	OpFor   = "scf.for"
	OpIf    = "scf.if"
	OpYield = "scf.yield"
)

// Ops is the scf dialect's table of operation definitions. Each op's Verify
// hook holds its own semantic rules, run by the verifier once the generic
// checks of its record passed (operand, result and region counts; scf.yield's
// parents and its place at the end of its block: Parents and the Terminator
// trait).
var Ops = []ir.OpDef{
	{Name: OpFor, Summary: "counted loop with loop-carried values", Traits: ir.SingleBlock,
		Operands: []ir.ArgDef{
			{Name: "lowerBound", Doc: "index"}, {Name: "upperBound", Doc: "index"}, {Name: "step", Doc: "index"},
			{Name: "initArgs", Arity: ir.Variadic, Doc: "the loop-carried values' initial values"},
		},
		Results:            []ir.ArgDef{{Name: "results", Arity: ir.Variadic, Doc: "the loop-carried values' final values"}},
		Regions:            []string{"region"},
		ImplicitTerminator: OpYield,
		Verify:             hook(checkFor),
		Format:             "custom<ForHeader>($lowerBound, $upperBound, $step, $initArgs, $region) $region attr-dict"},
	{Name: OpIf, Summary: "conditional with results", Traits: ir.SingleBlock, EmptyRegions: []string{"elseRegion"},
		Operands:           []ir.ArgDef{{Name: "condition", Doc: "i1"}},
		Results:            []ir.ArgDef{{Name: "results", Arity: ir.Variadic}},
		Regions:            []string{"thenRegion", "elseRegion"},
		ImplicitTerminator: OpYield,
		Verify:             hook(checkIf),
		Format:             "$condition (`->` `(` type($results)^ `)`)? $thenRegion (`else` $elseRegion^)? attr-dict"},
	{Name: OpYield, Summary: "yields values from an scf region", Traits: ir.Terminator,
		Parents:  []string{OpFor, OpIf},
		Operands: []ir.ArgDef{{Name: "results", Arity: ir.Variadic}},
		Verify:   hook(checkYield),
		Format:   "attr-dict ($results^ `:` type($results))?"},
}

func init() {
	// The directive first: the records' formats are compiled when they are
	// registered.
	fh := ir.RegisterDirective("ForHeader", printForHeader, parseForHeader)
	fh.SetsTypes, fh.Fits = true, forHeaderFits
	for _, d := range Ops {
		ir.RegisterOp(d)
	}
}

// forBoundNames name scf.for's first three operands in messages.
var forBoundNames = [3]string{"lower bound", "upper bound", "step"}

// checkFor: index bounds and step; one result and one body argument (after the
// index induction variable) per iter_args operand, all of the same types; the
// body ends with scf.yield (whose operands checkYield matches to the results).
func checkFor(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	inits := op.Operands[3:]
	if len(op.Results) != len(inits) {
		return diag.OpErrorf(op, "mismatch in number of loop-carried values (%d) and defined values (%d)", len(inits), len(op.Results))
	}
	for i, x := range op.Operands[:3] {
		if !isIndex(x.Type) {
			return diag.OpErrorf(op, "%s must be 'index', but got '%s'", forBoundNames[i], diag.TypeStr(x.Type))
		}
	}
	body := op.Body(0)
	if len(body.Args) != len(inits)+1 {
		return diag.OpErrorf(op, "expects the body to have %s (the induction variable and one per iter_args operand), but it has %d", diag.Plural(len(inits)+1, "argument"), len(body.Args))
	}
	if !isIndex(body.Args[0].Type) {
		return diag.OpErrorf(op, "induction variable must be 'index', but got '%s'", diag.TypeStr(body.Args[0].Type))
	}
	for i, x := range inits {
		if a := body.Args[i+1].Type; a != x.Type {
			return diag.OpErrorf(op, "types mismatch between iter_args operand #%d ('%s') and its region argument ('%s')", i, diag.TypeStr(x.Type), diag.TypeStr(a))
		}
		if r := op.Results[i].Type; r != x.Type {
			return diag.OpErrorf(op, "types mismatch between iter_args operand #%d ('%s') and result #%d ('%s')", i, diag.TypeStr(x.Type), i, diag.TypeStr(r))
		}
	}
	return diag.CheckTerminator(op, body, OpYield)
}

// checkIf: a scalar i1 condition; regions without arguments; an else region
// when there are results; each region ends with scf.yield.
func checkIf(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	if c := op.Operands[0].Type; !isBool(c) {
		return diag.OpErrorf(op, "condition must be a scalar i1, but got '%s'", diag.TypeStr(c))
	}
	if len(op.Results) > 0 && len(op.Regions[1].Blocks) == 0 {
		return diag.OpErrorf(op, "must have an else region when it has results")
	}
	for i, r := range op.Regions {
		for _, b := range r.Blocks {
			if len(b.Args) != 0 {
				return diag.OpErrorf(op, "region #%d must have no arguments, but has %d", i, len(b.Args))
			}
			if d := diag.CheckTerminator(op, b, OpYield); d != nil {
				return d
			}
		}
	}
	return nil
}

// checkYield: the operands match the parent scf.for's or scf.if's results in
// number and type. (Placement is the verifier's, from the record's Parents and Terminator.) Under an scf.for
// whose iter_args and results disagree the loop is reported instead, so that
// the yield does not repeat its error.
func checkYield(op *ir.Operation, ctx *ir.VerifyContext) *diag.Diagnostic {
	p := ctx.Parent(op)
	if p == nil || (p.Name == OpFor && !loopCarriedAgree(p)) {
		return nil
	}
	if len(op.Operands) != len(p.Results) {
		return diag.OpErrorf(op, "number of operands (%d) does not match the number of results of its parent '%s' (%d)", len(op.Operands), p.Name, len(p.Results))
	}
	for i, x := range op.Operands {
		if r := p.Results[i]; r == nil || x.Type != r.Type {
			var rt ir.Type
			if r != nil {
				rt = r.Type
			}
			return diag.OpErrorf(op, "types mismatch between yield op and its parent: operand #%d has type '%s' but the parent '%s' result #%d has type '%s'", i, diag.TypeStr(x.Type), p.Name, i, diag.TypeStr(rt))
		}
	}
	return nil
}

// loopCarriedAgree reports whether an scf.for has one result per iter_args
// operand, of the same type.
func loopCarriedAgree(op *ir.Operation) bool {
	if len(op.Operands) < 3 || len(op.Results) != len(op.Operands)-3 {
		return false
	}
	for i, r := range op.Results {
		x := op.Operands[i+3]
		if r == nil || x == nil || r.Type != x.Type {
			return false
		}
	}
	return true
}

// hook makes a Verify hook of a rule: a nil *diag.Diagnostic must become a
// nil error, not an error holding a nil pointer.
func hook(rule func(*ir.Operation, *ir.VerifyContext) *diag.Diagnostic) func(*ir.Operation, *ir.VerifyContext) error {
	return func(op *ir.Operation, ctx *ir.VerifyContext) error {
		if d := rule(op, ctx); d != nil {
			return d
		}
		return nil
	}
}

// isIndex reports whether t is the index type.
func isIndex(t ir.Type) bool {
	x, ok := t.(*ir.IndexType)
	return ok && x != nil
}

// isBool reports whether t is i1.
func isBool(t ir.Type) bool { return t == ir.Type(ir.Bool()) }

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

// Builders of the scf operations, at a builder's insertion point.

// Yield creates scf.yield.
func Yield(b *ir.Builder, vals ...*ir.Value) *ir.Operation { return b.Create(OpYield, vals, nil, nil) }

// For creates scf.for with iteration arguments; it returns the op and its body
// block (argument 0 is the induction variable). The caller fills the body and
// ends it with scf.yield.
func For(b *ir.Builder, lb, ub, step *ir.Value, inits ...*ir.Value) (*ir.Operation, *ir.Block) {
	types := make([]ir.Type, len(inits))
	for i, v := range inits {
		types[i] = v.Type
	}
	operands := append([]*ir.Value{lb, ub, step}, inits...)
	op := b.Create(OpFor, operands, types, nil)
	body := op.NewRegion(append([]ir.Type{ir.Index()}, types...)...)
	return op, body
}

// If creates scf.if with result types; it returns the op and its then and else
// blocks (else is nil when withElse is false).
func If(b *ir.Builder, cond *ir.Value, resultTypes []ir.Type, withElse bool) (*ir.Operation, *ir.Block, *ir.Block) {
	op := b.Create(OpIf, []*ir.Value{cond}, resultTypes, nil)
	then := op.NewRegion()
	var els *ir.Block
	if withElse {
		els = op.NewRegion()
	} else {
		op.Regions = append(op.Regions, &ir.Region{Parent: op})
	}
	return op, then, els
}
