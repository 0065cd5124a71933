package cmvm

import (
	"cmp"
	"slices"
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
		r, err := e.reduceRow(e.rows[i].terms)
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
	h := &minHeap[term]{ts: slices.Clone(terms), less: func(a, b term) bool {
		return treeOrder(e.nodes[a.node].depth, int(a.shift), int(a.node), e.nodes[b.node].depth, int(b.shift), int(b.node))
	}}
	h.init()
	for len(h.ts) > 1 {
		t := h.pop()
		u := h.pop()
		k, base := pairKey(t, u)
		p, err := e.makeNode(k)
		if err != nil {
			return zeroRef, err
		}
		h.push(term{node: p, shift: base.shift, sign: base.sign})
	}
	t := h.ts[0]
	return ref{t.node, t.shift, t.sign}, nil
}

// treeOrder orders the terms of a Huffman adder tree: by depth, then
// shift, then node.
func treeOrder(depthA, shiftA, nodeA, depthB, shiftB, nodeB int) bool {
	return cmp.Or(cmp.Compare(depthA, depthB), cmp.Compare(shiftA, shiftB), cmp.Compare(nodeA, nodeB)) < 0
}

// minHeap is a binary min-heap under less, with container/heap's
// algorithms (so equal elements come out in the same order) and without
// its interface boxing.
type minHeap[T any] struct {
	ts   []T
	less func(a, b T) bool
}

// init orders ts into a heap.
func (h *minHeap[T]) init() {
	for i := len(h.ts)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *minHeap[T]) down(i int) {
	n := len(h.ts)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.less(h.ts[r], h.ts[l]) {
			m = r
		}
		if !h.less(h.ts[m], h.ts[i]) {
			return
		}
		h.ts[i], h.ts[m] = h.ts[m], h.ts[i]
		i = m
	}
}

// pop removes and returns the least element.
func (h *minHeap[T]) pop() T {
	n := len(h.ts) - 1
	h.ts[0], h.ts[n] = h.ts[n], h.ts[0]
	t := h.ts[n]
	h.ts = h.ts[:n]
	h.down(0)
	return t
}

// push adds t.
func (h *minHeap[T]) push(t T) {
	h.ts = append(h.ts, t)
	for i := len(h.ts) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(h.ts[i], h.ts[p]) {
			return
		}
		h.ts[i], h.ts[p] = h.ts[p], h.ts[i]
		i = p
	}
}
