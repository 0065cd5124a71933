package exec

import (
	"math"
	"math/big"
	"slices"

	"github.com/otir-dev/otir/ir"
)

// execMatmul computes D = A x B + C (design section 5): for each element the
// products A[m,k]*B[k,n] are summed in ascending k onto C[m,n], exactly, and
// the sum is converted once to D's element type. Integer sums stay exact
// (int64 fast path, math/big past it); float sums are exact rationals,
// rounded once; a NaN or infinity among the terms makes the sum IEEE's
// (order-independent) NaN or infinity.
func execMatmul(w *workgroup, op *ir.Operation) ([]rvalue, error) {
	if len(op.Operands) != 3 {
		return nil, opErr(op, "needs 3 operands (A, B, C), has %d", len(op.Operands))
	}
	var in [3]*Buffer
	for i := range in {
		b, err := w.valueOperand(op, i)
		if err != nil {
			return nil, err
		}
		if len(b.Shape) != 2 {
			return nil, opErr(op, "operand #%d must be a 2-D tile, not %s", i, shapeString(b.Shape))
		}
		in[i] = b
	}
	a, b, c := in[0], in[1], in[2]
	M, K, N := a.Shape[0], a.Shape[1], b.Shape[1]
	if b.Shape[0] != K || c.Shape[0] != M || c.Shape[1] != N {
		return nil, opErr(op, "shapes %s x %s + %s do not fit (M, K) x (K, N) + (M, N)", shapeString(a.Shape), shapeString(b.Shape), shapeString(c.Shape))
	}
	shape, relem, err := resultValueType(op)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(shape, c.Shape) {
		return nil, opErr(op, "result shape %s is not the accumulator's shape %s", shapeString(shape), shapeString(c.Shape))
	}
	float := anyFloat(a.Elem, b.Elem, c.Elem)
	out := NewBuffer(relem, shape...)
	if !float && out.Ints != nil && matmulFits(a, b, c) {
		matmulInts(out.Ints, a.Ints, b.Ints, c.Ints, int(K), int(N), wrapperOf(relem))
		return []rvalue{out}, nil
	}
	for m := int64(0); m < M; m++ {
		for n := int64(0); n < N; n++ {
			row, col := m*K, n
			var r num
			var err error
			if float {
				r, err = floatDot(a, b, c.num(int(m*N+n)), row, col, K, N, relem)
			} else {
				var sum num
				if s, ok := dot64(a.Ints, b.Ints, c.Ints, m*N+n, row, col, K, N); ok {
					sum = intNum(s)
				} else {
					sum = c.num(int(m*N + n))
					for k := int64(0); k < K; k++ {
						sum = addInt(sum, mulInt(a.num(int(row+k)), b.num(int(k*N+col))))
					}
				}
				r, err = convert(sum, relem)
			}
			if err != nil {
				return nil, opErr(op, "%v (element [%d, %d])", err, m, n)
			}
			out.setNum(int(m*N+n), r)
		}
	}
	return []rvalue{out}, nil
}

// dot64 is c[at] + sum_k a[row+k] * b[k*N+col] of an integer matmul whose
// operands are held as int64s (nil: not), when it fits in an int64 at every
// step (ok false: the caller sums exactly).
func dot64(a, b, c []int64, at, row, col, K, N int64) (sum int64, ok bool) {
	if a == nil || b == nil || c == nil {
		return 0, false
	}
	sum = c[at]
	for k := int64(0); k < K; k++ {
		p, ok1 := mul64(a[row+k], b[k*N+col])
		s, ok2 := add64(sum, p)
		if !ok1 || !ok2 {
			return 0, false
		}
		sum = s
	}
	return sum, true
}

// floatDot computes c + sum_k a[row+k] * b[k*N+col] of a float matmul and
// converts it to rt: finite terms are summed exactly as rationals and rounded
// once; with a NaN or infinity among them the float64 sum (whose NaN or
// infinity does not depend on the order) is converted instead.
func floatDot(a, b *Buffer, c num, row, col, K, N int64, rt ir.Type) (num, error) {
	finite := func(n num) bool { return n.k != kFloat || !math.IsNaN(n.f) && !math.IsInf(n.f, 0) }
	allFinite := finite(c)
	for k := int64(0); k < K && allFinite; k++ {
		allFinite = finite(a.num(int(row+k))) && finite(b.num(int(k*N+col)))
	}
	if !allFinite {
		f := func(n num) float64 {
			if n.k == kFloat {
				return n.f
			}
			return intToFloat(n, ir.F64)
		}
		s := f(c)
		for k := int64(0); k < K; k++ {
			s += f(a.num(int(row+k))) * f(b.num(int(k*N+col)))
		}
		return convert(floatNum(s), rt)
	}
	rat := func(n num) *big.Rat {
		if n.k == kFloat {
			return new(big.Rat).SetFloat64(n.f) // exact for finite floats
		}
		return new(big.Rat).SetInt(n.big())
	}
	sum := rat(c)
	for k := int64(0); k < K; k++ {
		sum.Add(sum, new(big.Rat).Mul(rat(a.num(int(row+k))), rat(b.num(int(k*N+col)))))
	}
	return convertRat(sum, rt)
}

// convertRat converts an exact dyadic rational (a sum of float and integer
// products) to type t with a single rounding.
func convertRat(r *big.Rat, t ir.Type) (num, error) {
	if ft, ok := t.(*ir.FloatType); ok {
		// The denominator is a power of two, so precision 0 (the numerator's
		// length, at least 64) holds the value exactly.
		return floatNum(roundBigFloat(new(big.Float).SetRat(r), ft.Kind)), nil
	}
	q, _ := floorDivMod(bigNum(r.Num()), bigNum(r.Denom()))
	return convert(q, t)
}
