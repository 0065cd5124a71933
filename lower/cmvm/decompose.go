package cmvm

import (
	"errors"
	"math"
	"math/rand/v2"
)

// spanning describes outputs as differences along a spanning tree rooted at
// the zero row: row i = D[i] + sign[i] · row parent[i] (parent -1 is the
// root, i.e. row i = D[i]).
type spanning struct {
	parent []int
	sign   []int64
	diff   [][]int64 // D
}

// rowWeight returns the number of CSD digits of a row.
func rowWeight(a []int64) int {
	w := 0
	for _, v := range a {
		w += csdWeight(v)
	}
	return w
}

// rowDistance returns the number of CSD digits of a - s·b (s = ±1), or
// false when an entry of a - s·b or of its negation (the difference taken
// the other way round) does not fit in int64.
func rowDistance(a, b []int64, s int64) (int, bool) {
	w := 0
	for j := range a {
		d, ok := addShifted(a[j], b[j], 0, s > 0)
		if !ok || d == math.MinInt64 {
			return 0, false
		}
		w += csdWeight(d)
	}
	return w, true
}

// spanRows builds a minimum spanning tree (Prim, from the zero row) over the
// rows, where joining row i to row j costs the CSD digits of the better of
// r_i - r_j and r_i + r_j (and joining it to the root costs r_i's digits).
// Ties are broken at random when rng is set. Rows whose difference would
// overflow are only joined to the root. maxHops > 0 limits the tree's
// height: a row joins another only if that one is fewer than maxHops-1
// joins below the root, so every output sums at most maxHops differences
// (what a decomposition adds to the depth under a bound); 0: no limit.
func spanRows(rows [][]int64, rng *rand.Rand, shallow bool, maxHops int) *spanning {
	m := len(rows)
	const inf = math.MaxInt
	// dist[i][j], sgn[i][j] for rows i, j.
	dist := make([][]int, m)
	sgn := make([][]int64, m)
	for i := range rows {
		dist[i] = make([]int, m)
		sgn[i] = make([]int64, m)
	}
	for i := range rows {
		for j := 0; j < i; j++ {
			best, bs := inf, int64(1)
			if w, ok := rowDistance(rows[i], rows[j], 1); ok {
				best = w
			}
			if w, ok := rowDistance(rows[i], rows[j], -1); ok && w < best {
				best, bs = w, -1
			}
			dist[i][j], dist[j][i] = best, best
			sgn[i][j], sgn[j][i] = bs, bs
		}
	}
	sp := &spanning{parent: make([]int, m), sign: make([]int64, m), diff: make([][]int64, m)}
	key := make([]int, m) // cheapest known join of each row to the tree
	done := make([]bool, m)
	hops := make([]int, m) // depth in the tree (root: 0 for its children)
	for i := range rows {
		key[i], sp.parent[i], sp.sign[i] = rowWeight(rows[i]), -1, 1
	}
	hopsOf := func(i int) int { // depth row i would get from its current parent
		if p := sp.parent[i]; p >= 0 {
			return hops[p] + 1
		}
		return 0
	}
	for range m {
		pick, ties := -1, 0
		for i := range m {
			if done[i] {
				continue
			}
			switch {
			case pick < 0 || key[i] < key[pick] || key[i] == key[pick] && shallow && hopsOf(i) < hopsOf(pick):
				pick, ties = i, 1
			case key[i] == key[pick] && rng != nil:
				ties++
				if rng.IntN(ties) == 0 {
					pick = i
				}
			}
		}
		done[pick] = true
		hops[pick] = hopsOf(pick)
		if maxHops > 0 && hops[pick] >= maxHops-1 {
			continue // no row may hang below pick
		}
		for i := range m {
			if !done[i] && (dist[i][pick] < key[i] || dist[i][pick] == key[i] && shallow && hops[pick]+1 < hopsOf(i)) {
				key[i], sp.parent[i], sp.sign[i] = dist[i][pick], pick, sgn[i][pick]
			}
		}
	}
	for i, r := range rows {
		d := make([]int64, len(r))
		copy(d, r)
		if p := sp.parent[i]; p >= 0 {
			for j := range d {
				d[j], _ = addShifted(r[j], rows[p][j], 0, sp.sign[i] > 0) // fits: see rowDistance
			}
		}
		sp.diff[i] = d
	}
	return sp
}

// solveRowTree writes each row as D_i ± row_parent (spanning tree over the
// rows), solves the CMVM of D, then sums the D along each output's path.
func (e *engine) solveRowTree(m [][]int64) ([]ref, error) {
	sp := spanRows(m, e.rng, e.shallow, e.maxHops)
	dRefs, err := e.solveRows(e.rowsOf(sp.diff))
	if err != nil {
		return nil, err
	}
	rows, err := pathRows(sp, dRefs)
	if err != nil {
		return nil, err
	}
	return e.solveRows(rows)
}

// solveColTree is the transposed decomposition: each column is written as
// c_j = δ_j ± c_parent(j) (spanning tree over the columns), so
// y = Σ_k δ_k · w_k where w_k = x_k ± Σ_{children j} w_j sums input k's
// subtree. The w are built first (one adder per non-root edge), then the
// CMVM of the δ over them.
func (e *engine) solveColTree(m [][]int64) ([]ref, error) {
	nIn := len(e.inputs)
	cols := make([][]int64, nIn)
	for j := range cols {
		cols[j] = make([]int64, len(m))
		for i := range m {
			cols[j][i] = m[i][j]
		}
	}
	sp := spanRows(cols, e.rng, e.shallow, e.maxHops)
	children := make([][]int, nIn)
	for j, p := range sp.parent {
		if p >= 0 {
			children[p] = append(children[p], j)
		}
	}
	// w[k] = x_k + Σ sign_j · w[j] over the children, built in post-order.
	w := make([]ref, nIn)
	var build func(k int) error
	build = func(k int) error {
		terms := []term{{node: int32(k), sign: 1}}
		for _, j := range children[k] {
			if err := build(j); err != nil {
				return err
			}
			r := w[j]
			terms = append(terms, term{node: r.node, shift: r.shift, sign: r.sign * int8(sp.sign[j])})
		}
		r, err := e.sumTerms(terms)
		w[k] = r
		return err
	}
	for k, p := range sp.parent {
		if p < 0 {
			if err := build(k); err != nil {
				return nil, err
			}
		}
	}
	rows := make([]row, len(m))
	for i := range rows {
		for k := range nIn {
			// δ_k · w_k with w_k = sign · node << shift.
			for _, d := range csd(sp.diff[k][i]) {
				rows[i].terms = append(rows[i].terms, term{node: w[k].node,
					shift: int32(d.shift) + w[k].shift, sign: d.sign * w[k].sign})
			}
		}
	}
	if err := mergeRows(rows); err != nil {
		return nil, err
	}
	return e.solveRows(rows)
}

// pathRows expresses every output as the signed sum of the differences D
// along its path to the root of the spanning tree, each D read through its
// ref.
func pathRows(sp *spanning, dRefs []ref) ([]row, error) {
	rows := make([]row, len(sp.parent))
	for i := range rows {
		sign := int8(1)
		for p, steps := i, 0; p >= 0; p, steps = sp.parent[p], steps+1 {
			if steps > len(rows) {
				return nil, errors.New("cmvm: internal error: cycle in the spanning tree")
			}
			if r := dRefs[p]; r.node >= 0 {
				rows[i].terms = append(rows[i].terms, term{node: r.node, shift: r.shift, sign: sign * r.sign})
			}
			sign *= int8(sp.sign[p])
		}
	}
	return rows, mergeRows(rows)
}
