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
// Arithmetic operations compute their real result exactly and quantize it to
// the result's type: floor to the result's step, then wrap to its width.
// Lookups and bit operations work on raw values, as the original
// interpreters do.

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

// wrapBig reduces z to type t: keep the low W bits, sign-extended if t is
// signed.
func wrapBig(z *big.Int, t KIF) *big.Int {
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

// quantizeBig sets z to the raw value of type t nearest below n*2^-e
// (floor), wrapped to t.
func quantizeBig(z, n *big.Int, e int, t KIF) *big.Int {
	if d := t.Fractionals - e; d >= 0 {
		z.Lsh(n, uint(d))
	} else {
		z.Rsh(n, uint(-d)) // floor for negative n
	}
	return wrapBig(z, t)
}

// inputRaw converts x (already scaled) to an integer by floor and wraps it
// to t. Non-finite values give 0. The conversion is exact for any magnitude.
func inputRaw(z *big.Int, x float64, t KIF) *big.Int {
	x = math.Floor(x)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return z.SetInt64(0)
	}
	new(big.Float).SetFloat64(x).Int(z)
	return wrapBig(z, t)
}

// inputScale returns the factor 2^(shift+f) an input is multiplied by; like
// the original's pow(2.0, n) it is 0 or +Inf when out of range.
func inputScale(shift int32, f int) float64 { return math.Ldexp(1, int(shift)+f) }

// outputScale returns 2^(shift-f), the factor a raw output is multiplied by.
func outputScale(shift int32, f int) float64 { return math.Ldexp(1, int(shift)-f) }

// op sets z to the raw result of operation i. val returns the raw value of an
// earlier slot; in is the input row (used by OpInput only).
func (c *exactCtx) op(i int, val func(int32) *big.Int, in []float64, z *big.Int) error {
	p, op := c.p, c.p.Ops[i]
	t := c.inf.kif[i]
	kif := func(j int32) int { return c.inf.kif[j].Fractionals }
	dais := p.Dialect == DAIS
	a, b := &c.a, &c.b
	switch op.Opcode {
	case OpInput:
		x := in[op.ID0] * inputScale(p.InShifts[op.ID0], t.Fractionals)
		inputRaw(z, x, t)
	case -2: // ALIR: -a; DAIS: relu(-a)
		a.Neg(val(op.ID0))
		if dais && a.Sign() < 0 {
			a.SetInt64(0)
		}
		quantizeBig(z, a, kif(op.ID0), t)
	case OpNegQuantize:
		quantizeBig(z, a.Neg(val(op.ID0)), kif(op.ID0), t)
	case OpAdd, OpSub:
		// a*2^-fa ± b*2^(s-fb), at exponent e = max(fa, fb-s).
		fa, fb := kif(op.ID0), kif(op.ID1)-int(op.Data)
		e := max(fa, fb)
		a.Lsh(val(op.ID0), uint(e-fa))
		b.Lsh(val(op.ID1), uint(e-fb))
		if op.Opcode == OpSub {
			a.Sub(a, b)
		} else {
			a.Add(a, b)
		}
		quantizeBig(z, a, e, t)
	case OpReLU:
		a.Set(val(op.ID0))
		if a.Sign() < 0 {
			a.SetInt64(0)
		}
		quantizeBig(z, a, kif(op.ID0), t)
	case OpQuantize:
		quantizeBig(z, val(op.ID0), kif(op.ID0), t)
	case OpConstAdd:
		// a*2^-fa + k*2^-ek.
		k, ek := int64(op.DataLow()), int(op.DataHigh())
		if dais {
			k, ek = op.Data, t.Fractionals
		}
		fa := kif(op.ID0)
		e := max(fa, ek)
		a.Lsh(val(op.ID0), uint(e-fa))
		b.Lsh(b.SetInt64(k), uint(e-ek))
		quantizeBig(z, a.Add(a, b), e, t)
	case OpConst:
		wrapBig(z.SetInt64(op.Data), t)
	case OpMux, OpNegMux:
		cond := op.DataLow()
		wc := c.inf.kif[cond].Width()
		if wc > 0 && a.Rsh(val(cond), uint(wc-1)).Bit(0) == 1 {
			quantizeBig(z, val(op.ID0), kif(op.ID0), t)
			break
		}
		b.Set(val(op.ID1))
		if op.Opcode == OpNegMux {
			b.Neg(b)
		}
		quantizeBig(z, b, kif(op.ID1)-int(op.DataHigh()), t)
	case OpMul:
		a.Mul(val(op.ID0), val(op.ID1))
		quantizeBig(z, a, kif(op.ID0)+kif(op.ID1), t)
	case OpLookup:
		ta := c.inf.kif[op.ID0]
		a.Set(val(op.ID0))
		if ta.Signed {
			a.Add(a, b.Lsh(&c.one, uint(ta.Width()-1)))
		}
		a.Sub(a, b.SetInt64(c.inf.pad[i]))
		tab := p.Tables[op.Data].Values
		if !a.IsInt64() || a.Int64() < 0 || a.Int64() >= int64(len(tab)) {
			return p.opErr(i, "lookup index %v out of range [0, %d)", a, len(tab))
		}
		wrapBig(z.SetInt64(int64(tab[a.Int64()])), t)
	case OpBitUnary, OpNegBitUnary:
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
		wrapBig(z, t)
	case OpBitBinary:
		sh := int(op.DataLow()) + kif(op.ID0) - kif(op.ID1)
		a.Set(val(op.ID0))
		b.Set(val(op.ID1))
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
		wrapBig(z, t)
	default:
		return p.opErr(i, "unsupported opcode")
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
	inf, err := p.analyze()
	if err != nil {
		return nil, err
	}
	nIn, nOut := p.NumInputs(), p.NumOutputs()
	if n < 0 || len(in) != n*nIn {
		return nil, fmt.Errorf("got %d input values for %d samples of %d inputs", len(in), n, nIn)
	}
	c := newExactCtx(p, inf)
	vals := make([]big.Int, len(p.Ops))
	val := func(j int32) *big.Int { return &vals[j] }
	out := make([]float64, n*nOut)
	for s := range n {
		row := in[s*nIn : (s+1)*nIn]
		for i := range p.Ops {
			if err := c.op(i, val, row, &vals[i]); err != nil {
				return nil, fmt.Errorf("sample %d: %w", s, err)
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
			out[s*nOut+j] = bigToFloat(v) * outputScale(o.Shift, inf.kif[o.Index].Fractionals)
		}
	}
	return out, nil
}
