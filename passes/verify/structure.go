package verify

import (
	"fmt"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// checkPlacement enforces where an op may appear: the module body holds only
// kernels, kernels only sit in the module, otir.return ends a kernel body and
// scf.yield ends an scf.for or scf.if region. parent is the block holding op
// (nil for the module or a detached op, which have no placement rules) and
// p the op whose region holds that block.
func checkPlacement(op *ir.Operation, parent *ir.Block, p *ir.Operation) *diag.Diagnostic {
	if parent == nil {
		return nil
	}
	pname := ""
	if p != nil {
		pname = p.Name
	}
	switch op.Name {
	case ir.OpModule:
		return opError(op, "must be the top-level operation")
	case ir.OpKernel:
		if pname != ir.OpModule {
			return opError(op, "expects parent op '%s'", ir.OpModule)
		}
		return nil
	case ir.OpReturn:
		if pname != ir.OpKernel {
			return opError(op, "expects parent op '%s'", ir.OpKernel)
		}
		return lastInBlock(op, parent)
	case ir.OpYield:
		if pname != ir.OpFor && pname != ir.OpIf {
			return opError(op, "expects parent op to be one of '%s, %s'", ir.OpFor, ir.OpIf)
		}
		return lastInBlock(op, parent)
	}
	if pname == ir.OpModule && !isTopLevel(op.Name) && ir.LookupOp(op.Name) != nil {
		// (An unregistered op reaches here only when the module allows
		// them, and may stand anywhere, as in MLIR.)
		return opError(op, "cannot appear in the module body, which holds only '%s' operations", ir.OpKernel)
	}
	return nil
}

// lastInBlock requires a terminator to be the last op of its block.
func lastInBlock(op *ir.Operation, b *ir.Block) *diag.Diagnostic {
	if b.Terminator() != op {
		return opError(op, "must be the last operation in its block")
	}
	return nil
}

// checkTerminator requires block b of op's region to end with the op named term.
func checkTerminator(op *ir.Operation, b *ir.Block, term string) *diag.Diagnostic {
	last := b.Terminator()
	if last == nil {
		return opError(op, "expects regions to end with '%s', but the block is empty", term)
	}
	if last.Name != term {
		return opError(op, "expects regions to end with '%s', found '%s'", term, last.Name)
	}
	return nil
}

// checkModule: the module has no body arguments and a known typing style.
func checkModule(_ *verifier, op *ir.Operation) *diag.Diagnostic {
	if b := op.Body(0); len(b.Args) != 0 {
		return opError(op, "body must have no arguments, but has %d", len(b.Args))
	}
	if a := op.Attr("otir.typing_style"); a != nil {
		s, ok := a.(*ir.StringAttr)
		if !ok || s == nil || (s.Value != "hls" && s.Value != "cpp") {
			got := attrKind(a)
			if ok && s != nil {
				got = s.String()
			}
			return opError(op, "attribute 'otir.typing_style' must be \"hls\" or \"cpp\", but got %s", got)
		}
	}
	return nil
}

// checkKernel: a unique non-empty name, a function_type without results whose
// inputs are the body's argument types, arguments that are #global tiles or
// scalars, an optional grid of 1 to 3 positive sizes, and a body ending with
// otir.return.
func checkKernel(v *verifier, op *ir.Operation) *diag.Diagnostic {
	name, _ := op.StringAttr("sym_name")
	first := v.declare(op)
	if name == "" {
		return opError(op, "attribute 'sym_name' must not be empty")
	}
	fn := op.Attr("function_type").(*ir.FunctionType)
	body := op.Body(0)
	if len(fn.Results) != 0 {
		return opError(op, "function_type must have no results (kernels write their outputs to #global arguments), but has %d", len(fn.Results))
	}
	if len(fn.Inputs) != len(body.Args) {
		return opError(op, "function_type has %s, but the body has %s", plural(len(fn.Inputs), "input"), plural(len(body.Args), "argument"))
	}
	for i, a := range body.Args {
		if a.Type != fn.Inputs[i] {
			return opError(op, "type of argument #%d ('%s') does not match the function_type input '%s'", i, typeStr(a.Type), typeStr(fn.Inputs[i]))
		}
		if t := asTile(a.Type); (t != nil && t.Space != ir.Global) || (t == nil && !isScalar(a.Type)) {
			return opError(op, "argument #%d must be a #global tile or a scalar (integer, float or index), but got '%s'", i, typeStr(a.Type))
		}
	}
	if d := checkGrid(op); d != nil {
		return d
	}
	if d := checkTerminator(op, body, ir.OpReturn); d != nil {
		return d
	}
	if first != op {
		return (&diag.Diagnostic{Severity: diag.Error, Loc: op.Loc, Msg: "redefinition of symbol named '" + name + "'"}).
			Note(first.Loc, "see existing symbol definition here")
	}
	return nil
}

// declare records a kernel's symbol and returns the first kernel with its name
// (the kernel itself unless it is a redefinition).
func (v *verifier) declare(k *ir.Operation) *ir.Operation {
	name, ok := k.StringAttr("sym_name")
	if !ok {
		return k
	}
	if v.symbols == nil {
		v.symbols = make(map[string]*ir.Operation)
	}
	if first, dup := v.symbols[name]; dup {
		return first
	}
	v.symbols[name] = k
	return k
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
		return opError(op, "attribute 'grid' must be an array attribute, but got %s", attrKind(a))
	}
	if len(g.Elems) < 1 || len(g.Elems) > 3 {
		return opError(op, "grid must have 1 to 3 dimensions, but has %d", len(g.Elems))
	}
	total := int64(1)
	for i, e := range g.Elems {
		ia, _ := e.(*ir.IntAttr)
		n, ok := int64Value(ia)
		if !ok || n < 1 {
			got := attrKind(e)
			if v := intValue(ia); v != nil {
				got = v.String()
			}
			return opError(op, "grid dimension #%d must be a positive integer, but got %s", i, got)
		}
		if total = mulSat(total, n); total > MaxWorkgroups {
			return opError(op, "grid %s has more than 2^24 (%d) workgroups, the implementation limit", gridText(g), MaxWorkgroups)
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
