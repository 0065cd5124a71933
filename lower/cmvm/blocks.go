package cmvm

import (
	"fmt"
)

// Blocking. CSE counts every digit pair of every output, and a row of w
// digits holds w(w-1)/2 pairs: an int8 matrix of 256 inputs has about
// 250,000 a row, beyond what the pair table can hold (maxPairs) or search
// in time. Such a problem is split by inputs into k contiguous blocks of
// about equal width, each a CMVM of all the outputs over its inputs (with
// about 1/k² of the pairs, so every pattern between two inputs of a block
// is still found, in every output), and each output sums its k block
// values with a depth-aware adder tree: k - 1 adders an output. Blocks
// over disjoint inputs share no pattern a pair could see, so what is lost
// is only the patterns spanning two blocks.

// blockPairs is the most digit pairs a block may hold; a problem with more
// is split into k = ceil(sqrt(pairs / blockPairs)) blocks (a variable for
// the tests).
var blockPairs = 1 << 23

// numBlocks returns the number of input blocks for n (1: no split).
func numBlocks(n *normalized) int {
	pairs := digitPairs(n)
	k := 1
	for pairs > blockPairs*k*k && k < n.nIn {
		k++
	}
	return k
}

// solveBlocks solves n as k input blocks and joins them. bound < 0 means
// unconstrained; under a bound each block gets bound - ceil(log2 k).
func solveBlocks(n *normalized, opt Options, model CostModel, bound, k int) (*Graph, error) {
	sub := -1
	if bound >= 0 {
		sub = bound - ceilLog2(k)
	}
	g := &Graph{Inputs: append([]Interval(nil), n.inputs...), Model: model}
	nIn := n.nIn
	terms := make([][]blockTerm, n.nOut)
	// One workspace for all blocks: each block's pair table reuses the
	// memory of the one before (a block of a 128x128 int8 matrix holds
	// about 2 million pairs).
	ws := getWorkspace()
	defer putWorkspace(ws)
	for b := range k {
		lo, hi := b*nIn/k, (b+1)*nIn/k
		bn := &normalized{nOut: n.nOut, nIn: hi - lo, inputs: n.inputs[lo:hi], rows: make([][]int64, n.nOut)}
		for i, r := range n.rows {
			bn.rows[i] = r[lo:hi]
		}
		if sub >= 0 && minimalDepth(bn) > sub {
			return nil, fmt.Errorf("cmvm: blocks cannot meet the depth bound")
		}
		bg, err := solveIn(ws, bn, opt, model, sub)
		if err != nil {
			return nil, err
		}
		ids := make([]int, hi-lo+len(bg.Ops))
		for j := range hi - lo {
			ids[j] = lo + j
		}
		for x, op := range bg.Ops {
			op.A, op.B = ids[op.A], ids[op.B]
			ids[hi-lo+x] = nIn + len(g.Ops)
			g.Ops = append(g.Ops, op)
		}
		for i, o := range bg.Outputs {
			if o.Node >= 0 {
				terms[i] = append(terms[i], blockTerm{node: ids[o.Node], shift: o.Shift, neg: o.Neg})
			}
		}
	}
	for i := range terms {
		o, err := g.sumTerms(terms[i], true)
		if err != nil {
			return nil, err
		}
		g.Outputs = append(g.Outputs, o)
	}
	g.recost()
	g.foldSigns()
	return g, nil
}

// blockTerm is one block's value in an output: ±node << shift.
type blockTerm struct {
	node, shift int
	neg         bool
}

func (g *Graph) depthOf(id int) int {
	if id < len(g.Inputs) {
		return 0
	}
	return g.Ops[id-len(g.Inputs)].Depth
}

func (g *Graph) intervalOf(id int) Interval {
	if id < len(g.Inputs) {
		return g.Inputs[id]
	}
	return g.Ops[id-len(g.Inputs)].Interval
}

// sumTerms adds the terms of one output (block values, or a transposed
// node's users) with a Huffman tree on depth, lower shifts first, and
// returns the output (none for no terms). With exact each new op gets its
// exact interval (the terms are over disjoint inputs); else the intervals
// are left to exactIntervals.
func (g *Graph) sumTerms(ts []blockTerm, exact bool) (Output, error) {
	if len(ts) == 0 {
		return Output{Node: -1}, nil
	}
	h := &minHeap[blockTerm]{ts: ts, less: func(a, b blockTerm) bool {
		return treeOrder(g.depthOf(a.node), a.shift, a.node, g.depthOf(b.node), b.shift, b.node)
	}}
	h.init()
	for len(h.ts) > 1 {
		t := h.pop()
		u := h.pop()
		if u.shift < t.shift {
			t, u = u, t
		}
		d := u.shift - t.shift
		if d > maxShift {
			return Output{}, fmt.Errorf("%w: shift above %d", ErrOverflow, maxShift)
		}
		op := Op{A: t.node, B: u.node, Shift: d, Sub: t.neg != u.neg,
			Depth: max(g.depthOf(t.node), g.depthOf(u.node)) + 1}
		if exact {
			iv, ok := combineIntervals(g.intervalOf(t.node), g.intervalOf(u.node), d, op.Sub)
			if !ok {
				return Output{}, fmt.Errorf("%w: sum of blocks", ErrOverflow)
			}
			op.Interval = iv
		}
		g.Ops = append(g.Ops, op)
		h.push(blockTerm{node: len(g.Inputs) + len(g.Ops) - 1, shift: t.shift, neg: t.neg})
	}
	t := h.ts[0]
	return Output{Node: t.node, Shift: t.shift, Neg: t.neg}, nil
}

// combineIntervals returns the exact interval of a ± (b << s) for values
// over disjoint inputs (the sum of the intervals), in units of the finer
// step, or false when it does not fit in int64.
func combineIntervals(a, b Interval, s int, sub bool) (Interval, bool) {
	be := b.Exp + s
	e := min(a.Exp, be)
	ar, ok1 := a.raw().Shl(a.Exp - e)
	br, ok2 := b.raw().Shl(be - e)
	ok3 := true
	if sub {
		br, ok3 = br.Neg()
	}
	r, ok4 := ar.Add(br)
	return Interval{Lo: r.Lo, Hi: r.Hi, Exp: e}, ok1 && ok2 && ok3 && ok4
}
