package cmvm

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestKeyRoundTrip(t *testing.T) {
	for _, c := range []struct {
		a, b, d int32
		neg     bool
	}{{0, 0, 1, false}, {1, 2, 0, true}, {maxNodes - 1, maxNodes - 2, maxShift, true}, {7, 3, 64, false}} {
		a, b, d, neg := splitKey(makeKey(c.a, c.b, c.d, c.neg))
		if a != c.a || b != c.b || d != c.d || neg != c.neg {
			t.Errorf("round trip of %+v gave %d %d %d %v", c, a, b, d, neg)
		}
	}
}

// TestPairKeyNormalised checks that a pair's key ignores where it sits (its
// base shift), its overall sign and the order of its terms, but not its
// relative shift, relative sign or nodes.
func TestPairKeyNormalised(t *testing.T) {
	tm := func(n, s int32, g int8) term { return term{node: n, shift: s, sign: g} }
	same := [][2]term{
		{tm(1, 0, 1), tm(2, 3, 1)},
		{tm(2, 3, 1), tm(1, 0, 1)},   // swapped
		{tm(1, 5, 1), tm(2, 8, 1)},   // shifted
		{tm(1, 2, -1), tm(2, 5, -1)}, // negated and shifted
	}
	k0, _ := pairKey(same[0][0], same[0][1])
	for _, p := range same {
		if k, base := pairKey(p[0], p[1]); k != k0 || base.node != 1 {
			t.Errorf("pairKey(%v, %v) = %x (base %v), want %x with base node 1", p[0], p[1], k, base, k0)
		}
	}
	different := [][2]term{
		{tm(1, 0, 1), tm(2, 3, -1)}, // relative sign
		{tm(1, 0, 1), tm(2, 2, 1)},  // relative shift
		{tm(2, 0, 1), tm(1, 3, 1)},  // the other node shifted
		{tm(1, 0, 1), tm(3, 3, 1)},  // another node
	}
	for _, p := range different {
		if k, _ := pairKey(p[0], p[1]); k == k0 {
			t.Errorf("pairKey(%v, %v) equals the reference key", p[0], p[1])
		}
	}
	// Equal shifts: the lower node id is the base.
	if _, base := pairKey(tm(5, 2, -1), tm(4, 2, 1)); base.node != 4 {
		t.Errorf("equal shifts: base node %d, want 4", base.node)
	}
}

func TestSortByKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	var buf []keyedOcc
	for _, n := range []int{0, 1, 5, 127, 128, 1000, 5000} {
		for _, spread := range []uint64{4, 1 << 20, 1 << 60} {
			s := make([]keyedOcc, n)
			for i := range s {
				s[i] = keyedOcc{key: rng.Uint64N(spread), occurrence: occurrence{row: int32(i)}}
			}
			buf = sortByKey(s, buf)
			if !slices.IsSortedFunc(s, byKey) {
				t.Fatalf("n=%d spread=%d: not sorted", n, spread)
			}
			seen := make([]bool, n)
			for _, x := range s {
				if seen[x.row] {
					t.Fatalf("n=%d: element %d twice", n, x.row)
				}
				seen[x.row] = true
			}
		}
	}
}

// TestGrouper checks the hash grouping against a map: every group of two or
// more, in order of first appearance, each in input order.
func TestGrouper(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	var g grouper
	for _, n := range []int{0, 1, 2, 17, 300, 5000} {
		for _, spread := range []uint64{1, 3, 100, 1 << 62} {
			s := make([]keyedOcc, n)
			for i := range s {
				s[i] = keyedOcc{key: rng.Uint64N(spread), occurrence: occurrence{row: int32(i)}}
			}
			want := map[uint64][]int32{}
			var order []uint64
			for _, x := range s {
				if _, ok := want[x.key]; !ok {
					order = append(order, x.key)
				}
				want[x.key] = append(want[x.key], x.row)
			}
			var wantGroups [][]int32
			for _, k := range order {
				if len(want[k]) >= 2 {
					wantGroups = append(wantGroups, want[k])
				}
			}
			var got [][]int32
			g.group(s, func(grp []keyedOcc) {
				var rows []int32
				for _, x := range grp {
					if x.key != grp[0].key {
						t.Fatalf("n=%d: mixed keys in a group", n)
					}
					rows = append(rows, x.row)
				}
				got = append(got, rows)
			})
			if len(got) != len(wantGroups) {
				t.Fatalf("n=%d spread=%d: %d groups, want %d", n, spread, len(got), len(wantGroups))
			}
			for i := range got {
				if !slices.Equal(got[i], wantGroups[i]) {
					t.Fatalf("n=%d spread=%d: group %d = %v, want %v", n, spread, i, got[i], wantGroups[i])
				}
			}
		}
	}
}
