package qonnx

import (
	"fmt"
	"strings"

	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/internal/outfile"
	"github.com/otir-dev/otir/ir"
)

// A float tail: the nodes after the last tensor that a circuit can hold
// exactly (FINN's TFC ends in a per-class Sub, Div by a square root, Mul,
// Add: not dyadic). The circuit ends at that tensor; the tail stays a float
// nn.graph @NAME_tail, written to the file of the option tail=FILE, which
// otir-run evaluates on the circuit's outputs with the same payload.

// tail is one output's float tail: the nodes from the circuit's output
// (from) to the graph's output.
type tail struct {
	from  *ir.Value
	nodes []*ir.Operation // nearest the output first
}

// output emits a graph output: its exact value, or, when it has none, the
// exact value of the nearest tensor before it from which only affine and
// shape nodes with constants, sigmoids and tanhs lead to it, the rest
// recorded as a tail.
func (a *absorber) output(r *ir.Value) (*ir.Value, *tail, error) {
	v := a.vals[r]
	if v == nil {
		return nil, nil, fmt.Errorf("has no value")
	}
	out, err := a.emitExact(v)
	if err == nil {
		return out, nil, nil
	}
	t := &tail{}
	cur := r
	for {
		op := cur.Def
		d := dataOperand(a, op)
		if d == nil {
			return nil, nil, fmt.Errorf("%v, and no float tail of affine nodes with constants leads to it from an exact tensor", err)
		}
		t.nodes = append(t.nodes, op)
		if out, e := a.emitExact(a.vals[d]); e == nil {
			if a.opts.Tail == "" {
				return nil, nil, fmt.Errorf("%v: give tail=FILE to end the circuit before its float tail (%d nodes from '%s'), written to FILE as a float graph that otir-run applies to the circuit's outputs", err, len(t.nodes), t.nodes[len(t.nodes)-1].Name)
			}
			t.from = d
			return out, t, nil
		}
		cur = d
	}
}

// dataOperand is the one non-constant operand of an affine, shape,
// sigmoid or tanh node whose other operands are constants, or nil.
func dataOperand(a *absorber, op *ir.Operation) *ir.Value {
	if op == nil {
		return nil
	}
	switch op.Name {
	case kAdd, kSub, kMul, kReshape, kFlatten, kPermute, kBroadcastTo, kDetach, kSwapFirstTwo, kTranspose3dLast, kSigmoid, kTanh:
	default:
		return nil
	}
	var d *ir.Value
	for _, o := range op.Operands {
		if v := a.vals[o]; v != nil && !v.isConst() {
			if d != nil {
				return nil
			}
			d = o
		}
	}
	return d
}

// writeTails writes the float tail graph of g: one argument per circuit
// output, the tail nodes (with the constants they read) cloned from g.
func writeTails(path, name string, g *ir.Operation, circuitOuts []*ir.Value, tails []*tail) error {
	m := ir.NewModule(g.Loc)
	b := ir.NewBuilder(m.Body())
	b.Loc = g.Loc
	var ins []ir.Type
	for _, o := range circuitOuts {
		ins = append(ins, ir.Tensor(o.Type.(*ir.TensorType).Shape, f64))
	}
	ret := g.Body(0).Terminator()
	tg, body := nn.Graph(b, name+"_tail", ins, ret.OperandTypes())
	tb := ir.NewBuilder(body)
	var outs []*ir.Value
	for i, t := range tails {
		if t == nil {
			outs = append(outs, body.Args[i])
			continue
		}
		c := cloner{b: tb, vals: map[*ir.Value]*ir.Value{t.from: body.Args[i]}}
		v, err := c.clone(ret.Operands[i])
		if err != nil {
			return err
		}
		outs = append(outs, v)
	}
	tb.Loc = ret.Loc
	nn.Return(tb, outs...)
	_ = tg
	text := m.String()
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if err := outfile.WriteFile(path, []byte(text)); err != nil {
		return fmt.Errorf("option 'tail': %v", err)
	}
	return nil
}

// cloner copies the nodes a value depends on into another graph.
type cloner struct {
	b    *ir.Builder
	vals map[*ir.Value]*ir.Value
}

func (c *cloner) clone(v *ir.Value) (*ir.Value, error) {
	if nv, ok := c.vals[v]; ok {
		return nv, nil
	}
	op := v.Def
	if op == nil {
		return nil, fmt.Errorf("the float tail reads a graph input")
	}
	var ops []*ir.Value
	for _, o := range op.Operands {
		nv, err := c.clone(o)
		if err != nil {
			return nil, err
		}
		ops = append(ops, nv)
	}
	c.b.Loc = op.Loc
	nop := c.b.Create(op.Name, ops, op.ResultTypes(), op.Attrs)
	c.vals[v] = nop.Results[0]
	return nop.Results[0], nil
}
