package cmvm

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/otir-dev/otir/internal/intrange"
)

// row is what remains to be summed for one output. Its terms are sorted by
// (node, shift), and (node, shift) is unique within a row.
type row struct {
	index int // position in engine.rows
	terms []term
	// load is sum 2^depth over the terms, maintained under a depth bound.
	load uint64
}

// termLess orders terms by (node, shift), as rows keep them.
func termLess(t, u term) int {
	if c := cmp.Compare(t.node, u.node); c != 0 {
		return c
	}
	return cmp.Compare(t.shift, u.shift)
}

// find returns the index of the term (n, shift) in r, or -1.
func (r *row) find(n, shift int32) int {
	ts := r.terms
	lo, hi := 0, len(ts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t := ts[m]; t.node < n || (t.node == n && t.shift < shift) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(ts) && ts[lo].node == n && ts[lo].shift == shift {
		return lo
	}
	return -1
}

func (r *row) remove(i int) { r.terms = slices.Delete(r.terms, i, i+1) }

func (r *row) insert(t term) {
	i, _ := slices.BinarySearchFunc(r.terms, t, termLess)
	r.terms = slices.Insert(r.terms, i, t)
}

// setRows replaces the rows (whose terms must have unique (node, shift)
// pairs) and counts every usable pair in them. Under a depth bound, rows
// that cannot be summed within it are an errDepth.
func (e *engine) setRows(rows []row) error {
	e.rows = rows
	e.pairs.reset()
	for i := range rows {
		r := &rows[i]
		r.index = i
		slices.SortFunc(r.terms, termLess)
		for x := range r.terms {
			r.terms[x].id = e.pairs.newTerm()
			if x > 0 && termLess(r.terms[x-1], r.terms[x]) == 0 {
				return fmt.Errorf("cmvm: internal error: duplicate term in row %d", i)
			}
		}
		if e.bounded {
			r.load = 0
			for _, t := range r.terms {
				if e.nodes[t.node].depth > e.bound {
					return errDepth
				}
				if r.load += e.weight(t); r.load > e.full {
					return errDepth
				}
			}
		}
	}
	pairs := 0
	for _, r := range rows {
		pairs += len(r.terms) * (len(r.terms) - 1) / 2
	}
	if pairs > maxPairs {
		return nil // too big to count: no CSE, only adder trees
	}
	if pairs > maxHashGroup {
		// Large: count without staging.
		budget := 0
		if pairs > trackAbove {
			budget = trackBudget
		}
		e.bulkCount(rows, budget)
		return nil
	}
	e.pairs.grow(pairs)
	e.stageRows(rows)
	e.pairs.addGroups()
	return nil
}

// trackBudget bounds the occurrences the pair table tracks (about 44
// bytes each) when there is no depth bound: beyond it only the most
// frequent patterns are tracked, the rest counted again when needed
// (pairTable.floor). A variable for the tests.
var trackBudget = 1 << 19

// trackAbove is the largest problem (in digit pairs) whose patterns are
// all tracked: 64x64 int8 (1.4 million pairs) keeps its exact conflicts
// (4,778 adders; 4,780 with the budget).
const trackAbove = 1 << 21

// maxPairs bounds the number of digit pairs CSE counts (its memory is
// about 80 bytes a pair); larger problems get adder trees only. A 64x64
// matrix of 8-bit entries has about 1.4 million pairs.
const maxPairs = 1 << 23

// stage queues the pair (t, u) of row r for the next addGroups.
func (e *engine) stage(r *row, t, u term) {
	e.pairs.stage(e.occurrenceOf(r, t, u))
}

// occurrenceOf returns the pattern key of the pair (t, u) of row r and its
// occurrence.
func (e *engine) occurrenceOf(r *row, t, u term) (uint64, occurrence) {
	k, base := pairKey(t, u)
	if base.id != t.id {
		t, u = u, t
	}
	return k, occurrence{row: int32(r.index), shift: base.shift, t: t.id, u: u.id}
}

// maxShift bounds term shifts so that shift differences fit a pattern key.
const maxShift = 1<<keyShiftBits - 1

// replace substitutes the occurrence (terms at indices ti, ui of row r) of
// the pattern computed by node p with the single term sign · p << shift,
// merged into any equal term already there, and returns the new term (false
// when it cancelled out). Every live pair of the removed terms is dropped;
// the new term's pairs are left to the caller (see extract).
func (e *engine) replace(r *row, ti, ui int, p int32) (term, bool, error) {
	t, u := r.terms[ti], r.terms[ui]
	s := e.slack(r)
	e.pairs.dropTerm(t.id)
	e.pairs.dropTerm(u.id)
	_, base := pairKey(t, u)
	r.remove(max(ti, ui)) // the higher index first keeps the other valid
	r.remove(min(ti, ui))
	if e.bounded {
		r.load -= e.weight(t) + e.weight(u)
	}
	w := term{node: p, shift: base.shift, sign: base.sign}
	// A node built in an earlier stage may already be in the row: merge,
	// carrying equal signs into the next shift (p + p = p << 1) and
	// cancelling opposite ones.
	for {
		x := r.find(w.node, w.shift)
		if x < 0 {
			break
		}
		old := r.terms[x]
		e.pairs.dropTerm(old.id)
		r.remove(x)
		if e.bounded {
			r.load -= e.weight(old)
		}
		if old.sign != w.sign {
			return term{}, false, nil
		}
		if w.shift++; w.shift > maxShift {
			return term{}, false, fmt.Errorf("%w: shift above %d", ErrOverflow, maxShift)
		}
	}
	w.id = e.pairs.newTerm()
	if e.bounded {
		r.load += e.weight(w)
		if ns := e.slack(r); ns < s {
			e.dropInfeasible(r, ns, s)
		}
	}
	r.insert(w)
	return w, true, nil
}

// dropInfeasible drops the live pairs of r whose threshold lies in
// (newSlack, oldSlack]: they fitted the depth bound before the row's load
// grew and no longer do.
func (e *engine) dropInfeasible(r *row, newSlack, oldSlack uint64) {
	// Only pairs of terms at depths d1 < d2 can cross: their threshold is
	// 2^d2 - 2^d1. Look for such a depth pair before walking any list.
	var present uint64
	for _, t := range r.terms {
		present |= 1 << uint(e.nodes[t.node].depth)
	}
	crossed := false
	for d2 := 1; d2 <= e.bound && !crossed; d2++ {
		if present>>uint(d2)&1 == 0 {
			continue
		}
		for d1 := 0; d1 < d2; d1++ {
			th := uint64(1)<<uint(d2) - uint64(1)<<uint(d1)
			if present>>uint(d1)&1 == 1 && th > newSlack && th <= oldSlack {
				crossed = true
				break
			}
		}
	}
	if !crossed {
		return
	}
	pt := e.pairs
	doomed := e.doomed[:0]
	for _, x := range r.terms {
		for ref := pt.termHead[x.id]; ref >= 0; ref = pt.links(ref).next {
			j := ref.node()
			if n := &pt.pool[j]; n.t == x.id { // visit each pair once, from its base term
				a, b, _, _ := splitKey(pt.keys[n.slot])
				wa, wb := uint64(1)<<uint(e.nodes[a].depth), uint64(1)<<uint(e.nodes[b].depth)
				if th := max(wa, wb) - min(wa, wb); th > newSlack && th <= oldSlack {
					doomed = append(doomed, j)
				}
			}
		}
	}
	for _, j := range doomed {
		if pt.pool[j].slot != dropped { // not already gone with its pattern
			pt.drop(j)
		}
	}
	e.doomed = doomed
}

// matrixRows writes every coefficient of every row in CSD over the inputs.
func matrixRows(m [][]int64) []row {
	rows := make([]row, len(m))
	for i, r := range m {
		for j, v := range r {
			for _, d := range csd(v) {
				rows[i].terms = append(rows[i].terms, term{node: int32(j), shift: int32(d.shift), sign: d.sign})
			}
		}
	}
	return rows
}

// mergeRows rewrites every row in canonical form: the terms of each node are
// summed into one integer coefficient, which is written back in CSD. This
// merges repeated (node, shift) pairs and never adds terms.
func mergeRows(rows []row) error {
	for i := range rows {
		ts := rows[i].terms
		slices.SortFunc(ts, func(a, b term) int { return cmp.Compare(a.node, b.node) })
		var out []term
		for lo := 0; lo < len(ts); {
			hi := lo
			var c int64
			for ; hi < len(ts) && ts[hi].node == ts[lo].node; hi++ {
				v, ok := intrange.ShlInt64(int64(ts[hi].sign), int(ts[hi].shift))
				if ok {
					c, ok = intrange.AddInt64(c, v)
				}
				if !ok {
					return fmt.Errorf("%w: merged coefficient", ErrOverflow)
				}
			}
			for _, d := range csd(c) {
				out = append(out, term{node: ts[lo].node, shift: int32(d.shift), sign: d.sign})
			}
			lo = hi
		}
		rows[i].terms = out
	}
	return nil
}
