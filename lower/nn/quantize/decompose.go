package quantize

import (
	"fmt"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/nn/qonnx"
)

// The kinds a quantized graph may not hold (node kinds are named here, and
// in keepsOperandType: see tests/opnames_test.go):
//
// layer_norm from axis a, decomposed before typing into primitive nodes,
// which nn-quantize then types like any other:
//
//	x2 = x as [M, N]; c = x2 − broadcast(reduce_mean(x2, 1));
//	v = reduce_mean(c·c, 1); e = nn.const {value = dense<ε>};
//	d = sqrt(v + broadcast(e)); y = c · broadcast(inv(d)), as x's shape
//
// layer_norm keeps its epsilon as an inline constant (a pass cannot add
// payload entries), which calibration types like any node; its float
// reading is nn.layer_norm's. Internal nodes are named after the
// decomposed node: %3.eps, %3.vareps, ... (keys of a quant.json may type
// them); the last node takes the decomposed node's name.
//
// softmax, after typing (lowerSoftmaxes): its operand typed like any
// tensor, it becomes nn-absorb-quant's lookup-table softmax
// (qonnx.LookupSoftmax: the maximum subtracted, tables of exp and inv),
// whose types softmax-bits fixes. Its nodes are named %3.max, %3.exp,
// %3.sum, %3.inv, ..., the last %3 itself; a quant.json may type the
// softmax's operand, and its result only with the type softmax-bits gives
// (kif [0, 1, N]), not its internal nodes.

// keepsOperandType lists the kinds whose values are their operand's values
// moved around: calibration gives their result their operand's type.
var keepsOperandType = map[string]bool{
	nn.OpReshape: true, nn.OpFlatten: true, nn.OpPermute: true, nn.OpBroadcastTo: true,
	nn.OpSwapFirstTwo: true, nn.OpTranspose3dLast: true, nn.OpDetach: true,
}

// decompose rewrites every layer_norm of graph g; names gains the
// internal nodes and follows the replaced values.
func decompose(g *ir.Operation, names map[string]*ir.Value) error {
	body := g.Body(0)
	for i := 0; i < len(body.Ops); i++ {
		op := body.Ops[i]
		if op.Name != nn.OpLayerNorm {
			continue
		}
		old := op.Results[0]
		base := strings.TrimPrefix(nameOf(names, old), "%")
		b := ir.NewBuilder(body)
		b.Loc = op.Loc
		b.SetInsertionPoint(i)
		d := &decomposer{b: b, base: base, names: names}
		y := d.layerNorm(op)
		if d.err != nil {
			return fmt.Errorf("decomposing %s %%%s: %v", op.Name, base, d.err)
		}
		i = replaceNode(body, op, y, names) - 1
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

// with1 is shape with dimension a 1.
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

// replaceNode makes y, built before op, take the place of op's result:
// its name, its names in names, its uses; op is removed. It returns op's
// index before the removal.
func replaceNode(body *ir.Block, op *ir.Operation, y *ir.Value, names map[string]*ir.Value) int {
	old := op.Results[0]
	y.Name = old.Name
	for k, v := range names {
		if v == old {
			names[k] = y
		}
	}
	replaceUses(body, old, y)
	i := indexOf(body, op)
	body.Ops = append(body.Ops[:i], body.Ops[i+1:]...)
	return i
}

// lowerSoftmaxes replaces every softmax of the typed graph g by the
// lookup-table softmax of softmax-bits bits (qonnx.LookupSoftmax), its
// operand of the type types gives it; types gains the new nodes' types. A
// type that a quant.json gave the softmax's result must be the one
// softmax-bits fixes.
func lowerSoftmaxes(g *ir.Operation, names map[string]*ir.Value, types map[*ir.Value]assignment, bits int) error {
	body := g.Body(0)
	for i := 0; i < len(body.Ops); i++ {
		op := body.Ops[i]
		if op.Name != nn.OpSoftmax {
			continue
		}
		old, x := op.Results[0], op.Operands[0]
		base := strings.TrimPrefix(nameOf(names, old), "%")
		a, _ := op.IntAttr("axis")
		x.Type = ir.Tensor(shapeOf(x), types[x].elemType()) // as retype will write it
		b := ir.NewBuilder(body)
		b.Loc = op.Loc
		b.SetInsertionPoint(i)
		var made []*ir.Value
		y, err := qonnx.LookupSoftmax(b, x, a, bits, func(part string, v *ir.Value) {
			v.Name = base + "." + part
			names["%"+v.Name] = v
			made = append(made, v)
		})
		if err != nil {
			return diag.OpErrorf(op, "%s: %v", nameOf(names, old), err)
		}
		for _, v := range made {
			types[v] = assignmentOf(v.Type)
		}
		if given, ok := types[old]; ok && given.from != "calibration" && given.elemType() != types[y].elemType() {
			return diag.OpErrorf(op, "%s: the quant.json key '%s' types the softmax's result, which becomes lookup tables whose type softmax-bits=%d fixes, '%s' (kif [0, 1, %d]): drop the key, or give that type", nameOf(names, old), given.from, bits, quant.ElementOf(y.Type), bits)
		}
		delete(types, old)
		i = replaceNode(body, op, y, names) - 1
		keepType(body, y, types)
	}
	return nil
}

// keepType gives the shape kinds that read v, and those that read them,
// v's type in place of a calibrated one, as calibration would have.
func keepType(body *ir.Block, v *ir.Value, types map[*ir.Value]assignment) {
	for _, op := range body.Ops {
		if keepsOperandType[op.Name] && op.Operands[0] == v && types[op.Results[0]].from == "calibration" {
			types[op.Results[0]] = types[v]
			keepType(body, op.Results[0], types)
		}
	}
}

// softmaxKeyHint explains a quant.json key that names an internal node of
// a softmax (%3.exp, as nn-quantize once decomposed it), or "".
func softmaxKeyHint(key string, names map[string]*ir.Value) string {
	i := strings.LastIndex(key, ".")
	if i < 0 || !typedBySoftmaxBits(names[key[:i]]) {
		return ""
	}
	return fmt.Sprintf("%s is a softmax, which becomes lookup tables of exp(x − max) and inv whose types softmax-bits fixes (docs/nn.md \"nn-quantize\"): a quant.json may type its operand, not its internal nodes", key[:i])
}

// typedBySoftmaxBits reports whether v is a softmax's result, which
// lowerSoftmaxes types.
func typedBySoftmaxBits(v *ir.Value) bool {
	return v != nil && v.Def != nil && v.Def.Name == nn.OpSoftmax
}

// elemType is the element type an assignment writes.
func (a assignment) elemType() ir.Type {
	if a.exact {
		return ir.Float(ir.F64)
	}
	return a.elem
}

// assignmentOf is the assignment of a value of type t.
func assignmentOf(t ir.Type) assignment {
	if q := quant.ElementOf(t); q != nil {
		return assignment{elem: q, from: "softmax-bits"}
	}
	return assignment{exact: true, from: "softmax-bits"}
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
