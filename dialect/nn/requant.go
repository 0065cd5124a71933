package nn

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/ir"
)

// Requantization: nn.requantize, otir's node that rounds and saturates in
// a quantized graph (docs/nn.md "Quantized graphs"). A quantized result
// type floors and wraps (../shared/design/nn-graph.md §5); a tensor that
// must round to nearest or saturate is computed exactly (f64) and then
// requantized: v·2^F rounded by one of QONNX's rounding modes (RoundShift,
// on the rules of RoundMode that nn.quant applies), then clamped to the
// result type's [QMin, QMax] (saturate) or wrapped to its width (wrap).
// The result is on the type's grid and in its range, so the type's own
// floor and wrap change nothing. nn-quantize writes it (overflow=,
// round=); nn-to-otir lowers it to shifts, adds, max and min.

// OpRequantize is the operation name of the family.
const OpRequantize = "nn.requantize"

// Attribute names and words of nn.requantize.
const (
	OverflowAttr = "overflow"
	// OverflowSaturate clamps to the type's range; OverflowWrap keeps the
	// low bits (two's complement), as the type alone does.
	OverflowSaturate = "saturate"
	OverflowWrap     = "wrap"
)

// OverflowModes are the words of nn.requantize's overflow attribute.
var OverflowModes = []string{OverflowSaturate, OverflowWrap}

var requantFamily = family{
	ops: []ir.OpDef{
		{Name: OpRequantize, Summary: "rounds an exact or quantized tensor to its quantized result type by a QONNX rounding mode, then saturates to the type's range or wraps to its width",
			Operands: []ir.ArgDef{{Name: "input", Doc: "a tensor of f64 (exact) or quantized elements"}},
			Results:  []ir.ArgDef{{Name: "output", Doc: "a tensor of quantized elements, of the input's shape"}},
			Parents:  graphParent,
			Attrs: []ir.AttrDef{
				{Name: RoundingAttr, Kind: ir.AttrString, Enum: RoundingModes, EnumName: "rounding mode", Optional: true,
					Doc: "how v·2^F becomes an integer: ROUND (half to even), CEIL, FLOOR, UP (away from 0), DOWN (toward 0), HALF_UP, HALF_DOWN (QONNX's words); default FLOOR"},
				{Name: OverflowAttr, Kind: ir.AttrString, Enum: OverflowModes, EnumName: "overflow mode", Optional: true,
					Doc: "saturate (default: clamped to the type's range) or wrap (the low bits of the type's width)"},
			},
			Verify: nodeHook(checkRequantize), Format: formatUnary},
	},
	quant: map[string]quantRule{OpRequantize: {role: QuantRequantize}},
}

// checkRequantize: a quantized result, an f64 or quantized operand (the
// node verifier's element rule refuses f32 beside a quantized type), the
// rounding and overflow words; the result has the input's shape.
func checkRequantize(n *node) ([]int64, error) {
	if n.res == nil {
		return nil, errNeedsResult
	}
	if quant.ElementOf(n.res.Elem) == nil {
		return nil, fmt.Errorf("result must have a quantized element type, but got '%s'", diag.TypeStr(n.res))
	}
	if err := n.roundingMode(); err != nil {
		return nil, err
	}
	if a := n.attrs.Get(OverflowAttr); a != nil {
		r, ok := a.(*ir.StringAttr)
		if !ok || r == nil {
			return nil, fmt.Errorf("attribute '%s' must be a string attribute, but got %s", OverflowAttr, diag.AttrKind(a))
		}
		if !slices.Contains(OverflowModes, r.Value) {
			return nil, fmt.Errorf("unknown overflow mode '%s' (expected one of %s)", r.Value, strings.Join(OverflowModes, ", "))
		}
	}
	return n.ins[0].Shape, nil
}

// Requant is what an nn.requantize computes: its result's element type,
// its rounding mode and whether it wraps.
type Requant struct {
	Type     *quant.UniformType
	Rounding string // one of RoundingModes
	Wrap     bool
}

// RequantOf reads the rule of a verified nn.requantize op.
func RequantOf(op *ir.Operation) (Requant, error) {
	r := Requant{Rounding: "FLOOR"}
	if op.Name != OpRequantize || len(op.Results) != 1 {
		return r, fmt.Errorf("'%s' is not nn.requantize", op.Name)
	}
	if r.Type = quant.ElementOf(op.Results[0].Type); r.Type == nil {
		return r, fmt.Errorf("result must have a quantized element type")
	}
	if s, ok := op.StringAttr(RoundingAttr); ok {
		r.Rounding = s
	}
	s, _ := op.StringAttr(OverflowAttr)
	r.Wrap = s == OverflowWrap
	return r, nil
}

// Attrs are the attributes of an nn.requantize of r (the result type
// carries r.Type).
func (r Requant) Attrs() ir.Attrs {
	overflow := OverflowSaturate
	if r.Wrap {
		overflow = OverflowWrap
	}
	return ir.Attrs{{Name: OverflowAttr, Value: &ir.StringAttr{Value: overflow}}, {Name: RoundingAttr, Value: &ir.StringAttr{Value: r.Rounding}}}
}

// Code is the stored integer of the exact value m·2^-e: m·2^(F-e) (F the
// type's fraction bits) rounded by the mode (RoundShift: exact at any
// width), then clamped to [QMin, QMax] or wrapped to the width. Saturating,
// it is QONNX's Quant of the value with scale 2^-F, zero point 0 and the
// type's bits and signedness (TestRequantIsQuant).
func (r Requant) Code(m int64, e int) int64 {
	t := r.Type
	d := t.Frac - e
	if d >= 0 { // an integer already: m·2^d
		switch {
		case m == 0:
			return 0
		case r.Wrap && d >= 64:
			return 0
		case r.Wrap:
			return t.Wrap(int64(uint64(m) << uint(d))) // exact modulo 2^64
		case d >= 63 || bits.Len64(absU64(m))+d > 62:
			if m < 0 {
				return t.QMin()
			}
			return t.QMax()
		}
		return min(max(m<<uint(d), t.QMin()), t.QMax())
	}
	q, _ := RoundShift(r.Rounding, m, uint(-d))
	if r.Wrap {
		return t.Wrap(q)
	}
	return min(max(q, t.QMin()), t.QMax())
}

func absU64(m int64) uint64 {
	if m < 0 {
		return uint64(-m)
	}
	return uint64(m)
}
