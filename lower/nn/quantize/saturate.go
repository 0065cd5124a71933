package quantize

import (
	"fmt"
	"strings"

	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/ir"
)

// Saturation and rounding (docs/nn.md "nn-quantize"): a quantized result
// type floors and wraps (the design's rule, ALIR's quantization), so a
// tensor that must saturate or round to nearest is computed exactly (f64)
// and then quantized by an nn.requantize to its type:
//
//	y = nn.requantize v {rounding = FLOOR | ROUND, overflow = saturate | wrap} : the type
//
// y is QONNX's Quant of v with scale 2^-F, zero point 0 and the type's
// bits and signedness (nn.Requant.Code, on the rounding rule nn.quant
// uses); in the circuit a rounding is a constant add and a shift (ROUND,
// half to even, also reads bit k), a saturation a comparison and a mux per
// bound the value can pass (a relu's result needs no lower one). Only
// kinds whose result may be exact get one (QuantExact kinds that are not
// shape kinds); a function kind's table and a division keep their type's
// floor and wrap. A tensor read by relus only stays exact, its relu's
// result is requantized: nothing is rounded twice.

// quantizeMode is how calibrated tensors are quantized.
type quantizeMode struct {
	saturate bool // clamp to the type's range (else wrap)
	nearest  bool // round half to even (else floor)
}

// needsNode reports whether a tensor of the mode needs an nn.requantize.
func (m quantizeMode) needsNode() bool { return m.saturate || m.nearest }

// requant is the nn.requantize of the mode to t.
func (m quantizeMode) requant(t *quant.UniformType) nn.Requant {
	r := nn.Requant{Type: t, Rounding: "FLOOR", Wrap: !m.saturate}
	if m.nearest {
		r.Rounding = "ROUND"
	}
	return r
}

// saturateMode is the mode of a tensor typed by from: calibrated tensors
// take the options' (overflow=auto saturates them); a quant.json's keep
// alkaid's floor and wrap unless overflow=saturate or round=nearest is
// given. Types softmax-bits fixes are the lookup-table softmax's own.
func saturateMode(from string, opts Options) quantizeMode {
	switch {
	case from == "calibration":
		return quantizeMode{saturate: opts.Overflow != "wrap", nearest: opts.Round == "nearest"}
	case from == "softmax-bits":
		return quantizeMode{}
	}
	return quantizeMode{saturate: opts.Overflow == "saturate", nearest: opts.Round == "nearest"}
}

// explicitQuantizers gives every tensor of g whose mode needs one an
// nn.requantize: the tensor becomes exact, its readers read the
// requantized value.
func explicitQuantizers(g *ir.Operation, names map[string]*ir.Value, types map[*ir.Value]assignment, opts Options) error {
	body := g.Body(0)
	for i := 0; i < len(body.Ops); i++ {
		op := body.Ops[i]
		if len(op.Results) != 1 || op.Name == nn.OpConst ||
			keepsOperandType[op.Name] || nn.QuantRoleOf(op.Name) != nn.QuantExact {
			continue
		}
		v := op.Results[0]
		a, ok := types[v]
		if !ok || a.exact {
			continue
		}
		mode := saturateMode(a.from, opts)
		q, ok := a.elem.(*quant.UniformType)
		if !mode.needsNode() || !ok {
			continue
		}
		types[v] = assignment{exact: true, from: a.from}
		if readByReluOnly(body, v) {
			continue // relu(v) is requantized after it: v stays exact, as alkaid's accumulators
		}
		b := ir.NewBuilder(body)
		b.Loc = op.Loc
		b.SetInsertionPoint(i + 1)
		y, err := nn.Node(b, nn.OpRequantize, []*ir.Value{v}, ir.Tensor(shapeOf(v), q), mode.requant(q).Attrs())
		if err != nil {
			return fmt.Errorf("%s: %v", nameOf(names, v), err)
		}
		y.Name = strings.TrimPrefix(nameOf(names, v), "%") + ".q"
		// Readers of v read y.
		for _, o := range body.Ops[i+2:] {
			for j, w := range o.Operands {
				if w == v {
					o.Operands[j] = y
				}
			}
		}
		for k, w := range names {
			if w == v {
				names[k] = y
			}
		}
		types[y] = assignment{elem: q, from: a.from}
		i++
	}
	return nil
}

// readByReluOnly reports whether every reader of v is an nn.relu, and
// there is one (a graph result is read by nn.return).
func readByReluOnly(body *ir.Block, v *ir.Value) bool {
	n := 0
	for _, op := range body.Ops {
		for _, w := range op.Operands {
			if w == v {
				if op.Name != nn.OpRelu {
					return false
				}
				n++
			}
		}
	}
	return n > 0
}
