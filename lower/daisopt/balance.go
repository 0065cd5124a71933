package daisopt

import (
	"math"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// Balance runs dais-balance on one program. A chain is a tree of dais.add
// and dais.sub ops whose inner nodes each have a single use (by their parent
// in the tree) and hold their exact result (no fraction bit dropped: see
// analyze). It computes root = floor(sum of ±leaf*2^shift) at the root's
// step, so it may be re-associated freely: the chain is rebuilt as a tree
// over the same leaves with the same signs and shifts, whose new inner nodes
// have the exact type of their values' range, while the root keeps its op
// and type and so floors the same exact sum as before. The old inner nodes
// go. A new node's type holds the range of its values (analyze), which
// holds the range alir.Program.Portability proves for it, so the program
// stays portable.
//
// The tree pairs the two terms available earliest, by the da4ml cost model
// (an adder n bits wide takes ceil(n/carry_size) steps, 1 when carry_size
// < 1), as Huffman's rule does: when every leaf is available at once this is
// the balanced tree of depth ceil(log2 n), and when they are not it is the
// tree of least latency for unit adders (a balanced tree would delay the
// late leaves). A chain is rebuilt only when that makes its root available
// earlier, so no latency grows; it is left alone when a new node would be
// wider than 64 bits or need a shift beyond ALIR's bound.
//
// With annotate set, latency and cost are then recomputed (dais.Annotate).
// Balance returns the number of chains rebuilt.
func Balance(prog *ir.Operation, annotate bool) (int, error) {
	v, err := load(prog)
	if err != nil {
		return 0, err
	}
	n := v.balance()
	if annotate {
		if err := dais.Annotate(prog); err != nil {
			return n, err
		}
	}
	return n, nil
}

// term is one summand sign*value*2^shift of a chain: value is a slot's
// result or a new node's, whose raw values at f fractional bits lie in s and
// which is available at time at.
type term struct {
	neg   bool
	shift int64
	id    int32 // the slot, or the id of a new node (balancer.next)
	s     span
	f     int
	at    float64
	seq   int // order of creation, to break ties
}

// lead reports whether the term is +value*2^0, as the root's first operand
// must be.
func (t term) lead() bool { return !t.neg && t.shift == 0 }

// balancer holds the state of one Balance run.
type balancer struct {
	v     *view
	r     *ranges
	inner []bool    // slot is an inner node of some chain
	at    []float64 // time at which each slot is available
	// before lists, per root slot, the new nodes to insert before it.
	before map[int][]alir.Op // new nodes, made before the root
	root   map[int]alir.Op   // the rebuilt roots
	next   int32             // id of the next new node: len(p.Ops), len(p.Ops)+1, ...
	drop   []bool
	// stack and terms are leaves' buffers, reused from chain to chain.
	stack []leafItem
	terms []term
}

// leafItem is a node of a chain that leaves has still to visit.
type leafItem struct {
	slot  int32
	neg   bool
	shift int64
}

func (v *view) balance() int {
	n := len(v.p.Ops)
	b := &balancer{v: v, r: analyze(v), at: make([]float64, n), before: map[int][]alir.Op{}, root: map[int]alir.Op{}, next: int32(n), drop: make([]bool, n)}
	b.markInner()
	rebuilt := 0
	for i, op := range v.p.Ops {
		if isAddSub(op) && !b.inner[i] && b.rebuild(i) {
			rebuilt++
			continue // rebuild set b.at[i]
		}
		ids, k := args(op)
		t := 0.0
		for _, a := range ids[:k] {
			t = math.Max(t, b.at[a])
		}
		if isAdder(op.Opcode) {
			t += b.delay(v.kif[i].Width())
		}
		b.at[i] = t
	}
	if rebuilt == 0 {
		return 0
	}
	r := v.rebuild()
	for i, op := range v.p.Ops {
		if b.drop[i] {
			continue
		}
		for _, node := range b.before[i] {
			r.add(node, i)
		}
		if rop, ok := b.root[i]; ok {
			op = rop
		}
		r.keep(i, op)
	}
	r.finish()
	return rebuilt
}

func isAddSub(op alir.Op) bool { return op.Opcode == alir.OpAdd || op.Opcode == alir.OpSub }

// isAdder reports whether the cost model counts an op as an adder (alir's
// opcode table; the passes before dais-fuse-sums see no sum).
func isAdder(c alir.Opcode) bool { return alir.ALIR.Info(c).Adder }

// delay is the time an adder of the given width takes (dais.Annotate's
// model).
func (b *balancer) delay(width int) float64 {
	if c := b.v.p.CarrySize; c >= 1 {
		return math.Ceil(float64(width) / float64(c))
	}
	return 1
}

// markInner marks the add/sub slots that are inner nodes of a chain: exact,
// used once, by an add or sub.
func (b *balancer) markInner() {
	uses := b.v.uses()
	b.inner = make([]bool, len(b.v.p.Ops))
	for _, op := range b.v.p.Ops {
		if !isAddSub(op) {
			continue
		}
		for _, a := range [2]int32{op.ID0, op.ID1} {
			if uses[a] == 1 && isAddSub(b.v.p.Ops[a]) && b.r.exact(int(a)) {
				b.inner[a] = true
			}
		}
	}
}

// leaves returns the terms of the chain rooted at slot root, left to right
// (the first is the lead: never negated nor shifted), and its inner nodes.
// The terms are b.terms, valid until the next call.
func (b *balancer) leaves(root int) (terms []term, inner []int32) {
	stack := append(b.stack[:0], leafItem{int32(root), false, 0})
	terms = b.terms[:0]
	defer func() { b.stack, b.terms = stack[:0], terms[:0] }()
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		op := b.v.p.Ops[it.slot]
		if int(it.slot) != root && !b.inner[it.slot] {
			terms = append(terms, term{neg: it.neg, shift: it.shift, id: it.slot,
				s: b.r.span[it.slot], f: b.v.kif[it.slot].Fractionals, at: b.at[it.slot], seq: len(terms)})
			continue
		}
		if int(it.slot) != root {
			inner = append(inner, it.slot)
		}
		// Push b first so that a, the left operand, comes out first.
		bneg := it.neg != (op.Opcode == alir.OpSub)
		stack = append(stack, leafItem{op.ID1, bneg, it.shift + int64(op.DataLow())})
		stack = append(stack, leafItem{op.ID0, it.neg, it.shift})
	}
	return terms, inner
}

// rebuild re-associates the chain rooted at slot root if that makes the
// root available earlier, and sets b.at[root].
func (b *balancer) rebuild(root int) bool {
	terms, inner := b.leaves(root)
	rop := b.v.p.Ops[root]
	old := math.Max(b.at[rop.ID0], b.at[rop.ID1])
	if len(inner) == 0 {
		return false
	}
	next := b.next
	var nodes []alir.Op
	h := termHeap(terms)
	h.init()
	seq := len(terms)
	for len(h) > 2 {
		x := h.pop()
		y := h.pop()
		t, node, ok := b.node(x, y)
		if !ok {
			b.next = next
			return false
		}
		t.seq = seq
		seq++
		nodes = append(nodes, node)
		h.push(t)
	}
	l, r := h[0], h[1]
	if !l.lead() {
		l, r = r, l
	}
	if !l.lead() || math.Max(l.at, r.at) >= old {
		b.next = next
		return false
	}
	op, ok := combine(l, r, rop.QInt)
	if !ok || max(l.f, r.f-int(op.Data)) < b.v.kif[root].Fractionals {
		b.next = next
		return false // the root's step would be finer than its exact result's
	}
	op.ID0, op.ID1 = l.id, r.id
	op.Latency, op.Cost = rop.Latency, rop.Cost
	b.root[root] = op
	b.before[root] = nodes
	for _, s := range inner {
		b.drop[s] = true
	}
	b.at[root] = math.Max(l.at, r.at) + b.delay(b.v.kif[root].Width())
	return true
}

// node builds the new inner node adding terms x and y exactly; the term it
// stands for keeps the sign and shift of its first operand, the lead when
// either is (so the lead's subtree stays a lead).
func (b *balancer) node(x, y term) (term, alir.Op, bool) {
	l, r := x, y
	if r.lead() && !l.lead() {
		l, r = r, l
	}
	// l.val ± r.val*2^d, d = r.shift-l.shift, at e fractional bits.
	d := r.shift - l.shift
	if d < -alir.MaxShift || d > alir.MaxShift {
		return l, alir.Op{}, false
	}
	e := max(l.f, r.f-int(d))
	rs := r.s.Shl(uint(e - r.f + int(d)))
	if l.neg != r.neg {
		rs = rs.Neg()
	}
	s := l.s.Shl(uint(e - l.f)).Add(rs)
	q, k, ok := spanInterval(s, e)
	if !ok || k.Fractionals != e {
		return l, alir.Op{}, false // (a sum that is always 0 would get step 1)
	}
	op, _ := combine(l, r, q)
	op.ID0, op.ID1 = l.id, r.id
	id := b.next
	b.next++
	at := math.Max(l.at, r.at) + b.delay(k.Width())
	return term{neg: l.neg, shift: l.shift, id: id, s: s, f: k.Fractionals, at: at}, op, true
}

// combine returns the add or sub computing l.val ± r.val*2^(r.shift-l.shift)
// into interval q (its operand fields are unset: callers wire values).
func combine(l, r term, q alir.QInterval) (alir.Op, bool) {
	d := r.shift - l.shift
	if d < -alir.MaxShift || d > alir.MaxShift {
		return alir.Op{}, false
	}
	code := alir.OpAdd
	if l.neg != r.neg {
		code = alir.OpSub
	}
	return alir.Op{ID0: -1, ID1: -1, Opcode: code, Data: d, QInt: q}, true
}

// termHeap orders terms by availability, then creation: a binary
// min-heap, as container/heap keeps one (the same order of pops), without
// boxing each term in an interface.
type termHeap []term

func (h termHeap) less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}

func (h termHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i, len(h))
	}
}

func (h *termHeap) push(t term) {
	*h = append(*h, t)
	h.up(len(*h) - 1)
}

func (h *termHeap) pop() term {
	old := *h
	n := len(old) - 1
	old[0], old[n] = old[n], old[0]
	old.down(0, n)
	*h = old[:n]
	return old[n]
}

func (h termHeap) up(j int) {
	for {
		i := (j - 1) / 2 // parent
		if i == j || !h.less(j, i) {
			break
		}
		h[i], h[j] = h[j], h[i]
		j = i
	}
}

func (h termHeap) down(i0, n int) {
	i := i0
	for {
		j1 := 2*i + 1
		if j1 >= n || j1 < 0 {
			break
		}
		j := j1 // left child
		if j2 := j1 + 1; j2 < n && h.less(j2, j1) {
			j = j2
		}
		if !h.less(j, i) {
			break
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}
