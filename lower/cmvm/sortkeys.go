package cmvm

import (
	"cmp"
	"math/bits"
	"slices"
)

// grouper groups keyed occurrences with an open-addressing hash table
// (linear probing, Fibonacci hashing), keeping its memory between calls.
type grouper struct {
	table []groupSlot // empty between calls (group clears the slots it used)
	slots []int32     // the table's used slots, in the order of their first element
	next  []int32     // per element: the next element of its group, or -1
	out   []keyedOcc
}

// groupSlot is one slot of grouper's table, its fields side by side so that
// a probe touches one cache line.
type groupSlot struct {
	key         uint64 // key + 1, 0 marking an empty slot
	first, last int32  // the group's first element and its last so far
	count       int32  // the group's size
}

// group calls f once for every group of at least two elements of s sharing
// a key, in the order of the groups' first elements, each group in the
// order of s. f must not keep its argument.
func (g *grouper) group(s []keyedOcc, f func([]keyedOcc)) {
	size, shift := 16, uint(60)
	for size < 2*len(s) {
		size, shift = 2*size, shift-1
	}
	if cap(g.table) < size {
		g.table = make([]groupSlot, size)
	}
	g.table = g.table[:size]
	g.slots = g.slots[:0]
	g.next = slices.Grow(g.next[:0], len(s))[:len(s)]
	mask := uint64(size - 1)
	for x := range s {
		k := s[x].key + 1
		i := (k * 0x9e3779b97f4a7c15) >> shift
		for g.table[i].key != 0 && g.table[i].key != k {
			i = (i + 1) & mask
		}
		g.next[x] = -1
		sl := &g.table[i]
		if sl.key == 0 {
			*sl = groupSlot{key: k, first: int32(x), last: int32(x), count: 1}
			g.slots = append(g.slots, int32(i))
			continue
		}
		g.next[sl.last] = int32(x)
		sl.last = int32(x)
		sl.count++
	}
	for _, i := range g.slots {
		sl := &g.table[i]
		if sl.count < 2 {
			continue
		}
		g.out = g.out[:0]
		for y := sl.first; y >= 0; y = g.next[y] {
			g.out = append(g.out, s[y])
		}
		f(g.out)
	}
	for _, i := range g.slots {
		g.table[i] = groupSlot{}
	}
}

// byKey orders keyed occurrences by key.
func byKey(x, y keyedOcc) int { return cmp.Compare(x.key, y.key) }

// sortByKey sorts s by key (deterministically) and returns the scratch
// buffer it used. Large inputs use an LSD radix sort over the key bits
// actually in use (keys of small node ids are short), which beats comparison
// sorting of these 32-byte records several times over.
func sortByKey(s, buf []keyedOcc) []keyedOcc {
	if len(s) < 128 {
		slices.SortFunc(s, byKey)
		return buf
	}
	var all uint64
	for _, x := range s {
		all |= x.key
	}
	const radix = 11
	if cap(buf) < len(s) {
		buf = make([]keyedOcc, len(s))
	}
	buf = buf[:len(s)]
	src, dst := s, buf
	for shift := 0; shift < bits.Len64(all); shift += radix {
		var count [1 << radix]int
		for _, x := range src {
			count[x.key>>uint(shift)&(1<<radix-1)]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, x := range src {
			d := x.key >> uint(shift) & (1<<radix - 1)
			dst[count[d]] = x
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &s[0] {
		copy(s, src)
	}
	return buf
}
