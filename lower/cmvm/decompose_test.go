package cmvm

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestSpanRows checks that the spanning tree is a tree rooted at the zero
// row, that every row equals its difference plus or minus its parent, and
// that it never costs more digits than the rows themselves.
func TestSpanRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for trial := range 100 {
		m := randomMatrix(rng, 1+rng.IntN(8), 1+rng.IntN(8), 1000)
		var tie *rand.Rand
		if trial%2 == 1 {
			tie = rand.New(rand.NewPCG(uint64(trial), 0))
		}
		sp := spanRows(m, tie, false, 0)
		plain, diff := 0, 0
		for i, r := range m {
			p := sp.parent[i]
			for steps, q := 0, i; q >= 0; q, steps = sp.parent[q], steps+1 {
				if steps > len(m) {
					t.Fatalf("trial %d: cycle through row %d", trial, i)
				}
			}
			for j, v := range r {
				want := v
				if p >= 0 {
					want = v - sp.sign[i]*m[p][j]
				}
				if sp.diff[i][j] != want {
					t.Fatalf("trial %d: D[%d][%d] = %d, want %d", trial, i, j, sp.diff[i][j], want)
				}
			}
			plain += rowWeight(r)
			diff += rowWeight(sp.diff[i])
		}
		if diff > plain {
			t.Fatalf("trial %d: differences hold %d digits, rows %d", trial, diff, plain)
		}
	}
}

// TestSpanRowsOverflow checks that differences near the int64 limits are
// exact, and that rows whose difference would overflow (either way round)
// are not joined.
func TestSpanRowsOverflow(t *testing.T) {
	m := [][]int64{{math.MaxInt64}, {math.MinInt64}, {math.MaxInt64 - 1}, {-1}, {1}}
	sp := spanRows(m, nil, false, 0)
	for i := range m {
		want := big.NewInt(m[i][0])
		p := sp.parent[i]
		if p >= 0 {
			want.Sub(want, new(big.Int).Mul(big.NewInt(sp.sign[i]), big.NewInt(m[p][0])))
		}
		if !want.IsInt64() || (p >= 0 && want.Int64() == math.MinInt64) || want.Int64() != sp.diff[i][0] {
			t.Errorf("row %d (parent %d, sign %d): D = %d, exact %v", i, sp.parent[i], sp.sign[i], sp.diff[i][0], want)
		}
	}
}

// TestSpanRowsHeight: with maxHops h, no output sums more than h
// differences (its path to the root has at most h rows); h = 1 joins
// nothing; on this matrix a higher limit never costs more digits.
func TestSpanRowsHeight(t *testing.T) {
	m := randomMatrix(rand.New(rand.NewPCG(3, 4)), 40, 12, 127)
	prev := -1
	for _, h := range []int{1, 2, 3, 4, 8, 0} {
		sp := spanRows(m, nil, false, h)
		digits := 0
		for i := range m {
			n := 0
			for p := i; p >= 0; p = sp.parent[p] {
				n++
			}
			if h > 0 && n > h {
				t.Fatalf("maxHops %d: row %d sums %d differences", h, i, n)
			}
			digits += rowWeight(sp.diff[i])
		}
		if h == 1 && digits != func() (w int) {
			for _, r := range m {
				w += rowWeight(r)
			}
			return
		}() {
			t.Errorf("maxHops 1 joins rows: %d digits", digits)
		}
		if prev >= 0 && digits > prev {
			t.Errorf("maxHops %d: %d digits, more than %d with a lower limit", h, digits, prev)
		}
		prev = digits
	}
}
