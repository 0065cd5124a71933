package nnquant

import (
	"fmt"
	"math"
	"strings"

	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/ir"
)

// Saturation and rounding (docs/nn.md "nn-quantize"): a quantized result
// type floors and wraps (the design's rule, ALIR's quantization), so a
// tensor that must saturate or round to nearest is computed exactly (f64)
// and then quantized by explicit nodes of the quantized graph:
//
//	h = v + 2^-(F+1)                  round=nearest only (ties toward +∞, AP_RND)
//	l = nn.max(h, lo)                 overflow=saturate, when v can be below lo
//	y = nn.min(l, hi) : the type      overflow=saturate
//
// lo and hi are the type's least and greatest values, points of its grid,
// so floor(clamp(h)) = clamp(floor(h)): y is QONNX's Quant of v with scale
// 2^-F, zero point 0, the type's bits and signedness and rounding FLOOR
// of h, the scalar rule nn.QuantSpec.Code computes
// (TestSaturateIsQuant checks the evaluator's y against it). max and min
// of a constant are comparisons and muxes in the circuit. Only kinds
// whose result may be exact get the nodes (QuantExact kinds that are not
// shape kinds); a function kind's table and a division keep their type's
// floor and wrap.

// quantizeMode is how calibrated tensors are quantized.
type quantizeMode struct {
	saturate bool // clamp to the type's range (else wrap)
	nearest  bool // round half up (else floor)
}

// needsNodes reports whether a tensor of the mode needs explicit nodes.
func (m quantizeMode) needsNodes() bool { return m.saturate || m.nearest }

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

// explicitQuantizers gives every tensor of g whose mode needs them the
// nodes above: the tensor becomes exact, its readers read y.
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
		if !mode.needsNodes() {
			continue
		}
		q, ok := a.elem.(*quant.UniformType)
		if !ok {
			continue
		}
		if readByReluOnly(body, v) {
			// relu(v) is quantized after it: v stays exact, as alkaid's
			// accumulators, and is not quantized twice.
			types[v] = assignment{exact: true, from: a.from}
			continue
		}
		shape := shapeOf(v)
		b := ir.NewBuilder(body)
		b.Loc = op.Loc
		b.SetInsertionPoint(i + 1)
		base := strings.TrimPrefix(nameOf(names, v), "%")
		f64 := ir.Tensor(shape, ir.Float(ir.F64))
		step := math.Ldexp(1, -q.Frac)
		var made []*ir.Value
		node := func(kind, part string, x *ir.Value, c float64, t ir.Type) (*ir.Value, error) {
			k, err := nn.Node(b, nn.OpConst, nil, ir.Tensor(shape, ir.Float(ir.F64)), nn.InlineConst(shape, fill(shape, c)))
			if err != nil {
				return nil, err
			}
			k.Name = base + "." + part + "_c"
			y, err := nn.Node(b, kind, []*ir.Value{x, k}, t, nil)
			if err != nil {
				return nil, err
			}
			y.Name = base + "." + part
			made = append(made, k, y)
			return y, nil
		}
		// Each step but the last is exact; the last has the type.
		type stepOf struct {
			kind, part string
			c          float64
		}
		var steps []stepOf
		if mode.nearest {
			steps = append(steps, stepOf{nn.OpAdd, "half", step / 2})
		}
		if mode.saturate {
			lo, hi := float64(q.QMin())*step, float64(q.QMax())*step
			if !(op.Name == nn.OpRelu && lo <= 0) {
				steps = append(steps, stepOf{nn.OpMax, "lo", lo})
			}
			steps = append(steps, stepOf{nn.OpMin, "hi", hi})
		}
		x := v
		for j, s := range steps {
			t := f64
			if j == len(steps)-1 {
				t = ir.Tensor(shape, q)
			}
			y, err := node(s.kind, s.part, x, s.c, t)
			if err != nil {
				return fmt.Errorf("%s: %v", nameOf(names, v), err)
			}
			x = y
		}
		// Readers of v read the quantized y; v becomes exact.
		last := x
		for _, o := range body.Ops[i+1+len(made):] {
			for j, w := range o.Operands {
				if w == v {
					o.Operands[j] = last
				}
			}
		}
		for k, w := range names {
			if w == v {
				names[k] = last
			}
		}
		types[v] = assignment{exact: true, from: a.from}
		for _, w := range made {
			types[w] = assignment{elem: quant.ElementOf(w.Type), exact: quant.ElementOf(w.Type) == nil, from: a.from}
		}
		i += len(made)
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

// fill is a constant of shape holding c everywhere.
func fill(shape []int64, c float64) []float64 {
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = c
	}
	return out
}
