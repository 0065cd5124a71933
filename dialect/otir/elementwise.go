package otir

import (
	"slices"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/typing"
)

// Element-wise operations: the binary and unary ops, otir.cmp, otir.select
// and otir.cast, their Verify hooks and result type inference, and the
// ElementwiseTypes directive.

// Operation names of the family.
const (
	OpAdd    = "otir.add"
	OpSub    = "otir.sub"
	OpMul    = "otir.mul"
	OpDivS   = "otir.div_s"
	OpDivU   = "otir.div_u"
	OpRemS   = "otir.rem_s"
	OpRemU   = "otir.rem_u"
	OpAnd    = "otir.and"
	OpOr     = "otir.or"
	OpXor    = "otir.xor"
	OpShl    = "otir.shl"
	OpShrS   = "otir.shr_s"
	OpShrU   = "otir.shr_u"
	OpMax    = "otir.max"
	OpMin    = "otir.min"
	OpNeg    = "otir.neg"
	OpNot    = "otir.not"
	OpAbs    = "otir.abs"
	OpSqrt   = "otir.sqrt"
	OpExp    = "otir.exp"
	OpLog    = "otir.log"
	OpCmp    = "otir.cmp"
	OpSelect = "otir.select"
	OpCast   = "otir.cast"
)

// CmpPredicates are the comparison kinds of otir.cmp.
var CmpPredicates = []string{"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", "oeq", "one", "olt", "ole", "ogt", "oge"}

var elementwiseFamily = family{
	ops: []ir.OpDef{
		binary(OpAdd, "add", "element-wise add", 0, nil),
		binary(OpSub, "sub", "element-wise sub", 0, nil),
		binary(OpMul, "mul", "element-wise mul", 0, nil),
		binary(OpDivS, "div", "element-wise div_s", ir.SignedOperands, intOperands),
		binary(OpDivU, "div", "element-wise div_u", ir.UnsignedOperands, intOperands),
		binary(OpRemS, "mod", "element-wise rem_s", ir.SignedOperands, intOperands),
		binary(OpRemU, "mod", "element-wise rem_u", ir.UnsignedOperands, intOperands),
		binary(OpAnd, "bitwise_and", "element-wise and", 0, intOperands),
		binary(OpOr, "bitwise_or", "element-wise or", 0, intOperands),
		binary(OpXor, "bitwise_xor", "element-wise xor", 0, intOperands),
		binary(OpShl, "lshift", "element-wise shl", 0, intOperands),
		binary(OpShrS, "rshift", "element-wise shr_s", ir.SignedOperands, intOperands),
		binary(OpShrU, "rshift", "element-wise shr_u", ir.UnsignedOperands, intOperands),
		binary(OpMax, "max", "element-wise maximum", ir.Extension, nil),
		binary(OpMin, "min", "element-wise minimum", ir.Extension, nil),

		unary(OpNeg, "neg", "element-wise neg", nil),
		unary(OpNot, "invert", "element-wise not", intOperands),
		unary(OpAbs, "abs", "element-wise abs", nil),
		unary(OpSqrt, "sqrt", "element-wise sqrt", floatResult),
		unary(OpExp, "exp", "element-wise exp", floatResult),
		unary(OpLog, "log", "element-wise log", floatResult),

		{Name: OpCmp, Summary: "element-wise comparison, yields i1", Traits: ir.Elementwise, Typing: "eq",
			Operands: []ir.ArgDef{{Name: "lhs"}, {Name: "rhs"}},
			Results:  []ir.ArgDef{{Name: "result", Doc: "i1 (a tile of i1 when an operand is a tile)"}},
			Attrs:    []ir.AttrDef{{Name: "kind", Kind: ir.AttrString, Enum: CmpPredicates, EnumName: "comparison kind"}},
			Verify:   elementwise("eq", checkCmp),
			Infer:    inferCmp,
			Format:   "`kind` `(` $kind `)` $lhs `,` $rhs attr-dict `:` custom<ElementwiseTypes>(type(operands), type($result))"},
		{Name: OpSelect, Summary: "element-wise choice by an i1 condition", Traits: ir.Elementwise | ir.Extension,
			Operands: []ir.ArgDef{{Name: "condition", Doc: "i1 or a tile of i1"}, {Name: "true_value"}, {Name: "false_value"}},
			Results:  []ir.ArgDef{{Name: "result"}},
			Verify:   elementwise("", boolCondition),
			Format:   "$condition `,` $true_value `,` $false_value attr-dict `:` functional-type(operands, results)"},
		{Name: OpCast, Summary: "converts to another element type (wraps/truncates)", Traits: ir.Elementwise | ir.Extension,
			Operands: []ir.ArgDef{{Name: "input"}},
			Results:  []ir.ArgDef{{Name: "result"}},
			Verify:   elementwise("", nil),
			Format:   "$input attr-dict `:` type($input) `->` type($result)"},
	},
	register: func() {
		ew := ir.RegisterDirective("ElementwiseTypes", printElementwiseTypes, parseElementwiseTypes)
		ew.Fits = func(op *ir.Operation, f *ir.Format, args []ir.FormatElem) bool { return len(op.Results) == 1 }
	},
	noTyping: map[string]string{
		OpSelect: "chooses between its value operands element by element: no arithmetic, so no promotion rule applies",
		OpCast:   "converts to the result type written on it, which is the op's whole meaning: nothing is inferred",
	},
}

// binary is the record of a binary element-wise op with typing rule key,
// further traits (Extension; SignedOperands or UnsignedOperands for the ops
// that read their operands' bits) and element kinds.
func binary(name, key, summary string, traits ir.Trait, kinds kindRule) ir.OpDef {
	return ir.OpDef{Name: name, Summary: summary, Traits: ir.Elementwise | traits, Typing: key,
		Operands: []ir.ArgDef{{Name: "lhs"}, {Name: "rhs"}},
		Results:  []ir.ArgDef{{Name: "result"}},
		Verify:   elementwise(key, kinds),
		Infer:    inferElementwise,
		Format:   "$lhs `,` $rhs attr-dict `:` custom<ElementwiseTypes>(type(operands), type($result))"}
}

// unary is the record of a unary element-wise op with typing rule key and
// element kinds.
func unary(name, key, summary string, kinds kindRule) ir.OpDef {
	return ir.OpDef{Name: name, Summary: summary, Traits: ir.Elementwise, Typing: key,
		Operands: []ir.ArgDef{{Name: "input"}},
		Results:  []ir.ArgDef{{Name: "result"}},
		Verify:   elementwise(key, kinds),
		Infer:    inferElementwise,
		Format:   "$input attr-dict `:` custom<ElementwiseTypes>(type(operands), type($result))"}
}

// A kindRule checks the element types an element-wise op accepts, beyond
// the rules every one of them follows (checkElementwise).
type kindRule func(op *ir.Operation) *diag.Diagnostic

// elementwise is the Verify hook of an Elementwise op whose element kinds
// follow kinds (nil: any).
func elementwise(key string, kinds kindRule) func(*ir.Operation, *ir.VerifyContext) error {
	return func(op *ir.Operation, ctx *ir.VerifyContext) error {
		if d := checkElementwise(op, ctx, key, kinds); d != nil {
			return d
		}
		return nil
	}
}

// checkElementwise covers the binary, unary, cmp, select and cast ops:
// operands are scalars or #private tiles whose shapes broadcast NumPy-style,
// the result has the broadcast shape in #private (or is a scalar when every
// operand is), the op's element kinds hold (its kindRule), no tile of index
// is produced, and the operand element types have a typing rule in the
// module's style (Allo's rules, package typing), whether the result type was
// written or inferred.
func checkElementwise(op *ir.Operation, ctx *ir.VerifyContext, key string, kinds kindRule) *diag.Diagnostic {
	for i, x := range op.Operands {
		if t := asTile(x.Type); t != nil {
			if t.Space != ir.Private {
				return diag.OpErrorf(op, "operand #%d is a %s tile; element-wise operations take #private tiles or scalars (load it into #private first)", i, t.Space)
			}
		} else if !ir.IsScalar(x.Type) {
			return diag.OpErrorf(op, "operand #%d must be a scalar or a #private tile, but got '%s'", i, diag.TypeStr(x.Type))
		}
	}
	if d := checkBroadcast(op); d != nil {
		return d
	}
	if kinds != nil {
		if d := kinds(op); d != nil {
			return d
		}
	}
	if rt := asTile(op.Results[0].Type); rt != nil && isIndex(rt.Elem) {
		return diag.OpErrorf(op, "cannot produce a tile of index elements ('%s'): index is a scalar type", diag.TypeStr(rt))
	}
	if err := typing.CheckOpKey(typingStyle(op, ctx), op, key); err != nil {
		return diag.OpErrorf(op, "%s", err.Error())
	}
	return nil
}

// checkBroadcast checks that the operand shapes broadcast (aligned at the
// right, each dimension equal or 1) and that the result is the broadcast type.
// It allocates nothing unless it fails.
func checkBroadcast(op *ir.Operation) *diag.Diagnostic {
	rank, anyTile := 0, false
	for _, x := range op.Operands {
		if t := asTile(x.Type); t != nil {
			anyTile = true
			rank = max(rank, len(t.Shape))
		}
	}
	for k := 1; k <= rank; k++ {
		want, from := int64(1), -1
		for i, x := range op.Operands {
			t := asTile(x.Type)
			if t == nil || len(t.Shape) < k {
				continue
			}
			d := t.Shape[len(t.Shape)-k]
			switch {
			case d == 1 || d == want:
			case want == 1:
				want, from = d, i
			default:
				return diag.OpErrorf(op, "operand #%d ('%s') and operand #%d ('%s') are not broadcast-compatible: dimension %d is %d vs %d",
					from, diag.TypeStr(op.Operands[from].Type), i, diag.TypeStr(x.Type), rank-k, want, d)
			}
		}
	}
	r := op.Results[0].Type
	if !anyTile {
		if !ir.IsScalar(r) {
			return diag.OpErrorf(op, "result must be a scalar when all operands are scalars, but got '%s'", diag.TypeStr(r))
		}
		return nil
	}
	rt := asTile(r)
	ok := rt != nil && rt.Space == ir.Private && len(rt.Shape) == rank
	for k := 1; ok && k <= rank; k++ {
		ok = rt.Shape[rank-k] == broadcastDim(op.Operands, k)
	}
	if !ok {
		shape := make([]int64, rank)
		for k := 1; k <= rank; k++ {
			shape[rank-k] = broadcastDim(op.Operands, k)
		}
		return diag.OpErrorf(op, "result must be a #private tile of shape %s (the broadcast of the operand shapes), but got '%s'", diag.ShapeStr(shape), diag.TypeStr(r))
	}
	return nil
}

// broadcastDim is the k-th dimension from the right of the broadcast shape of
// compatible operands.
func broadcastDim(operands []*ir.Value, k int) int64 {
	for _, x := range operands {
		if t := asTile(x.Type); t != nil && len(t.Shape) >= k && t.Shape[len(t.Shape)-k] != 1 {
			return t.Shape[len(t.Shape)-k]
		}
	}
	return 1
}

// intOperands: bitwise ops, shifts and integer division need integer or
// index operands.
func intOperands(op *ir.Operation) *diag.Diagnostic {
	for i, x := range op.Operands {
		if e := elemOf(x.Type); !isIntOrIndex(e) {
			return diag.OpErrorf(op, "operand #%d must have integer or index elements, but got element type '%s'", i, diag.TypeStr(e))
		}
	}
	return nil
}

// floatResult: sqrt, exp and log give floats.
func floatResult(op *ir.Operation) *diag.Diagnostic {
	if e := elemOf(op.Results[0].Type); asFloat(e) == nil {
		return diag.OpErrorf(op, "result must have float elements, but got element type '%s'", diag.TypeStr(e))
	}
	return nil
}

// boolCondition: select's condition is i1.
func boolCondition(op *ir.Operation) *diag.Diagnostic {
	if e := elemOf(op.Operands[0].Type); !isBool(e) {
		return diag.OpErrorf(op, "condition must have i1 elements, but got element type '%s'", diag.TypeStr(e))
	}
	return nil
}

// checkCmp: a known predicate; signed/unsigned predicates compare integers or
// indices, ordered predicates compare floats, eq/ne compare either; the result
// has i1 elements.
func checkCmp(op *ir.Operation) *diag.Diagnostic {
	kind, _ := op.StringAttr("kind")
	if preds := enumOf(OpCmp, "kind"); !slices.Contains(preds, kind) {
		return diag.OpErrorf(op, "unknown predicate '%s' (expected one of %s)", kind, strings.Join(preds, ", "))
	}
	wantFloat := kind[0] == 'o'
	if kind != "eq" && kind != "ne" {
		for i, x := range op.Operands {
			e := elemOf(x.Type)
			if wantFloat && asFloat(e) == nil {
				return diag.OpErrorf(op, "predicate '%s' compares floats, but operand #%d has element type '%s'", kind, i, diag.TypeStr(e))
			}
			if !wantFloat && !isIntOrIndex(e) {
				return diag.OpErrorf(op, "predicate '%s' compares integers or indices, but operand #%d has element type '%s'", kind, i, diag.TypeStr(e))
			}
		}
	}
	if e := elemOf(op.Results[0].Type); !isBool(e) {
		return diag.OpErrorf(op, "result must have i1 elements, but got element type '%s'", diag.TypeStr(e))
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

// Builders of the family's operations, at a builder's insertion point.

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
