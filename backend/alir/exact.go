package alir

import (
	"fmt"
	"math"
	"math/big"
)

// This file is the reference semantics: every operation evaluated with
// unbounded integers. The fast interpreter (interp.go) uses it for
// operations whose intermediate results might not fit 64 bits, and the tests
// check the fast kernels against it.
//
// Arithmetic operations compute their real result exactly and bring it to
// the result's step (floor); only the operations that Dialect.Wraps names
// then wrap it to the result's width (semantics.go). Lookups and bit
// operations work on raw values, as the original interpreters do.

// exactCtx evaluates single operations of one program.
type exactCtx struct {
	p   *Program
	inf *info
	a   big.Int // scratch
	b   big.Int
	one big.Int
}

func newExactCtx(p *Program, inf *info) *exactCtx {
	c := &exactCtx{p: p, inf: inf}
	c.one.SetInt64(1)
	return c
}

// Wrap reduces the raw value z to the type in place and returns it: the low
// W bits, sign-extended if t is signed.
func (t KIF) Wrap(z *big.Int) *big.Int {
	w := uint(t.Width())
	if w == 0 {
		return z.SetInt64(0)
	}
	m := new(big.Int).Lsh(big.NewInt(1), w)
	z.Mod(z, m) // Euclidean: 0 <= z < 2^w
	if t.Signed && z.Bit(int(w-1)) == 1 {
		z.Sub(z, m)
	}
	return z
}

// scaleBig sets z to n*2^-e brought to the step of t: the raw value of t
// nearest below it (floor), not wrapped.
func scaleBig(z, n *big.Int, e int, t KIF) *big.Int {
	if d := t.Fractionals - e; d < 0 {
		return z.Rsh(n, uint(-d)) // floor for negative n
	} else {
		return z.Lsh(n, uint(d))
	}
}

// quantizeBig sets z to the raw value of type t nearest below n*2^-e
// (floor), wrapped to t.
func quantizeBig(z, n *big.Int, e int, t KIF) *big.Int {
	return t.Wrap(scaleBig(z, n, e, t))
}

// inputRaw converts x (already scaled) to an integer by floor and wraps it
// to t. Non-finite values give 0. The conversion is exact for any magnitude.
func inputRaw(z *big.Int, x float64, t KIF) *big.Int {
	x = math.Floor(x)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return z.SetInt64(0)
	}
	new(big.Float).SetFloat64(x).Int(z)
	return t.Wrap(z)
}

// inputScale returns the factor 2^(shift+f) an input is multiplied by; like
// the original's pow(2.0, n) it is 0 or +Inf when out of range.
func inputScale(shift int32, f int) float64 { return math.Ldexp(1, int(shift)+f) }

// outputScale returns 2^(shift-f), the factor a raw output is multiplied by.
func outputScale(shift int32, f int) float64 { return math.Ldexp(1, int(shift)-f) }

// muxTrue reports whether a mux whose condition has type tc and raw value v
// takes its first operand. ALIR reads bit W-1 of v; da4ml's DAIS
// interpreter tests v < 0 for a signed condition and, for an unsigned one,
// v > max(2^(W-2), 0) (with a width of 1, v > 0; x86's shift-count masking
// makes 1<<-1 the most negative int64 there).
func muxTrue(d Dialect, tc KIF, v *big.Int) bool {
	w := tc.Width()
	switch {
	case d == ALIR:
		return w > 0 && v.Bit(w-1) == 1 // Bit reads two's complement
	case tc.Signed:
		return v.Sign() < 0
	case w >= 2:
		return v.Cmp(new(big.Int).Lsh(big.NewInt(1), uint(w-2))) > 0
	case w == 1:
		return v.Sign() > 0
	}
	return v.Cmp(big.NewInt(1<<62)) > 0 // width 0: 1<<-2 is 1<<62 on x86
}

// MuxTrue reports whether a mux of dialect d whose condition has type tc
// and raw value v takes its first operand (the exact semantics' rule, for
// passes that fold muxes).
func MuxTrue(d Dialect, tc KIF, v *big.Int) bool { return muxTrue(d, tc, v) }

// op sets z to the raw result of operation i. val returns the raw value of an
// earlier slot; in is the input row (used by OpInput only).
func (c *exactCtx) op(i int, val func(int32) *big.Int, in []float64, z *big.Int) error {
	return c.eval(i, c.p.Ops[i], c.inf.kif[i], c.inf.padOf(i), val, in, z)
}

// eval sets z to the raw result of op, of type t (and lookup pad pad), in
// the place of operation i, by the opcode table's exact semantics.
func (c *exactCtx) eval(i int, op Op, t KIF, pad int64, val func(int32) *big.Int, in []float64, z *big.Int) error {
	e := c.p.Dialect.Info(op.Opcode)
	if e == nil {
		return c.p.opErr(i, "unsupported opcode")
	}
	return e.exact(c, i, op, t, pad, val, in, z)
}

// fr returns the fractional bits of slot j.
func (c *exactCtx) fr(j int32) int { return c.inf.kif[j].Fractionals }

// The exact semantics of the opcode table: each sets z to the raw result of
// op (type t) in the place of operation i.

func exactInput(c *exactCtx, i int, op Op, t KIF, pad int64, val func(int32) *big.Int, in []float64, z *big.Int) error {
	x := in[op.ID0] * inputScale(c.p.InShifts[op.ID0], t.Fractionals)
	inputRaw(z, x, t)
	return nil
}

// exactNeg is ALIR's -2: the raw value negated.
func exactNeg(c *exactCtx, i int, op Op, t KIF, pad int64, val func(int32) *big.Int, in []float64, z *big.Int) error {
	z.Neg(val(op.ID0))
	return nil
}

// exactNegReLU is DAIS's -2: relu(-a).
func exactNegReLU(c *exactCtx, i int, op Op, t KIF, pad int64, val func(int32) *big.Int, in []float64, z *big.Int) error {
	reluQuantize(z, c.a.Neg(val(op.ID0)), c.fr(op.ID0), t)
	return nil
}

func exactNegQuantize(c *exactCtx, i int, op Op, t KIF, pad int64, val func(int32) *big.Int, in []float64, z *big.Int) error {
	quantizeBig(z, c.a.Neg(val(op.ID0)), c.fr(op.ID0), t)
	return nil
}

func exactAddSub(c *exactCtx, i int, op Op, t KIF, pad int64, val func(int32) *big.Int, in []float64, z *big.Int) error {
	a, b := &c.a, &c.b
	// a*2^-fa ± b*2^(s-fb), at exponent e = max(fa, fb-s).
	fa, fb := c.fr(op.ID0), c.fr(op.ID1)-int(op.Data)
	e := max(fa, fb)
	a.Lsh(val(op.ID0), uint(e-fa))
	b.Lsh(val(op.ID1), uint(e-fb))
	addSigned(a, b, op.Opcode == OpSub)
	scaleBig(z, a, e, t)
	return nil
}

// addSigned sets a to a - b when neg, else to a + b.
func addSigned(a, b *big.Int, neg bool) {
	if neg {
		a.Sub(a, b)
	} else {
		a.Add(a, b)
	}
}

func exactReLU(c *exactCtx, i int, op Op, t KIF, pad int64, val func(int32) *big.Int, in []float64, z *big.Int) error {
	reluQuantize(z, c.a.Set(val(op.ID0)), c.fr(op.ID0), t)
	return nil
}

// reluQuantize is quantizeBig of relu(a) (a, a scratch value, is clamped
// in place).
func reluQuantize(z, a *big.Int, f int, t KIF) {
	if a.Sign() < 0 {
		a.SetInt64(0)
	}
	quantizeBig(z, a, f, t)
}

// exactQuantize is quantize(a*2^r).
func exactQuantize(c *exactCtx, i int, op Op, t KIF, pad int64, val func(int32) *big.Int, in []float64, z *big.Int) error {
	quantizeBig(z, val(op.ID0), c.fr(op.ID0)-int(op.Data), t)
	return nil
}

// exactSum is Σ ±x_k*2^s_k at exponent e = max(f_k - s_k), floored to t.
func exactSum(c *exactCtx, i int, op Op, t KIF, pad int64, val func(int32) *big.Int, in []float64, z *big.Int) error {
	a, b := &c.a, &c.b
	e := math.MinInt
	for _, tm := range op.Terms {
		e = max(e, c.fr(tm.ID)-int(tm.Shift))
	}
	a.SetInt64(0)
	for _, tm := range op.Terms {
		b.Lsh(val(tm.ID), uint(e-(c.fr(tm.ID)-int(tm.Shift))))
		addSigned(a, b, tm.Neg)
	}
	scaleBig(z, a, e, t)
	return nil
}

// exactConstAdd is a*2^-fa + k*2^-ek.
func exactConstAdd(c *exactCtx, i int, op Op, t KIF, pad int64, val func(int32) *big.Int, in []float64, z *big.Int) error {
	a, b := &c.a, &c.b
	k, ek := int64(op.DataLow()), int(op.DataHigh())
	if c.p.Dialect == DAIS {
		k, ek = op.Data, t.Fractionals
	}
	fa := c.fr(op.ID0)
	e := max(fa, ek)
	a.Lsh(val(op.ID0), uint(e-fa))
	b.Lsh(b.SetInt64(k), uint(e-ek))
	scaleBig(z, a.Add(a, b), e, t)
	return nil
}

func exactConst(c *exactCtx, i int, op Op, t KIF, pad int64, val func(int32) *big.Int, in []float64, z *big.Int) error {
	z.SetInt64(op.Data)
	return nil
}

// exactMux is mux and DAIS's neg_mux.
func exactMux(c *exactCtx, i int, op Op, t KIF, pad int64, val func(int32) *big.Int, in []float64, z *big.Int) error {
	b := &c.b
	cond := op.DataLow()
	if muxTrue(c.p.Dialect, c.inf.kif[cond], val(cond)) {
		quantizeBig(z, val(op.ID0), c.fr(op.ID0), t)
		return nil
	}
	b.Set(val(op.ID1))
	if op.Opcode == OpNegMux {
		b.Neg(b)
	}
	quantizeBig(z, b, c.fr(op.ID1)-int(op.DataHigh()), t)
	return nil
}

func exactMul(c *exactCtx, i int, op Op, t KIF, pad int64, val func(int32) *big.Int, in []float64, z *big.Int) error {
	z.Mul(val(op.ID0), val(op.ID1))
	return nil
}

func exactLookup(c *exactCtx, i int, op Op, t KIF, pad int64, val func(int32) *big.Int, in []float64, z *big.Int) error {
	a, b := &c.a, &c.b
	ta := c.inf.kif[op.ID0]
	a.Set(val(op.ID0))
	if ta.Signed {
		a.Add(a, b.Lsh(&c.one, uint(ta.Width()-1)))
	}
	a.Sub(a, b.SetInt64(pad))
	tab := c.p.Tables[op.Data].Values
	if !a.IsInt64() || a.Int64() < 0 || a.Int64() >= int64(len(tab)) {
		return c.p.opErr(i, "lookup index %v out of range [0, %d)", a, len(tab))
	}
	z.SetInt64(int64(tab[a.Int64()]))
	return nil
}

// exactBitUnary is bit_unary and DAIS's neg_bit_unary.
func exactBitUnary(c *exactCtx, i int, op Op, t KIF, pad int64, val func(int32) *big.Int, in []float64, z *big.Int) error {
	a := &c.a
	a.Set(val(op.ID0))
	if op.Opcode == OpNegBitUnary {
		a.Neg(a)
	}
	mask := new(big.Int).Lsh(&c.one, uint(c.inf.kif[op.ID0].Width()))
	mask.Sub(mask, &c.one)
	switch op.Data {
	case BitNot:
		z.Not(a)
		if !t.Signed {
			z.And(z, mask)
		}
	case BitReduceAny:
		z.SetInt64(int64(a.Sign() & 1))
	case BitReduceAll:
		z.SetInt64(0)
		if a.And(a, mask).Cmp(mask) == 0 {
			z.SetInt64(1)
		}
	}
	return nil
}

func exactBitBinary(c *exactCtx, i int, op Op, t KIF, pad int64, val func(int32) *big.Int, in []float64, z *big.Int) error {
	a, b := &c.a, &c.b
	sh := int(op.DataLow()) + c.fr(op.ID0) - c.fr(op.ID1)
	a.Set(val(op.ID0))
	b.Set(val(op.ID1))
	if c.p.Dialect == DAIS { // DAIS v1: bits 0 and 1 of data_high negate a and b
		if op.DataHigh()&1 != 0 {
			a.Neg(a)
		}
		if op.DataHigh()&2 != 0 {
			b.Neg(b)
		}
	}
	if sh > 0 {
		b.Lsh(b, uint(sh))
	} else {
		a.Lsh(a, uint(-sh))
	}
	switch uint64(op.Data) >> 56 {
	case BitAnd:
		z.And(a, b)
	case BitOr:
		z.Or(a, b)
	case BitXor:
		z.Xor(a, b)
	}
	return nil
}

// bigToFloat rounds z to the nearest float64 (ties to even).
func bigToFloat(z *big.Int) float64 {
	f, _ := new(big.Float).SetInt(z).Float64()
	return f
}

// RunExact evaluates p on n input rows (row-major, n*NumInputs values) with
// unbounded integer arithmetic, one sample at a time. It is slow and meant as
// a reference for tests.
func RunExact(p *Program, in []float64, n int) ([]float64, error) {
	out := make([]float64, max(n, 0)*p.NumOutputs())
	err := runExact(p, in, n, func(s, j int, v *big.Int, frac int) {
		out[s*p.NumOutputs()+j] = bigToFloat(v) * outputScale(p.Outputs[j].Shift, frac)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// RunExactRaw is RunExact's results in raw form: for each of the n rows,
// each output's exact integer value, the raw value of the op it reads
// (negated for a negated output; 0 for an output of no op), in units of
// 2^-f for the op's f fractional bits (its real value is raw·2^(shift-f)).
// Hardware designs (backend/rtl) carry these values on their output lanes.
func RunExactRaw(p *Program, in []float64, n int) ([][]*big.Int, error) {
	out := make([][]*big.Int, max(n, 0))
	for s := range out {
		out[s] = make([]*big.Int, p.NumOutputs())
		for j := range out[s] {
			out[s][j] = new(big.Int)
		}
	}
	err := runExact(p, in, n, func(s, j int, v *big.Int, _ int) { out[s][j] = v })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// runExact evaluates n rows by the exact semantics and calls emit with the
// raw value of every output of an op (row s, output j, the op's fractional
// bits).
func runExact(p *Program, in []float64, n int, emit func(s, j int, v *big.Int, frac int)) error {
	m, err := Compile(p) // validates p and bounds its values
	if err != nil {
		return err
	}
	inf := m.inf
	nIn := p.NumInputs()
	if n < 0 || len(in) != n*nIn {
		return fmt.Errorf("got %d input values for %d samples of %d inputs", len(in), n, nIn)
	}
	c := newExactCtx(p, inf)
	vals := make([]big.Int, len(p.Ops))
	val := func(j int32) *big.Int { return &vals[j] }
	for s := range n {
		row := in[s*nIn : (s+1)*nIn]
		for i := range p.Ops {
			if err := c.op(i, val, row, &vals[i]); err != nil {
				return fmt.Errorf("sample %d: %w", s, err)
			}
		}
		for j, o := range p.Outputs {
			if o.Index < 0 {
				continue
			}
			v := new(big.Int).Set(&vals[o.Index])
			if o.Neg {
				v.Neg(v)
			}
			emit(s, j, v, inf.kif[o.Index].Fractionals)
		}
	}
	return nil
}

// Evaluator evaluates single operations of a program by the reference
// semantics, for passes that fold constants (lower/daisopt): one copy of the
// semantics serves the interpreter, RunExact and the optimiser.
type Evaluator struct{ c *exactCtx }

// NewEvaluator validates p and returns an evaluator of its operations.
func NewEvaluator(p *Program) (*Evaluator, error) {
	inf, err := p.analyze()
	if err != nil {
		return nil, err
	}
	return &Evaluator{newExactCtx(p, inf)}, nil
}

// KIFs returns the fixed-point type of every operation of the program, as
// validating it found them: the evaluator's own slice, which a caller may
// keep (to save computing it again) but must not change while it evaluates
// with e.
func (e *Evaluator) KIFs() []KIF { return e.c.inf.kif }

// Eval returns the raw result of op in the place of operation i (reading
// earlier slots of the program, with their types), given the raw values of
// the slots it reads (val). op must not be an input. The error is an
// invalid type or a lookup index outside its table, which fails at run
// time.
func (e *Evaluator) Eval(i int, op Op, val func(int32) *big.Int) (*big.Int, error) {
	p := e.c.p
	oi := p.Dialect.Info(op.Opcode)
	if oi != nil && oi.Operands == InputIndex {
		return nil, p.opErr(i, "an input has no constant value")
	}
	t, err := op.QInt.KIF()
	if err != nil {
		return nil, p.opErr(i, "%v", err)
	}
	var pad int64
	if oi != nil && oi.Data == DataTable {
		ta := e.c.inf.kif[op.ID0]
		if pad, err = p.lookupPadOf(i, p.Ops[op.ID0].QInt, ta); err != nil {
			return nil, err
		}
	}
	z := new(big.Int)
	if err := e.c.eval(i, op, t, pad, val, nil, z); err != nil {
		return nil, err
	}
	return z, nil
}
