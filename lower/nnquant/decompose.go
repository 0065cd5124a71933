package nnquant

import (
	"fmt"
	"strings"

	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/ir"
)

// The decompositions of the kinds a quantized graph may not hold into
// primitive nodes, which nn-quantize then types like any other (the node
// kinds are named here, and in keepsOperandType: see tests/opnames_test.go).
//
// softmax along axis a:     e = exp(x); s = reduce_sum(e, a); r = inv(s);
//                           y = e · broadcast(r)
// layer_norm from axis a:   x2 = x as [M, N]; c = x2 − broadcast(reduce_mean(x2, 1));
//                           v = reduce_mean(c·c, 1); e = nn.const {value = dense<ε>};
//                           d = sqrt(v + broadcast(e)); y = c · broadcast(inv(d)), as x's shape
//
// softmax does not subtract the maximum first (there is no max reduction
// kind): exp's table covers the range calibration sees. layer_norm keeps
// its epsilon as an inline constant (a pass cannot add payload entries),
// which calibration types like any node; its float reading is
// nn.layer_norm's. Internal nodes are named after the decomposed node:
// %3.exp, %3.sum, %3.inv, %3.eps, %3.vareps, ... (keys of a quant.json may
// type them); the last node takes the decomposed node's name.

// keepsOperandType lists the kinds whose values are their operand's values
// moved around: calibration gives their result their operand's type.
var keepsOperandType = map[string]bool{
	nn.OpReshape: true, nn.OpFlatten: true, nn.OpPermute: true, nn.OpBroadcastTo: true,
	nn.OpSwapFirstTwo: true, nn.OpTranspose3dLast: true, nn.OpDetach: true,
}

// decompose rewrites every softmax and layer_norm of graph g; names gains
// the internal nodes and follows the replaced values.
func decompose(g *ir.Operation, names map[string]*ir.Value) error {
	body := g.Body(0)
	for i := 0; i < len(body.Ops); i++ {
		op := body.Ops[i]
		if op.Name != nn.OpSoftmax && op.Name != nn.OpLayerNorm {
			continue
		}
		old := op.Results[0]
		base := strings.TrimPrefix(nameOf(names, old), "%")
		b := ir.NewBuilder(body)
		b.Loc = op.Loc
		b.SetInsertionPoint(i)
		d := &decomposer{b: b, base: base, names: names}
		var y *ir.Value
		if op.Name == nn.OpSoftmax {
			y = d.softmax(op)
		} else {
			y = d.layerNorm(op)
		}
		if d.err != nil {
			return fmt.Errorf("decomposing %s %%%s: %v", op.Name, base, d.err)
		}
		y.Name = old.Name
		for k, v := range names {
			if v == old {
				names[k] = y
			}
		}
		replaceUses(body, old, y)
		i = indexOf(body, op)
		body.Ops = append(body.Ops[:i], body.Ops[i+1:]...)
		i--
	}
	return nil
}

// decomposer builds the nodes of one decomposition; the first error stops
// it.
type decomposer struct {
	b     *ir.Builder
	base  string
	names map[string]*ir.Value
	err   error
}

// node creates a node named base.part of the given shape (f64: it is typed
// afterwards); operands[0] when the decomposition has failed.
func (d *decomposer) node(name, part string, shape []int64, attrs ir.Attrs, operands ...*ir.Value) *ir.Value {
	if v := d.create(name, part, shape, attrs, operands); v != nil {
		return v
	}
	return operands[0]
}

// constant creates an inline nn.const named base.part of the given shape
// and values; nil when the decomposition has failed.
func (d *decomposer) constant(part string, shape []int64, values []float64) *ir.Value {
	return d.create(nn.OpConst, part, shape, nn.InlineConst(shape, values), nil)
}

// create is node and constant: the new value, or nil after the first error.
func (d *decomposer) create(name, part string, shape []int64, attrs ir.Attrs, operands []*ir.Value) *ir.Value {
	if d.err != nil {
		return nil
	}
	v, err := nn.Node(d.b, name, operands, ir.Tensor(shape, ir.Float(ir.F64)), attrs)
	if err != nil {
		d.err = err
		return nil
	}
	v.Name = d.base + "." + part
	d.names["%"+v.Name] = v
	return v
}

// epsilon is a layer_norm's epsilon attribute (nn.DefaultEpsilon when
// absent).
func epsilon(op *ir.Operation) float64 {
	if a, ok := op.Attr("epsilon").(*ir.FloatAttr); ok && a != nil {
		return a.Value
	}
	return nn.DefaultEpsilon
}

func axisAttr(a int64) ir.Attrs { return ir.Attrs{{Name: "axis", Value: ir.I64(a)}} }

func shapeOf(v *ir.Value) []int64 { return v.Type.(*ir.TensorType).Shape }

// without is shape without dimension a; with1 is shape with dimension a 1.
func without(shape []int64, a int) []int64 {
	return append(append([]int64{}, shape[:a]...), shape[a+1:]...)
}

func with1(shape []int64, a int) []int64 {
	s := append([]int64{}, shape...)
	s[a] = 1
	return s
}

// spread broadcasts r (x's shape without axis a) back to x's shape.
func (d *decomposer) spread(r *ir.Value, shape []int64, a int, part string) *ir.Value {
	rr := d.node(nn.OpReshape, part+"_keepdim", with1(shape, a), nil, r)
	return d.node(nn.OpBroadcastTo, part+"_broadcast", shape, nil, rr)
}

func (d *decomposer) softmax(op *ir.Operation) *ir.Value {
	x := op.Operands[0]
	a, _ := op.IntAttr("axis")
	shape := shapeOf(x)
	e := d.node(nn.OpExp, "exp", shape, nil, x)
	s := d.node(nn.OpReduceSum, "sum", without(shape, int(a)), axisAttr(a), e)
	r := d.node(nn.OpInv, "inv", without(shape, int(a)), nil, s)
	return d.node(nn.OpMul, "out", shape, nil, e, d.spread(r, shape, int(a), "inv"))
}

func (d *decomposer) layerNorm(op *ir.Operation) *ir.Value {
	x := op.Operands[0]
	a, _ := op.IntAttr("axis")
	shape := shapeOf(x)
	rows, cols := int64(1), int64(1)
	for i, n := range shape {
		if int64(i) < a {
			rows *= n
		} else {
			cols *= n
		}
	}
	mn := []int64{rows, cols}
	x2 := d.node(nn.OpReshape, "rows", mn, nil, x)
	mu := d.node(nn.OpReduceMean, "mean", []int64{rows}, axisAttr(1), x2)
	c := d.node(nn.OpSub, "centered", mn, nil, x2, d.spread(mu, mn, 1, "mean"))
	c2 := d.node(nn.OpMul, "square", mn, nil, c, c)
	v := d.node(nn.OpReduceMean, "var", []int64{rows}, axisAttr(1), c2)
	e := d.constant("eps", []int64{1}, []float64{epsilon(op)})
	ve := d.node(nn.OpAdd, "vareps", []int64{rows}, nil, v, d.node(nn.OpBroadcastTo, "eps_broadcast", []int64{rows}, nil, e))
	sd := d.node(nn.OpSqrt, "std", []int64{rows}, nil, ve)
	r := d.node(nn.OpInv, "inv", []int64{rows}, nil, sd)
	y2 := d.node(nn.OpMul, "normalized", mn, nil, c, d.spread(r, mn, 1, "inv"))
	return d.node(nn.OpReshape, "out", shape, nil, y2)
}

// replaceUses makes every use of old in the block a use of new.
func replaceUses(b *ir.Block, old, new *ir.Value) {
	for _, op := range b.Ops {
		for i, v := range op.Operands {
			if v == old {
				op.Operands[i] = new
			}
		}
	}
}

func indexOf(b *ir.Block, op *ir.Operation) int {
	for i, o := range b.Ops {
		if o == op {
			return i
		}
	}
	return -1
}
