package otir

import (
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// Matrix multiplication: otir.matmul.

// Operation names of the family.
const (
	OpMatmul = "otir.matmul"
)

var matmulFamily = family{
	ops: []ir.OpDef{
		{Name: OpMatmul, Summary: "fused matrix multiply-add D = A x B + C",
			Operands: []ir.ArgDef{{Name: "a", Doc: "#private [M, K]"}, {Name: "b", Doc: "#private [K, N]"}, {Name: "c", Doc: "#private [M, N]"}},
			Results:  []ir.ArgDef{{Name: "result", Doc: "#private [M, N]"}},
			Verify:   hook(checkMatmul),
			Format:   "$a `,` $b `,` $c attr-dict `:` functional-type(operands, results)"},
	},
}

// matmulNames name matmul's operands in messages.
var matmulNames = [3]string{"A", "B", "C"}

// checkMatmul: D = A x B + C on rank-2 #private tiles with (M,K) x (K,N) +
// (M,N) -> (M,N), D of C's type, and an accumulator at least as precise as
// the inputs.
func checkMatmul(op *ir.Operation, _ *ir.VerifyContext) *diag.Diagnostic {
	var t [3]*ir.TileType
	for i, x := range op.Operands {
		t[i] = asTile(x.Type)
		if t[i] == nil || t[i].Space != ir.Private || len(t[i].Shape) != 2 {
			return diag.OpErrorf(op, "operand #%d (%s) must be a rank-2 #private tile, but got '%s'", i, matmulNames[i], diag.TypeStr(x.Type))
		}
	}
	a, b, c := t[0], t[1], t[2]
	if a.Shape[1] != b.Shape[0] {
		return diag.OpErrorf(op, "K mismatch: A is %s (K = %d) but B is %s (K = %d)", diag.ShapeStr(a.Shape), a.Shape[1], diag.ShapeStr(b.Shape), b.Shape[0])
	}
	if a.Shape[0] != c.Shape[0] {
		return diag.OpErrorf(op, "M mismatch: A is %s (M = %d) but C is %s (M = %d)", diag.ShapeStr(a.Shape), a.Shape[0], diag.ShapeStr(c.Shape), c.Shape[0])
	}
	if b.Shape[1] != c.Shape[1] {
		return diag.OpErrorf(op, "N mismatch: B is %s (N = %d) but C is %s (N = %d)", diag.ShapeStr(b.Shape), b.Shape[1], diag.ShapeStr(c.Shape), c.Shape[1])
	}
	if r := op.Results[0].Type; r != ir.Type(c) {
		return diag.OpErrorf(op, "result type '%s' must equal the accumulator type '%s'", diag.TypeStr(r), diag.TypeStr(c))
	}
	for i, in := range t[:2] {
		if !holds(c.Elem, in.Elem) {
			return diag.OpErrorf(op, "accumulator element type '%s' is less precise than %s's element type '%s'", diag.TypeStr(c.Elem), matmulNames[i], diag.TypeStr(in.Elem))
		}
	}
	return nil
}

// holds reports whether accumulator element type acc represents every value of
// input element type in: integers by range (index counts as i64), floats by
// format (f16 and bf16 each fit in f32 and f64 but not in each other); an
// integer input fits any float accumulator; a float input never fits an
// integer accumulator.
func holds(acc, in ir.Type) bool {
	if acc == in {
		return true
	}
	if fa := asFloat(acc); fa != nil {
		fi := asFloat(in)
		return fi == nil || fa.Bits() > fi.Bits()
	}
	if asFloat(in) != nil {
		return false
	}
	aw, as := intShape(acc)
	iw, is := intShape(in)
	if is && !as {
		return false
	}
	if !is && as {
		return aw >= iw+1
	}
	return aw >= iw
}

// intShape is the width and signedness of an integer or index type.
func intShape(t ir.Type) (int, bool) {
	if it := asInt(t); it != nil {
		return it.Width, it.Signed
	}
	return 64, true
}
