package cmvm

import (
	"math/bits"
	"slices"
)

// grouper groups keyed occurrences with an open-addressing hash table
// (linear probing, Fibonacci hashing), keeping its memory between calls.
type grouper struct {
	keys  []uint64 // per table slot: key + 1, 0 marking an empty slot
	first []int32  // per table slot: the group's first element
	last  []int32  // per table slot: the group's last element so far
	count []int32  // per table slot: the group's size
	next  []int32  // per element: the next element of its group, or -1
	slot  []int32  // per element: its table slot
	out   []keyedOcc
}

// group calls f once for every group of at least two elements of s sharing
// a key, in the order of the groups' first elements, each group in the
// order of s. f must not keep its argument.
func (g *grouper) group(s []keyedOcc, f func([]keyedOcc)) {
	size, shift := 16, uint(60)
	for size < 2*len(s) {
		size, shift = 2*size, shift-1
	}
	if cap(g.keys) < size {
		g.keys = make([]uint64, size)
		g.first, g.last, g.count = make([]int32, size), make([]int32, size), make([]int32, size)
	}
	g.keys, g.first, g.last, g.count = g.keys[:size], g.first[:size], g.last[:size], g.count[:size]
	clear(g.keys)
	g.next = slices.Grow(g.next[:0], len(s))[:len(s)]
	g.slot = slices.Grow(g.slot[:0], len(s))[:len(s)]
	mask := uint64(size - 1)
	for x := range s {
		k := s[x].key + 1
		i := (k * 0x9e3779b97f4a7c15) >> shift
		for g.keys[i] != 0 && g.keys[i] != k {
			i = (i + 1) & mask
		}
		g.next[x], g.slot[x] = -1, int32(i)
		if g.keys[i] == 0 {
			g.keys[i], g.first[i], g.last[i], g.count[i] = k, int32(x), int32(x), 1
			continue
		}
		g.next[g.last[i]] = int32(x)
		g.last[i] = int32(x)
		g.count[i]++
	}
	for x := range s {
		i := g.slot[x]
		if g.first[i] != int32(x) || g.count[i] < 2 {
			continue
		}
		g.out = g.out[:0]
		for y := int32(x); y >= 0; y = g.next[y] {
			g.out = append(g.out, s[y])
		}
		f(g.out)
	}
}

// sortByKey sorts s by key (deterministically) and returns the scratch
// buffer it used. Large inputs use an LSD radix sort over the key bits
// actually in use (keys of small node ids are short), which beats comparison
// sorting of these 32-byte records several times over.
func sortByKey(s, buf []keyedOcc) []keyedOcc {
	if len(s) < 128 {
		slices.SortFunc(s, func(x, y keyedOcc) int {
			switch {
			case x.key < y.key:
				return -1
			case x.key > y.key:
				return 1
			}
			return 0
		})
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
