package alir

import "math"

// OpKey is an operation without its annotations (latency and cost) and
// terms: the fields by which lower-tiles and dais-cse find an identical,
// earlier operation.
type OpKey struct {
	Opcode   Opcode
	ID0, ID1 int32
	Data     int64
	QInt     QInterval
}

// KeyOf returns op's key.
func KeyOf(op *Op) OpKey { return OpKey{op.Opcode, op.ID0, op.ID1, op.Data, op.QInt} }

// hash mixes the key's fields (0 and -0 alike, as == compares them).
func (k *OpKey) hash() uint64 {
	f := func(x float64) uint64 {
		if x == 0 {
			return 0
		}
		return math.Float64bits(x)
	}
	h := uint64(uint32(k.ID0)) | uint64(uint32(k.ID1))<<32
	h = (h ^ uint64(k.Opcode)) * 0x9E3779B97F4A7C15
	h = (h ^ uint64(k.Data) ^ h>>29) * 0xBF58476D1CE4E5B9
	h = (h ^ f(k.QInt.Min) ^ h>>31) * 0x94D049BB133111EB
	h = (h ^ f(k.QInt.Max) ^ h>>29) * 0x9E3779B97F4A7C15
	h = (h ^ f(k.QInt.Step) ^ h>>32) * 0xBF58476D1CE4E5B9
	return h ^ h>>31
}

// OpKeySet is a set of operations by their OpKeys, as a Go map with OpKey
// keys would hold them (keys equal by ==, so floats compare by value), but
// holding only each operation's id and 32 bits of its key's hash (8
// bytes): the caller keeps the operations and gives their keys (key),
// which the set reads back only when the hash bits match. For programs of
// a million ops it is several times faster than such a map, whose hashing
// of 48-byte keys dominated lower-tiles and dais-cse. The zero value is an
// empty set.
type OpKeySet struct {
	// slots: 0 empty, else the hash's top 32 bits and the id + 1; open
	// addressing, linear probing, indexed by the hash's top bits; the
	// length is a power of two.
	slots []uint64
	n     int
}

// Find returns the id of the operation whose key is k, or -1.
func (s *OpKeySet) Find(k OpKey, key func(id int32) OpKey) int32 {
	if len(s.slots) == 0 {
		return -1
	}
	tag := k.hash() >> 32
	mask := uint64(len(s.slots) - 1)
	for i := tag & mask; ; i = (i + 1) & mask {
		e := s.slots[i]
		if e == 0 {
			return -1
		}
		if e>>32 == tag {
			if id := int32(uint32(e) - 1); key(id) == k {
				return id
			}
		}
	}
}

// Insert adds the operation id, whose key (key(id)) is not in s.
func (s *OpKeySet) Insert(id int32, key func(id int32) OpKey) {
	s.Reserve(s.n + 1)
	k := key(id)
	s.place(k.hash()>>32<<32 | uint64(uint32(id)+1))
	s.n++
}

// Reserve makes room for n operations in all (without growing again).
func (s *OpKeySet) Reserve(n int) {
	if 2*n <= len(s.slots) {
		return
	}
	size := max(len(s.slots), 1024)
	for size < 2*n {
		size *= 2
	}
	old := s.slots
	s.slots = make([]uint64, size)
	for _, e := range old {
		if e != 0 {
			s.place(e)
		}
	}
}

func (s *OpKeySet) place(e uint64) {
	mask := uint64(len(s.slots) - 1)
	i := e >> 32 & mask
	for s.slots[i] != 0 {
		i = (i + 1) & mask
	}
	s.slots[i] = e
}
