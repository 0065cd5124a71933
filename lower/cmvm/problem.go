package cmvm

import (
	"errors"
	"fmt"
)

// Problem is one constant-matrix-vector multiplication y = M·x.
type Problem struct {
	// Matrix holds the constant coefficients. By default Matrix[i][j] is the
	// coefficient of input j in output i (rows are outputs, columns are
	// inputs). Every row must have the same length.
	Matrix [][]int64
	// Transposed flips that convention: Matrix[j][i] is the coefficient of
	// input j in output i (rows are inputs, da4ml's kernel layout, x·K).
	Transposed bool
	// Inputs gives the interval of every input x_j. An input whose interval
	// is [0, 0] contributes nothing and its column is ignored.
	Inputs []Interval
	// Bare marks the outputs the caller uses as they are, added to no other
	// value (a product stored without a bias): reading one negated with no
	// shift takes a negation, an adder and one more level on its path, and
	// a depth bound counts that level (with a shift s it is 0 - v·2^s, a
	// constant add). An output the caller adds to a constant or to another
	// value folds the negation into that subtraction. nil: no output is
	// bare; otherwise one entry per output.
	Bare []bool
}

// maxTerms bounds the number of CSD digits of a problem, so node ids fit the
// 26-bit fields of a pattern key with room for the nodes CSE creates.
const maxTerms = 1 << 24

// normalized is a validated problem in the row = output orientation.
type normalized struct {
	rows   [][]int64 // rows[i][j]: coefficient of input j in output i
	inputs []Interval
	nOut   int
	bare   []bool // Problem.Bare, or nil
	nIn    int
}

// normalize validates p and returns it with rows as outputs. The columns of
// inputs whose interval is [0, 0] are zeroed. Every output's exact range
// must fit in int64 (ErrOverflow otherwise).
func normalize(p Problem) (*normalized, error) {
	nMajor := len(p.Matrix)
	nMinor := 0
	if nMajor > 0 {
		nMinor = len(p.Matrix[0])
	}
	for i, r := range p.Matrix {
		if len(r) != nMinor {
			return nil, fmt.Errorf("cmvm: matrix row %d has %d entries, row 0 has %d", i, len(r), nMinor)
		}
	}
	nOut, nIn := nMajor, nMinor
	if p.Transposed {
		nOut, nIn = nMinor, nMajor
	}
	if nMajor == 0 && !p.Transposed {
		// No outputs: nothing fixes the number of inputs but the intervals.
		nIn = len(p.Inputs)
	}
	if len(p.Inputs) != nIn {
		return nil, fmt.Errorf("cmvm: %d input intervals for %d inputs", len(p.Inputs), nIn)
	}
	for j, iv := range p.Inputs {
		if err := iv.Valid(); err != nil {
			return nil, fmt.Errorf("cmvm: input %d: %w", j, err)
		}
	}
	if p.Bare != nil && len(p.Bare) != nOut {
		return nil, fmt.Errorf("cmvm: %d Bare flags for %d outputs", len(p.Bare), nOut)
	}
	n := &normalized{nOut: nOut, nIn: nIn, inputs: append([]Interval(nil), p.Inputs...), bare: p.Bare}
	n.rows = make([][]int64, nOut)
	terms := 0
	for i := range n.rows {
		r := make([]int64, nIn)
		for j := range r {
			var v int64
			if p.Transposed {
				v = p.Matrix[j][i]
			} else {
				v = p.Matrix[i][j]
			}
			if p.Inputs[j].IsZero() {
				v = 0
			}
			r[j] = v
			terms += csdWeight(v)
			if terms > maxTerms {
				return nil, errors.New("cmvm: matrix has too many signed digits")
			}
		}
		n.rows[i] = r
		if _, err := exactInterval(r, n.inputs); err != nil {
			return nil, fmt.Errorf("cmvm: output %d: %w", i, err)
		}
	}
	return n, nil
}
