package nn

import (
	"errors"
	"fmt"
	"math"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// Constants: nn.const, whose values are the payload's entry `params` or,
// an extension of the design (docs/nn.md, "Inline constants"), its own
// `value`, a dense attribute of f64 numbers as arith.constant's
// (`value = dense<1.0e-05> : tensor<1xf64>`). Passes make inline constants
// (a pass cannot add payload entries); graphs from ONNX carry their
// weights in the payload.

// Operation names of the family.
const OpConst = "nn.const"

var constFamily = family{
	ops: []ir.OpDef{
		{Name: OpConst, Summary: "a constant tensor: the payload entry params, or the inline dense value, row-major, reshaped to the result type",
			Results: outputResult,
			Attrs: []ir.AttrDef{
				{Name: "params", Kind: ir.AttrString, Optional: true, Doc: "the payload key; the entry holds numel(result) values, of any array shape"},
				{Name: "value", Kind: ir.AttrConstant, Optional: true, Doc: "the values inline: a dense constant of numel(result) finite f64 numbers (or one, a splat), of any shape"},
			},
			Parents: graphParent, Verify: nodeHook(checkConst),
			Format: formatNullary},
	},
}

// checkConst: exactly one of a non-empty payload name and an inline value
// (a dense attribute of finite f64 numbers with as many elements as the
// result); the result is any tensor (the payload's element count is the
// evaluator's check).
func checkConst(n *node) ([]int64, error) {
	p, v := n.attrs.Get("params"), n.attrs.Get("value")
	switch {
	case p != nil && v != nil:
		return nil, errors.New("takes either attribute 'params' (a payload entry) or 'value' (inline values), not both")
	case v != nil:
		if err := checkInline(v, n.res); err != nil {
			return nil, err
		}
	case p == nil:
		return nil, errors.New("requires attribute 'params' (a payload entry) or 'value' (inline values)")
	default:
		if err := n.params(); err != nil {
			return nil, err
		}
	}
	return n.declared()
}

// checkInline checks an inline value against the declared result type res.
func checkInline(v ir.Attr, res *ir.TensorType) error {
	d, ok := v.(*ir.DenseAttr)
	if !ok || d == nil || d.Type == nil {
		return fmt.Errorf("attribute 'value' must be a dense attribute of f64 numbers (dense<...> : tensor<...xf64>), but got %s", diag.AttrKind(v))
	}
	if d.Type.Elem != ir.Type(ir.Float(ir.F64)) || d.Floats == nil {
		return fmt.Errorf("attribute 'value' must hold f64 numbers, but its type is '%s'", d.Type.TensorString())
	}
	if res == nil {
		return errNeedsResult
	}
	if have, want := d.Type.NumElements(), res.NumElements(); have != want {
		return fmt.Errorf("attribute 'value' of type '%s' has %d elements, but the result type '%s' holds %d", d.Type.TensorString(), have, res, want)
	}
	if n := int64(len(d.Floats)); n != 1 && n != d.Type.NumElements() {
		return fmt.Errorf("attribute 'value' has %d numbers, but its type '%s' needs 1 (a splat) or %d", n, d.Type.TensorString(), d.Type.NumElements())
	}
	for i, x := range d.Floats {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("attribute 'value' holds %v at flat index %d: constants must be finite", x, i)
		}
	}
	return nil
}

// InlineValue is the values of an nn.const with a `value` attribute, row
// major (a splat repeated), and true; nil and false for a payload const
// (and for any other op). The op is verified: the count is the result's.
func InlineValue(op *ir.Operation) ([]float64, bool) {
	if op == nil || op.Name != OpConst {
		return nil, false
	}
	d, ok := op.Attr("value").(*ir.DenseAttr)
	if !ok || d == nil || d.Type == nil || d.Floats == nil {
		return nil, false
	}
	out := make([]float64, d.Type.NumElements())
	for i := range out {
		out[i] = d.Floats[min(i, len(d.Floats)-1)]
	}
	return out, true
}

// InlineConst is the attributes of an nn.const of the given values inline,
// as a dense attribute of shape shape (a splat when all are equal), for
// builders (nn-quantize's decompositions).
func InlineConst(shape []int64, values []float64) ir.Attrs {
	vs := values
	if len(vs) > 1 && allEqual(vs) {
		vs = vs[:1]
	}
	t := ir.Tile(shape, ir.Float(ir.F64), ir.Private)
	return ir.Attrs{{Name: "value", Value: &ir.DenseAttr{Type: t, Floats: append([]float64{}, vs...)}}}
}

func allEqual(vs []float64) bool {
	for _, v := range vs {
		if math.Float64bits(v) != math.Float64bits(vs[0]) {
			return false
		}
	}
	return true
}

// ConstSource names where an nn.const's values come from, for diagnostics:
// "payload entry 'fc.w'" or "inline value".
func ConstSource(op *ir.Operation) string {
	if _, ok := InlineValue(op); ok {
		return "inline value"
	}
	s, _ := op.StringAttr("params")
	return "payload entry '" + s + "'"
}
