package cmvm

import (
	"cmp"
	"slices"
)

// Counting a large batch. The first count of a stage and every recount (see
// pairTable.floor) enumerate millions of pairs; they are not staged but
// counted in place, node by node. Rows keep their terms sorted by node, so
// every pair (t, u), t before u in its row, belongs to the group of
// node(t): the pairs of t's occurrences with the rest of their rows. A key
// a ± (b << d) lies in the group of min(a, b) only, so each group's keys
// are counted in a hash table of their own, which stays in the caches
// where one table of every key (tens of MB) missed them on nearly every
// pair. A second pass, group by group again, places each occurrence of a
// live key straight at its final position in the pool.

// termAt locates a term: its row and its index there.
type termAt struct{ row, x int32 }

// bulkBuffers are bulkCount's buffers, kept between counts.
type bulkBuffers struct {
	byNode  []termAt // the rows' terms by node, each node's in row order
	nodeEnd []int32  // per node: the end of its terms in byNode
	counter groupCounter
	keys    []uint64 // the keys seen twice or more, group by group
	counts  []int32  // their counts
	keysEnd []int32  // per node: the end of its group's keys
	group   []int32  // per key: its live pattern's rank, -1 if not live
	live    []int32  // the live keys (indices), ascending
	start   []int32  // per live key: its first occurrence in the pool
	hist    []int
	groups  [][]termAt // indexByNode's result
	want    []uint64   // per node, the second pass's filter (wantBit)
}

// want marks live key k of group m in the second pass's filter: the bits
// of the pairs (t, u) it can be, t of node m, in the set of u's node.
func want(set []uint64, k uint64, m int32) {
	a, b, d, neg := splitKey(k)
	if a == m { // t is the term at the lower shift
		set[b] |= wantBit(d, neg)
	}
	if b == m { // t is the one at the higher shift
		set[a] |= wantBit(-d, neg)
	}
}

// wantBit is the filter bit of a pair whose second term lies d places
// above the first, with opposite signs when neg: a hash of the key given
// both nodes.
func wantBit(d int32, neg bool) uint64 {
	x := uint(2 * d)
	if neg {
		x++
	}
	return 1 << (x & 63)
}

// pairKeyOnly is pairKey's key.
func pairKeyOnly(t, u term) uint64 {
	k, _ := pairKey(t, u)
	return k
}

// bulkCount counts every usable pair of rows and makes the live patterns,
// leaving the table exactly as staging every pair and calling addGroups
// would (same slots, same list orders: groups by ascending key, each in
// the order of the rows), without the staging buffers (48 bytes a pair)
// and with a pool allocated once at its final size.
//
// With budget > 0, only the keys seen at least floor times are made live,
// floor the smallest count whose keys hold at most budget occurrences in
// all (at least 2): the others are not tracked (see pairTable.floor).
func (e *engine) bulkCount(rows []row, budget int) {
	t := e.pairs
	b := &t.bulk
	groups := b.indexByNode(rows, len(e.nodes))
	// First pass: count each group's keys.
	h := &b.counter
	b.keys, b.counts = b.keys[:0], b.counts[:0]
	b.keysEnd = slices.Grow(b.keysEnd[:0], len(groups))[:len(groups)]
	n := 0
	count := func(_ *row, t, u term) {
		n++
		// A pair's key occurs at most once per term of either node (the
		// other term is then fixed): with a node of one term, once.
		if len(groups[t.node]) > 1 && len(groups[u.node]) > 1 {
			h.add(pairKeyOnly(t, u))
		}
	}
	for m, g := range groups {
		if len(g) > 0 {
			h.reset()
			e.eachPairOf(rows, g, nil, count)
			for _, s := range h.used {
				if c := h.vals[s]; c >= 2 {
					b.keys, b.counts = append(b.keys, h.keys[s]-1), append(b.counts, c)
				}
			}
		}
		b.keysEnd[m] = int32(len(b.keys))
	}
	t.floor = 2
	if n <= maxHashGroup {
		// Small after all (a depth bound left few usable pairs): stage them,
		// as addGroups groups such batches by hashing, in another order.
		e.stageRows(rows)
		t.addGroups()
		return
	}
	if budget > 0 && n > budget {
		t.floor = b.floor(budget)
	}
	live := b.sortedLive(t.floor)
	// Every live key's occurrences go to pool[first+start[g]:], g its rank.
	total := int32(0)
	b.start = slices.Grow(b.start[:0], len(live))[:len(live)]
	for g, x := range live {
		b.start[g] = total
		total += b.counts[x]
	}
	first := int32(len(t.pool))
	if cap(t.pool)-len(t.pool) < int(total) {
		// With room for a slightly larger next stage or block, which then
		// reuses this memory instead of allocating its own.
		t.pool = slices.Grow(t.pool, int(total)+int(total)/4)
	}
	t.pool = t.pool[:len(t.pool)+int(total)]
	// Second pass: place the occurrences of the live keys.
	base := int32(len(t.keys))
	next := b.start
	place := func(r *row, u, v term) {
		if g, ok := h.get(pairKeyOnly(u, v)); ok {
			_, o := e.occurrenceOf(r, u, v)
			t.pool[first+next[g]] = occNode{occurrence: o, slot: base + g}
			next[g]++
		}
	}
	// set filters, by node, the pairs that can be of a live key of the group.
	set := slices.Grow(b.want[:0], len(groups))[:len(groups)]
	clear(set)
	b.want = set
	lo := int32(0)
	for m, g := range groups {
		hi := b.keysEnd[m]
		h.reset()
		for x := lo; x < hi; x++ {
			if r := b.group[x]; r >= 0 {
				h.set(b.keys[x], r)
				want(set, b.keys[x], int32(m))
			}
		}
		if len(h.used) > 0 {
			e.eachPairOf(rows, g, set, place)
			for x := lo; x < hi; x++ {
				ka, kb, _, _ := splitKey(b.keys[x])
				set[ka], set[kb] = 0, 0
			}
		}
		lo = hi
	}
	// next[g] is now the end of group g (its start is the previous end).
	start := first
	for g, x := range live {
		end := first + next[g]
		i := t.newSlot(b.keys[x])
		w := weightOf(end - start)
		for j := start; j < end; j++ {
			o := t.pool[j].occurrence
			t.linkAt(i, j, o)
			t.conf[o.t] += w
			t.conf[o.u] += w
		}
		t.setCount(i, 0, end-start)
		start = end
	}
}

// indexByNode lists the terms of rows by node and returns each node's
// list (in the order of the rows, then of their terms).
func (b *bulkBuffers) indexByNode(rows []row, nodes int) [][]termAt {
	end := slices.Grow(b.nodeEnd[:0], nodes)[:nodes]
	clear(end)
	total := 0
	for i := range rows {
		for _, u := range rows[i].terms {
			end[u.node]++
		}
		total += len(rows[i].terms)
	}
	sum := int32(0)
	for m, c := range end {
		end[m] = sum // the start, until the terms are placed
		sum += c
	}
	at := slices.Grow(b.byNode[:0], total)[:total]
	for i := range rows {
		for x, u := range rows[i].terms {
			at[end[u.node]] = termAt{row: int32(i), x: int32(x)}
			end[u.node]++
		}
	}
	b.byNode, b.nodeEnd = at, end
	groups := slices.Grow(b.groups[:0], nodes)[:nodes]
	b.groups = groups
	lo := int32(0)
	for m, hi := range end {
		groups[m] = at[lo:hi:hi]
		lo = hi
	}
	return groups
}

// eachPairOf calls f on every usable pair of the terms ts with the terms
// after them in their rows, in the order of ts, then of the rows; with
// a filter set (see want), only on the pairs it lets through.
func (e *engine) eachPairOf(rows []row, ts []termAt, set []uint64, f func(r *row, t, u term)) {
	for _, a := range ts {
		r := &rows[a.row]
		s := e.slack(r)
		t := r.terms[a.x]
		for _, u := range r.terms[a.x+1:] {
			if (set == nil || set[u.node]&wantBit(u.shift-t.shift, u.sign != t.sign) != 0) && e.counted(t, u, s) {
				f(r, t, u)
			}
		}
	}
}

// stageRows stages every usable pair of rows, row by row.
func (e *engine) stageRows(rows []row) {
	for i := range rows {
		r := &rows[i]
		s := e.slack(r)
		for x, t := range r.terms {
			for _, u := range r.terms[x+1:] {
				if e.counted(t, u, s) {
					e.stage(r, t, u)
				}
			}
		}
	}
}

// floor returns the smallest count whose keys (those counted, twice or
// more) hold at most budget occurrences in all, but at least one count's
// keys, and at least 2.
func (b *bulkBuffers) floor(budget int) int32 {
	hist := b.hist[:0]
	for _, c := range b.counts {
		for len(hist) <= int(c) {
			hist = append(hist, 0)
		}
		hist[c] += int(c)
	}
	b.hist = hist
	sum := 0
	for c := len(hist) - 1; c >= 2; c-- {
		if sum > 0 && sum+hist[c] > budget {
			return int32(c + 1)
		}
		sum += hist[c]
	}
	return 2
}

// sortedLive returns the indices of the keys counted at least floor times,
// by ascending key (the order of their slots), and ranks them in b.group.
func (b *bulkBuffers) sortedLive(floor int32) []int32 {
	live := b.live[:0]
	for x, c := range b.counts {
		if c >= floor {
			live = append(live, int32(x))
		}
	}
	slices.SortFunc(live, func(x, y int32) int { return cmp.Compare(b.keys[x], b.keys[y]) })
	b.group = slices.Grow(b.group[:0], len(b.keys))[:len(b.keys)]
	for x := range b.group {
		b.group[x] = -1
	}
	for g, x := range live {
		b.group[x] = int32(g)
	}
	b.live = live
	return live
}

// groupCounter maps uint64 keys to int32 values (counts, or ranks) in an
// open-addressing table (linear probing, Fibonacci hashing) that doubles at
// half load and is emptied through the list of the slots it used, so that
// a small group costs only its own slots.
type groupCounter struct {
	keys  []uint64 // key + 1, 0 marking an empty slot
	vals  []int32
	used  []int32 // the occupied slots
	shift uint
	moved []keyVal // grow's
}

// groupCounterBits sizes the table after a reset (2^bits slots): a group
// of an input of a 128x128 int8 matrix holds a few thousand keys.
const groupCounterBits = 12

// reset empties the table.
func (h *groupCounter) reset() {
	for _, s := range h.used {
		h.keys[s] = 0
	}
	h.used = h.used[:0]
	const size = 1 << groupCounterBits
	if len(h.keys) == 0 {
		h.keys, h.vals = make([]uint64, size), make([]int32, size)
	}
	h.keys, h.vals = h.keys[:size], h.vals[:size]
	h.shift = 64 - groupCounterBits
}

// slot returns k's slot, claiming an empty one (value 0) if k is absent.
func (h *groupCounter) slot(k uint64) int {
	k++
	mask := uint64(len(h.keys) - 1)
	for i := (k * 0x9e3779b97f4a7c15) >> h.shift; ; i = (i + 1) & mask {
		switch h.keys[i] {
		case k:
			return int(i)
		case 0:
			h.keys[i], h.vals[i] = k, 0
			h.used = append(h.used, int32(i))
			if 2*len(h.used) > len(h.keys) {
				h.grow()
				return h.slot(k - 1)
			}
			return int(i)
		}
	}
}

// add counts one more occurrence of k.
func (h *groupCounter) add(k uint64) { h.vals[h.slot(k)]++ }

// set gives k the value v.
func (h *groupCounter) set(k uint64, v int32) { h.vals[h.slot(k)] = v }

// get returns k's value, or false when k is absent.
func (h *groupCounter) get(k uint64) (int32, bool) {
	k++
	mask := uint64(len(h.keys) - 1)
	for i := (k * 0x9e3779b97f4a7c15) >> h.shift; ; i = (i + 1) & mask {
		switch h.keys[i] {
		case k:
			return h.vals[i], true
		case 0:
			return 0, false
		}
	}
}

// grow doubles the table, keeping its keys and values and the order of
// used.
func (h *groupCounter) grow() {
	h.moved = h.moved[:0]
	for _, s := range h.used {
		h.moved = append(h.moved, keyVal{h.keys[s], h.vals[s]})
		h.keys[s] = 0
	}
	n := 2 * len(h.keys)
	if cap(h.keys) >= n {
		h.keys, h.vals = h.keys[:n], h.vals[:n] // an earlier group's table
	} else {
		h.keys, h.vals = make([]uint64, n), make([]int32, n)
	}
	h.shift--
	mask := uint64(n - 1)
	for x, kv := range h.moved {
		i := (kv.key * 0x9e3779b97f4a7c15) >> h.shift
		for h.keys[i] != 0 {
			i = (i + 1) & mask
		}
		h.keys[i], h.vals[i] = kv.key, kv.val
		h.used[x] = int32(i)
	}
}

type keyVal struct {
	key uint64
	val int32
}
