package cmvm

import (
	"fmt"
	"math/bits"

	"github.com/otir-dev/otir/internal/intrange"
)

// Transposition. A tall problem (more inputs than outputs) holds long rows:
// an output over n inputs of w digits each has (nw)²/2 digit pairs, so a
// 1024x64 int8 matrix (1024 inputs, 64 outputs) has 260 million, and must be
// cut into a dozen input blocks that share no pattern. Its transpose, 64
// inputs and 1024 outputs, has 16 million, and its outputs, over the same
// 64 inputs, share patterns across all 1024 rows.
//
// By the transposition principle, an adder graph G' computing z = Mᵀu
// (inputs u, one per output of M; outputs z, one per input of M) gives one
// computing y = M·x by reversing every edge: each node v of G' becomes the
// sum, over its consumers w (an op reading it, with the op's shift and sign,
// or an output z_i, with the output's shift and sign, which becomes the input
// x_i), of w's transposed value. A node read k times costs k - 1 adders, so
// the transposed graph has A' + (outputs of G') - (inputs of G') adders:
// A' + nIn - nOut. Depth is kept up to the trees that sum each node's
// consumers (Huffman on depth). Intervals are recomputed exactly.

// transposeGraph returns the transpose of g, which computes Mᵀ over its
// inputs: a graph over inputs in (one per output of g) whose output k is
// g's input k transposed.
func transposeGraph(g *Graph, in []Interval, model CostModel) (*Graph, error) {
	nU := len(g.Inputs)
	if len(in) != len(g.Outputs) {
		return nil, fmt.Errorf("cmvm: internal error: %d inputs for %d outputs", len(in), len(g.Outputs))
	}
	nNodes := nU + len(g.Ops)
	// users[v]: the terms of v's transposed value, refs into the new graph.
	users := make([][]blockTerm, nNodes)
	for i, o := range g.Outputs {
		if o.Node >= 0 {
			users[o.Node] = append(users[o.Node], blockTerm{node: i, shift: o.Shift, neg: o.Neg})
		}
	}
	t := &Graph{Inputs: append([]Interval(nil), in...), Model: model}
	val := make([]blockTerm, nNodes) // transposed value of node v (node -1: zero)
	for v := nNodes - 1; v >= 0; v-- {
		r := blockTerm{node: -1}
		if ts := users[v]; len(ts) > 0 {
			o, err := t.sumTerms(ts, false)
			if err != nil {
				return nil, err
			}
			r = blockTerm{node: o.Node, shift: o.Shift, neg: o.Neg}
		}
		users[v] = nil
		val[v] = r
		if v < nU || r.node < 0 {
			continue
		}
		op := g.Ops[v-nU]
		// v = A + σ(B << s): A gets v's value, B gets σ(v << s).
		users[op.A] = append(users[op.A], r)
		users[op.B] = append(users[op.B], blockTerm{node: r.node, shift: r.shift + op.Shift, neg: r.neg != op.Sub})
	}
	for k := range nU {
		o := Output{Node: -1}
		if r := val[k]; r.node >= 0 {
			o = Output{Node: r.node, Shift: r.shift, Neg: r.neg}
		}
		t.Outputs = append(t.Outputs, o)
	}
	if err := t.exactIntervals(); err != nil {
		return nil, err
	}
	t.recost()
	t.foldSigns()
	return t, nil
}

// exactIntervals sets every op's exact interval from its integer
// coefficients over the inputs, computed one input at a time (a vector per
// node would take nodes x inputs words).
func (g *Graph) exactIntervals() error {
	nIn, nOps := len(g.Inputs), len(g.Ops)
	u := g.Unit()
	lo := make([]int64, nOps) // in units of 2^u
	hi := make([]int64, nOps)
	exp := make([]int, nOps)
	found := make([]bool, nOps)
	c := make([]int64, nIn+nOps)
	overflow := fmt.Errorf("%w: range of a transposed node", ErrOverflow)
	for j, iv := range g.Inputs {
		if iv.IsZero() {
			continue
		}
		clear(c)
		c[j] = 1
		for k := range g.Ops {
			op := &g.Ops[k]
			a, b := c[op.A], c[op.B]
			if a == 0 && b == 0 {
				continue
			}
			v, ok := addShifted(a, b, op.Shift, op.Sub)
			if !ok {
				return overflow
			}
			c[nIn+k] = v
			if v == 0 {
				continue
			}
			if e := iv.Exp + bits.TrailingZeros64(uint64(v)); !found[k] || e < exp[k] {
				exp[k], found[k] = e, true
			}
			s, ok := intrange.ShlInt64(v, iv.Exp-u)
			if !ok {
				return overflow
			}
			t, ok1 := iv.raw().Scale(s)
			sum, ok2 := intrange.Range64{Lo: lo[k], Hi: hi[k]}.Add(t)
			if !ok1 || !ok2 {
				return overflow
			}
			lo[k], hi[k] = sum.Lo, sum.Hi
		}
	}
	for k := range g.Ops {
		if !found[k] {
			g.Ops[k].Interval = Interval{}
			continue
		}
		d := exp[k] - u
		g.Ops[k].Interval = Interval{Lo: lo[k] >> uint(d), Hi: hi[k] >> uint(d), Exp: exp[k]}
	}
	return nil
}

// transposeFor returns the transposed problem when n should be solved
// through its transpose: without a depth bound, when n needs input blocks
// and its transpose needs fewer (a tall matrix: more inputs than outputs).
// The transposed problem's inputs get the interval [-1, 1]: its graph's
// intervals are recomputed after transposition.
func transposeFor(n *normalized, opt Options, bound int) *normalized {
	if bound >= 0 || opt.NoDecompose || n.nIn <= n.nOut || !transposeTall {
		return nil
	}
	k := numBlocks(n)
	if k <= 1 {
		return nil
	}
	nt := transposed(n)
	if numBlocks(nt) >= k {
		return nil
	}
	return nt
}

// transposed returns the transpose of n, Mᵀ, over inputs of interval
// [-1, 1] (the transposition principle does not depend on them; the
// transposed graph's intervals are computed afresh).
func transposed(n *normalized) *normalized {
	nt := &normalized{nOut: n.nIn, nIn: n.nOut, rows: make([][]int64, n.nIn), inputs: make([]Interval, n.nOut)}
	for j := range nt.rows {
		nt.rows[j] = make([]int64, n.nOut)
		for i := range n.nOut {
			nt.rows[j][i] = n.rows[i][j]
		}
	}
	for i := range nt.inputs {
		nt.inputs[i] = Interval{Lo: -1, Hi: 1}
	}
	return nt
}

// transposeTall enables transposition (a variable for the tests).
var transposeTall = true
