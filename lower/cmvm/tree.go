package cmvm

import (
	"container/heap"
	"math"
	"math/bits"
	"slices"
	"sort"
)

// ref reads a value from the graph as sign · node << shift, or zero when
// node = -1: how an output, or a stage of a decomposition, reads its sum.
type ref struct {
	node  int32
	shift int32
	sign  int8
}

var zeroRef = ref{node: -1}

// reduce sums what remains of every row with a depth-aware adder tree and
// returns one ref per row. It repeatedly adds the two shallowest terms
// (Huffman on 2^depth), which reaches the least possible depth
// ceil(log2(sum 2^depth)); among equally deep terms it pairs those with the
// lowest shifts first, which keeps the partial sums narrow.
func (e *engine) reduce() ([]ref, error) {
	out := make([]ref, len(e.rows))
	for i := range e.rows {
		r, err := e.reduceRowNarrow(e.rows[i].terms)
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// sumTerms returns a ref to the sum of terms (merged first, so equal
// (node, shift) pairs may appear) built as a depth-aware adder tree.
func (e *engine) sumTerms(terms []term) (ref, error) {
	rows := []row{{terms: terms}}
	if err := mergeRows(rows); err != nil {
		return zeroRef, err
	}
	return e.reduceRow(rows[0].terms)
}

// reduceRow sums one row's terms with a depth-aware adder tree (see reduce).
func (e *engine) reduceRow(terms []term) (ref, error) {
	switch len(terms) {
	case 0:
		return zeroRef, nil
	case 1:
		t := terms[0]
		return ref{t.node, t.shift, t.sign}, nil
	}
	h := &termHeap{e: e}
	h.ts = append(h.ts, terms...)
	heap.Init(h)
	for h.Len() > 1 {
		t := heap.Pop(h).(term)
		u := heap.Pop(h).(term)
		k, base := pairKey(t, u)
		p, err := e.makeNode(k)
		if err != nil {
			return zeroRef, err
		}
		heap.Push(h, term{node: p, shift: base.shift, sign: base.sign})
	}
	t := h.ts[0]
	return ref{t.node, t.shift, t.sign}, nil
}

// termHeap orders terms by (depth, shift, node).
type termHeap struct {
	e  *engine
	ts []term
}

func (h *termHeap) Len() int { return len(h.ts) }
func (h *termHeap) Less(i, j int) bool {
	a, b := h.ts[i], h.ts[j]
	da, db := h.e.nodes[a.node].depth, h.e.nodes[b.node].depth
	if da != db {
		return da < db
	}
	if a.shift != b.shift {
		return a.shift < b.shift
	}
	return a.node < b.node
}
func (h *termHeap) Swap(i, j int) { h.ts[i], h.ts[j] = h.ts[j], h.ts[i] }
func (h *termHeap) Push(x any)    { h.ts = append(h.ts, x.(term)) }
func (h *termHeap) Pop() any {
	n := len(h.ts)
	t := h.ts[n-1]
	h.ts = h.ts[:n-1]
	return t
}

// reduceRowNarrow sums one row's final terms: with reduceNarrow when the
// row is short enough, else with reduceRow.
func (e *engine) reduceRowNarrow(terms []term) (ref, error) {
	if len(terms) > 1 && len(terms) <= maxNarrowTerms {
		return e.reduceNarrow(terms)
	}
	return e.reduceRow(terms)
}

// maxNarrowTerms bounds the rows reduceNarrow sums (it looks at every pair
// of terms at every step: cubic in the row's length); longer rows take the
// plain Huffman tree.
const maxNarrowTerms = 96

// reduceNarrow sums a row's terms with the adder tree of (greedily) fewest
// LUTs within the row's depth limit: at each step it adds the pair whose
// adder costs the fewest LUTs (adderLUTs), among the pairs that keep the
// row summable within the limit (its load at most 2^limit). The limit is
// the depth bound, or without one the row's own minimal depth
// ceil(log2(load)), so the tree is never deeper than the Huffman tree.
// The pair Huffman would take always fits, so the loop ends within the
// limit; ties go to the Huffman order (termHeap), keeping it deterministic.
func (e *engine) reduceNarrow(terms []term) (ref, error) {
	h := &termHeap{e: e, ts: slices.Clone(terms)}
	var load uint64
	for _, t := range h.ts {
		load += e.weight(t)
	}
	full := uint64(1) << bits.Len64(load-1) // 2^ceil(log2(load))
	if e.bounded {
		full = max(full, e.full)
	}
	for len(h.ts) > 1 {
		sort.Sort(h)
		bi, bj, bestCost := 0, 1, math.MaxInt
		for i := range h.ts {
			for j := i + 1; j < len(h.ts); j++ {
				t, u := h.ts[i], h.ts[j]
				if load+e.threshold(t, u) > full {
					continue
				}
				if c := e.pairLUTs(t, u); c < bestCost {
					bi, bj, bestCost = i, j, c
				}
			}
		}
		t, u := h.ts[bi], h.ts[bj]
		load += e.threshold(t, u)
		k, base := pairKey(t, u)
		p, err := e.makeNode(k)
		if err != nil {
			return zeroRef, err
		}
		h.ts[bi] = term{node: p, shift: base.shift, sign: base.sign}
		h.ts = slices.Delete(h.ts, bj, bj+1)
	}
	t := h.ts[0]
	return ref{t.node, t.shift, t.sign}, nil
}

// pairLUTs estimates the LUTs of the adder summing terms t and u, its
// result width from interval arithmetic (an upper bound on the exact width
// the node would get).
func (e *engine) pairLUTs(t, u term) int {
	lo, hi := t, u
	if u.shift < t.shift {
		lo, hi = u, t
	}
	d := int(hi.shift - lo.shift)
	a, b := e.nodes[lo.node].iv, e.nodes[hi.node].iv
	wa, wb := e.nodes[lo.node].width, e.nodes[hi.node].width
	if lo.sign != hi.sign {
		b.Lo, b.Hi = -b.Hi, -b.Lo
	}
	if d >= 62 || b.Exp != a.Exp || b.Lo<<d>>d != b.Lo || b.Hi<<d>>d != b.Hi {
		return math.MaxInt - 1
	}
	sLo, ok1 := addInt64(a.Lo, b.Lo<<d)
	sHi, ok2 := addInt64(a.Hi, b.Hi<<d)
	if !ok1 || !ok2 {
		return math.MaxInt - 1
	}
	return adderLUTs(Interval{Lo: sLo, Hi: sHi, Exp: a.Exp}.Width(), wa, wb, d)
}
