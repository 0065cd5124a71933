package cmvm

// Minimal signed-digit forms. CSD is one of a coefficient's forms with the
// fewest non-zero digits; others exist: σ·2^s − σ·2^(s+2) is also
// −σ·2^s − σ·2^(s+1). CSE shares pairs of digits between rows, and a
// form whose pairs recur elsewhere gives it more to share. msdRows picks,
// for every coefficient, the form whose digit pairs are most often seen
// in the other coefficients' chosen forms (two sweeps of coordinate
// ascent); an attempt on these rows competes with the CSD attempts
// (plans). Same digit count, so the same minimal depth.

// msdForms returns v's CSD and the forms made from it by rewriting
// disjoint digit pairs σ·2^s, −σ·2^(s+2) as −σ·2^s, −σ·2^(s+1), among
// the lowest msdMaxPairs such pairs (at most 2^msdMaxPairs forms: a
// 64-bit coefficient can have 21 pairs).
func msdForms(v int64) [][]digit {
	c := csd(v)
	var pairs []int // k: digits k and k+1 can be rewritten
	for k := 0; k+1 < len(c) && len(pairs) < msdMaxPairs; k++ {
		if c[k+1].shift == c[k].shift+2 && c[k+1].sign == -c[k].sign {
			pairs = append(pairs, k)
		}
	}
	forms := [][]digit{c}
	for mask := 1; mask < 1<<len(pairs); mask++ {
		var flip uint64 // bit k: rewrite digits k and k+1
		for b, k := range pairs {
			if mask>>b&1 == 1 {
				flip |= 1 << k
			}
		}
		if flip&(flip>>1) != 0 {
			continue // pairs k and k+1 share digit k+1
		}
		f := make([]digit, 0, len(c))
		for k := 0; k < len(c); k++ {
			if flip>>k&1 == 1 {
				s, sg := c[k].shift, -c[k].sign
				f = append(f, digit{s, sg}, digit{s + 1, sg})
				k++
				continue
			}
			f = append(f, c[k])
		}
		forms = append(forms, f)
	}
	return forms
}

// msdCounts counts digit pairs by key: the inputs j1, j2 in order of
// shift (then index), the shift d between them and whether the signs
// differ, as CSE would share the pair. The keys index an array when it is
// small (nearly every problem this runs on), else a map.
type msdCounts struct {
	cols, shifts int
	dense        []int32
	sparse       map[int]int32
}

// msdDenseMax bounds the array msdCounts indexes (4 bytes an entry).
const msdDenseMax = 1 << 22

func newMSDCounts(cols, shifts int) *msdCounts {
	c := &msdCounts{cols: cols, shifts: shifts}
	if n := cols * cols * shifts * 2; n <= msdDenseMax {
		c.dense = make([]int32, n)
	} else {
		c.sparse = map[int]int32{}
	}
	return c
}

// key returns the index of the pair of digit d1 of input j1 and d2 of j2.
func (c *msdCounts) key(j1 int, d1 digit, j2 int, d2 digit) int {
	if d1.shift > d2.shift || d1.shift == d2.shift && j1 > j2 {
		j1, j2, d1, d2 = j2, j1, d2, d1
	}
	k := ((j1*c.cols+j2)*c.shifts + d2.shift - d1.shift) * 2
	if d1.sign != d2.sign {
		k++
	}
	return k
}

// add adds delta to pair k's count and returns the count before.
func (c *msdCounts) add(k int, delta int32) int32 {
	if c.dense != nil {
		v := c.dense[k]
		c.dense[k] = v + delta
		return v
	}
	v := c.sparse[k]
	c.sparse[k] = v + delta
	return v
}

// msdEntry is a non-zero coefficient of a row: its input, its forms and
// the one chosen.
type msdEntry struct {
	col   int
	forms [][]digit
	cur   int
}

// msdMaxPairs bounds the digit pairs msdForms rewrites: an 8-bit
// coefficient has at most two.
const msdMaxPairs = 3

// msdSweeps is how many times msdRows revisits every coefficient.
const msdSweeps = 2

// msdRows writes every row of m from the chosen form of each coefficient
// (see above). A pair seen c times elsewhere scores c²: the form that
// joins the most frequent patterns wins, as CSE extracts those first.
func msdRows(m [][]int64) []row {
	ents := make([][]msdEntry, len(m))
	for i, r := range m {
		for j, v := range r {
			if v != 0 {
				ents[i] = append(ents[i], msdEntry{col: j, forms: msdForms(v)})
			}
		}
	}
	shifts, cols := 1, 0
	for _, r := range m {
		cols = max(cols, len(r))
	}
	for _, es := range ents {
		for _, e := range es {
			for _, f := range e.forms {
				shifts = max(shifts, f[len(f)-1].shift+1)
			}
		}
	}
	count := newMSDCounts(cols, shifts)
	// visit adds delta to the count of every pair that form f of entry a
	// of row i makes with itself and with the row's other entries, and
	// returns the score of those pairs before the change.
	visit := func(i, a int, f []digit, delta int32) int {
		es, score := ents[i], 0
		for x := range f {
			for y := x + 1; y < len(f); y++ {
				c := int(count.add(count.key(es[a].col, f[x], es[a].col, f[y]), delta))
				score += c * c
			}
			for b := range es {
				if b == a {
					continue
				}
				for _, d := range es[b].forms[es[b].cur] {
					c := int(count.add(count.key(es[a].col, f[x], es[b].col, d), delta))
					score += c * c
				}
			}
		}
		return score
	}
	for _, es := range ents {
		for a := range es {
			f := es[a].forms[0]
			for x := range f { // each pair once: with itself and later entries
				for y := x + 1; y < len(f); y++ {
					count.add(count.key(es[a].col, f[x], es[a].col, f[y]), 1)
				}
				for b := a + 1; b < len(es); b++ {
					for _, d := range es[b].forms[0] {
						count.add(count.key(es[a].col, f[x], es[b].col, d), 1)
					}
				}
			}
		}
	}
	for range msdSweeps {
		for i := range ents {
			for a := range ents[i] {
				e := &ents[i][a]
				if len(e.forms) < 2 {
					continue
				}
				visit(i, a, e.forms[e.cur], -1)
				best, bestScore := e.cur, -1
				for k, f := range e.forms {
					if s := visit(i, a, f, 0); s > bestScore {
						best, bestScore = k, s
					}
				}
				e.cur = best
				visit(i, a, e.forms[e.cur], 1)
			}
		}
	}
	rows := make([]row, len(m))
	for i, es := range ents {
		for _, e := range es {
			for _, d := range e.forms[e.cur] {
				rows[i].terms = append(rows[i].terms, term{node: int32(e.col), shift: int32(d.shift), sign: d.sign})
			}
		}
	}
	return rows
}

// rowsOf writes m's rows over the inputs for CSE: in CSD, or in the forms
// msdRows picks when the attempt asks for them.
func (e *engine) rowsOf(m [][]int64) []row {
	if e.msd {
		return msdRows(m)
	}
	return matrixRows(m)
}
