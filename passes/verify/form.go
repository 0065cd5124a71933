package verify

import (
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// checkForm checks the form the op's record d declares (nil: an unregistered
// op, whose form is free): the operand count from the operand groups'
// arities, the result count, the region count (free under VariadicRegions);
// that no operand, result, region, block or nested op is nil, that result and
// block-argument types are well formed, and that the required attributes are
// present with their declared kinds. It is the first check of every op, so
// the Verify hooks after it may index the declared operands, results, regions
// and attributes freely. (Optional attributes and the words of enumerated
// ones are checked by the hooks, in the order of their messages.)
func checkForm(op *ir.Operation, d *ir.OpDef) *diag.Diagnostic {
	if d != nil {
		minOps, maxOps := d.OperandCounts()
		n := len(op.Operands)
		switch {
		case maxOps == minOps && n != minOps:
			return opError(op, "expects %s, but got %d", plural(minOps, "operand"), n)
		case maxOps < 0 && n < minOps:
			return opError(op, "expects at least %s, but got %d", plural(minOps, "operand"), n)
		case maxOps > minOps && (n < minOps || n > maxOps):
			return opError(op, "expects %d or %d operands, but got %d", minOps, maxOps, n)
		}
		if minRes, maxRes := d.ResultCounts(); minRes == maxRes && len(op.Results) != minRes {
			return opError(op, "expects %s, but got %d", plural(minRes, "result"), len(op.Results))
		}
		if !d.Has(ir.VariadicRegions) && len(op.Regions) != len(d.Regions) {
			return opError(op, "expects %s, but got %d", plural(len(d.Regions), "region"), len(op.Regions))
		}
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
	if e := checkRegions(op, d); e != nil {
		return e
	}
	if d != nil {
		for i := range d.Attrs {
			if a := &d.Attrs[i]; !a.Optional {
				if e := checkAttr(op, a); e != nil {
					return e
				}
			}
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
// parent, that each region has one block (those the record d lists in
// EmptyRegions may have none), that block arguments are well typed and that
// no op is nil.
func checkRegions(op *ir.Operation, d *ir.OpDef) *diag.Diagnostic {
	for i, r := range op.Regions {
		if r == nil {
			return opError(op, "region #%d is null", i)
		}
		if r.Parent != op {
			return opError(op, "region #%d is not linked to this operation", i)
		}
		if len(r.Blocks) != 1 {
			if d != nil && d.MayBeEmpty(i) {
				if len(r.Blocks) == 0 {
					continue
				}
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

// checkAttr checks that a required attribute is present with its declared
// kind.
func checkAttr(op *ir.Operation, a *ir.AttrDef) *diag.Diagnostic {
	v := op.Attr(a.Name)
	if v == nil {
		return opError(op, "requires attribute '%s'", a.Name)
	}
	ok := false
	want := ""
	switch a.Kind {
	case ir.AttrAny:
		ok = true
	case ir.AttrArray:
		x, is := v.(*ir.ArrayAttr)
		ok, want = is && x != nil, "an array attribute"
	case ir.AttrString:
		s, is := v.(*ir.StringAttr)
		ok, want = is && s != nil, "a string attribute"
	case ir.AttrInt:
		i, is := v.(*ir.IntAttr)
		ok, want = is && intValue(i) != nil, "an integer attribute"
	case ir.AttrDenseI64:
		d, is := v.(*ir.DenseI64Attr)
		ok, want = is && d != nil, "an array<i64> attribute"
	case ir.AttrFuncType:
		f, is := v.(*ir.FunctionType)
		ok, want = is && f != nil, "a function type"
	case ir.AttrFloat:
		f, is := v.(*ir.FloatAttr)
		ok, want = is && f != nil, "a float attribute"
	case ir.AttrConstant:
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
			return opError(op, "attribute '%s' must be %s, but got %s", a.Name, want, got)
		}
		return opError(op, "attribute '%s' is malformed", a.Name)
	}
	return nil
}
