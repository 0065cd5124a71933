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
// holding only each operation's id (4 bytes): the caller keeps the
// operations and gives their keys (key), which the set reads back as it
// probes. For programs of a million ops it is several times faster than
// such a map, whose hashing of 48-byte keys dominated lower-tiles and
// dais-cse. The zero value is an empty set.
type OpKeySet struct {
	ids []int32 // -1: empty; open addressing, linear probing; a power of two
	n   int
}

// Find returns the id of the operation whose key is k, or -1.
func (s *OpKeySet) Find(k OpKey, key func(id int32) OpKey) int32 {
	if len(s.ids) == 0 {
		return -1
	}
	mask := uint64(len(s.ids) - 1)
	for i := k.hash() & mask; ; i = (i + 1) & mask {
		id := s.ids[i]
		if id < 0 {
			return -1
		}
		if key(id) == k {
			return id
		}
	}
}

// Insert adds the operation id, whose key (key(id)) is not in s.
func (s *OpKeySet) Insert(id int32, key func(id int32) OpKey) {
	if 2*(s.n+1) > len(s.ids) {
		old := s.ids
		s.ids = make([]int32, max(2*len(old), 1024))
		for i := range s.ids {
			s.ids[i] = -1
		}
		for _, x := range old {
			if x >= 0 {
				s.place(x, key(x))
			}
		}
	}
	s.place(id, key(id))
	s.n++
}

func (s *OpKeySet) place(id int32, k OpKey) {
	mask := uint64(len(s.ids) - 1)
	i := k.hash() & mask
	for s.ids[i] >= 0 {
		i = (i + 1) & mask
	}
	s.ids[i] = id
}
