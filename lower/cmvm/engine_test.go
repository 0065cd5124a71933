package cmvm

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// rowValue returns the coefficients over the inputs that a row's terms sum
// to, from the nodes' coefficient vectors.
func rowValue(e *engine, r *row) []int64 {
	v := make([]int64, len(e.inputs))
	for _, t := range r.terms {
		for j, c := range e.nodes[t.node].coef {
			v[j] += int64(t.sign) * c << uint(t.shift)
		}
	}
	return v
}

// checkInvariants recounts every usable pair of the engine's rows by brute
// force and compares the result with the incremental pair table: live
// patterns, their occurrence lists, the buckets and the terms' conflicts,
// plus the rows' loads under a depth bound.
func checkInvariants(e *engine) error {
	type occKey struct{ row, t, u int32 }
	want := map[uint64][]occKey{}
	for i := range e.rows {
		r := &e.rows[i]
		var load uint64
		for x, t := range r.terms {
			if x > 0 && termLess(r.terms[x-1], t) >= 0 {
				return fmt.Errorf("row %d: terms not strictly sorted", i)
			}
			load += e.weight(t)
		}
		if e.bounded && (load != r.load || load > e.full) {
			return fmt.Errorf("row %d: load %d, recorded %d, limit %d", i, load, r.load, e.full)
		}
		for x, t := range r.terms {
			for _, u := range r.terms[x+1:] {
				if !e.counted(t, u, e.slack(r)) {
					continue
				}
				k, base := pairKey(t, u)
				a, b := t.id, u.id
				if base.id != t.id {
					a, b = b, a
				}
				want[k] = append(want[k], occKey{int32(i), a, b})
			}
		}
	}
	pt := e.pairs
	got := map[uint64][]occKey{}
	for i, k := range pt.keys {
		c := pt.count[i]
		if c == 0 {
			continue
		}
		n := 0
		for j := pt.head[i]; j >= 0; j = pt.pool[j].next {
			o := pt.pool[j]
			if o.slot != int32(i) {
				return fmt.Errorf("pattern %d: occurrence %d claims slot %d", i, j, o.slot)
			}
			got[k] = append(got[k], occKey{o.row, o.t, o.u})
			n++
		}
		if int32(n) != c {
			return fmt.Errorf("pattern %d: count %d, %d listed", i, c, n)
		}
		if c < 2 {
			return fmt.Errorf("pattern %d: live with count %d", i, c)
		}
		if pt.buckets[c][pt.pos[i]] != int32(i) {
			return fmt.Errorf("pattern %d: not in bucket %d", i, c)
		}
		if c == 2 {
			w := pt.twice[pt.pos[i]]
			if w != pt.twiceOf(int32(i)) || w.effective != e.effective(int32(i)) || w.conflicts(pt.conf) != e.conflicts(int32(i)) {
				return fmt.Errorf("pattern %d: twice %+v, want %+v (effective %d, conflicts %d)", i, w, pt.twiceOf(int32(i)), e.effective(int32(i)), e.conflicts(int32(i)))
			}
		}
		if c > 2 && c <= maxFew {
			p, w := int(pt.pos[i]), 2*int(c)
			if f, want := pt.few[c][p*w:(p+1)*w], pt.termsOf(int32(i), nil); !slices.Equal(f, want) {
				return fmt.Errorf("pattern %d: few %v, want %v", i, f, want)
			}
			if got, want := e.bucketConflicts(int(c), p, int32(i)), e.conflicts(int32(i)); got != want {
				return fmt.Errorf("pattern %d: conflicts %d from few, %d from the pool", i, got, want)
			}
		}
	}
	var twice []int32
	if len(pt.buckets) > 2 {
		twice = pt.buckets[2]
	}
	if len(pt.twice) != len(twice) {
		return fmt.Errorf("%d patterns seen twice, bucket 2 holds %d", len(pt.twice), len(twice))
	}
	for c := 3; c <= maxFew; c++ {
		var n int
		if c < len(pt.buckets) {
			n = len(pt.buckets[c])
		}
		if len(pt.few[c]) != 2*c*n {
			return fmt.Errorf("few[%d] holds %d terms, bucket %d holds %d patterns", c, len(pt.few[c]), c, n)
		}
	}
	conf := map[int32]int32{}
	for k, occs := range want {
		if len(occs) < 2 {
			continue
		}
		g := got[k]
		sortOcc := func(s []occKey) {
			slices.SortFunc(s, func(x, y occKey) int {
				if x.row != y.row {
					return int(x.row - y.row)
				}
				return int(x.t - y.t)
			})
		}
		sortOcc(occs)
		sortOcc(g)
		if !slices.Equal(occs, g) {
			return fmt.Errorf("pattern %x: occurrences %v, table has %v", k, occs, g)
		}
		for _, o := range occs {
			conf[o.t] += weightOf(int32(len(occs)))
			conf[o.u] += weightOf(int32(len(occs)))
		}
	}
	for k, g := range got {
		if len(want[k]) < 2 {
			return fmt.Errorf("pattern %x: live with %d occurrences, brute force finds %d", k, len(g), len(want[k]))
		}
	}
	for i := range e.rows {
		for _, t := range e.rows[i].terms {
			if pt.conf[t.id] != conf[t.id] {
				return fmt.Errorf("term %d: conflict %d, brute force %d", t.id, pt.conf[t.id], conf[t.id])
			}
		}
	}
	return nil
}

func randomMatrix(rng *rand.Rand, rows, cols int, maxAbs int64) [][]int64 {
	m := make([][]int64, rows)
	for i := range m {
		m[i] = make([]int64, cols)
		for j := range m[i] {
			switch rng.IntN(6) {
			case 0:
				m[i][j] = 0
			case 1:
				m[i][j] = int64(1) << uint(rng.IntN(8)) // a power of two
			default:
				m[i][j] = rng.Int64N(2*maxAbs+1) - maxAbs
			}
		}
	}
	if rows > 1 && rng.IntN(3) == 0 {
		copy(m[rng.IntN(rows)], m[0]) // a duplicated row
	}
	if cols > 1 && rng.IntN(3) == 0 {
		c := rng.IntN(cols)
		for i := range m {
			m[i][c] = -m[i][0] // a negated duplicate column
		}
	}
	return m
}

func inputs8(n int) []Interval {
	in := make([]Interval, n)
	for j := range in {
		in[j] = Interval{Lo: -128, Hi: 127}
	}
	return in
}

// TestEngineInvariants drives CSE one extraction at a time on random rows,
// with and without a depth bound and with random tie-breaks, checking the
// incremental bookkeeping and the rows' values after every step.
func TestEngineInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 150 {
		rows, cols := 1+rng.IntN(6), 1+rng.IntN(6)
		m := randomMatrix(rng, rows, cols, 1<<uint(1+rng.IntN(10)))
		n, err := normalize(Problem{Matrix: m, Inputs: inputs8(cols)})
		if err != nil {
			t.Fatal(err)
		}
		bound := -1
		if trial%2 == 1 {
			bound = minimalDepth(n) + rng.IntN(2)
		}
		var tie *rand.Rand
		if trial%3 == 0 {
			tie = rand.New(rand.NewPCG(uint64(trial), 1))
		}
		e := newEngine(newWorkspace(), n.inputs, CostModel{}, bound, tie)
		if err := e.setRows(matrixRows(n.rows)); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		for step := 0; ; step++ {
			if err := checkInvariants(e); err != nil {
				t.Fatalf("trial %d (bound %d) step %d: %v\nmatrix %v", trial, bound, step, err, m)
			}
			for i := range e.rows {
				if got := rowValue(e, &e.rows[i]); !slices.Equal(got, n.rows[i]) {
					t.Fatalf("trial %d step %d: row %d sums to %v, want %v", trial, step, i, got, n.rows[i])
				}
			}
			i, ok := e.choose()
			if !ok {
				break
			}
			if err := e.extract(i); err != nil {
				t.Fatalf("trial %d step %d: %v", trial, step, err)
			}
		}
	}
}
