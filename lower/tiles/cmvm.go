package tiles

import (
	binenc "encoding/binary"
	"errors"
	"math/big"

	"github.com/otir-dev/otir/lower/cmvm"
	"github.com/otir-dev/otir/lower/dais"
)

// constMatmul lowers the products of a matmul whose A or B is a constant
// matrix (and the other is not) with lower/cmvm: each row of A times the
// constant B (or the constant A times each column of B) is one
// constant-matrix-vector product, whose adder graph shares subexpressions
// between the outputs; each output's value joins its terms. A vector cmvm
// cannot take (values beyond int64) is multiplied element by element. It
// reports false, touching nothing, when neither operand is constant.
func (l *lowerer) constMatmul(a, b []num, M, K, N int, rt intT, terms [][]term) (bool, error) {
	defer func() {
		l.progress.Solved, l.progress.Products = 0, 0
		l.progress.SolveOutputs, l.progress.SolveInputs = 0, 0
	}()
	switch {
	case allConst(b) && !allConst(a):
		// Row m: y[n] = sum_k x[k] * B[k][n], x = A[m, :]: B is the
		// transposed matrix (rows are inputs).
		mat := constMatrix(b, K, N)
		coef := func(k, n int) *big.Int { return b[k*N+n].c }
		l.progress.Products = M
		for m := 0; m < M; m++ {
			l.progress.Solved = m
			out := func(n int) *[]term { return &terms[m*N+n] }
			if err := l.constVector(a[m*K:(m+1)*K], mat, true, N, rt, out, coef); err != nil {
				return true, err
			}
		}
		return true, nil
	case allConst(a) && !allConst(b):
		// Column n: y[m] = sum_k A[m][k] * x[k], x = B[:, n].
		mat := constMatrix(a, M, K)
		coef := func(k, m int) *big.Int { return a[m*K+k].c }
		l.progress.Products = N
		for n := 0; n < N; n++ {
			l.progress.Solved = n
			x := make([]num, K)
			for k := range x {
				x[k] = b[k*N+n]
			}
			out := func(m int) *[]term { return &terms[m*N+n] }
			if err := l.constVector(x, mat, false, M, rt, out, coef); err != nil {
				return true, err
			}
		}
		return true, nil
	}
	return false, nil
}

// constVector adds to out(j) the value of output j of the product of the
// values x by a constant matrix (coef(k, j): the coefficient of x[k] in
// output j): through cmvm when it takes the problem, else one product at a
// time.
func (l *lowerer) constVector(x []num, mat [][]int64, transposed bool, nOut int, rt intT, out func(j int) *[]term, coef func(k, j int) *big.Int) error {
	bare := make([]bool, nOut)
	for j := range bare {
		bare[j] = zeroConsts(*out(j))
	}
	outs, err := l.cmvmRow(x, mat, transposed, nOut, rt, bare)
	if err != nil {
		return err
	}
	if outs != nil {
		for j, vs := range outs {
			*out(j) = append(*out(j), vs...)
		}
		return nil
	}
	for j := 0; j < nOut; j++ {
		for k := range x {
			p, err := l.mul(x[k], constNum(coef(k, j)), rt)
			if err != nil {
				return err
			}
			*out(j) = append(*out(j), term{n: p})
		}
	}
	return nil
}

// zeroConsts reports whether ts holds only constant zeros: an output
// value that adds nothing to the product, which therefore pays for its
// negation (cmvm.Problem.Bare).
func zeroConsts(ts []term) bool {
	for _, t := range ts {
		if t.s != nil || t.n.c == nil || t.n.c.Sign() != 0 {
			return false
		}
	}
	return true
}

func allConst(ns []num) bool {
	for _, n := range ns {
		if n.c == nil {
			return false
		}
	}
	return true
}

// constMatrix returns the rows x cols constant matrix of ns, or nil when an
// entry does not fit int64.
func constMatrix(ns []num, rows, cols int) [][]int64 {
	mat := make([][]int64, rows)
	for i := range mat {
		mat[i] = make([]int64, cols)
		for j := range mat[i] {
			c := ns[i*cols+j].c
			if !c.IsInt64() {
				return nil
			}
			mat[i][j] = c.Int64()
		}
	}
	return mat
}

// cmvmRow solves one constant-matrix-vector product over the values x and
// emits its adder graph. It returns, for each of the nOut outputs, the terms
// of its value (values of rt): the graph's output and the constant
// contribution of the constant entries of x. bare[i] says that output i is
// joined with nothing else but that contribution. It returns nil when cmvm
// cannot take the problem.
func (l *lowerer) cmvmRow(x []num, mat [][]int64, transposed bool, nOut int, rt intT, bare []bool) ([][]term, error) {
	if mat == nil {
		return nil, nil
	}
	coef := func(k, i int) int64 {
		if transposed {
			return mat[k][i]
		}
		return mat[i][k]
	}
	inputs := make([]cmvm.Interval, len(x))
	for k, v := range x {
		if v.c != nil {
			continue // a [0, 0] input: ignored by cmvm, added as a constant
		}
		lo, hi := v.bounds()
		if !lo.IsInt64() || !hi.IsInt64() {
			return nil, nil
		}
		inputs[k] = cmvm.Interval{Lo: lo.Int64(), Hi: hi.Int64()}
	}
	// The constant entries' contribution to each output, which absorbs a
	// negated output as a bias does.
	consts := make([]*big.Int, nOut)
	for i := range consts {
		k := new(big.Int)
		for j, v := range x {
			if v.c != nil {
				k.Add(k, mul(v.c, big.NewInt(coef(j, i))))
			}
		}
		consts[i] = rt.wrap(k)
		bare[i] = bare[i] && consts[i].Sign() == 0
	}
	g, err := l.solve(cmvm.Problem{Matrix: mat, Transposed: transposed, Inputs: inputs, Bare: bare}, nOut)
	if below := (*cmvm.BelowMinimalDepthError)(nil); errors.As(err, &below) {
		// No graph meets the bound: say so, rather than lower the
		// products one at a time at any depth.
		return nil, l.errf("max-adder-depth=%d is below this constant-matrix product's minimal adder tree, %d levels (max-adder-depth=-1 asks for it)", below.Bound, below.Minimal)
	}
	if err != nil || len(g.Outputs) != nOut {
		return nil, nil
	}
	nodes := make([]*slot, len(x)+len(g.Ops))
	for k, v := range x {
		if v.c == nil {
			if nodes[k], err = l.data(v); err != nil {
				return nil, err
			}
		}
	}
	for j, o := range g.Ops {
		if o.A < 0 || o.B < 0 || o.A >= len(x)+j || o.B >= len(x)+j || nodes[o.A] == nil || nodes[o.B] == nil {
			return nil, nil // a graph reading a constant input: not expected
		}
		sa, sb := nodes[o.A], nodes[o.B]
		lo, hi := shl(sb.lo, o.Shift), shl(sb.hi, o.Shift)
		name := dais.OpAdd
		if o.Sub {
			lo, hi, name = neg(hi), neg(lo), dais.OpSub
		}
		v, err := l.value(name, []*slot{sa, sb}, shiftAttr(o.Shift), add(sa.lo, lo), add(sa.hi, hi), rt)
		if err != nil {
			return nil, err
		}
		if nodes[len(x)+j], err = l.data(v); err != nil {
			return nil, err
		}
	}
	outs := make([][]term, nOut)
	for i := range outs {
		outs[i] = []term{{n: constNum(consts[i])}}
		o := g.Outputs[i]
		if o.Node < 0 {
			continue
		}
		if o.Node >= len(nodes) || nodes[o.Node] == nil {
			return nil, nil
		}
		outs[i] = append(outs[i], term{s: nodes[o.Node], shift: o.Shift, neg: o.Neg})
	}
	return outs, nil
}

// solve solves a constant-matrix problem once per lowering: the workgroups
// of a grid often multiply the same constant matrix by inputs of the same
// ranges, and the solver is deterministic, so an identical problem reuses
// the graph found the first time (a graph is only read by cmvmRow).
func (l *lowerer) solve(p cmvm.Problem, nOut int) (*cmvm.Graph, error) {
	l.progress.SolveOutputs, l.progress.SolveInputs = nOut, len(p.Inputs)
	l.report()
	key := problemKey(p)
	if g, ok := l.solved[key]; ok {
		l.progress.SolveOutputs, l.progress.SolveInputs = 0, 0
		return g, nil
	}
	if onSolve != nil {
		onSolve()
	}
	restarts := -1 // adders: the deterministic attempts are as good (docs/cmvm.md)
	if l.opts.Objective == cmvm.LUTs {
		restarts = 0 // automatic: LUTs vary between attempts
	}
	g, err := cmvm.Solve(p, cmvm.Options{Restarts: restarts, Objective: l.opts.Objective, CarrySize: l.opts.CarrySize, AdderSize: l.opts.AdderSize, MaxDepth: l.opts.MaxAdderDepth, DepthSlack: l.opts.AdderDepthSlack})
	l.progress.SolveOutputs, l.progress.SolveInputs = 0, 0
	if err != nil {
		return nil, err
	}
	if l.solved == nil {
		l.solved = map[string]*cmvm.Graph{}
	}
	l.solved[key] = g
	return g, nil
}

// onSolve, when set (by a test), is called for every problem solved.
var onSolve func()

// problemKey is a problem's identity: its orientation, matrix and input
// ranges, as bytes.
func problemKey(p cmvm.Problem) string {
	n := 0
	for _, row := range p.Matrix {
		n += len(row)
	}
	b := make([]byte, 0, 8*(n+2*len(p.Inputs)+len(p.Matrix)+2))
	put := func(v int64) { b = binenc.LittleEndian.AppendUint64(b, uint64(v)) }
	if p.Transposed {
		put(1)
	} else {
		put(0)
	}
	put(int64(len(p.Matrix)))
	for _, row := range p.Matrix {
		put(int64(len(row)))
		for _, v := range row {
			put(v)
		}
	}
	for _, in := range p.Inputs {
		put(in.Lo)
		put(in.Hi)
	}
	for _, bare := range p.Bare {
		if bare {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	return string(b)
}
