package tiles

import (
	"math/big"

	"github.com/otir-dev/otir/internal/satint"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// matmul lowers otir.matmul D = A x B + C. Each D[m, n] is C[m, n] plus the
// K products A[m, k]*B[k, n], summed exactly and converted once to D's
// element type (design section 5). Sums are modular in D's width, so the
// lowering adds the products in a balanced tree (the shortest latency) and
// wraps partial sums that leave D's range: the result is the same as the
// executor's ascending-k sum. With a constant A or B, each row (or column)
// is a constant-matrix-vector product, lowered by lower/cmvm into a shared
// shift-and-add graph (cmvm.go); other products by a constant are shift-and-
// add chains, and products of two values dais.mul.
func (l *lowerer) matmul(op *ir.Operation) error {
	a, sa, err := l.elems(op.Operands[0])
	if err != nil {
		return err
	}
	b, sb, err := l.elems(op.Operands[1])
	if err != nil {
		return err
	}
	c, sc, err := l.elems(op.Operands[2])
	if err != nil {
		return err
	}
	if len(sa) != 2 || len(sb) != 2 || sa[1] != sb[0] {
		return l.errf("internal error: matmul shapes %v x %v", sa, sb)
	}
	M, K, N := int(sa[0]), int(sa[1]), int(sb[1])
	rt, ok := intTypeOf(ir.ElementType(op.Results[0].Type))
	if !ok {
		return l.cannot("result type %s is not an integer", op.Results[0].Type)
	}
	if c, err = l.broadcastTo(c, sc, []int64{int64(M), int64(N)}); err != nil {
		return err
	}
	// terms[m*N+n] are the addends of D[m, n], C first: M*N*(K+1) of them,
	// held at once, counted before they are allocated (a 512x512x512
	// product held 134 million and ran out of memory before max-ops).
	if err := l.reserve(satint.Mul(satint.Mul(int64(M), int64(N)), int64(K)+1), "needs matmul addends and tiles of"); err != nil {
		return err
	}
	terms := make([][]term, M*N)
	for i := range terms {
		terms[i] = append(make([]term, 0, K+1), term{n: c[i]})
	}
	done, err := l.constMatmul(a, b, M, K, N, rt, terms)
	if err != nil {
		return err
	}
	if !done {
		l.growOps(2 * M * N * K) // the products and the adds summing them
		for m := 0; m < M; m++ {
			l.progress.Row, l.progress.Rows = m, M
			l.report()
			for n := 0; n < N; n++ {
				for k := 0; k < K; k++ {
					p, err := l.mul(a[m*K+k], b[k*N+n], rt)
					if err != nil {
						return addElement(err, []int64{int64(M), int64(N)}, m*N+n)
					}
					terms[m*N+n] = append(terms[m*N+n], term{n: p})
				}
			}
		}
	}
	l.progress.Row, l.progress.Rows = 0, 0
	out := make([]num, M*N)
	for i, ts := range terms {
		if out[i], err = l.sum(ts, rt); err != nil {
			return err
		}
	}
	l.setResult(op, out)
	return nil
}

// term is one addend of a sum: a value n, or (s non-nil) the slot s scaled
// by 2^shift and negated if neg, as cmvm outputs are, which the sum adds
// with one shifted dais.add or dais.sub.
type term struct {
	n     num
	s     *slot
	shift int
	neg   bool
}

// sum adds terms as values of rt: the constants folded into one, the
// values in a balanced tree of dais.add, then the scaled slots, then the
// constant.
func (l *lowerer) sum(terms []term, rt intT) (num, error) {
	k := new(big.Int)
	xs := l.sumScratch[:0] // reused: a matmul sums M*N times
	defer func() { l.sumScratch = xs[:0] }()
	var scaled []term
	for _, t := range terms {
		switch {
		case t.s != nil:
			scaled = append(scaled, t)
		case t.n.c != nil:
			k.Add(k, t.n.c)
		default:
			xs = append(xs, t.n)
		}
	}
	for len(xs) > 1 {
		// One level of the tree, in place: pair i/2 is written after
		// pairs up to i are read.
		j := 0
		for i := 0; i+1 < len(xs); i += 2 {
			s, err := l.add(xs[i], xs[i+1], rt)
			if err != nil {
				return num{}, err
			}
			xs[j] = s
			j++
		}
		if len(xs)%2 == 1 {
			xs[j] = xs[len(xs)-1]
			j++
		}
		xs = xs[:j]
	}
	var acc *num
	switch {
	case len(xs) == 1:
		acc = &xs[0]
	case len(scaled) > 0 && k.Sign() != 0:
		// Start from the constant: k - s*2^shift is one dais.sub.
		v := constNum(k)
		acc, k = &v, new(big.Int)
	}
	for _, t := range scaled {
		if acc == nil {
			v, err := l.shifted(t.s, t.shift, t.neg, rt)
			if err != nil {
				return num{}, err
			}
			acc = &v
			continue
		}
		as, err := l.data(*acc)
		if err != nil {
			return num{}, err
		}
		lo, hi := shl(t.s.lo, t.shift), shl(t.s.hi, t.shift)
		name := dais.OpAdd
		if t.neg {
			lo, hi, name = neg(hi), neg(lo), dais.OpSub
		}
		v, err := l.value(name, []*slot{as, t.s}, shiftAttr(t.shift), add(as.lo, lo), add(as.hi, hi), rt)
		if err != nil {
			return num{}, err
		}
		acc = &v
	}
	if acc == nil {
		return constNum(rt.wrap(k)), nil
	}
	r, err := l.add(*acc, constNum(k), rt)
	if err != nil {
		return num{}, err
	}
	return l.convert(r, rt)
}
