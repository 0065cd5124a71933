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
	// annotations, its operands replaced by representative slots. A key is
	// made again when the set compares one (no key per slot kept: the
	// representatives of a slot's operands never change).
	canon := func(i int32) alir.Op {
		op := v.p.Ops[i]
		ids, k := args(op)
		for j := range ids[:k] {
			ids[j] = rep[ids[j]]
		}
		if op.Commutes(alir.ALIR) && ids[0] > ids[1] {
			ids[0], ids[1] = ids[1], ids[0]
		}
		return withArgs(op, ids)
	}
	keyOf := func(id int32) alir.OpKey { c := canon(id); return alir.KeyOf(&c) }
	var seen alir.OpKeySet
	seen.Reserve(n)
	// The program is copied from the first removal on (the slots before
	// it are kept as they are canonically): a program without duplicates
	// is not copied at all.
	var r *rebuild
	removed := 0
	for i := range v.p.Ops {
		c := canon(int32(i))
		if prev := seen.Find(alir.KeyOf(&c), keyOf); prev >= 0 {
			if r == nil {
				r = v.rebuild()
				for j := range i {
					r.keep(j, canon(int32(j)))
				}
			}
			rep[i] = prev
			r.alias(i, prev)
			removed++
			continue
		}
		rep[i] = int32(i)
		seen.Insert(int32(i), keyOf)
		if r != nil {
			r.keep(i, c)
		}
	}
	if removed == 0 {
		return 0
	}
	r.finish()
	return removed
}
