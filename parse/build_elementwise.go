package parse

import (
	"errors"
	"math/big"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/typing"
)

// Element-wise operations and constants: the three annotation forms, result
// inference (typing.InferResult, or i1 of the broadcast shape for
// comparisons) and constant values.

// elementwise builds a binary, unary or comparison op from its annotation:
// `: T`, `: T1, T2` (result inferred) or `: (T1, T2) -> T3`.
func (b *builder) elementwise(o *Operation, name string, uses []string, sig *EwSig, attrs ir.Attrs) error {
	n := len(uses)
	if sig.Fn != nil {
		ins, outs, err := b.al.sigTypes(sig.Fn)
		if err != nil {
			return err
		}
		if len(ins) != n {
			return errAt(sig.Fn.Pos, "%d operands present, but expected %d", n, len(ins))
		}
		if len(outs) != 1 {
			return errAt(sig.Fn.Pos, "expected 1 result type, got %d", len(outs))
		}
		b.newOp(o, name, uses, ins, outs, attrs)
		return nil
	}
	ts, err := typesAt(o.Tokens, sig.Types)
	if err != nil {
		return err
	}
	var ins []ir.Type
	switch {
	case len(ts) == 1:
		ins = b.same(ts[0], n)
		if name != ir.OpCmp {
			b.newOp(o, name, uses, ins, []ir.Type{ts[0]}, attrs)
			return nil
		}
	case len(ts) == n && n > 1:
		ins = ts
	default:
		return errAt(tokPos(o.Tokens, sig.Types[0]), "%d operands present, but expected %d", n, len(ts))
	}
	var res ir.Type
	if name == ir.OpCmp {
		res, err = cmpResult(ins[0], ins[1])
		if err != nil {
			return errAt(o.Tokens[0].Pos, "%s", err.Error())
		}
	} else {
		res, err = typing.InferResult(b.style, name, ins)
		if err != nil {
			var noRule *typing.NoRuleError
			if errors.As(err, &noRule) {
				// The verifier's text for the same types written out.
				return diag.OpErrorAt(loc(o.Tokens[0].Pos), name, "%s", err.Error())
			}
			return errAt(o.Tokens[0].Pos, "%s", err.Error())
		}
		if res == nil {
			return errAt(o.Tokens[0].Pos, "cannot infer the result type of '%s'", name)
		}
	}
	b.newOp(o, name, uses, ins, []ir.Type{res}, attrs)
	return nil
}

// fixedSig builds an op annotated `: (T1, ...) -> T` with a fixed operand count.
func (b *builder) fixedSig(o *Operation, name string, uses []string, sig *FuncType, attrs ir.Attrs) error {
	ins, outs, err := b.al.sigTypes(sig)
	if err != nil {
		return err
	}
	if len(ins) != len(uses) {
		return errAt(sig.Pos, "%d operands present, but expected %d", len(uses), len(ins))
	}
	if len(outs) != 1 {
		return errAt(sig.Pos, "expected 1 result type, got %d", len(outs))
	}
	b.newOp(o, name, uses, ins, outs, attrs)
	return nil
}

// constant builds otir.constant from its value attribute.
func (b *builder) constant(o *Operation, c *ConstantOp) error {
	a, err := b.attr(c.Value)
	if err != nil {
		return err
	}
	a = constantValue(a)
	var t ir.Type
	switch v := a.(type) {
	case *ir.IntAttr:
		t = v.Type
	case *ir.FloatAttr:
		t = v.Type
	case *ir.DenseAttr:
		t = v.Type
	default:
		return errAt(c.Value.Pos, "otir.constant expects an integer, float, boolean or dense value")
	}
	b.newOp(o, ir.OpConstant, nil, nil, []ir.Type{t}, ir.Attrs{{Name: "value", Value: a}})
	return nil
}

// constantValue turns a boolean into the i1 integer constant it denotes.
func constantValue(a ir.Attr) ir.Attr {
	if bv, ok := a.(*ir.BoolAttr); ok {
		v := int64(0)
		if bv.Value {
			v = 1
		}
		return &ir.IntAttr{Value: big.NewInt(v), Type: ir.Bool()}
	}
	return a
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
