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
// The tree is built by Huffman's rule on time, under the da4ml cost model
// (an adder n bits wide takes ceil(n/carry_size) steps, 1 when carry_size
// < 1): when every leaf is available at once it is a balanced tree of depth
// ceil(log2 n), and when they are not it is the tree of least latency for
// unit adders (a balanced tree would delay the late leaves). Which terms
// it pairs is width-aware: any two terms available no later than the
// second earliest may be paired without making the root later (for unit
// adders: the pair's result is ready no later than Huffman's, and the term
// left over is ready no later than the one Huffman would leave), and among
// them (the first pairWindow) it adds the two whose sum spans the fewest
// bits (narrowSum), or whose adder costs the fewest LUTs (fewLUTs;
// alir.AdderLUTs: aligned shifts, narrow ranges). Both trees are built,
// and the one pairing strictly the two earliest terms (earliest, the
// shallower first among terms available at once), and of those that make
// the root neither later nor deeper the best wins: earlier, then shallower
// (adder depth as otir-run info counts it: a constant add is no level),
// then fewer LUTs. Greedy pairing is not always the cheaper, and
// when carry_size >= 1 an adder's delay depends on its width, so that a
// width-aware tree may be later. Only the strict tree is built when every
// leaf is alike (alike), and not when a width-aware tree paired the two
// earliest at every step (it is that tree). A chain is rebuilt when that
// makes its root available earlier, or as early with fewer estimated LUTs
// in the chain's adders, and never when the root's adder depth would grow;
// the adder count stays (a tree of n leaves has n-1 adders). A chain is
// left alone when a new node would be wider than 64 bits or need a shift
// beyond ALIR's bound.
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
// result or a new node's, whose raw values at f fractional bits lie in s
// (its type w bits wide), and which is available at time at, at adder
// depth depth (alir.Program.AdderLevels: a constant add adds no level);
// varies tells that some input changes it (alir.Program.Varies).
type term struct {
	neg    bool
	shift  int64
	id     int32 // the slot, or the id of a new node (balancer.next)
	s      span
	f      int
	w      int
	at     float64
	depth  int
	varies bool
	seq    int // order of creation, to break ties
}

// lead reports whether the term is +value*2^0, as the root's first operand
// must be.
func (t term) lead() bool { return !t.neg && t.shift == 0 }

// low is the position of the term's least significant bit, in units of
// the chain (2^0 of its root's value).
func (t term) low() int { return int(t.shift) - t.f }

// placedLike reports whether t and u have the same shift, position and
// width: pairing either with a third term costs the same.
func (t term) placedLike(u term) bool {
	return t.shift == u.shift && t.low() == u.low() && t.w == u.w
}

// balancer holds the state of one Balance run.
type balancer struct {
	v      *view
	r      *ranges
	inner  []bool    // slot is an inner node of some chain
	at     []float64 // time at which each slot is available
	depth  []int     // adder depth of each slot, as otir-run info counts it
	varies []bool    // some input changes the slot's value
	// before lists, per root slot, the new nodes to insert before it.
	before map[int][]alir.Op // new nodes, made before the root
	root   map[int]alir.Op   // the rebuilt roots
	next   int32             // id of the next new node: len(p.Ops), len(p.Ops)+1, ...
	drop   []bool
	// stack and terms are leaves' buffers, heap tree's and cands pair's,
	// reused from chain to chain.
	stack []leafItem
	terms []term
	heap  termHeap
	cands []term
}

// leafItem is a node of a chain that leaves has still to visit.
type leafItem struct {
	slot  int32
	neg   bool
	shift int64
}

func (v *view) balance() int {
	n := len(v.p.Ops)
	b := &balancer{v: v, r: analyze(v), at: make([]float64, n), depth: make([]int, n), varies: v.p.Varies(v.kif),
		before: map[int][]alir.Op{}, root: map[int]alir.Op{}, next: int32(n), drop: make([]bool, n)}
	b.markInner()
	rebuilt := 0
	for i, op := range v.p.Ops {
		if isAddSub(op) && !b.inner[i] && b.rebuild(i) {
			rebuilt++
			continue // rebuild set b.at[i] and b.depth[i]
		}
		ids, k := args(op)
		t, d := 0.0, 0
		for _, a := range ids[:k] {
			t = math.Max(t, b.at[a])
			d = max(d, b.depth[a])
		}
		if isAdder(op.Opcode) {
			t += b.delay(v.kif[i].Width())
		}
		b.at[i], b.depth[i] = t, d+v.p.AdderLevels(i, b.varies)
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
			k := b.v.kif[it.slot]
			terms = append(terms, term{neg: it.neg, shift: it.shift, id: it.slot,
				s: b.r.span[it.slot], f: k.Fractionals, w: k.Width(), at: b.at[it.slot], depth: b.depth[it.slot],
				varies: b.varies[it.slot], seq: len(terms)})
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

// slotLUTs is the estimated LUTs of the add or sub in slot i
// (alir.PlacedAdderLUTs of its operands' and result's types).
func (b *balancer) slotLUTs(i int) int {
	op := b.v.p.Ops[i]
	ka, kb, kr := b.v.kif[op.ID0], b.v.kif[op.ID1], b.v.kif[i]
	return alir.PlacedAdderLUTs(-ka.Fractionals, ka.Width(), int(op.DataLow())-kb.Fractionals, kb.Width(), -kr.Fractionals, kr.Width())
}

// tree is a rebuilt chain: the new nodes, in order, and the root's op
// (operands wired): its operands are ready at time at, the root itself is
// at adder depth depth (as otir-run info counts it), and its adders cost
// luts. strict says that each node added the two earliest terms.
type tree struct {
	nodes  []alir.Op
	root   alir.Op
	at     float64
	depth  int
	luts   int
	strict bool
}

// better reports whether t is the tree to prefer to u: earlier, then as
// deep or shallower, then cheaper.
func (t tree) better(u tree) bool {
	if t.at != u.at {
		return t.at < u.at
	}
	if t.depth != u.depth {
		return t.depth < u.depth
	}
	return t.luts < u.luts
}

// rebuild re-associates the chain rooted at slot root if that makes the
// root available earlier, or as early with fewer LUTs, at no more adder
// depth (see Balance), and sets b.at[root] and b.depth[root].
func (b *balancer) rebuild(root int) bool {
	terms, inner := b.leaves(root)
	if len(inner) == 0 {
		return false
	}
	rop := b.v.p.Ops[root]
	old := tree{at: math.Max(b.at[rop.ID0], b.at[rop.ID1]), luts: b.slotLUTs(root),
		depth: max(b.depth[rop.ID0], b.depth[rop.ID1]) + b.v.p.AdderLevels(root, b.varies)}
	for _, s := range inner {
		old.luts += b.slotLUTs(int(s))
	}
	var best tree
	ok, strictBuilt := false, false
	consider := func(t tree, tok bool) { // the best tree that delays nothing
		if tok && t.at <= old.at && t.depth <= old.depth && (!ok || t.better(best)) {
			best, ok = t, true
		}
	}
	if !alike(terms) { // else pairing by width is pairing the earliest
		for _, by := range []pairing{narrowSum, fewLUTs} {
			t, tok := b.tree(root, terms, by)
			strictBuilt = strictBuilt || tok && t.strict
			consider(t, tok)
		}
	}
	if !strictBuilt {
		consider(b.tree(root, terms, earliest))
	}
	if !ok || (best.at == old.at && best.luts >= old.luts) {
		return false
	}
	b.next += int32(len(best.nodes))
	b.root[root] = best.root
	b.before[root] = best.nodes
	for _, s := range inner {
		b.drop[s] = true
	}
	b.at[root] = best.at + b.delay(b.v.kif[root].Width())
	b.depth[root] = best.depth
	return true
}

// alike reports whether all terms are available at once, with the same
// shift, position and width: pairing them by width is pairing the earliest
// (a shortcut: a matmul's sums of products are such chains).
func alike(terms []term) bool {
	for _, t := range terms[1:] {
		if t.at != terms[0].at || !t.placedLike(terms[0]) {
			return false
		}
	}
	return true
}

// tree builds a tree over the chain's terms (not changed) for the root in
// slot root, its new nodes numbered from b.next, pairing terms as by says.
// ok is false when some node
// cannot be made (see node) or the root's operands would not be exact at
// its step. The tree's at is its root's operands', its depth the root's.
func (b *balancer) tree(root int, terms []term, by pairing) (t tree, ok bool) {
	rop := b.v.p.Ops[root]
	h := append(b.heap[:0], terms...)
	defer func() { b.heap = h[:0] }()
	h.init()
	seq := len(terms)
	id := b.next
	t.strict = true
	for len(h) > 2 {
		x, y, first := h.pop(), h.pop(), true
		if by != earliest {
			x, y, first = b.pair(&h, x, y, by)
		}
		t.strict = t.strict && first
		n, node, ok := b.node(x, y, id)
		if !ok {
			return t, false
		}
		id++
		n.seq = seq
		seq++
		t.nodes = append(t.nodes, node)
		t.luts += alir.PlacedAdderLUTs(x.low(), x.w, y.low(), y.w, n.low(), n.w)
		h.push(n)
	}
	l, r := h[0], h[1]
	if !l.lead() {
		l, r = r, l
	}
	if !l.lead() {
		return t, false
	}
	op, ok := combine(l, r, rop.QInt)
	if !ok || max(l.f, r.f-int(op.Data)) < b.v.kif[root].Fractionals {
		return t, false // the root's step would be finer than its exact result's
	}
	op.ID0, op.ID1 = l.id, r.id
	op.Latency, op.Cost = rop.Latency, rop.Cost
	t.root = op
	k := b.v.kif[root]
	t.luts += alir.PlacedAdderLUTs(l.low(), l.w, r.low(), r.w, -k.Fractionals, k.Width())
	t.at, t.depth = math.Max(l.at, r.at), max(l.depth, r.depth)+addLevel(l, r)
	return t, true
}

// pairing is how tree chooses the terms to add next.
type pairing uint8

const (
	earliest  pairing = iota // the two earliest (Huffman's rule)
	fewLUTs                  // pair: the cheapest adder first
	narrowSum                // pair: the narrowest sum first
)

// pairWindow bounds the terms pair weighs against each other (their
// pairs: pairWindow², a step), so that a long chain stays n log n.
const pairWindow = 16

// pair returns the two terms to add next, width-aware, given x and y, the
// two earliest, taken from h: among the terms available no later than y
// (at most pairWindow of them, earliest first), the two whose adder costs
// the fewest LUTs, then whose sum spans the fewest bits (fewLUTs), or the
// other way round (narrowSum), then the first made. The others go back to
// h. The bool reports that they are x and y.
func (b *balancer) pair(h *termHeap, x, y term, by pairing) (term, term, bool) {
	c := append(b.cands[:0], x, y)
	same := x.placedLike(y)
	for len(*h) > 0 && len(c) < pairWindow && (*h)[0].at <= y.at {
		t := h.pop()
		same = same && t.placedLike(x)
		c = append(c, t)
	}
	b.cands = c[:0]
	bi, bj := 0, 1
	if !same { // else the terms are alike: every pair costs the same
		bcost, bspan := math.MaxInt, math.MaxInt
		for i := range c {
			for j := i + 1; j < len(c); j++ {
				x, y := c[i], c[j]
				if d := y.shift - x.shift; d < -alir.MaxShift || d > alir.MaxShift {
					continue
				}
				lo, hi := min(x.low(), y.low()), max(x.low()+x.w, y.low()+y.w)
				cost := alir.PlacedAdderLUTs(x.low(), x.w, y.low(), y.w, lo, hi-lo+1)
				if by == fewLUTs && (cost < bcost || cost == bcost && hi-lo < bspan) ||
					by == narrowSum && (hi-lo < bspan || hi-lo == bspan && cost < bcost) {
					bi, bj, bcost, bspan = i, j, cost, hi-lo
				}
			}
		}
	}
	for k, t := range c {
		if k != bi && k != bj {
			h.push(t)
		}
	}
	return c[bi], c[bj], bi == 0 && bj == 1
}

// node builds the new inner node (of the given id) adding terms x and y
// exactly; the term it stands for keeps the sign and shift of its first
// operand, the lead when either is (so the lead's subtree stays a lead).
func (b *balancer) node(x, y term, id int32) (term, alir.Op, bool) {
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
	at := math.Max(l.at, r.at) + b.delay(k.Width())
	return term{neg: l.neg, shift: l.shift, id: id, s: s, f: k.Fractionals, w: k.Width(), at: at,
		depth: max(l.depth, r.depth) + addLevel(l, r), varies: l.varies || r.varies}, op, true
}

// addLevel is the adder level an add or sub of l and r adds to a path
// (alir.Program.AdderLevels' rule for two operands): one when both vary,
// none for a constant add.
func addLevel(l, r term) int {
	if l.varies && r.varies {
		return 1
	}
	return 0
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

// termHeap orders terms by availability, then adder depth, then creation: a binary
// min-heap, as container/heap keeps one (the same order of pops), without
// boxing each term in an interface.
type termHeap []term

func (h termHeap) less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	if h[i].depth != h[j].depth {
		return h[i].depth < h[j].depth
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
