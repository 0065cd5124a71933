package cmvm

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBulkCountMatchesStaging checks that counting a large batch by node
// (bulkCount) builds the table that staging every pair and grouping them
// does: same slots and keys, same occurrence lists in the same order, same
// counts, buckets and conflicts (so the same graphs), with and without a
// depth bound, and with the group table holding all of a group's nodes or
// only one node at a time.
func TestBulkCountMatchesStaging(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	defer func(n int) { maxDenseIndices = n }(maxDenseIndices)
	for trial := range 8 {
		maxDenseIndices = 1 << 22
		if trial >= 4 {
			maxDenseIndices = 1 // chunks of one node
		}
		rows, cols := 32+rng.IntN(16), 48+rng.IntN(16)
		m := randomMatrix(rng, rows, cols, 256)
		n, err := normalize(Problem{Matrix: m, Inputs: inputs8(cols)})
		if err != nil {
			t.Fatal(err)
		}
		bound := -1
		if trial%2 == 1 {
			bound = minimalDepth(n) + 1
		}
		bulk := newEngine(newWorkspace(), n.inputs, CostModel{}, bound, nil)
		if err := bulk.setRows(matrixRows(n.rows)); err != nil {
			t.Fatal(err)
		}
		pairs := 0
		for _, r := range bulk.rows {
			pairs += len(r.terms) * (len(r.terms) - 1) / 2
		}
		if pairs <= maxHashGroup || pairs > trackAbove {
			t.Fatalf("trial %d: %d pairs do not exercise bulkCount without a budget", trial, pairs)
		}
		// The same rows, staged.
		staged := newEngine(newWorkspace(), n.inputs, CostModel{}, bound, nil)
		staged.rows = slices.Clone(bulk.rows)
		pt := staged.pairs
		pt.reset()
		for range len(bulk.pairs.conf) {
			pt.newTerm()
		}
		pt.grow(pairs)
		staged.stageRows(staged.rows)
		if bound < 0 && len(pt.scratch) <= maxHashGroup {
			t.Fatalf("trial %d: %d pairs are grouped by hashing, not sorting", trial, len(pt.scratch))
		}
		pt.addGroups()
		if err := sameTable(bulk.pairs, pt); err != nil {
			t.Fatalf("trial %d (bound %d): %v", trial, bound, err)
		}
	}
}

// sameTable reports how two pair tables differ, if they do.
func sameTable(a, b *pairTable) error {
	switch {
	case !slices.Equal(a.keys, b.keys):
		return fmt.Errorf("keys differ")
	case !slices.Equal(a.count, b.count):
		return fmt.Errorf("counts differ")
	case !slices.Equal(a.conf, b.conf):
		return fmt.Errorf("conflicts differ")
	case a.floor != b.floor:
		return fmt.Errorf("floors %d and %d", a.floor, b.floor)
	case len(a.buckets) != len(b.buckets):
		return fmt.Errorf("%d and %d buckets", len(a.buckets), len(b.buckets))
	}
	for c := range a.buckets {
		if !slices.Equal(a.buckets[c], b.buckets[c]) {
			return fmt.Errorf("bucket %d differs", c)
		}
	}
	for i := range a.keys {
		if x, y := a.occurrencesOf(int32(i), nil), b.occurrencesOf(int32(i), nil); !slices.Equal(x, y) {
			return fmt.Errorf("slot %d: occurrences %v and %v", i, x, y)
		}
	}
	for x := range a.termHead {
		if ha, hb := a.termHead[x], b.termHead[x]; (ha < 0) != (hb < 0) || ha >= 0 && a.pool[ha.node()].occurrence != b.pool[hb.node()].occurrence {
			return fmt.Errorf("term %d: lists start differently", x)
		}
	}
	return nil
}
