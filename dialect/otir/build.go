package otir

import (
	"math/big"

	"github.com/otir-dev/otir/ir"
)

// Builders of the dialect's operations, at a builder's insertion point (MLIR's
// builder.create<Op>(...)).

// Cast converts x to type t (no-op if it already has it).
func Cast(b *ir.Builder, x *ir.Value, t ir.Type) *ir.Value {
	if x.Type == t {
		return x
	}
	return b.Unary(OpCast, x, t)
}

// Cmp creates otir.cmp kind(pred).
func Cmp(b *ir.Builder, pred string, lhs, rhs *ir.Value, result ir.Type) *ir.Value {
	return b.Create(OpCmp, []*ir.Value{lhs, rhs}, []ir.Type{result}, ir.Attrs{{Name: "kind", Value: &ir.StringAttr{Value: pred}}}).Results[0]
}

// ConstInt creates an integer or index constant.
func ConstInt(b *ir.Builder, v int64, t ir.Type) *ir.Value {
	return ConstBig(b, big.NewInt(v), t)
}

// ConstBig creates an integer constant of any width.
func ConstBig(b *ir.Builder, v *big.Int, t ir.Type) *ir.Value {
	return b.Create(OpConstant, nil, []ir.Type{t}, ir.Attrs{{Name: "value", Value: &ir.IntAttr{Value: v, Type: t}}}).Results[0]
}

// ConstFloat creates a float constant.
func ConstFloat(b *ir.Builder, v float64, t *ir.FloatType) *ir.Value {
	return b.Create(OpConstant, nil, []ir.Type{t}, ir.Attrs{{Name: "value", Value: &ir.FloatAttr{Value: v, Type: t}}}).Results[0]
}

// ConstDense creates a dense tile constant.
func ConstDense(b *ir.Builder, a *ir.DenseAttr) *ir.Value {
	return b.Create(OpConstant, nil, []ir.Type{a.Type}, ir.Attrs{{Name: "value", Value: a}}).Results[0]
}

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

// SliceAttrs builds the static_offsets / static_sizes / static_strides
// attributes of a slice op; offsets equal to DynamicOffset take dynamic operands.
func SliceAttrs(offsets, sizes, strides []int64) ir.Attrs {
	return ir.Attrs{
		{Name: "static_offsets", Value: &ir.DenseI64Attr{Values: offsets}},
		{Name: "static_sizes", Value: &ir.DenseI64Attr{Values: sizes}},
		{Name: "static_strides", Value: &ir.DenseI64Attr{Values: strides}},
	}
}

// Kernels lists the module's otir.kernel operations.
func Kernels(m *ir.Module) []*ir.Operation {
	var ks []*ir.Operation
	for _, op := range m.Body().Ops {
		if op.Name == OpKernel {
			ks = append(ks, op)
		}
	}
	return ks
}

// TypingStyle is the module's otir.typing_style ("hls" unless set).
func TypingStyle(m *ir.Module) string {
	if s, ok := m.Op.StringAttr("otir.typing_style"); ok {
		return s
	}
	return "hls"
}

// IsKernel reports whether op is an otir.kernel.
func IsKernel(op *ir.Operation) bool { return op.Name == OpKernel }
