package exec

import "sync"

// Working memory of finished runs is kept for later ones: the int64 storage
// of an instruction's result buffer (instr.out) and of a #workgroup tile dies
// with its run or workgroup (a Result holds only the #global copies and the
// caller's buffers), so a later one takes it instead of allocating, and the
// garbage collector has less to do. A slice taken is cleared, the same as a
// new one. At most sparePerLen slices of a length are kept, and at most
// maxSpareInts elements in all. (A run takes a slice once per instruction,
// the first time it runs, and per #workgroup allocation.)

const (
	sparePerLen  = 16
	maxSpareInts = 1 << 21 // 16 MB
)

var spare struct {
	sync.Mutex
	ints map[int][][]int64 // by length
	n    int               // elements kept
}

// takeInts returns n zeroed int64s: a kept slice, else a new one.
func takeInts(n int) []int64 {
	spare.Lock()
	if l := spare.ints[n]; len(l) > 0 {
		s := l[len(l)-1]
		spare.ints[n] = l[:len(l)-1]
		spare.n -= n
		spare.Unlock()
		clear(s)
		return s
	}
	spare.Unlock()
	return make([]int64, n)
}

// giveInts keeps s for a later takeInts; nothing may use s afterwards.
func giveInts(s []int64) {
	n := len(s)
	if n == 0 {
		return
	}
	spare.Lock()
	defer spare.Unlock()
	if spare.n+n > maxSpareInts || len(spare.ints[n]) >= sparePerLen {
		return
	}
	if spare.ints == nil {
		spare.ints = map[int][][]int64{}
	}
	spare.ints[n] = append(spare.ints[n], s[:n:n])
	spare.n += n
}
