package daisopt

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// FuseSums runs dais-fuse-sums on one program: an add, sub or sum that
// reads an add, sub or sum used by nothing else, whose result is exact
// (its type's step is at least as fine as its exact result's, so it does
// not floor), becomes one dais.sum (ALIR spec 4 opcode 11) of both ops'
// terms, as long as it has at most maxTerms terms (3: alkaid's ternary
// adders) and alkaid's interpreter can sum them in int64 (every term
// shifted to the sum's finest step, and the partial sums, within 63 bits
// by the terms' types). Adders never wrap, so the sum computes what the
// two ops did:
// the exact value, floored once to the outer op's type. It saves one op
// and, in the cost model, one adder's latency per fusion. The other dais
// passes do not take sums: run it last, before --emit=alir-v4-* (the
// spec-2 writers expand sums again, see alir.ToSpec2). FuseSums returns the
// number of ops removed.
func FuseSums(prog *ir.Operation, maxTerms int, annotate bool) (int, error) {
	if maxTerms < 2 {
		return 0, fmt.Errorf("dais-fuse-sums: max-terms must be at least 2, got %d", maxTerms)
	}
	d, err := dais.Load(prog)
	if err != nil {
		return 0, err
	}
	p, err := dais.ProgramOf(prog) // validates a dense program
	if err != nil {
		return 0, err
	}
	if d.P != p { // converted from ops: the pass owns d
		d.P = p
	}
	uses := make([]int, len(p.Ops))
	for _, op := range p.Ops {
		op.ForOperands(alir.ALIR, func(x int32) { uses[x]++ })
	}
	for _, o := range p.Outputs {
		if o.Index >= 0 {
			uses[o.Index]++
		}
	}
	kif := make([]alir.KIF, len(p.Ops))
	var kifs alir.KIFCache
	for i, o := range p.Ops {
		kif[i], _ = kifs.KIF(o.QInt) // valid: ToALIR validated p
	}
	termsOf := func(i int32) []alir.Term {
		// A rewrite, not a fact: which ops this pass fuses into a sum
		// (add and sub as two terms; a sum already fused).
		switch o := p.Ops[i]; o.Opcode {
		case alir.OpAdd, alir.OpSub:
			return []alir.Term{{ID: o.ID0}, {ID: o.ID1, Shift: int32(o.Data), Neg: o.Opcode == alir.OpSub}}
		case alir.OpSum:
			return o.Terms
		}
		return nil
	}
	// exact reports whether op i's value is its exact result: an adder
	// whose step is no coarser than its terms' finest.
	exact := func(i int32) bool {
		ts := termsOf(i)
		if ts == nil {
			return false
		}
		for _, t := range ts {
			if kif[t.ID].Fractionals-int(t.Shift) > kif[i].Fractionals {
				return false
			}
		}
		return true
	}
	// fits reports whether alkaid's interpreter sums ts in int64: it
	// shifts every term to the finest step, then adds them one by one (a
	// chain of adds may stay in range where the sum's partial sums do not).
	fits := func(ts []alir.Term) bool {
		c := math.MinInt
		for _, t := range ts {
			c = max(c, kif[t.ID].Fractionals-int(t.Shift))
		}
		most := 0
		for _, t := range ts {
			k := kif[t.ID]
			mag := k.Width() + c - (k.Fractionals - int(t.Shift)) // |term| <= 2^mag
			if k.Signed {
				mag--
			}
			most = max(most, mag)
		}
		return most+bits.Len(uint(len(ts)-1)) <= 62
	}
	dead := make([]bool, len(p.Ops))
	fused := make([]bool, len(p.Ops))
	for i := range p.Ops {
		ts := termsOf(int32(i))
		if ts == nil {
			continue
		}
		changed := false
	again:
		for k, t := range ts {
			y := t.ID
			yt := termsOf(y)
			if yt == nil || uses[y] != 1 || len(ts)-1+len(yt) > maxTerms || !exact(y) {
				continue
			}
			next := append([]alir.Term(nil), ts[:k]...)
			for _, u := range yt {
				s := int64(u.Shift) + int64(t.Shift)
				if s < -alir.MaxShift || s > alir.MaxShift {
					continue again
				}
				next = append(next, alir.Term{ID: u.ID, Shift: int32(s), Neg: u.Neg != t.Neg})
			}
			next = append(next, ts[k+1:]...)
			if !fits(next) {
				continue
			}
			ts, changed, dead[y] = next, true, true
			goto again
		}
		if changed {
			op := p.Ops[i]
			p.Ops[i] = alir.Op{ID0: -1, ID1: -1, Opcode: alir.OpSum, Terms: ts, QInt: op.QInt, Latency: op.Latency, Cost: op.Cost}
			fused[i] = true
		}
	}
	// Rebuild the program: fused ops are sums, the ops they absorbed go.
	v := &view{prog: prog, d: d, p: p}
	r := v.rebuild()
	removed := 0
	for i, op := range p.Ops {
		if dead[i] {
			removed++
			continue
		}
		r.keep(i, op)
	}
	r.finish()
	if annotate {
		if err := dais.Annotate(prog); err != nil {
			return removed, err
		}
	}
	// The program must still be what it was: valid, portable.
	if _, err := dais.ProgramOf(prog); err != nil {
		return removed, fmt.Errorf("dais-fuse-sums: internal error: %v", err)
	}
	return removed, nil
}
