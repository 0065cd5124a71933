package daisopt

import (
	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
)

// CSE runs dais-cse on one program: in one forward walk with a hash table,
// an op identical to an earlier one (same op, same operands, same
// attributes other than the latency and cost annotations, same result type)
// is removed and its uses read the earlier op. The operands of an op that
// commutes (alir's opcode table: add and bit_binary with shift 0, mul) are
// compared as an unordered pair. Identical inputs and constants merge too. CSE
// returns the number of ops removed.
func CSE(prog *ir.Operation) (int, error) {
	v, err := load(prog)
	if err != nil {
		return 0, err
	}
	return v.cse(), nil
}

func (v *view) cse() int {
	n := len(v.p.Ops)
	rep := make([]int32, n)
	// seen holds the kept slots by their keys: the op without its
	// annotations, its operands replaced by representative slots.
	keys := make([]alir.OpKey, n)
	var seen alir.OpKeySet
	seen.Reserve(n)
	keyOf := func(id int32) alir.OpKey { return keys[id] }
	r := v.rebuild()
	removed := 0
	for i, op := range v.p.Ops {
		ids, k := args(op)
		for j := range ids[:k] {
			ids[j] = rep[ids[j]]
		}
		if op.Commutes(alir.ALIR) && ids[0] > ids[1] {
			ids[0], ids[1] = ids[1], ids[0]
		}
		c := withArgs(op, ids)
		key := alir.KeyOf(&c)
		if prev := seen.Find(key, keyOf); prev >= 0 {
			rep[i] = prev
			r.alias(i, prev)
			removed++
			continue
		}
		keys[i] = key
		seen.Insert(int32(i), keyOf)
		rep[i] = int32(i)
		r.keep(i, c)
	}
	if removed == 0 {
		return 0
	}
	r.finish()
	return removed
}
