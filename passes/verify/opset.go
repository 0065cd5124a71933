package verify

import (
	"reflect"

	"github.com/otir-dev/otir/ir"
)

// opSet is an insert-only set of operations: the sets of ops defined and
// entered of the walk of irregular IR (see verifier.number), where an op may be
// reached twice, so its order in a block cannot tell whether it was walked.
// It is an open-addressing table with linear probing, sized up front, whose
// hash keeps memory locality: ops are mostly allocated in program order, so
// neighbouring ops land in neighbouring slots and the walk touches the table
// almost sequentially.
//
// The hash is the op's address, as Go's own maps hash pointer keys; Go's
// garbage collector does not move heap objects, so the address is stable.
type opSet struct {
	keys []*ir.Operation // len is a power of two; nil marks an empty slot
	n    int
}

func newOpSet(capacity int) *opSet {
	size := 64
	for size < 2*capacity {
		size <<= 1
	}
	return &opSet{keys: make([]*ir.Operation, size)}
}

// slot is the home slot of op: its address in 128-byte units (an op takes
// more), folded so that distant addresses spread over the table.
func (s *opSet) slot(op *ir.Operation) int {
	a := reflect.ValueOf(op).Pointer() >> 7
	return int(a^a>>20) & (len(s.keys) - 1)
}

// add inserts op (keeping the table at most half full) and reports whether
// it was new.
func (s *opSet) add(op *ir.Operation) bool {
	if 2*(s.n+1) > len(s.keys) {
		s.grow()
	}
	mask := len(s.keys) - 1
	for i := s.slot(op); ; i = (i + 1) & mask {
		switch s.keys[i] {
		case nil:
			s.keys[i] = op
			s.n++
			return true
		case op:
			return false
		}
	}
}

// has reports whether op was added.
func (s *opSet) has(op *ir.Operation) bool {
	mask := len(s.keys) - 1
	for i := s.slot(op); ; i = (i + 1) & mask {
		switch s.keys[i] {
		case nil:
			return false
		case op:
			return true
		}
	}
}

// grow doubles the table and reinserts every key.
func (s *opSet) grow() {
	old := s.keys
	s.keys = make([]*ir.Operation, 2*len(old))
	s.n = 0
	for _, k := range old {
		if k != nil {
			s.add(k)
		}
	}
}
