package otir

import (
	"fmt"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/typing"
)

// Kernels and their context: otir.kernel, otir.return, otir.program_id,
// otir.num_programs, the KernelArguments directive and the module's
// otir.typing_style rule.

// Operation names of the family.
const (
	OpKernel    = "otir.kernel"
	OpReturn    = "otir.return"
	OpProgramID = "otir.program_id"
	OpNumProgs  = "otir.num_programs"
)

var kernelFamily = family{
	ops: []ir.OpDef{
		{Name: OpKernel, Summary: "a tile kernel launched over a static grid",
			Attrs: []ir.AttrDef{
				{Name: "sym_name", Kind: ir.AttrString, Doc: "the kernel's name"},
				{Name: "function_type", Kind: ir.AttrFuncType, Doc: "the arguments' types; no results"},
				{Name: "grid", Kind: ir.AttrArray, Optional: true, Doc: "the launch grid, one positive extent per axis"},
				{Name: "frac_bits", Kind: ir.AttrDenseI64, Optional: true, Doc: "one entry F per argument: its integers q mean the reals q*2^-F (a circuit's inputs are quantized as ALIR's inp_shifts, its outputs scaled as out_shifts; docs/otir-extensions.md)"},
			},
			Regions: []string{"body"}, Traits: ir.IsolatedFromAbove | ir.SingleBlock | ir.TopLevel | ir.Symbol, Parents: []string{ir.OpModule},
			Verify: hook(checkKernel),
			Format: "$sym_name custom<KernelArguments>($body, $function_type) attr-dict-with-keyword $body"},
		{Name: OpReturn, Summary: "ends a kernel", Traits: ir.Terminator, Parents: []string{OpKernel},
			Format: "attr-dict"},
		{Name: OpProgramID, Summary: "the workgroup's coordinate along a grid axis",
			Results:    []ir.ArgDef{{Name: "result", Doc: "index"}},
			Attrs:      []ir.AttrDef{{Name: "axis", Kind: ir.AttrInt, Doc: "a grid axis"}},
			Verify:     hook(checkAxis),
			ResultName: func(*ir.Operation) string { return "pid" },
			Format:     "`axis` `(` $axis `)` attr-dict"},
		{Name: OpNumProgs, Summary: "the grid's size along an axis", Traits: ir.Extension,
			Results:    []ir.ArgDef{{Name: "result", Doc: "index"}},
			Attrs:      []ir.AttrDef{{Name: "axis", Kind: ir.AttrInt, Doc: "a grid axis"}},
			Verify:     hook(checkAxis),
			ResultName: func(*ir.Operation) string { return "nprog" },
			Format:     "`axis` `(` $axis `)` attr-dict"},
	},
	register: func() {
		ka := ir.RegisterDirective("KernelArguments", printKernelArguments, parseKernelArguments)
		ka.Glued = true
		registerModuleRule()
	},
	noVerify: map[string]string{
		OpReturn: "its parent (Parents) and its place at the end of the kernel body (the Terminator trait) are generic rules",
	},
}

// checkKernel: a non-empty name, a function_type without results whose
// inputs are the body's argument types, arguments that are #global tiles or
// scalars, an optional grid of 1 to 3 positive sizes, and a body ending with
// otir.return. (Its place in the module body is the TopLevel trait and
// Parents; a redefined name is the verifier's symbol-table rule, the Symbol
// trait.)
func checkKernel(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	name, _ := op.StringAttr("sym_name")
	if name == "" {
		return diag.OpErrorf(op, "attribute 'sym_name' must not be empty")
	}
	fn := op.Attr("function_type").(*ir.FunctionType)
	body := op.Body(0)
	if len(fn.Results) != 0 {
		return diag.OpErrorf(op, "function_type must have no results (kernels write their outputs to #global arguments), but has %d", len(fn.Results))
	}
	if len(fn.Inputs) != len(body.Args) {
		return diag.OpErrorf(op, "function_type has %s, but the body has %s", diag.Plural(len(fn.Inputs), "input"), diag.Plural(len(body.Args), "argument"))
	}
	for i, a := range body.Args {
		if a.Type != fn.Inputs[i] {
			return diag.OpErrorf(op, "type of argument #%d ('%s') does not match the function_type input '%s'", i, diag.TypeStr(a.Type), diag.TypeStr(fn.Inputs[i]))
		}
		if t := asTile(a.Type); (t != nil && t.Space != ir.Global) || (t == nil && !ir.IsScalar(a.Type)) {
			return diag.OpErrorf(op, "argument #%d must be a #global tile or a scalar (integer, float or index), but got '%s'", i, diag.TypeStr(a.Type))
		}
	}
	if d := checkGrid(op); d != nil {
		return d
	}
	if d := checkFracBits(op, len(body.Args)); d != nil {
		return d
	}
	return diag.CheckTerminator(op, body, OpReturn)
}

// MaxFracBits bounds the magnitude of a frac_bits entry (an ALIR shift is
// an int32; the scales of quantized types stay far inside).
const MaxFracBits = 1 << 10

// checkFracBits: the optional frac_bits attribute has one entry per
// argument, each at most MaxFracBits in magnitude.
func checkFracBits(op *ir.Operation, nArgs int) *diag.Diagnostic {
	a, ok := op.Attr("frac_bits").(*ir.DenseI64Attr)
	if !ok || a == nil {
		return nil
	}
	if len(a.Values) != nArgs {
		return diag.OpErrorf(op, "frac_bits has %s, but the kernel has %s", diag.Plural(len(a.Values), "value"), diag.Plural(nArgs, "argument"))
	}
	for i, f := range a.Values {
		if f < -MaxFracBits || f > MaxFracBits {
			return diag.OpErrorf(op, "frac_bits entry #%d (%d) is out of range [-%d, %d]", i, f, MaxFracBits, MaxFracBits)
		}
	}
	return nil
}

// FracBits returns the kernel's frac_bits entry for argument i (0 when the
// kernel has none: plain integers).
func FracBits(k *ir.Operation, i int) int64 {
	if a, ok := k.Attr("frac_bits").(*ir.DenseI64Attr); ok && a != nil && i < len(a.Values) {
		return a.Values[i]
	}
	return 0
}

// MaxWorkgroups bounds the number of workgroups of a grid (an
// implementation limit: the executor and lower-tiles run every workgroup).
const MaxWorkgroups = 1 << 24

// checkGrid: the optional grid attribute is 1 to 3 positive integers, of
// at most MaxWorkgroups workgroups together.
func checkGrid(op *ir.Operation) *diag.Diagnostic {
	a := op.Attr("grid")
	if a == nil {
		return nil
	}
	g, ok := a.(*ir.ArrayAttr)
	if !ok || g == nil {
		return diag.OpErrorf(op, "attribute 'grid' must be an array attribute, but got %s", diag.AttrKind(a))
	}
	if len(g.Elems) < 1 || len(g.Elems) > 3 {
		return diag.OpErrorf(op, "grid must have 1 to 3 dimensions, but has %d", len(g.Elems))
	}
	dims := make([]int64, len(g.Elems))
	for i, e := range g.Elems {
		ia, _ := e.(*ir.IntAttr)
		n, ok := int64Value(ia)
		if !ok || n < 1 {
			got := diag.AttrKind(e)
			if v := intValue(ia); v != nil {
				got = v.String()
			}
			return diag.OpErrorf(op, "grid dimension #%d must be a positive integer, but got %s", i, got)
		}
		dims[i] = n
	}
	// Every dimension is checked before the product, so the message can
	// print them all.
	total := int64(1)
	for _, n := range dims {
		if total = mulSat(total, n); total > MaxWorkgroups {
			return diag.OpErrorf(op, "grid %s has more than 2^24 (%d) workgroups, the implementation limit", gridText(dims), MaxWorkgroups)
		}
	}
	return nil
}

func mulSat(a, b int64) int64 {
	if b != 0 && a > (1<<62)/b {
		return 1 << 62
	}
	return a * b
}

func gridText(dims []int64) string {
	parts := make([]string, len(dims))
	for i, n := range dims {
		parts[i] = fmt.Sprint(n)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// checkAxis: otir.program_id and otir.num_programs take a non-negative axis
// below the enclosing kernel's grid rank and return index.
func checkAxis(op *ir.Operation, ctx *ir.VerifyContext) *diag.Diagnostic {
	ia := op.Attr("axis").(*ir.IntAttr)
	axis, ok := int64Value(ia)
	if ia.Value.Sign() < 0 {
		return diag.OpErrorf(op, "axis must be a non-negative integer, but got %s", ia.Value.String())
	}
	if k := ctx.Enclosing(op, OpKernel); k != nil {
		if rank := gridRank(k); !ok || axis >= int64(rank) {
			return diag.OpErrorf(op, "axis %s is out of range: the kernel's grid has rank %d", ia.Value.String(), rank)
		}
	}
	if r := op.Results[0].Type; !isIndex(r) {
		return diag.OpErrorf(op, "result must be 'index', but got '%s'", diag.TypeStr(r))
	}
	return nil
}

// gridRank is the rank of kernel k's launch grid (1 when it has none).
func gridRank(k *ir.Operation) int {
	if g, ok := k.Attr("grid").(*ir.ArrayAttr); ok && g != nil {
		return len(g.Elems)
	}
	return 1
}

// custom<KernelArguments>($body, $function_type): `(%arg0: T, ...)`, the
// body's entry block arguments, printed right after the symbol, each with
// its location under --mlir-print-debuginfo (a loc(...) after an argument's
// type is read as its location); the parser makes function_type from their
// types.
func printKernelArguments(p ir.AsmPrinter, op *ir.Operation, f *ir.Format, args []ir.FormatElem) {
	ir.PrintBlockArgList(p, op.Regions[args[0].Ref.Index].Blocks[0])
}

func parseKernelArguments(p ir.AsmParser, st *ir.OpState, args []ir.FormatElem) error {
	bargs, err := ir.ParseBlockArgList(p)
	if err != nil {
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

// checkTypingStyle is the dialect's rule on its otir.typing_style attribute,
// added to builtin.module's hook: "hls" or "cpp" when present.
func checkTypingStyle(op *ir.Operation) *diag.Diagnostic {
	if a := op.Attr("otir.typing_style"); a != nil {
		s, ok := a.(*ir.StringAttr)
		if !ok || s == nil || (s.Value != "hls" && s.Value != "cpp") {
			got := diag.AttrKind(a)
			if ok && s != nil {
				got = s.String()
			}
			return diag.OpErrorf(op, "attribute 'otir.typing_style' must be \"hls\" or \"cpp\", but got %s", got)
		}
	}
	return nil
}

// registerModuleRule appends checkTypingStyle to builtin.module's Verify hook.
func registerModuleRule() {
	m := ir.LookupOp(ir.OpModule)
	if m == nil {
		return
	}
	prev := m.Verify
	m.Verify = func(op *ir.Operation, ctx *ir.VerifyContext) error {
		if prev != nil {
			if err := prev(op, ctx); err != nil {
				return err
			}
		}
		if d := checkTypingStyle(op); d != nil {
			return d
		}
		return nil
	}
}

// typingStyle is the typing style of the module that holds op: hls unless its
// otir.typing_style names cpp (an unknown style is the module's own error),
// and hls outside a module.
func typingStyle(op *ir.Operation, ctx *ir.VerifyContext) typing.Style {
	if m := ctx.Enclosing(op, ir.OpModule); m != nil {
		if s, ok := m.Attr("otir.typing_style").(*ir.StringAttr); ok && s != nil && s.Value == string(typing.CPP) {
			return typing.CPP
		}
	}
	return typing.HLS
}

// TypingStyle is the module's otir.typing_style ("hls" unless set).
func TypingStyle(m *ir.Module) string {
	if s, ok := m.Op.StringAttr("otir.typing_style"); ok {
		return s
	}
	return "hls"
}

// Builders of the family's operations, at a builder's insertion point (MLIR's
// builder.create<Op>(...)).

// ProgramID creates otir.program_id axis(n).
func ProgramID(b *ir.Builder, axis int64) *ir.Value {
	return b.Create(OpProgramID, nil, []ir.Type{ir.Index()}, ir.Attrs{{Name: "axis", Value: ir.I64(axis)}}).Results[0]
}

// Return creates otir.return.
func Return(b *ir.Builder) *ir.Operation { return b.Create(OpReturn, nil, nil, nil) }

// Kernel creates an otir.kernel in a module body and returns it and its entry
// block (whose arguments are the kernel's arguments).
func Kernel(b *ir.Builder, name string, argTypes []ir.Type, grid []int64) (*ir.Operation, *ir.Block) {
	attrs := ir.Attrs{{Name: "function_type", Value: &ir.FunctionType{Inputs: argTypes}}, {Name: "sym_name", Value: &ir.StringAttr{Value: name}}}
	if grid != nil {
		g := &ir.ArrayAttr{}
		for _, n := range grid {
			g.Elems = append(g.Elems, ir.I64(n))
		}
		attrs.Set("grid", g)
	}
	op := b.Create(OpKernel, nil, nil, attrs)
	body := op.NewRegion(argTypes...)
	for _, a := range body.Args {
		a.Loc = b.Loc
	}
	return op, body
}

// Kernels lists the module's otir.kernel operations.
func Kernels(m *ir.Module) []*ir.Operation { return m.TopLevel(OpKernel) }

// IsKernel reports whether op is an otir.kernel.
func IsKernel(op *ir.Operation) bool { return op.Name == OpKernel }
