package tiles

import (
	"math"

	"github.com/otir-dev/otir/backend/alir"
)

// memoTable finds the emitted op with given fields (memoKey: an op
// without its annotations), for emitTyped's merging of identical ops. It
// is a hash set of slot ids by open addressing (linear probing), the key of
// each read back from the program's ops: 4 bytes an op, and no hashing of
// the key's bytes by the runtime, which made a Go map the lowering's
// largest cost. Keys compare as a Go map compares them (floats by ==).
type memoTable struct {
	ids []int32 // -1: empty; the length is a power of two
	n   int
}

// memoKeyOf returns op's fields as a memoKey.
func memoKeyOf(op *alir.Op) memoKey {
	return memoKey{op.ID0, op.ID1, op.Opcode, op.Data, op.QInt}
}

// hash mixes the key's fields (0 and -0 alike, as == compares them).
func (k *memoKey) hash() uint64 {
	f := func(x float64) uint64 {
		if x == 0 {
			return 0
		}
		return math.Float64bits(x)
	}
	h := uint64(uint32(k.id0)) | uint64(uint32(k.id1))<<32
	h = (h ^ uint64(k.code)) * 0x9E3779B97F4A7C15
	h = (h ^ uint64(k.data) ^ h>>29) * 0xBF58476D1CE4E5B9
	h = (h ^ f(k.q.Min) ^ h>>31) * 0x94D049BB133111EB
	h = (h ^ f(k.q.Max) ^ h>>29) * 0x9E3779B97F4A7C15
	h = (h ^ f(k.q.Step) ^ h>>32) * 0xBF58476D1CE4E5B9
	return h ^ h>>31
}

// find returns the slot of ops whose key is k (hashed to h), or -1.
func (t *memoTable) find(ops []alir.Op, k *memoKey, h uint64) int32 {
	if len(t.ids) == 0 {
		return -1
	}
	mask := uint64(len(t.ids) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		id := t.ids[i]
		if id < 0 {
			return -1
		}
		if memoKeyOf(&ops[id]) == *k {
			return id
		}
	}
}

// insert adds slot id (of ops), whose key hashes to h and is not in t.
func (t *memoTable) insert(ops []alir.Op, id int32, h uint64) {
	if 2*(t.n+1) > len(t.ids) {
		t.grow(ops)
	}
	t.place(id, h)
	t.n++
}

func (t *memoTable) place(id int32, h uint64) {
	mask := uint64(len(t.ids) - 1)
	i := h & mask
	for t.ids[i] >= 0 {
		i = (i + 1) & mask
	}
	t.ids[i] = id
}

// grow doubles the table (at most half full) and rehashes its slots.
func (t *memoTable) grow(ops []alir.Op) {
	old := t.ids
	t.ids = make([]int32, max(2*len(old), 1024))
	for i := range t.ids {
		t.ids[i] = -1
	}
	for _, id := range old {
		if id >= 0 {
			k := memoKeyOf(&ops[id])
			t.place(id, k.hash())
		}
	}
}
