package otir

import (
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// Table lookup: otir.lookup, an extension of the specification (which has
// no lookup; docs/otir-extensions.md), its Verify hook, the LookupTable
// directive and its builder. It is how functions that need more than adders
// (exp, tanh, sigmoid, reciprocal, ...) of a quantized input reach a
// circuit: ALIR's opcode 8 reads a table the same way.

// Operation names of the family.
const (
	OpLookup = "otir.lookup"
)

// MaxLookupWidth bounds the width W of otir.lookup's input element type:
// its table has 2^W entries.
const MaxLookupWidth = 20

var lookupFamily = family{
	ops: []ir.OpDef{
		{Name: OpLookup, Summary: "element-wise table lookup, table[x - min of x's type] (an extension: docs/otir-extensions.md)", Traits: ir.Elementwise | ir.Extension,
			Operands: []ir.ArgDef{{Name: "input", Doc: "an integer scalar or #private tile of integers, of at most 20 bits"}},
			Results:  []ir.ArgDef{{Name: "result", Doc: "the input's shape (scalar or #private tile), integer elements that hold every table entry"}},
			Attrs: []ir.AttrDef{{Name: "table", Kind: ir.AttrConstant,
				Doc: "a one-dimensional dense integer list of 2^W entries (W the input's width), entry j the result for the input's j-th value in ascending order"}},
			Verify: hook(checkLookup),
			Format: "$input `,` `table` `(` custom<LookupTable>($table) `)` attr-dict `:` type($input) `->` type($result)"},
	},
	register: func() {
		d := ir.RegisterDirective("LookupTable", printLookupTable, parseLookupTable)
		d.Fits = func(op *ir.Operation, f *ir.Format, args []ir.FormatElem) bool {
			a, ok := op.Attr(args[0].Ref.Name).(*ir.DenseAttr)
			return ok && a.Type != nil && len(a.Type.Shape) == 1 && a.Ints != nil
		}
	},
	noTyping: map[string]string{
		OpLookup: "its result type is written on it and its values come from the table: no arithmetic, so no promotion rule applies",
	},
}

// checkLookup: the input is an integer scalar or #private tile of at most
// MaxLookupWidth bits; the result has the input's shape (a scalar for a
// scalar) and integer elements; the table is a one-dimensional dense list
// of integers, one entry per value of the input's type, each representable
// in the result's element type.
func checkLookup(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	x, r := op.Operands[0].Type, op.Results[0].Type
	for _, v := range []struct {
		what string
		t    ir.Type
	}{{"input", x}, {"result", r}} {
		if t := asTile(v.t); t != nil && t.Space != ir.Private {
			return diag.OpErrorf(op, "%s is a %s tile; a lookup reads and makes #private tiles or scalars (load it into #private first)", v.what, t.Space)
		}
		if e := elemOf(v.t); asInt(e) == nil {
			return diag.OpErrorf(op, "%s must have integer elements, but got '%s'", v.what, diag.TypeStr(v.t))
		}
	}
	xt, rt := asTile(x), asTile(r)
	if (xt == nil) != (rt == nil) || xt != nil && !slices.Equal(xt.Shape, rt.Shape) {
		return diag.OpErrorf(op, "result '%s' must have the shape of the input '%s'", diag.TypeStr(r), diag.TypeStr(x))
	}
	in := asInt(elemOf(x))
	if in.Width > MaxLookupWidth {
		return diag.OpErrorf(op, "input element type '%s' is too wide for a table: it would have 2^%d entries (at most 2^%d)", diag.TypeStr(in), in.Width, MaxLookupWidth)
	}
	a, ok := op.Attr("table").(*ir.DenseAttr)
	if !ok || a.Type == nil || len(a.Type.Shape) != 1 || a.Ints == nil {
		return diag.OpErrorf(op, "table must be a one-dimensional dense list of integers")
	}
	lo, hi := intRange(in)
	if n := a.Type.Shape[0]; n != int64(1)<<in.Width {
		return diag.OpErrorf(op, "table has %d entries, but an input of type '%s' needs 2^%d = %d (one per value, from %s to %s)",
			n, diag.TypeStr(in), in.Width, int64(1)<<in.Width, lo, hi)
	}
	out := elemOf(r)
	for i, v := range a.Ints {
		if v == nil {
			return diag.OpErrorf(op, "table entry #%d is null", i)
		}
		if !fits(v, out) {
			return rangeError(op, "table entry #"+strconv.Itoa(i)+" ("+v.String()+")", v, out)
		}
	}
	return nil
}

// LookupEntries returns the table of a verified otir.lookup, one entry per
// value of the input's type in ascending order (a splat repeated), and the
// least value of that type, which entry 0 is for.
func LookupEntries(op *ir.Operation) (table []*big.Int, min *big.Int) {
	a, _ := op.Attr("table").(*ir.DenseAttr)
	in := asInt(elemOf(op.Operands[0].Type))
	if a == nil || in == nil || len(a.Ints) == 0 {
		return nil, nil
	}
	min, _ = intRange(in)
	n := a.Type.NumElements()
	table = make([]*big.Int, n)
	for i := range table {
		table[i] = a.Ints[0]
		if len(a.Ints) > 1 {
			table[i] = a.Ints[i]
		}
	}
	return table, min
}

// custom<LookupTable>($table): the table as MLIR writes a constant list,
// dense<[...]> : tensor<NxT>. The parser also reads it typed with a tile
// (dense<[...]> : !otir.tile<NxT, #private>), as otir.constant writes it.
func printLookupTable(p ir.AsmPrinter, op *ir.Operation, f *ir.Format, args []ir.FormatElem) {
	a := op.Attr(args[0].Ref.Name).(*ir.DenseAttr)
	var sb strings.Builder
	sb.WriteString(a.Literal())
	sb.WriteString(" : tensor<")
	sb.WriteString(strconv.FormatInt(a.Type.Shape[0], 10))
	sb.WriteByte('x')
	sb.WriteString(a.Type.Elem.String())
	sb.WriteByte('>')
	p.WriteString(sb.String())
}

func parseLookupTable(p ir.AsmParser, st *ir.OpState, args []ir.FormatElem) error {
	a, at, err := p.ParseAttribute()
	if err != nil {
		return err
	}
	if _, ok := a.(*ir.DenseAttr); !ok {
		return p.Errorf(at, "expected a dense list for the table, dense<[...]> : tensor<NxT>")
	}
	st.Attrs.Set(args[0].Ref.Name, a)
	return nil
}

// Lookup creates otir.lookup of x with table (entry j for x's j-th value in
// ascending order), giving a result of type result (x's shape, integer
// elements that hold the entries). The table's dense type has the result's
// element type.
func Lookup(b *ir.Builder, x *ir.Value, table []int64, result ir.Type) *ir.Value {
	ints := make([]*big.Int, len(table))
	for i, v := range table {
		ints[i] = big.NewInt(v)
	}
	tt := ir.Tile([]int64{int64(len(table))}, elemOf(result), ir.Private)
	attrs := ir.Attrs{{Name: "table", Value: &ir.DenseAttr{Type: tt, Ints: ints}}}
	return b.Create(OpLookup, []*ir.Value{x}, []ir.Type{result}, attrs).Results[0]
}
