package verify

import (
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// attrNeed is the kind an attribute of an operation's form must have.
type attrNeed uint8

const (
	needString     attrNeed = iota // *ir.StringAttr (names, keywords)
	needInt                        // *ir.IntAttr with a value
	needDenseI64                   // *ir.DenseI64Attr
	needFuncType                   // *ir.FunctionType
	needConstValue                 // *ir.IntAttr, *ir.FloatAttr or *ir.DenseAttr
)

// attrReq is one attribute an operation's form requires.
type attrReq struct {
	name string
	need attrNeed
}

// form is the operand, result and region counts and the required attributes of
// an operation (see the Syntax comments in ir/opdefs.go). maxOperands < 0
// means unbounded; results < 0 means any number (scf.for and scf.if check
// theirs against their operands and regions).
type form struct {
	minOperands, maxOperands int
	results                  int
	regions                  int
	attrs                    []attrReq
}

// checkForm checks counts, that no operand, result, region, block or nested op
// is nil, that result and block-argument types are well formed, and the kinds
// of the required attributes. It is the first check of every registered op, so
// the semantic rules after it may index operands, results and regions freely.
func checkForm(op *ir.Operation, f *form) *diag.Diagnostic {
	n := len(op.Operands)
	switch {
	case f.maxOperands == f.minOperands && n != f.minOperands:
		return opError(op, "expects %s, but got %d", plural(f.minOperands, "operand"), n)
	case f.maxOperands < 0 && n < f.minOperands:
		return opError(op, "expects at least %s, but got %d", plural(f.minOperands, "operand"), n)
	case f.maxOperands > f.minOperands && (n < f.minOperands || n > f.maxOperands):
		return opError(op, "expects %d or %d operands, but got %d", f.minOperands, f.maxOperands, n)
	}
	if f.results >= 0 && len(op.Results) != f.results {
		return opError(op, "expects %s, but got %d", plural(f.results, "result"), len(op.Results))
	}
	if len(op.Regions) != f.regions {
		return opError(op, "expects %s, but got %d", plural(f.regions, "region"), len(op.Regions))
	}
	for i, v := range op.Operands {
		if v == nil {
			return opError(op, "operand #%d is null", i)
		}
		if !validType(v.Type) {
			return opError(op, "operand #%d %s", i, invalidType(v.Type))
		}
		if !linked(v) {
			return opError(op, "operand #%d refers to a value that its defining operation or block no longer holds", i)
		}
	}
	for i, r := range op.Results {
		if r == nil {
			return opError(op, "result #%d is null", i)
		}
		if r.Def != op || r.Index != i {
			return opError(op, "result #%d is not linked to this operation", i)
		}
		if !validType(r.Type) {
			return opError(op, "result #%d %s", i, invalidType(r.Type))
		}
	}
	if d := checkRegions(op); d != nil {
		return d
	}
	for _, a := range f.attrs {
		if d := checkAttr(op, a); d != nil {
			return d
		}
	}
	return nil
}

// linked reports whether v is still held by its defining op or block.
func linked(v *ir.Value) bool {
	if v.Def != nil {
		return v.Index >= 0 && v.Index < len(v.Def.Results) && v.Def.Results[v.Index] == v
	}
	b := v.Block
	return b != nil && v.Index >= 0 && v.Index < len(b.Args) && b.Args[v.Index] == v
}

// checkRegions checks that every region and block is present and linked to its
// parent, that each region has one block (the else region of scf.if may have
// none), that block arguments are well typed and that no op is nil.
func checkRegions(op *ir.Operation) *diag.Diagnostic {
	for i, r := range op.Regions {
		if r == nil {
			return opError(op, "region #%d is null", i)
		}
		if r.Parent != op {
			return opError(op, "region #%d is not linked to this operation", i)
		}
		if len(r.Blocks) != 1 && !(op.Name == ir.OpIf && i == 1 && len(r.Blocks) == 0) {
			if op.Name == ir.OpIf && i == 1 {
				return opError(op, "expects region #%d to have 0 or 1 blocks, but it has %d", i, len(r.Blocks))
			}
			return opError(op, "expects region #%d to have exactly 1 block, but it has %d", i, len(r.Blocks))
		}
		for _, b := range r.Blocks {
			if b == nil {
				return opError(op, "region #%d holds a null block", i)
			}
			if b.Parent != r {
				return opError(op, "region #%d holds a block that is not linked to it", i)
			}
			for j, a := range b.Args {
				if a == nil {
					return opError(op, "region #%d argument #%d is null", i, j)
				}
				if a.Block != b || a.Def != nil || a.Index != j {
					return opError(op, "region #%d argument #%d is not linked to its block", i, j)
				}
				if !validType(a.Type) {
					return opError(op, "region #%d argument #%d %s", i, j, invalidType(a.Type))
				}
			}
			for _, o := range b.Ops {
				if o == nil {
					return opError(op, "region #%d holds a null operation", i)
				}
			}
		}
	}
	return nil
}

// checkAttr checks that a required attribute is present with the right kind.
func checkAttr(op *ir.Operation, a attrReq) *diag.Diagnostic {
	v := op.Attr(a.name)
	if v == nil {
		return opError(op, "requires attribute '%s'", a.name)
	}
	ok := false
	want := ""
	switch a.need {
	case needString:
		s, is := v.(*ir.StringAttr)
		ok, want = is && s != nil, "a string attribute"
	case needInt:
		i, is := v.(*ir.IntAttr)
		ok, want = is && intValue(i) != nil, "an integer attribute"
	case needDenseI64:
		d, is := v.(*ir.DenseI64Attr)
		ok, want = is && d != nil, "an array<i64> attribute"
	case needFuncType:
		f, is := v.(*ir.FunctionType)
		ok, want = is && f != nil, "a function type"
	case needConstValue:
		want = "an integer, float or dense attribute"
		switch x := v.(type) {
		case *ir.IntAttr:
			ok, want = intValue(x) != nil, attrKind(v)
		case *ir.FloatAttr:
			ok, want = x != nil, attrKind(v)
		case *ir.DenseAttr:
			ok, want = x != nil, attrKind(v)
		}
	}
	if !ok {
		if got := attrKind(v); got != want {
			return opError(op, "attribute '%s' must be %s, but got %s", a.name, want, got)
		}
		return opError(op, "attribute '%s' is malformed", a.name)
	}
	return nil
}
