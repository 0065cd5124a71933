package otir

import (
	"fmt"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

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
		if t := asTile(a.Type); (t != nil && t.Space != ir.Global) || (t == nil && !isScalar(a.Type)) {
			return diag.OpErrorf(op, "argument #%d must be a #global tile or a scalar (integer, float or index), but got '%s'", i, diag.TypeStr(a.Type))
		}
	}
	if d := checkGrid(op); d != nil {
		return d
	}
	return checkTerminator(op, body, OpReturn)
}

// checkTerminator requires block b of op's region to end with the op named term.
func checkTerminator(op *ir.Operation, b *ir.Block, term string) *diag.Diagnostic {
	last := b.Terminator()
	if last == nil {
		return diag.OpErrorf(op, "expects regions to end with '%s', but the block is empty", term)
	}
	if last.Name != term {
		return diag.OpErrorf(op, "expects regions to end with '%s', found '%s'", term, last.Name)
	}
	return nil
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
	total := int64(1)
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
		if total = mulSat(total, n); total > MaxWorkgroups {
			return diag.OpErrorf(op, "grid %s has more than 2^24 (%d) workgroups, the implementation limit", gridText(g), MaxWorkgroups)
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

func gridText(g *ir.ArrayAttr) string {
	parts := make([]string, len(g.Elems))
	for i, e := range g.Elems {
		parts[i] = fmt.Sprint(intValue(e.(*ir.IntAttr)))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
