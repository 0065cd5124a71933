package cmvm

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"github.com/otir-dev/otir/internal/intrange"
)

// Interval is the set of fixed-point values {k · 2^Exp : Lo <= k <= Hi}: a
// quantization interval [Lo·2^Exp, Hi·2^Exp] with the power-of-two step 2^Exp.
// Lo and Hi are raw integers in units of the step. Step-1 integer inputs have
// Exp = 0.
type Interval struct {
	Lo, Hi int64
	Exp    int
}

// Limits on Interval.Exp: the step 2^Exp must be a finite, non-zero float64,
// as in ALIR.
const (
	MinExp = -1074
	MaxExp = 1023
)

// ErrOverflow is wrapped by every error caused by a value, coefficient or
// interval that does not fit in int64 (ALIR's interpreter is limited to
// 64-bit buffers, so such a graph could not be run anyway).
var ErrOverflow = errors.New("cmvm: value does not fit in int64")

// Valid reports whether iv is a well-formed interval.
func (iv Interval) Valid() error {
	if iv.Lo > iv.Hi {
		return fmt.Errorf("interval [%d, %d]: lower bound above upper bound", iv.Lo, iv.Hi)
	}
	if iv.Exp < MinExp || iv.Exp > MaxExp {
		return fmt.Errorf("interval exponent %d out of range [%d, %d]", iv.Exp, MinExp, MaxExp)
	}
	return nil
}

// IsZero reports whether the interval holds only the value 0.
func (iv Interval) IsZero() bool { return iv.Lo == 0 && iv.Hi == 0 }

// Width returns the number of bits k + i + f of the fixed-point type that
// holds the interval exactly (ERRATA.md, "Fixed-point view"): 0 for [0, 0],
// else k = (Lo < 0) and i + f = ceil_log2(max(|Lo|, Hi + 1)).
func (iv Interval) Width() int { return iv.raw().Bits() }

// raw returns the interval's raw integer range (in units of its step).
func (iv Interval) raw() intrange.Range64 { return intrange.Range64{Lo: iv.Lo, Hi: iv.Hi} }

// CostModel is da4ml's adder cost model (ERRATA.md, "Cost model"): an adder
// whose result is n bits wide costs ceil(n / AdderSize) and takes
// ceil(n / CarrySize) latency steps. A size <= 0 (or -1, as in ALIR) means
// "unbounded": that quantity is 1 per adder.
type CostModel struct {
	AdderSize, CarrySize int
}

// Adder returns the cost and latency of one adder with an n-bit result.
func (c CostModel) Adder(n int) (cost, latency int) {
	return ceilDiv(n, c.AdderSize), ceilDiv(n, c.CarrySize)
}

func ceilDiv(n, size int) int {
	if size <= 0 {
		return 1
	}
	return (n + size - 1) / size
}

// addShifted returns a + b·2^s, or a - b·2^s when neg, exactly: false only
// when the result itself does not fit in int64 (an intermediate may not,
// as in 1 - 2^63).
func addShifted(a, b int64, s int, neg bool) (int64, bool) {
	if v, ok := intrange.ShlInt64(b, s); ok {
		if !neg {
			return intrange.AddInt64(a, v)
		}
		if v != math.MinInt64 {
			return intrange.AddInt64(a, -v)
		}
	}
	if s < 0 || s > 128 {
		return 0, false // no int64 result can come of such a shift but 0
	}
	r := new(big.Int).Lsh(big.NewInt(b), uint(s))
	if neg {
		r.Neg(r)
	}
	r.Add(r, big.NewInt(a))
	if !r.IsInt64() {
		return 0, false
	}
	return r.Int64(), true
}

// exactInterval returns the exact range of sum_j coef[j] · x_j for
// independent inputs x_j ranging over in[j]. The step is the largest power of
// two dividing every term, 2^min_j(Exp_j + v2(coef_j)), so Lo and Hi are
// integers in units of it; an all-zero combination gives [0, 0] with Exp 0.
func exactInterval(coef []int64, in []Interval) (Interval, error) {
	exp, found := 0, false
	for j, c := range coef {
		if c == 0 || in[j].IsZero() {
			continue
		}
		e := in[j].Exp + bits.TrailingZeros64(uint64(c))
		if !found || e < exp {
			exp, found = e, true
		}
	}
	if !found {
		return Interval{}, nil
	}
	var sum intrange.Range64
	for j, c := range coef {
		if c == 0 || in[j].IsZero() {
			continue
		}
		// c · 2^(Exp_j - exp) is an integer by the choice of exp.
		var scaled int64
		if d := in[j].Exp - exp; d >= 0 {
			s, ok := intrange.ShlInt64(c, d)
			if !ok {
				return Interval{}, fmt.Errorf("%w: coefficient %d scaled by 2^%d", ErrOverflow, c, d)
			}
			scaled = s
		} else {
			scaled = c >> uint(-d)
		}
		t, ok := in[j].raw().Scale(scaled)
		if !ok {
			return Interval{}, fmt.Errorf("%w: coefficient %d times input %d's range", ErrOverflow, c, j)
		}
		if sum, ok = sum.Add(t); !ok {
			return Interval{}, fmt.Errorf("%w: range of a linear combination", ErrOverflow)
		}
	}
	return Interval{Lo: sum.Lo, Hi: sum.Hi, Exp: exp}, nil
}
