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
// are counted in a table of their own, which stays in the caches where one
// table of every key (tens of MB) missed them on nearly every pair. Within
// a group a key is fixed by the other node, the shift difference and the
// signs, so the table is an array indexed by them (pairIndex), which costs
// a third of hashing. A second pass, group by group again, places each
// occurrence of a live key straight at its final position in the pool.

// termAt locates a term: its row and its index there.
type termAt struct{ row, x int32 }

// bulkBuffers are bulkCount's buffers, kept between counts.
type bulkBuffers struct {
	byNode  []termAt // the rows' terms by node, each node's in row order
	nodeEnd []int32  // per node: the end of its terms in byNode
	table   groupTable
	keys    []uint64 // the keys seen twice or more, group by group
	counts  []int32  // their counts
	keysEnd []int32  // per node: the end of its group's keys
	group   []int32  // per key: its live pattern's rank, -1 if not live
	live    []int32  // the live keys (indices), ascending
	start   []int32  // per live key: its first occurrence in the pool
	hist    []int
	groups  [][]termAt // indexByNode's result
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
	groups, ix := b.indexByNode(rows, len(e.nodes))
	tab := &b.table
	tab.reset(ix)
	nodes := int32(len(groups))
	// First pass: count each group's keys, a chunk of nodes at a time.
	b.keys, b.counts = b.keys[:0], b.counts[:0]
	b.keysEnd = slices.Grow(b.keysEnd[:0], len(groups))[:len(groups)]
	n := 0
	for m, g := range groups {
		for lo := int32(m); len(g) > 0 && lo < nodes; lo += ix.nodes {
			pairs := e.countChunk(rows, g, ix, lo)
			if lo == int32(m) {
				n += pairs
			}
			for _, x := range tab.used[:tab.nUsed] {
				if c := tab.dense[x]; c >= 2 {
					b.keys, b.counts = append(b.keys, ix.key(lo, int32(m), int(x))), append(b.counts, c)
				}
			}
			tab.clear()
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
	// Second pass: place the occurrences of the live keys, group by group
	// (each key's in the order of the rows); the table holds each live
	// key's rank + 1.
	next := b.start
	klo := int32(0)
	for m, g := range groups {
		khi := b.keysEnd[m]
		for lo := int32(m); klo < khi && lo < nodes; lo += ix.nodes {
			for x := klo; x < khi; x++ {
				if r := b.group[x]; r >= 0 {
					if i, ok := ix.ofKey(lo, int32(m), b.keys[x]); ok {
						tab.set(i, r+1)
					}
				}
			}
			if tab.nUsed > 0 {
				e.placeChunk(rows, g, ix, lo, first, next)
				tab.clear()
			}
		}
		klo = khi
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

// countChunk counts, in the group table, the usable pairs of the terms ts
// (of one node) with the later terms of their rows whose node lies in the
// chunk of nodes from lo (see pairIndex), and returns the number of usable
// pairs of ts, in the chunk or not.
func (e *engine) countChunk(rows []row, ts []termAt, ix pairIndex, lo int32) int {
	tab := &e.pairs.bulk.table
	dense, used, nUsed := tab.dense, tab.used, tab.nUsed
	n := 0
	for _, a := range ts {
		r := &rows[a.row]
		s := e.slack(r)
		t := r.terms[a.x]
		for _, u := range r.terms[a.x+1:] {
			if !e.counted(t, u, s) {
				continue
			}
			n++
			if uint32(u.node-lo) >= uint32(ix.nodes) {
				continue
			}
			x := ix.of(lo, t, u)
			c := dense[x]
			dense[x] = c + 1
			// List x if it is new, without a branch (which a good share of
			// the pairs would mispredict): used has room for one more.
			used[nUsed] = int32(x)
			if c == 0 {
				nUsed++
			}
		}
	}
	tab.nUsed = nUsed
	return n
}

// placeChunk places in the pool, from first, the occurrences of the live
// keys the group table ranks (rank + 1) among the pairs countChunk counts,
// each at next[rank], which it advances.
func (e *engine) placeChunk(rows []row, ts []termAt, ix pairIndex, lo, first int32, next []int32) {
	pool, dense := e.pairs.pool, e.pairs.bulk.table.dense
	for _, a := range ts {
		r := &rows[a.row]
		s := e.slack(r)
		t := r.terms[a.x]
		for _, u := range r.terms[a.x+1:] {
			if uint32(u.node-lo) >= uint32(ix.nodes) {
				continue
			}
			if rank := dense[ix.of(lo, t, u)]; rank > 0 && e.counted(t, u, s) {
				_, o := e.occurrenceOf(r, t, u)
				pool[first+next[rank-1]].occurrence = o
				next[rank-1]++
			}
		}
	}
}

// pairIndex numbers the keys of one group densely. The pairs of a term t of
// node m with the terms u after it in its row (u's node n >= m) have keys
// that depend only on n, the shift difference u.shift - t.shift and whether
// the signs differ (pairKey). The index packs (n - lo, difference, signs)
// for the nodes n of a chunk lo..lo+nodes-1 (one chunk from m holds every
// node unless the shifts spread widely over very many nodes).
type pairIndex struct {
	spread  int32 // the largest shift difference
	perNode int   // indices per node: 2 (2 spread + 1)
	nodes   int32 // nodes a chunk spans
}

// maxDenseIndices bounds the group table (4 bytes an index, touched only
// where a pair falls). A variable for the tests.
var maxDenseIndices = 1 << 22

func newPairIndex(spread int32, nodes int) pairIndex {
	p := pairIndex{spread: spread, perNode: 2 * int(2*spread+1)}
	p.nodes = int32(max(min(nodes, maxDenseIndices/p.perNode), 1))
	return p
}

// of returns the index of the pair (t, u), t before u in a row and u's
// node in the chunk from lo.
func (p pairIndex) of(lo int32, t, u term) int {
	// Signs are ±1: their xor is 0 when equal, -2 when not (no branch: the
	// signs are random).
	return int(u.node-lo)*p.perNode + 2*int(u.shift-t.shift+p.spread) + int(u.sign^t.sign)>>1&1
}

// key returns the pattern key of index x in the chunk from lo of the
// group of node m.
func (p pairIndex) key(lo, m int32, x int) uint64 {
	n := lo + int32(x/p.perNode)
	d := int32(x%p.perNode/2) - p.spread
	neg := x&1 == 1
	if d >= 0 { // t is the base term: u's node is above m when d = 0
		return makeKey(m, n, d, neg)
	}
	return makeKey(n, m, -d, neg)
}

// ofKey is the inverse of key: the index of key k (whose lower node is
// m) in the chunk from lo of m's group, or false if its other node lies
// outside the chunk.
func (p pairIndex) ofKey(lo, m int32, k uint64) (int, bool) {
	a, b, d, neg := splitKey(k)
	n := b
	if a != m {
		n, d = a, -d
	}
	if uint32(n-lo) >= uint32(p.nodes) {
		return 0, false
	}
	x := int(n-lo)*p.perNode + 2*int(d+p.spread)
	if neg {
		x++
	}
	return x, true
}

// groupTable holds the counts (or ranks) of a chunk of one group's keys
// by pairIndex.
type groupTable struct {
	dense []int32 // zero but at used[:nUsed]
	used  []int32 // used[:nUsed]: the indices set, in the order first set
	nUsed int
}

// reset prepares the table for the indices of ix.
func (g *groupTable) reset(ix pairIndex) {
	if size := int(ix.nodes) * ix.perNode; len(g.dense) < size {
		g.dense, g.used = make([]int32, size), make([]int32, size+1)
	}
	g.nUsed = 0
}

// set gives index x the value v > 0.
func (g *groupTable) set(x int, v int32) {
	g.dense[x] = v
	g.used[g.nUsed] = int32(x)
	g.nUsed++
}

// clear empties the table.
func (g *groupTable) clear() {
	for _, x := range g.used[:g.nUsed] {
		g.dense[x] = 0
	}
	g.nUsed = 0
}

// indexByNode lists the terms of rows by node and returns each node's
// list (in the order of the rows, then of their terms) and the pairIndex of
// the rows' shifts.
func (b *bulkBuffers) indexByNode(rows []row, nodes int) ([][]termAt, pairIndex) {
	end := slices.Grow(b.nodeEnd[:0], nodes)[:nodes]
	clear(end)
	total := 0
	lo, hi := int32(maxShift), int32(0)
	for i := range rows {
		for _, u := range rows[i].terms {
			end[u.node]++
			lo, hi = min(lo, u.shift), max(hi, u.shift)
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
	start := int32(0)
	for m, stop := range end {
		groups[m] = at[start:stop:stop]
		start = stop
	}
	return groups, newPairIndex(max(hi-lo, 0), nodes)
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
