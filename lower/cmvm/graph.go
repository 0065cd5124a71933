package cmvm

import (
	"fmt"
	"math/big"

	"github.com/otir-dev/otir/internal/intrange"
)

// Op is one two-input adder: value = A + (B << Shift), or A - (B << Shift)
// when Sub is set. A and B are node ids: ids below len(Graph.Inputs) are the
// inputs, id len(Graph.Inputs)+k is Ops[k]. Operands always refer to earlier
// nodes. In ALIR terms this is opcode 0 (add) or 1 (sub) with data = Shift.
type Op struct {
	A, B  int
	Shift int // >= 0
	Sub   bool

	// Interval is the exact range of the op's value given the input
	// intervals, computed from its integer coefficients over the inputs.
	Interval Interval
	// Depth is the number of adders on the longest path from an input.
	Depth int
	// Cost is this adder's cost, Latency the accumulated latency at its
	// output (the longest path of adder latencies), both per the CostModel.
	Cost, Latency int
}

// Output says how output i is read: (Neg ? -v : v) << Shift, v the value of
// node Node; Node = -1 means the output is constant zero.
type Output struct {
	Node  int
	Shift int // >= 0
	Neg   bool
}

// Graph is an adder graph computing y = M·x.
type Graph struct {
	Inputs  []Interval
	Ops     []Op
	Outputs []Output
	Model   CostModel
}

// Stats summarises a graph's size. Adders + Negations are the graph's
// adders in the sense of otir-run info (docs/alir.md#what-info-counts: an
// add, sub or neg of non-constant values; no operand of a graph is a
// constant), the count the solver minimises (better).
type Stats struct {
	Adders int // two-input add/sub nodes
	// Negations counts the outputs that read an adder negated: each is a
	// neg, an adder, unless it is folded away (ALIR out_negs, free).
	Negations int
	Depth     int // the deepest output, in adders
	Cost      int // sum of the adders' costs
	Latency   int // the largest accumulated latency of an output
}

// Stats returns the adder count, depth, total cost and latency of g.
func (g *Graph) Stats() Stats {
	s := Stats{Adders: len(g.Ops), Negations: g.Negations()}
	for _, op := range g.Ops {
		s.Cost += op.Cost
	}
	for _, o := range g.Outputs {
		if id := o.Node - len(g.Inputs); id >= 0 && id < len(g.Ops) {
			s.Depth = max(s.Depth, g.Ops[id].Depth)
			s.Latency = max(s.Latency, g.Ops[id].Latency)
		}
	}
	return s
}

// Unit returns the exponent of the units Eval works in: the finest input
// step, min_j Inputs[j].Exp (0 when there are no inputs).
func (g *Graph) Unit() int {
	u := 0
	for j, iv := range g.Inputs {
		if j == 0 || iv.Exp < u {
			u = iv.Exp
		}
	}
	return u
}

// Check verifies the graph's structure: operands refer to earlier nodes,
// shifts are non-negative and outputs refer to existing nodes.
func (g *Graph) Check() error {
	nIn := len(g.Inputs)
	for k, op := range g.Ops {
		id := nIn + k
		if op.A < 0 || op.A >= id || op.B < 0 || op.B >= id {
			return fmt.Errorf("cmvm: op %d reads node %d or %d, not an earlier node", id, op.A, op.B)
		}
		if op.Shift < 0 {
			return fmt.Errorf("cmvm: op %d has negative shift %d", id, op.Shift)
		}
	}
	for i, o := range g.Outputs {
		if o.Node < -1 || o.Node >= nIn+len(g.Ops) {
			return fmt.Errorf("cmvm: output %d reads node %d, which does not exist", i, o.Node)
		}
		if o.Shift < 0 {
			return fmt.Errorf("cmvm: output %d has negative shift %d", i, o.Shift)
		}
	}
	return nil
}

// Eval runs the graph on raw inputs: x[j] is input j's raw integer, its value
// being x[j]·2^Inputs[j].Exp. It returns every output's value as an integer
// in units of 2^Unit(). The arithmetic is exact: int64 with overflow checks,
// falling back to EvalBig when an intermediate overflows. An error wrapping
// ErrOverflow means an output does not fit in int64.
func (g *Graph) Eval(x []int64) ([]int64, error) {
	if err := g.Check(); err != nil {
		return nil, err
	}
	if len(x) != len(g.Inputs) {
		return nil, fmt.Errorf("cmvm: Eval got %d inputs, graph has %d", len(x), len(g.Inputs))
	}
	if out, ok := g.evalInt64(x); ok {
		return out, nil
	}
	big, err := g.EvalBig(bigInts(x))
	if err != nil {
		return nil, err
	}
	out := make([]int64, len(big))
	for i, v := range big {
		if !v.IsInt64() {
			return nil, fmt.Errorf("%w: output %d is %v", ErrOverflow, i, v)
		}
		out[i] = v.Int64()
	}
	return out, nil
}

// evalInt64 is Eval in checked int64 arithmetic; false on any overflow.
func (g *Graph) evalInt64(x []int64) ([]int64, bool) {
	unit := g.Unit()
	val := make([]int64, len(g.Inputs)+len(g.Ops))
	for j, v := range x {
		s, ok := intrange.ShlInt64(v, g.Inputs[j].Exp-unit)
		if !ok {
			return nil, false
		}
		val[j] = s
	}
	for k, op := range g.Ops {
		r, ok := addShifted(val[op.A], val[op.B], op.Shift, op.Sub)
		if !ok {
			return nil, false
		}
		val[len(g.Inputs)+k] = r
	}
	out := make([]int64, len(g.Outputs))
	for i, o := range g.Outputs {
		if o.Node < 0 {
			continue
		}
		v, ok := addShifted(0, val[o.Node], o.Shift, o.Neg)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

func bigInts(x []int64) []*big.Int {
	b := make([]*big.Int, len(x))
	for i, v := range x {
		b[i] = big.NewInt(v)
	}
	return b
}

// EvalBig is Eval with arbitrary-precision arithmetic; it never overflows.
func (g *Graph) EvalBig(x []*big.Int) ([]*big.Int, error) {
	val, err := g.nodeValues(x)
	if err != nil {
		return nil, err
	}
	out := make([]*big.Int, len(g.Outputs))
	for i, o := range g.Outputs {
		out[i] = new(big.Int)
		if o.Node < 0 {
			continue
		}
		out[i].Lsh(val[o.Node], uint(o.Shift))
		if o.Neg {
			out[i].Neg(out[i])
		}
	}
	return out, nil
}

// nodeValues returns the exact value of every node (inputs, then ops) in
// units of 2^Unit().
func (g *Graph) nodeValues(x []*big.Int) ([]*big.Int, error) {
	if err := g.Check(); err != nil {
		return nil, err
	}
	if len(x) != len(g.Inputs) {
		return nil, fmt.Errorf("cmvm: EvalBig got %d inputs, graph has %d", len(x), len(g.Inputs))
	}
	unit := g.Unit()
	val := make([]*big.Int, len(g.Inputs)+len(g.Ops))
	for j, v := range x {
		val[j] = new(big.Int).Lsh(v, uint(g.Inputs[j].Exp-unit))
	}
	for k, op := range g.Ops {
		b := new(big.Int).Lsh(val[op.B], uint(op.Shift))
		if op.Sub {
			b.Neg(b)
		}
		val[len(g.Inputs)+k] = b.Add(b, val[op.A])
	}
	return val, nil
}
