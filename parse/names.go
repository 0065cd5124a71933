package parse

import (
	"hash/maphash"

	"github.com/otir-dev/otir/ir"
)

// nameTable maps the SSA names of an isolated region to the values they
// define. Names leave it in the reverse order they came (a nested region's
// names when the region ends), which lets an open-addressing table with
// linear probing simply clear their slots. A slot is 8 bytes, a hash tag and
// an index into keys and vals, so the table of a 100k-name kernel (1 MiB)
// stays in cache, where a Go map of the same names takes 4 MiB; and one
// probe both finds a redefinition and inserts.
type nameTable struct {
	slots []nameSlot // a power of two, at most half full
	keys  []string   // names in definition order
	vals  []*ir.Value
}

// nameSlot is a used slot when idx > 0: keys[idx-1] has the hash tag tag.
type nameSlot struct{ tag, idx uint32 }

var nameSeed = maphash.MakeSeed()

func newNameTable(sizeHint int) *nameTable {
	size := 16
	for size < 2*sizeHint {
		size <<= 1
	}
	return &nameTable{slots: make([]nameSlot, size), keys: make([]string, 0, sizeHint), vals: make([]*ir.Value, 0, sizeHint)}
}

// find returns the slot of k: where it is (i >= 0, its index in keys) or
// where it would go (i < 0).
func (t *nameTable) find(k string, h uint64) (slot, i int) {
	mask := len(t.slots) - 1
	tag := uint32(h >> 32)
	for p := int(h) & mask; ; p = (p + 1) & mask {
		s := t.slots[p]
		if s.idx == 0 {
			return p, -1
		}
		if s.tag == tag && t.keys[s.idx-1] == k {
			return p, int(s.idx - 1)
		}
	}
}

// lookup returns the value named k, or nil.
func (t *nameTable) lookup(k string) *ir.Value {
	if _, i := t.find(k, maphash.String(nameSeed, k)); i >= 0 {
		return t.vals[i]
	}
	return nil
}

// insert binds k to v, unless k is bound already: it then returns the value
// k is bound to and changes nothing.
func (t *nameTable) insert(k string, v *ir.Value) *ir.Value {
	if 2*(len(t.keys)+1) > len(t.slots) {
		t.grow()
	}
	h := maphash.String(nameSeed, k)
	p, i := t.find(k, h)
	if i >= 0 {
		return t.vals[i]
	}
	t.keys = append(t.keys, k)
	t.vals = append(t.vals, v)
	t.slots[p] = nameSlot{uint32(h >> 32), uint32(len(t.keys))}
	return nil
}

// grow doubles the slots, inserting the names again in their order (which
// keeps truncate valid).
func (t *nameTable) grow() {
	t.slots = make([]nameSlot, 2*len(t.slots))
	for i, k := range t.keys {
		h := maphash.String(nameSeed, k)
		p, _ := t.find(k, h)
		t.slots[p] = nameSlot{uint32(h >> 32), uint32(i + 1)}
	}
}

// truncate removes the names defined after the first n, latest first. A
// name's slot can be cleared because no name still in the table was placed
// beyond it: every later name is already gone.
func (t *nameTable) truncate(n int) {
	for i := len(t.keys) - 1; i >= n; i-- {
		p, _ := t.find(t.keys[i], maphash.String(nameSeed, t.keys[i]))
		t.slots[p] = nameSlot{}
	}
	clear(t.keys[n:])
	clear(t.vals[n:])
	t.keys, t.vals = t.keys[:n], t.vals[:n]
}
