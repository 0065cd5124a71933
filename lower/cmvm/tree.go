package cmvm

import "container/heap"

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
