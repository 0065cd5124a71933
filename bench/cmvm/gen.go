// Package cmvmbench compares otir's constant-matrix-vector multiplication
// (lower/cmvm, through lower-tiles to ALIR) with the reference solvers of
// da4ml and alkaid (issue 15). The matrices come from Matrix, a fixed-seed
// generator, so anyone can repeat the comparison; the harness is
// compare_test.go (see BENCHMARKS.md for the commands).
package cmvmbench

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
)

// Kind selects a matrix distribution.
type Kind string

const (
	// Table2 is da4ml's Table 2 protocol: entries uniform in 129..255
	// (da4ml-ae table2.ipynb: floor(U[0,1)·127) + 129).
	Table2 Kind = "t2"
	// Int8 has entries uniform in -128..127 (alkaid's gen_cmvm64.py).
	Int8 Kind = "int8"
)

// Matrix returns the seed-th random rows×cols matrix of the kind: W in
// y = x @ W, so rows is the number of inputs and cols the number of
// outputs (cmvm_cli's W.txt layout). The generator is a PCG seeded with
// (0xc3a1<<32 | rows<<16 | cols, seed) for Int8 and (0x7ab1e2, seed) for
// Table2, the stream lower/cmvm's Table 2 tests use (rows = cols there).
func Matrix(kind Kind, rows, cols int, seed uint64) [][]int64 {
	var rng *rand.Rand
	lo, span := int64(-128), int64(256)
	switch kind {
	case Table2:
		rng = rand.New(rand.NewPCG(0x7ab1e2, seed))
		lo, span = 129, 127
	default:
		rng = rand.New(rand.NewPCG(0xc3a1<<32|uint64(rows)<<16|uint64(cols), seed))
	}
	m := make([][]int64, rows)
	for i := range m {
		m[i] = make([]int64, cols)
		for j := range m[i] {
			m[i][j] = lo + rng.Int64N(span)
		}
	}
	return m
}

// WriteMatrix writes m as text, one row per line (cmvm_cli's W.txt).
func WriteMatrix(path string, m [][]int64) error {
	var b strings.Builder
	for _, r := range m {
		for j, v := range r {
			if j > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprint(&b, v)
		}
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o666)
}
