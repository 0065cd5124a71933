package cmvm

import (
	"container/heap"
	"fmt"
	"math"
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
	pairs := 0
	for _, r := range n.rows {
		w := rowWeight(r)
		pairs += w * (w - 1) / 2
	}
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
		o, err := g.sumBlocks(terms[i])
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

// sumBlocks adds the block values of one output with a Huffman tree on
// depth, lower shifts first, and returns the output.
func (g *Graph) sumBlocks(ts []blockTerm) (Output, error) {
	if len(ts) == 0 {
		return Output{Node: -1}, nil
	}
	h := &blockHeap{g: g, ts: ts}
	heap.Init(h)
	for h.Len() > 1 {
		t := heap.Pop(h).(blockTerm)
		u := heap.Pop(h).(blockTerm)
		if u.shift < t.shift {
			t, u = u, t
		}
		d := u.shift - t.shift
		iv, ok := combineIntervals(g.intervalOf(t.node), g.intervalOf(u.node), d, t.neg != u.neg)
		if !ok || d > maxShift {
			return Output{}, fmt.Errorf("%w: sum of blocks", ErrOverflow)
		}
		g.Ops = append(g.Ops, Op{A: t.node, B: u.node, Shift: d, Sub: t.neg != u.neg, Interval: iv,
			Depth: max(g.depthOf(t.node), g.depthOf(u.node)) + 1})
		heap.Push(h, blockTerm{node: len(g.Inputs) + len(g.Ops) - 1, shift: t.shift, neg: t.neg})
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
	alo, ok1 := shlInt64(a.Lo, a.Exp-e)
	ahi, ok2 := shlInt64(a.Hi, a.Exp-e)
	blo, ok3 := shlInt64(b.Lo, be-e)
	bhi, ok4 := shlInt64(b.Hi, be-e)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return Interval{}, false
	}
	if sub {
		if blo == math.MinInt64 {
			return Interval{}, false
		}
		blo, bhi = -bhi, -blo
	}
	lo, ok5 := addInt64(alo, blo)
	hi, ok6 := addInt64(ahi, bhi)
	return Interval{Lo: lo, Hi: hi, Exp: e}, ok5 && ok6
}

// blockHeap orders block terms by (depth, shift, node).
type blockHeap struct {
	g  *Graph
	ts []blockTerm
}

func (h *blockHeap) Len() int { return len(h.ts) }
func (h *blockHeap) Less(i, j int) bool {
	a, b := h.ts[i], h.ts[j]
	if da, db := h.g.depthOf(a.node), h.g.depthOf(b.node); da != db {
		return da < db
	}
	if a.shift != b.shift {
		return a.shift < b.shift
	}
	return a.node < b.node
}
func (h *blockHeap) Swap(i, j int) { h.ts[i], h.ts[j] = h.ts[j], h.ts[i] }
func (h *blockHeap) Push(x any)    { h.ts = append(h.ts, x.(blockTerm)) }
func (h *blockHeap) Pop() any {
	n := len(h.ts)
	t := h.ts[n-1]
	h.ts = h.ts[:n-1]
	return t
}
