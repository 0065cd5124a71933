package cmvm

import "slices"

// occurrence is one pair occurrence of a pattern: the row, the shift of its
// base term and the ids of its base (t) and other (u) terms.
type occurrence struct {
	row, shift int32
	t, u       int32
}

// keyedOcc is an occurrence waiting to be grouped by pattern.
type keyedOcc struct {
	key uint64
	occurrence
}

// dropped marks a free occNode (its slot field).
const dropped = -1

// occNode is an occurrence in the table's pool. It is threaded on three
// doubly linked lists: its pattern's, and those of its two terms.
type occNode struct {
	occurrence
	slot       int32
	next, prev int32        // pattern list
	terms      [2]termLinks // the lists of term t (side 0) and term u (side 1)
}

// termLinks are a pool node's neighbours in one term's list.
type termLinks struct{ next, prev termRef }

// termRef is a place in a term's list: pool node j on side s (0 if the term
// is the node's t, 1 if its u), as j<<1 | s, or -1 for none. A link names
// the side of the neighbour it points to, so that unlinking a node only
// writes its neighbours (no load decides which of their lists to patch:
// such loads missed the caches on most drops).
type termRef int32

func refOf(j int32, side int) termRef { return termRef(j<<1 | int32(side)) }

func (r termRef) node() int32 { return int32(r >> 1) }

// links returns the links of place r.
func (t *pairTable) links(r termRef) *termLinks { return &t.pool[r>>1].terms[r&1] }

// pairTable holds the live patterns: those with at least two occurrences.
//
// CSE only ever creates terms of the node it has just built, so a pattern
// between existing nodes can never gain an occurrence: once the new node's
// pairs are grouped, a pattern seen once can never repeat and is dropped,
// and the count of a live pattern only falls (when it reaches 1 the pattern
// dies). Hence patterns are created in batches (addGroups) and then only
// lose occurrences, each removal being O(1) through the term lists.
//
// Live patterns are kept in buckets by count, so the most frequent are found
// without a scan; counts move by one at a time (swap-remove by position).
//
// The table also maintains every term's conflict, conf[term id]: the sum of
// weightOf(count) over the live patterns the term belongs to, i.e. how much
// repetition is lost when the term is consumed.
type pairTable struct {
	keys    []uint64
	count   []int32
	pos     []int32 // position in buckets[count]
	actual  []int32 // cached exact occurrence count, -1 when unknown
	head    []int32 // first occurrence of the pattern, -1 when none
	free    []int32 // dead slots
	buckets [][]int32
	top     int // no bucket above top is non-empty

	// twice runs parallel to buckets[2]: what engine.choose reads of a
	// pattern seen twice, in the bucket's order, instead of walking the
	// pool (the last extractions rescan thousands of such patterns).
	twice []twice
	// few[c], for 3 <= c <= maxFew, runs parallel to buckets[c] likewise:
	// the terms t and u of each pattern's occurrences, 2c ids a pattern
	// (the conflicts, engine.bucketConflicts, read them in order instead
	// of walking the pattern's list through the pool).
	few [maxFew + 1][]int32

	pool     []occNode
	freeOcc  int32     // first free pool node (threaded on next), -1 if none
	termHead []termRef // per term id: first occurrence holding it, -1 if none
	conf     []int32   // per term id
	scratch  []keyedOcc
	sortBuf  []keyedOcc
	groups   grouper

	bulk bulkBuffers // bulkCount's

	// floor: every pattern that is not live occurs fewer than floor times.
	// It is 2 (every repeated pattern is live) unless bulkCount was given a
	// budget: then the patterns counted fewer than floor times in the last
	// full count are not tracked (counts only fall, so they stay below it)
	// and, once no live pattern reaches the floor, the rows are counted
	// anew (engine.choose).
	floor int32
}

// reset empties the table, keeping its memory.
func (t *pairTable) reset() {
	t.keys, t.count, t.pos, t.actual, t.head = t.keys[:0], t.count[:0], t.pos[:0], t.actual[:0], t.head[:0]
	t.twice = t.twice[:0]
	for c := range t.few {
		t.few[c] = t.few[c][:0]
	}
	t.free = t.free[:0]
	for i := range t.buckets {
		t.buckets[i] = t.buckets[i][:0]
	}
	t.top, t.floor = 0, 2
	t.pool, t.freeOcc = t.pool[:0], -1
	t.termHead, t.conf = t.termHead[:0], t.conf[:0]
	t.scratch = t.scratch[:0]
}

// grow makes room for n staged pairs and their occurrences.
func (t *pairTable) grow(n int) {
	t.scratch = slices.Grow(t.scratch[:0], n)
	t.sortBuf = slices.Grow(t.sortBuf[:0], n)
	t.pool = slices.Grow(t.pool[:0], n)
}

// newTerm returns a fresh term id.
func (t *pairTable) newTerm() int32 {
	t.termHead = append(t.termHead, -1)
	t.conf = append(t.conf, 0)
	return int32(len(t.conf) - 1)
}

// weightOf is the conflict weight of a pattern seen c times: the adders its
// extraction would save, c - 1, capped at weightCap. Beyond the cap a
// pattern is "very frequent" either way, and losing one of its occurrences
// changes no conflict, which keeps drops O(1) for the hundreds-strong
// patterns of large matrices.
func weightOf(c int32) int32 { return min(max(c-1, 0), weightCap) }

// weightCap bounds weightOf; 8 measured as good as no cap (docs/cmvm.md).
const weightCap = 8

// stage queues an occurrence of pattern k for the next addGroups.
func (t *pairTable) stage(k uint64, o occurrence) {
	if len(t.scratch) == cap(t.scratch) {
		t.scratch = slices.Grow(t.scratch, max(1024, len(t.scratch)))
	}
	t.scratch = append(t.scratch, keyedOcc{k, o})
}

// addGroups groups the staged occurrences by pattern and makes a live
// pattern of every group of two or more. A staged key is normally new (it
// involves the node just built); when an extraction reuses a node built in
// an earlier stage, a key may already be live and then gets a second slot,
// which is harmless: both slots extract to the same node.
func (t *pairTable) addGroups() {
	s := t.scratch
	if len(s) > maxHashGroup {
		t.sortBuf = sortByKey(s, t.sortBuf)
		for lo := 0; lo < len(s); {
			hi := lo + 1
			for hi < len(s) && s[hi].key == s[lo].key {
				hi++
			}
			if hi-lo >= int(t.floor) {
				t.addGroup(s[lo:hi])
			}
			lo = hi
		}
	} else {
		t.groups.group(s, t.addGroup)
	}
	t.scratch = s[:0]
}

// maxHashGroup is the largest batch grouped by hashing; larger ones (the
// first counting of a big problem) are radix sorted, which streams through
// memory instead of probing a table larger than the caches.
const maxHashGroup = 1 << 16

// addGroup makes a live pattern of occurrences sharing one key, unless
// they are fewer than the floor.
func (t *pairTable) addGroup(g []keyedOcc) {
	if len(g) < int(t.floor) {
		return
	}
	i := t.newSlot(g[0].key)
	w := weightOf(int32(len(g)))
	for _, ko := range g {
		t.link(i, ko.occurrence)
		t.conf[ko.t] += w
		t.conf[ko.u] += w
	}
	t.setCount(i, 0, int32(len(g)))
}

func (t *pairTable) newSlot(k uint64) int32 {
	var i int32
	if n := len(t.free); n > 0 {
		i = t.free[n-1]
		t.free = t.free[:n-1]
		t.keys[i], t.count[i], t.pos[i], t.actual[i], t.head[i] = k, 0, -1, -1, -1
	} else {
		i = int32(len(t.keys))
		t.keys = append(t.keys, k)
		t.count = append(t.count, 0)
		t.pos = append(t.pos, -1)
		t.actual = append(t.actual, -1)
		t.head = append(t.head, -1)
	}
	return i
}

// setCount moves slot i from count old to nw in the buckets.
func (t *pairTable) setCount(i, old, nw int32) {
	if old >= 2 {
		b := t.buckets[old]
		p := t.pos[i]
		last := b[len(b)-1]
		b[p] = last
		t.pos[last] = p
		t.buckets[old] = b[:len(b)-1]
		if old == 2 {
			t.twice[p] = t.twice[len(t.twice)-1]
			t.twice = t.twice[:len(t.twice)-1]
		} else if old <= maxFew {
			f, w := t.few[old], 2*int(old)
			copy(f[int(p)*w:int(p+1)*w], f[len(f)-w:])
			t.few[old] = f[:len(f)-w]
		}
	}
	t.count[i] = nw
	t.actual[i] = -1
	if nw >= 2 {
		for int(nw) >= len(t.buckets) {
			t.buckets = append(t.buckets, nil)
		}
		t.pos[i] = int32(len(t.buckets[nw]))
		t.buckets[nw] = append(t.buckets[nw], i)
		t.top = max(t.top, int(nw))
		if nw == 2 {
			t.twice = append(t.twice, t.twiceOf(i))
		} else if nw <= maxFew {
			t.few[nw] = t.termsOf(i, t.few[nw])
		}
	}
}

// maxFew is the largest count whose patterns keep their terms in
// pairTable.few: counts up to weightCap+1 are the ones every drop already
// walks the pattern's list for (its weight changes), so keeping the terms
// costs a second walk of a list just read; larger patterns are rare.
const maxFew = weightCap + 1

// termsOf appends the terms t and u of slot i's occurrences to dst.
func (t *pairTable) termsOf(i int32, dst []int32) []int32 {
	for j := t.head[i]; j >= 0; j = t.pool[j].next {
		dst = append(dst, t.pool[j].t, t.pool[j].u)
	}
	return dst
}

// twice is a pattern of count 2 as engine.choose sees it: the terms t and
// u of its two occurrences and its effective count (engine.effective).
type twice struct {
	terms     [4]int32
	effective int32
}

// twiceOf returns slot i's twice; its count must be 2.
func (t *pairTable) twiceOf(i int32) twice {
	o, p := t.pool[t.head[i]].occurrence, t.pool[t.pool[t.head[i]].next].occurrence
	w := twice{terms: [4]int32{o.t, o.u, p.t, p.u}, effective: 2}
	if a, b, d, _ := splitKey(t.keys[i]); a == b {
		if o.row > p.row || o.row == p.row && o.shift > p.shift {
			o, p = p, o
		}
		if o.row == p.row && p.shift == o.shift+d {
			w.effective = 1 // a@s, a@s+d, a@s+2d: one can be extracted
		}
	}
	return w
}

// conflicts is engine.conflicts of a pattern seen twice (weightOf(2) is 1).
func (w *twice) conflicts(conf []int32) int32 {
	return conf[w.terms[0]] + conf[w.terms[1]] + conf[w.terms[2]] + conf[w.terms[3]] - 4
}

// link adds occurrence o to slot i's list and to its terms' lists.
func (t *pairTable) link(i int32, o occurrence) {
	var j int32
	if t.freeOcc >= 0 {
		j = t.freeOcc
		t.freeOcc = t.pool[j].next
	} else {
		j = int32(len(t.pool))
		t.pool = append(t.pool, occNode{})
	}
	t.linkAt(i, j, o)
}

// linkAt threads pool node j, holding occurrence o of slot i, on the lists.
func (t *pairTable) linkAt(i, j int32, o occurrence) {
	n := occNode{occurrence: o, slot: i, next: t.head[i], prev: -1}
	n.terms[0] = termLinks{next: t.termHead[o.t], prev: -1}
	n.terms[1] = termLinks{next: t.termHead[o.u], prev: -1}
	t.pool[j] = n
	if n.next >= 0 {
		t.pool[n.next].prev = j
	}
	t.head[i] = j
	t.pushTerm(refOf(j, 0), o.t)
	t.pushTerm(refOf(j, 1), o.u)
}

// pushTerm makes place r the head of term x's list (r's next is the old
// head).
func (t *pairTable) pushTerm(r termRef, x int32) {
	if h := t.termHead[x]; h >= 0 {
		t.links(h).prev = r
	}
	t.termHead[x] = r
}

// unlinkTerm removes place r from term x's list.
func (t *pairTable) unlinkTerm(r termRef, x int32) {
	l := *t.links(r)
	if l.prev >= 0 {
		t.links(l.prev).next = l.next
	} else {
		t.termHead[x] = l.next
	}
	if l.next >= 0 {
		t.links(l.next).prev = l.prev
	}
}

// drop removes occurrence node j from all its lists and the pattern's count;
// a pattern left with one occurrence dies (its last occurrence is dropped).
func (t *pairTable) drop(j int32) {
	n := t.pool[j]
	i := n.slot
	c := t.count[i]
	if n.prev >= 0 {
		t.pool[n.prev].next = n.next
	} else {
		t.head[i] = n.next
	}
	if n.next >= 0 {
		t.pool[n.next].prev = n.prev
	}
	t.unlinkTerm(refOf(j, 0), n.t)
	t.unlinkTerm(refOf(j, 1), n.u)
	t.pool[j].slot = dropped
	t.pool[j].next = t.freeOcc
	t.freeOcc = j
	t.conf[n.t] -= weightOf(c)
	t.conf[n.u] -= weightOf(c)
	if dw := weightOf(c-1) - weightOf(c); dw != 0 {
		for k := t.head[i]; k >= 0; k = t.pool[k].next {
			t.conf[t.pool[k].t] += dw
			t.conf[t.pool[k].u] += dw
		}
	}
	t.setCount(i, c, c-1)
	switch {
	case c-1 == 1:
		t.drop(t.head[i]) // a single occurrence can never repeat
	case c-1 == 0:
		t.keys[i] = 0
		t.free = append(t.free, i)
	}
}

// dropTerm removes every live occurrence holding term x.
func (t *pairTable) dropTerm(x int32) {
	for t.termHead[x] >= 0 {
		t.drop(t.termHead[x].node())
	}
}

// occurrencesOf appends the occurrences of slot i to dst.
func (t *pairTable) occurrencesOf(i int32, dst []occurrence) []occurrence {
	for j := t.head[i]; j >= 0; j = t.pool[j].next {
		dst = append(dst, t.pool[j].occurrence)
	}
	return dst
}
