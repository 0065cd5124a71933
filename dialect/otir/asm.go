package otir

import (
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/typing"
)

// The otir dialect's custom directives of the assembly format
// (docs/assembly-format.md) and its result type inference. This file's
// init runs before ops.go's (files initialise in name order), so the
// directives exist when the records' formats are compiled.

func init() {
	ew := ir.RegisterDirective("ElementwiseTypes", printElementwiseTypes, parseElementwiseTypes)
	ew.Fits = func(op *ir.Operation, f *ir.Format, args []ir.FormatElem) bool { return len(op.Results) == 1 }
	ir.RegisterDirective("Mask", printMask, parseMask)
	dma := ir.RegisterDirective("DMATypes", printDMATypes, parseDMATypes)
	dma.Fits = func(op *ir.Operation, f *ir.Format, args []ir.FormatElem) bool { return len(op.Results) == 1 }
	ir.RegisterDirective("IntList", printIntList, parseIntList)
	sb := ir.RegisterDirective("SliceBounds", printSliceBounds, parseSliceBounds)
	sb.Glued, sb.SetsTypes, sb.Fits = true, true, sliceBoundsFit
	ka := ir.RegisterDirective("KernelArguments", printKernelArguments, parseKernelArguments)
	ka.Glued = true

	for _, b := range binaryOps {
		ir.RegisterInference(b.name, inferElementwise)
	}
	for _, u := range unaryOps {
		ir.RegisterInference(u.name, inferElementwise)
	}
	ir.RegisterInference(OpCmp, inferCmp)
	ir.RegisterInference(OpConstant, inferConstant)
	ir.RegisterInference(OpInsertSlice, inferInsertSlice)
}

// inferInsertSlice gives otir.insert_slice its dest's type (MLIR's
// AllTypesMatch<["dest", "result"]>).
func inferInsertSlice(in *ir.InferInput, out []ir.Type) error {
	if len(in.Operands) >= 2 && len(in.Operands[1]) == 1 {
		out[0] = in.Operands[1][0]
	}
	return nil
}

// flat lists the types of every group.
func flat(groups [][]ir.Type) []ir.Type {
	if len(groups) == 1 {
		return groups[0]
	}
	var ts []ir.Type
	for _, g := range groups {
		ts = append(ts, g...)
	}
	return ts
}

// inferElementwise gives an element-wise op's result by its typing rule.
func inferElementwise(in *ir.InferInput, out []ir.Type) error {
	t, err := typing.InferResult(in.Style, in.Def.Name, flat(in.Operands))
	out[0] = t
	return err
}

// inferCmp gives otir.cmp's i1 result of the operands' broadcast shape.
func inferCmp(in *ir.InferInput, out []ir.Type) error {
	ts := flat(in.Operands)
	if len(ts) != 2 {
		return nil
	}
	t, err := cmpResult(ts[0], ts[1])
	out[0] = t
	return err
}

// inferConstant gives otir.constant the type of its value.
func inferConstant(in *ir.InferInput, out []ir.Type) error {
	switch v := in.Attrs.Get("value").(type) {
	case *ir.IntAttr:
		out[0] = v.Type
	case *ir.FloatAttr:
		out[0] = v.Type
	case *ir.DenseAttr:
		out[0] = v.Type
	}
	return nil
}

// cmpResult is the i1 result of comparing a and b: a scalar i1 when both are
// scalars, else a #private tile of i1 with the broadcast shape.
func cmpResult(a, b ir.Type) (ir.Type, error) {
	ta, aTile := a.(*ir.TileType)
	tb, bTile := b.(*ir.TileType)
	switch {
	case !aTile && !bTile:
		return ir.Bool(), nil
	case !bTile:
		return ir.Tile(ta.Shape, ir.Bool(), ir.Private), nil
	case !aTile:
		return ir.Tile(tb.Shape, ir.Bool(), ir.Private), nil
	}
	sa, sb := ta.Shape, tb.Shape
	if len(sa) < len(sb) {
		sa, sb = sb, sa
	}
	shape := append([]int64(nil), sa...)
	off := len(sa) - len(sb)
	for i, d := range sb {
		switch e := shape[off+i]; {
		case e == d || d == 1:
		case e == 1:
			shape[off+i] = d
		default:
			return nil, &shapeError{a, b}
		}
	}
	return ir.Tile(shape, ir.Bool(), ir.Private), nil
}

type shapeError struct{ a, b ir.Type }

func (e *shapeError) Error() string {
	return "operands of 'otir.cmp' are not broadcast-compatible: '" + e.a.String() + "' and '" + e.b.String() + "'"
}

// custom<ElementwiseTypes>(type(operands), type($result)): `T` when the
// operands and the result share one type, else `(T1, T2) -> T3`. The parser
// also reads `T1, T2` (the result inferred) and, for a comparison, `T` as
// the operands' type (the result inferred).
func printElementwiseTypes(p ir.AsmPrinter, op *ir.Operation, f *ir.Format, args []ir.FormatElem) {
	r := op.Results[0].Type
	for _, v := range op.Operands {
		if v.Type != r {
			p.PrintFunctionalType(op.Operands, op.Results)
			return
		}
	}
	p.PrintType(r)
}

func parseElementwiseTypes(p ir.AsmParser, st *ir.OpState, args []ir.FormatElem) error {
	n := st.NumOperands()
	res := args[1].Ref.Index
	if p.IsFunctionalType() {
		ins, outs, at, err := p.ParseFunctionalType(false)
		if err != nil {
			return err
		}
		if len(ins) != n {
			return p.Errorf(at, "%d operands present, but expected %d", n, len(ins))
		}
		if len(outs) != 1 {
			return p.Errorf(at, "expected 1 result type, got %d", len(outs))
		}
		setOperandTypes(st, ins)
		st.ResultTypes[res] = outs
		return nil
	}
	at := p.CurrentLoc()
	ts, err := p.ParseTypeList()
	if err != nil {
		return err
	}
	switch {
	case len(ts) == 1:
		ins := p.Types(n)
		for i := range ins {
			ins[i] = ts[0]
		}
		setOperandTypes(st, ins)
		if !typing.IsComparison(st.Def.Typing) {
			st.ResultTypes[res] = ts
		}
	case len(ts) == n && n > 1:
		setOperandTypes(st, ts)
	default:
		return p.Errorf(at, "%d operands present, but expected %d", n, len(ts))
	}
	return nil
}

// setOperandTypes gives ts to the operand groups in order.
func setOperandTypes(st *ir.OpState, ts []ir.Type) {
	k := 0
	for g := range st.Operands {
		m := len(st.Operands[g])
		st.OperandTypes[g] = ts[k : k+m : k+m]
		k += m
	}
}

// custom<Mask>($mask): the optional mask operand, %m (the parser also reads
// the specification's [%m]).
func printMask(p ir.AsmPrinter, op *ir.Operation, f *ir.Format, args []ir.FormatElem) {
	p.PrintOperands(f.OperandGroup(op, args[0].Ref.Index))
}

func parseMask(p ir.AsmParser, st *ir.OpState, args []ir.FormatElem) error {
	bracket := p.ParseOptionalPunct("[")
	name, err := p.ParseOperand()
	if err != nil {
		return err
	}
	if bracket {
		if err := p.ParsePunct("]"); err != nil {
			return err
		}
	}
	ns := p.Names(1)
	ns[0] = name
	st.Operands[args[0].Ref.Index] = ns
	return nil
}

// custom<DMATypes>(type($source), type($dest), type($mask), type($token)):
// `(S, D) -> T` or `(S, D, M) -> T` (the parser also reads `[M]`).
func printDMATypes(p ir.AsmPrinter, op *ir.Operation, f *ir.Format, args []ir.FormatElem) {
	p.PrintFunctionalType(op.Operands, op.Results)
}

func parseDMATypes(p ir.AsmParser, st *ir.OpState, args []ir.FormatElem) error {
	ins, outs, at, err := p.ParseFunctionalType(true)
	if err != nil {
		return err
	}
	if len(outs) != 1 {
		return p.Errorf(at, "expected 1 result type, got %d", len(outs))
	}
	if n := st.NumOperands(); n != len(ins) {
		return p.Errorf(p.NameLoc(), "%d operands present, but expected %d", n, len(ins))
	}
	setOperandTypes(st, ins)
	st.ResultTypes[args[3].Ref.Index] = outs
	return nil
}

// custom<IntList>($attr): a dense i64 array as `1, 0`.
func printIntList(p ir.AsmPrinter, op *ir.Operation, f *ir.Format, args []ir.FormatElem) {
	if a, ok := op.Attr(args[0].Ref.Name).(*ir.DenseI64Attr); ok {
		p.PrintInts(a.Values)
	}
}

func parseIntList(p ir.AsmParser, st *ir.OpState, args []ir.FormatElem) error {
	vs, err := intList(p, "]")
	if err != nil {
		return err
	}
	st.Attrs.Set(args[0].Ref.Name, &ir.DenseI64Attr{Values: vs})
	return nil
}

// intList reads Int ("," Int)* unless the list is empty (the next token is
// ')' or end).
func intList(p ir.AsmParser, end string) ([]int64, error) {
	vs := []int64{}
	if p.IsPunct(")") || p.IsPunct(end) {
		return vs, nil
	}
	for {
		v, _, err := p.ParseInt()
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
		if !p.ParseOptionalPunct(",") {
			return vs, nil
		}
	}
}

// custom<SliceBounds>($offsets, $static_offsets, $static_sizes,
// $static_strides): `[%o, 0] [16, 4] [1, 1]`, printed right after the
// source; a dynamic offset is an index operand, DynamicOffset in
// static_offsets.
func printSliceBounds(p ir.AsmPrinter, op *ir.Operation, f *ir.Format, args []ir.FormatElem) {
	dyn := f.OperandGroup(op, args[0].Ref.Index)
	offs := op.Attr(args[1].Ref.Name).(*ir.DenseI64Attr).Values
	p.WriteString("[")
	k := 0
	for i, o := range offs {
		if i > 0 {
			p.WriteString(", ")
		}
		if o == DynamicOffset {
			p.PrintOperand(dyn[k])
			k++
		} else {
			p.PrintInt(o)
		}
	}
	p.WriteString("] [")
	p.PrintInts(op.Attr(args[2].Ref.Name).(*ir.DenseI64Attr).Values)
	p.WriteString("] [")
	p.PrintInts(op.Attr(args[3].Ref.Name).(*ir.DenseI64Attr).Values)
	p.WriteString("]")
}

func sliceBoundsFit(op *ir.Operation, f *ir.Format, args []ir.FormatElem) bool {
	offs, ok1 := op.Attr(args[1].Ref.Name).(*ir.DenseI64Attr)
	sizes, ok2 := op.Attr(args[2].Ref.Name).(*ir.DenseI64Attr)
	strides, ok3 := op.Attr(args[3].Ref.Name).(*ir.DenseI64Attr)
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	dyn := 0
	for _, o := range offs.Values {
		if o == DynamicOffset {
			dyn++
		}
	}
	return dyn == len(f.OperandGroup(op, args[0].Ref.Index)) && len(offs.Values) == len(sizes.Values) &&
		len(sizes.Values) == len(strides.Values) && len(offs.Values) > 0
}

func parseSliceBounds(p ir.AsmParser, st *ir.OpState, args []ir.FormatElem) error {
	if err := p.ParsePunct("["); err != nil {
		return err
	}
	var offs []int64
	var names []string
	if !p.IsPunct("]") {
		for {
			if name, ok := p.ParseOptionalOperand(); ok {
				offs = append(offs, DynamicOffset)
				names = append(names, name)
			} else {
				v, _, err := p.ParseInt()
				if err != nil {
					return err
				}
				offs = append(offs, v)
			}
			if !p.ParseOptionalPunct(",") {
				break
			}
		}
	}
	if err := p.ParsePunct("]"); err != nil {
		return err
	}
	var lists [2][]int64
	for i := range lists {
		if err := p.ParsePunct("["); err != nil {
			return err
		}
		vs, err := intList(p, "]")
		if err != nil {
			return err
		}
		if err := p.ParsePunct("]"); err != nil {
			return err
		}
		lists[i] = vs
	}
	g := args[0].Ref.Index
	st.Operands[g] = names
	if len(names) > 0 {
		ts := p.Types(len(names))
		for i := range ts {
			ts[i] = ir.Index()
		}
		st.OperandTypes[g] = ts
	}
	if offs == nil {
		offs = []int64{}
	}
	st.Attrs.Set(args[1].Ref.Name, &ir.DenseI64Attr{Values: offs})
	st.Attrs.Set(args[2].Ref.Name, &ir.DenseI64Attr{Values: lists[0]})
	st.Attrs.Set(args[3].Ref.Name, &ir.DenseI64Attr{Values: lists[1]})
	return nil
}

// custom<KernelArguments>($body, $function_type): `(%arg0: T, ...)`, the
// body's entry block arguments, printed right after the symbol; the parser
// makes function_type from their types.
func printKernelArguments(p ir.AsmPrinter, op *ir.Operation, f *ir.Format, args []ir.FormatElem) {
	b := op.Regions[args[0].Ref.Index].Blocks[0]
	p.WriteString("(")
	for i, a := range b.Args {
		if i > 0 {
			p.WriteString(", ")
		}
		p.PrintOperand(a)
		p.WriteString(": ")
		p.PrintType(a.Type)
	}
	p.WriteString(")")
}

func parseKernelArguments(p ir.AsmParser, st *ir.OpState, args []ir.FormatElem) error {
	if err := p.ParsePunct("("); err != nil {
		return err
	}
	var bargs []ir.BlockArg
	if !p.IsPunct(")") {
		for {
			at := p.CurrentLoc()
			name, err := p.ParseOperand()
			if err != nil {
				return err
			}
			if err := p.ParsePunct(":"); err != nil {
				return err
			}
			t, err := p.ParseType()
			if err != nil {
				return err
			}
			bargs = append(bargs, ir.BlockArg{Name: name, Type: t, Loc: at})
			if !p.ParseOptionalPunct(",") {
				break
			}
		}
	}
	if err := p.ParsePunct(")"); err != nil {
		return err
	}
	st.Regions[args[0].Ref.Index].Args = bargs
	ins := make([]ir.Type, len(bargs))
	for i, a := range bargs {
		ins[i] = a.Type
	}
	st.Attrs.Set(args[1].Ref.Name, &ir.FunctionType{Inputs: ins})
	return nil
}
