package alir

import (
	"math"
	"math/big"

	"github.com/otir-dev/otir/internal/intrange"
)

// The int64 fast path of Portability's value-range analysis.
//
// Almost every bound Portability meets fits int64 (types are at most 64
// bits wide, and products and sums of such values rarely leave int64), but
// rng holds them as big.Ints: an allocation or two per bound per op. xrng
// holds a range as two int64 bounds, and as an rng only when a bound leaves
// int64; its operations are exact (checked int64 arithmetic, redone on
// big.Ints when a result would overflow), so the analysis proves exactly
// what the big.Int one does (portability64_test.go compares them).

// xrng is a closed range of integers: [lo, hi] when wide is nil, else
// *wide (at least one of whose bounds lies outside int64).
type xrng struct {
	lo, hi int64
	wide   *rng
}

// ranges holds a range per op, as an xrng would, in 16 bytes that hold no
// pointer: the int64 bounds, or (lo > hi, and an entry in wide) a wide
// range. Portability keeps one per op of a program.
type ranges struct {
	b    []bounds64
	wide map[int32]*rng
}

type bounds64 struct{ lo, hi int64 }

func newRanges(n int) ranges { return ranges{b: make([]bounds64, n)} }

func (rs *ranges) get(i int32) xrng {
	b := rs.b[i]
	if b.lo > b.hi && rs.wide != nil {
		if w, ok := rs.wide[i]; ok {
			return xrng{wide: w}
		}
	}
	return xrng{lo: b.lo, hi: b.hi}
}

func (rs *ranges) set(i int, x xrng) {
	if x.wide == nil {
		rs.b[i] = bounds64{x.lo, x.hi}
		if rs.wide != nil {
			delete(rs.wide, int32(i))
		}
		return
	}
	if rs.wide == nil {
		rs.wide = map[int32]*rng{}
	}
	rs.b[i] = bounds64{1, 0}
	rs.wide[int32(i)] = x.wide
}

// allWide makes every xrng wide and turns span64 off: the analysis then
// runs on big.Ints only (for the tests that compare the two paths).
var allWide bool

func point64(v int64) xrng {
	if allWide {
		return xrngOf(intrange.Point(big.NewInt(v)))
	}
	return xrng{lo: v, hi: v}
}

// xrngOf returns r as an xrng (int64 bounds when both fit).
func xrngOf(r rng) xrng {
	if !allWide && r.Lo.IsInt64() && r.Hi.IsInt64() {
		return xrng{lo: r.Lo.Int64(), hi: r.Hi.Int64()}
	}
	return xrng{wide: &r}
}

// big returns x as an rng (fresh big.Ints when x is narrow).
func (x xrng) big() rng {
	if x.wide != nil {
		return *x.wide
	}
	return rng{Lo: big.NewInt(x.lo), Hi: big.NewInt(x.hi)}
}

// typeRange64 is typeRange as an xrng.
func typeRange64(t KIF) xrng {
	w := t.Width()
	switch {
	case allWide:
	case w == 0:
		return xrng{}
	case t.Signed && w <= 64:
		return xrng{lo: -1 << (w - 1), hi: 1<<(w-1) - 1}
	case !t.Signed && w <= 63:
		return xrng{lo: 0, hi: 1<<w - 1}
	}
	return xrngOf(typeRange(t))
}

func (x xrng) add(o xrng) xrng {
	if x.wide == nil && o.wide == nil {
		lo, ok1 := intrange.AddInt64(x.lo, o.lo)
		hi, ok2 := intrange.AddInt64(x.hi, o.hi)
		if ok1 && ok2 {
			return xrng{lo: lo, hi: hi}
		}
	}
	return xrngOf(x.big().Add(o.big()))
}

func (x xrng) neg() xrng {
	if x.wide == nil && x.lo != math.MinInt64 {
		return xrng{lo: -x.hi, hi: -x.lo}
	}
	return xrngOf(x.big().Neg())
}

func (x xrng) shl(s uint) xrng {
	if x.wide == nil {
		lo, ok1 := intrange.ShlInt64(x.lo, int(s))
		hi, ok2 := intrange.ShlInt64(x.hi, int(s))
		if ok1 && ok2 {
			return xrng{lo: lo, hi: hi}
		}
	}
	return xrngOf(x.big().Shl(s))
}

// sar divides by 2^s rounding down.
func (x xrng) sar(s uint) xrng {
	if x.wide == nil {
		return xrng{lo: x.lo >> min(s, 63), hi: x.hi >> min(s, 63)}
	}
	return xrngOf(x.big().Sar(s))
}

func (x xrng) mul(o xrng) xrng {
	if x.wide == nil && o.wide == nil {
		c0, ok0 := intrange.MulInt64(x.lo, o.lo)
		c1, ok1 := intrange.MulInt64(x.lo, o.hi)
		c2, ok2 := intrange.MulInt64(x.hi, o.lo)
		c3, ok3 := intrange.MulInt64(x.hi, o.hi)
		if ok0 && ok1 && ok2 && ok3 {
			return xrng{lo: min(c0, c1, c2, c3), hi: max(c0, c1, c2, c3)}
		}
	}
	return xrngOf(x.big().Mul(o.big()))
}

// relu returns the range of max(x, 0).
func (x xrng) relu() xrng {
	if x.wide == nil {
		return xrng{lo: max(x.lo, 0), hi: max(x.hi, 0)}
	}
	return xrngOf(x.big().Relu())
}

func (x xrng) within(o xrng) bool {
	if x.wide == nil && o.wide == nil {
		return x.lo >= o.lo && x.hi <= o.hi
	}
	return x.big().Within(o.big())
}

// loSign returns the sign of the lower bound, hiSign of the upper.
func (x xrng) loSign() int {
	if x.wide != nil {
		return x.wide.Lo.Sign()
	}
	return sign64(x.lo)
}

func (x xrng) hiSign() int {
	if x.wide != nil {
		return x.wide.Hi.Sign()
	}
	return sign64(x.hi)
}

func sign64(v int64) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}

// span64 is the opcode table's span rule (see Program.exact) of op i for
// the ops whose ranges are plain int64 arithmetic of their operands'
// ranges (known; no mux narrowing): input, const, add, sub, const_add,
// sum, neg, mul, quantize, relu and DAIS's neg_quantize and neg_relu.
// unknown reports an input (any value of its type). ok is false for the
// other ops, whose ranges the big.Int rules give. With inf.plain (Ranges)
// it gives what those rules give: the range of a quantize whatever its
// shift, and ok false for a const_add whose step is not portable.
func span64(p *Program, inf *info, i int, known func(int32) xrng) (r xrng, e int, reason string, unknown, ok bool) {
	if allWide {
		return
	}
	op := p.Ops[i]
	fr := func(id int32) int { return inf.kif[id].Fractionals }
	switch op.Opcode {
	case OpInput:
		return xrng{}, fr(int32(i)), "", true, true
	case OpConst:
		return point64(op.Data), fr(int32(i)), "", false, true
	case OpQuantize, OpReLU, OpNegQuantize:
		if op.Opcode == OpNegQuantize && p.Dialect != DAIS {
			return
		}
		if reason = p.portableShift(inf, i); reason != "" && !inf.plain {
			return xrng{}, fr(int32(i)), reason, false, true
		}
		r = known(op.ID0)
		if op.Opcode == OpNegQuantize {
			r = r.neg()
		}
		if op.Opcode == OpReLU {
			r = r.relu()
		}
		return r, fr(op.ID0) - op.RelShift(), "", false, true
	case OpNeg: // DAIS: OpNegReLU
		if p.Dialect == DAIS {
			return known(op.ID0).neg().relu(), fr(op.ID0), "", false, true
		}
		_, reason = stepNeg(p, inf, i)
		return known(op.ID0).neg(), fr(int32(i)), reason, false, true
	case OpAdd, OpSub:
		if op.ID0 == op.ID1 && !inf.plain {
			return // a ± a*2^s: the big.Int rule
		}
		fa, fb := fr(op.ID0), fr(op.ID1)-int(op.Data)
		e, _ = stepAddSub(p, inf, i)
		b := known(op.ID1).shl(uint(e - fb))
		if op.Opcode == OpSub {
			b = b.neg()
		}
		return known(op.ID0).shl(uint(e - fa)).add(b), e, "", false, true
	case OpConstAdd:
		k, ek := int64(op.DataLow()), int(op.DataHigh())
		if p.Dialect == DAIS {
			k, ek = op.Data, fr(int32(i))
		}
		if e, reason = stepConstAdd(p, inf, i); reason != "" {
			return xrng{}, e, reason, false, !inf.plain
		}
		c := point64(k).shl(uint(e - ek))
		return known(op.ID0).shl(uint(e - fr(op.ID0))).add(c), e, "", false, true
	case OpSum:
		if p.Dialect != ALIR {
			return
		}
		e, _ = stepSum(p, inf, i)
		r = point64(0)
		for _, tm := range op.Terms {
			x := known(tm.ID).shl(uint(e - (fr(tm.ID) - int(tm.Shift))))
			if tm.Neg {
				x = x.neg()
			}
			r = r.add(x)
		}
		return r, e, "", false, true
	case OpMul:
		t := inf.kif[i]
		e = t.Fractionals
		if fa, fb := fr(op.ID0), fr(op.ID1); fa+fb != t.Fractionals {
			// Not portable whatever the range: the big.Int rule words it.
			return
		}
		if op.ID0 == op.ID1 && !inf.plain { // a square is never negative
			a := known(op.ID0)
			r = a.mul(a)
			if a.loSign() < 0 && a.hiSign() > 0 {
				if r.wide == nil {
					r.lo = 0
				} else {
					r = xrngOf(rng{Lo: new(big.Int), Hi: r.wide.Hi})
				}
			}
			return r, e, "", false, true
		}
		return known(op.ID0).mul(known(op.ID1)), e, "", false, true
	}
	return
}
