package cmvm

import (
	"errors"
	"slices"
)

// errDepth reports that rows cannot be summed within the depth bound.
var errDepth = errors.New("cmvm: depth bound cannot be met")

// jitter is the width of the uniform noise added to the tie-break score in
// randomised attempts. Conflicts are integers, so noise below 1 would only
// reorder exact ties; 3 also lets near-ties swap (measured: docs/cmvm.md).
const jitter = 3.0

// runCSE extracts patterns until none occurs twice.
func (e *engine) runCSE() error {
	for {
		i, ok := e.choose()
		if t := e.pairs; t.floor > 2 && (!ok || e.effective(i) < t.floor) {
			// Untracked patterns may now be the most frequent: count the
			// rows again.
			e.recounts++
			if err := e.setRows(e.rows); err != nil {
				return err
			}
			continue
		}
		if !ok {
			return nil
		}
		if err := e.extract(i); err != nil {
			return err
		}
	}
}

// choose returns the live pattern to extract next, or false when no
// pattern occurs twice.
//
// The primary criterion is the number of occurrences: extracting a pattern
// seen n times saves n - 1 adders. Among equally frequent patterns the one
// with the fewest conflicts wins (a one-step lookahead): extracting it
// destroys the least repetition among the other patterns sharing its terms.
// Randomised attempts add noise to that tie-break.
func (e *engine) choose() (int32, bool) {
	if e.objective == LUTs {
		return e.chooseLUTs()
	}
	t := e.pairs
	var (
		best      int32 = -1
		bestCount int32
		bestScore float64
		bestDepth int32
	)
	for c := t.top; c >= 2; c-- {
		if best >= 0 && bestCount > int32(c) {
			break // no pattern left can match the best count
		}
		bucket := t.buckets[c]
		if len(bucket) == 0 && best < 0 {
			t.top = c - 1 // nothing above c-1 is left
			continue
		}
		if c == 2 && e.rng == nil {
			best, bestCount, bestScore, bestDepth = e.chooseTwice(best, bestCount, bestScore, bestDepth)
			continue
		}
		for x, i := range bucket {
			n := e.bucketEffective(c, x, i)
			if n < 2 || n < bestCount {
				continue
			}
			s := -float64(e.bucketConflicts(c, x, i))
			if e.rng != nil {
				s += e.rng.Float64() * jitter
			}
			if n > bestCount || s > bestScore {
				best, bestCount, bestScore, bestDepth = i, n, s, e.keyDepth(i)
			} else if s == bestScore {
				if dd := e.keyDepth(i); dd < bestDepth {
					best, bestDepth = i, dd
				}
			}
		}
	}
	return best, best >= 0
}

// chooseTwice is choose's deterministic scan of the patterns seen twice,
// given the best pattern of the higher buckets: the same comparisons on
// integer conflicts, reading only pairs.twice (the last extractions rescan
// thousands of patterns, and the loop's calls and float conversions cost
// as much as its loads).
func (e *engine) chooseTwice(best, bestCount int32, bestScore float64, bestDepth int32) (int32, int32, float64, int32) {
	t := e.pairs
	if bestCount > 2 {
		return best, bestCount, bestScore, bestDepth
	}
	bestConf := int32(-bestScore) // valid while bestCount == 2
	conf := t.conf
	for x := range t.twice {
		w := &t.twice[x]
		if w.effective < 2 {
			continue
		}
		cf := w.conflicts(conf)
		if bestCount < 2 || cf < bestConf {
			best, bestCount, bestConf, bestDepth = t.buckets[2][x], 2, cf, e.keyDepth(t.buckets[2][x])
		} else if cf == bestConf {
			if dd := e.keyDepth(t.buckets[2][x]); dd < bestDepth {
				best, bestDepth = t.buckets[2][x], dd
			}
		}
	}
	return best, bestCount, -float64(bestConf), bestDepth
}

// bucketEffective is effective(i) for the pattern at index x of bucket c:
// the patterns seen twice keep theirs in pairs.twice, in bucket order.
func (e *engine) bucketEffective(c, x int, i int32) int32 {
	if c == 2 {
		return e.pairs.twice[x].effective
	}
	return e.effective(i)
}

// bucketConflicts is conflicts(i) for the pattern at index x of bucket c.
func (e *engine) bucketConflicts(c, x int, i int32) int32 {
	t := e.pairs
	if c == 2 {
		return t.twice[x].conflicts(t.conf)
	}
	if c <= maxFew {
		// As conflicts: every term's conflict, less the pattern's own
		// weight twice per occurrence.
		total := -int32(c) * 2 * weightOf(int32(c))
		for _, u := range t.few[c][2*c*x : 2*c*(x+1)] {
			total += t.conf[u]
		}
		return total
	}
	return e.conflicts(i)
}

// keyDepth returns the depth of the node pattern slot i would build.
func (e *engine) keyDepth(i int32) int32 {
	a, b, _, _ := splitKey(e.pairs.keys[i])
	return int32(max(e.nodes[a].depth, e.nodes[b].depth))
}

// effective returns the number of occurrences extraction would use, cached
// until the pattern's count changes. It differs from the pair count only
// for patterns of a node with itself: a@0, a@d, a@2d holds two pairs but
// only one can be extracted.
func (e *engine) effective(i int32) int32 {
	t := e.pairs
	if t.actual[i] >= 0 {
		return t.actual[i]
	}
	a, b, d, _ := splitKey(t.keys[i])
	c := t.count[i]
	if a == b {
		c = 0
		last := occurrence{row: -1}
		for _, o := range e.listed(i) {
			if o.row == last.row && o.shift == last.shift+d {
				continue // its base term is the previous occurrence's top
			}
			c++
			last = o
		}
	}
	t.actual[i] = c
	return c
}

// conflicts returns how much repetition extracting pattern slot i destroys:
// for each occurrence, the conflicts of its two terms, less the pattern's
// own pair (counted in both).
func (e *engine) conflicts(i int32) int32 {
	t := e.pairs
	own := 2 * weightOf(t.count[i])
	var total int32
	for j := t.head[i]; j >= 0; j = t.pool[j].next {
		o := &t.pool[j]
		total += t.conf[o.t] + t.conf[o.u] - own
	}
	return total
}

// listed returns the occurrences of pattern slot i sorted by row and shift.
func (e *engine) listed(i int32) []occurrence {
	e.occBuf = e.pairs.occurrencesOf(i, e.occBuf[:0])
	slices.SortFunc(e.occBuf, func(x, y occurrence) int {
		if x.row != y.row {
			return int(x.row - y.row)
		}
		return int(x.shift - y.shift)
	})
	return e.occBuf
}

// extract builds the node for pattern slot i, substitutes it for every
// usable, non-overlapping occurrence, and then counts the pairs of the new
// terms: the only patterns that can be new.
func (e *engine) extract(i int32) error {
	k := e.pairs.keys[i]
	p, err := e.makeNode(k)
	if err != nil {
		return err
	}
	a, b, d, neg := splitKey(k)
	e.occCopy = append(e.occCopy[:0], e.listed(i)...)
	e.fresh = e.fresh[:0]
	firstFresh := int32(len(e.pairs.conf)) // term ids grow monotonically
	done := 0
	for _, o := range e.occCopy {
		r := &e.rows[o.row]
		x := r.find(a, o.shift)
		if x < 0 {
			continue // consumed by an earlier occurrence (a == b)
		}
		y := r.find(b, o.shift+d)
		if y < 0 || (r.terms[y].sign != r.terms[x].sign) != neg {
			continue
		}
		if !e.counted(r.terms[x], r.terms[y], e.slack(r)) {
			continue // an earlier occurrence in this row used up the slack
		}
		w, ok, err := e.replace(r, x, y, p)
		if err != nil {
			return err
		}
		if ok {
			e.fresh = append(e.fresh, freshTerm{row: o.row, term: w})
		}
		done++
	}
	if done == 0 {
		// Cannot happen while the counts are right; stop rather than loop.
		return errors.New("cmvm: internal error: chosen pattern has no occurrence")
	}
	for _, f := range e.fresh {
		r := &e.rows[f.row]
		if x := r.find(f.node, f.shift); x < 0 || r.terms[x].id != f.id {
			continue // merged away by a later occurrence in the same row
		}
		s := e.slack(r)
		for _, v := range r.terms {
			if v.id >= firstFresh && v.id <= f.id {
				continue // itself, or a pair of new terms already staged
			}
			if e.counted(f.term, v, s) {
				e.stage(r, f.term, v)
			}
		}
	}
	e.pairs.addGroups()
	return nil
}

// solveRows runs CSE on rows and sums what remains of each.
func (e *engine) solveRows(rows []row) ([]ref, error) {
	if err := e.setRows(rows); err != nil {
		return nil, err
	}
	if err := e.runCSE(); err != nil {
		return nil, err
	}
	return e.reduce()
}
