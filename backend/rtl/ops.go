package rtl

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"github.com/otir-dev/otir/backend/alir"
)

// This file lowers each operation to nets, by the exact semantics of
// backend/alir (exact.go): the arithmetic ops compute at a width that holds
// their exact result, the wrapping ops keep the low bits of their type
// (semantics.go), and every op's value gets a net named <name>_v<i> as
// narrow as its proven range.

func (b *builder) tmp(i int, n net) int {
	if i < 0 { // output -1-i
		n.name = fmt.Sprintf("%s_o%d_%d", b.d.Name, -1-i, len(b.d.nets))
	} else {
		n.name = fmt.Sprintf("%s_t%d_%d", b.d.Name, i, len(b.d.nets))
	}
	return b.addNet(n)
}

// binop adds a W-bit net a op b and returns it as a signed value.
func (b *builder) binop(i int, k kind, x, y expr) val {
	w := x.width()
	n := b.tmp(i, net{width: w, kind: k, a: x, b: y})
	return netVal(n, w, true)
}

// neg returns -v (exact).
func (b *builder) neg(i int, v val) val {
	if v.isConst() {
		return constVal(new(big.Int).Neg(v.c))
	}
	w := signedWidth(v) + 1
	return b.binop(i, kSub, expr{constPart(new(big.Int), w)}, b.sel(v, 0, w))
}

// scale returns floor(v*2^d) (exact) for a signed value v.
func (b *builder) scale(i int, v val, d int) val {
	switch {
	case v.isConst():
		return constVal(new(big.Int).SetBytes(nil).Set(shiftBig(v.c, d)))
	case d == 0:
		return v
	case d < 0:
		if -d >= v.width {
			if !v.signed {
				return constVal(new(big.Int))
			}
			v.lo, v.width = v.lo+v.width-1, 1
			return v
		}
		v.lo, v.width = v.lo-d, v.width+d
		return v
	}
	w := v.width + d
	n := b.tmp(i, net{width: w, kind: kAssign, a: b.sel(v, d, w)})
	return netVal(n, w, v.signed)
}

func shiftBig(c *big.Int, d int) *big.Int {
	if d >= 0 {
		return new(big.Int).Lsh(c, uint(d))
	}
	return new(big.Int).Rsh(c, uint(-d))
}

// get returns the value of op j as seen at stage s.
func (b *builder) get(j int32, s int) val {
	return b.delayed(b.vals[j], b.stage[j], s)
}

// delayed returns v, computed at stage from, registered to stage to: one
// register a stage of v's own bits (not the net's bits below or above
// them), shared by every use of the value at that stage. A net lives in
// one stage (from), so its registers form one chain, kept in b.delay. It
// stops at MaxRegisters registers, setting b.err.
func (b *builder) delayed(v val, from, to int) val {
	if v.isConst() || v.width == 0 || to <= from {
		return v
	}
	key := [3]int{v.net, v.lo, v.width}
	chain := b.delay[key]
	for len(chain) < to-from && b.err == nil {
		if b.regs == MaxRegisters {
			b.err = &CutoffError{fmt.Sprintf("rtl: latency cutoff %v needs more than %d pipeline registers (rtl.MaxRegisters): use a larger cutoff", b.d.cutoff, MaxRegisters)}
			break
		}
		b.regs++
		in := part{net: v.net, hi: v.lo + v.width - 1, lo: v.lo}
		if k := len(chain); k > 0 {
			in = part{net: chain[k-1], hi: v.width - 1, lo: 0}
		}
		chain = append(chain, b.addNet(net{name: fmt.Sprintf("%s_r%d_%d", b.d.Name, from+len(chain)+1, len(b.d.nets)),
			width: v.width, kind: kReg, a: expr{in}}))
	}
	b.delay[key] = chain
	if len(chain) < to-from {
		return v // b.err is set
	}
	v.net, v.lo = chain[to-from-1], 0
	return v
}

// op lowers operation i.
func (b *builder) op(i int, ranges *alir.Ranges) error {
	p := b.p
	op := p.Ops[i]
	d := p.Dialect
	e := d.Info(op.Opcode)
	t := b.kif[i]
	s := b.stage[i]
	if e.Operands != alir.InputIndex {
		allConst := true
		op.ForOperands(d, func(j int32) { allConst = allConst && b.vals[j].isConst() })
		if allConst {
			// A lookup outside its table fails at run time: lowered below.
			z, err := b.ev.Eval(i, op, func(j int32) *big.Int { return b.vals[j].c })
			if err == nil {
				b.vals[i] = constVal(z)
				b.rng[i] = rangeOf(b.vals[i])
				return nil
			}
		}
	}
	if e.Wraps && t.Width() == 0 {
		b.vals[i] = constVal(new(big.Int))
		b.rng[i] = rangeOf(b.vals[i])
		return nil
	}
	arg := func(j int32) val { return b.get(j, s) }
	fr := func(j int32) int { return b.kif[j].Fractionals }
	wt := t.Width()
	var v val
	switch {
	case op.Opcode == alir.OpInput:
		l := b.d.Inputs[op.ID0]
		lane := val{net: b.inLane[0], lo: l.Offset, width: l.Width, signed: l.Signed}
		if l.Width == 0 {
			lane = constVal(new(big.Int))
		}
		v = b.typed(i, b.sel(lane, t.Fractionals-l.Frac, wt), t)

	case op.Opcode == alir.OpAdd || op.Opcode == alir.OpSub:
		x, y := arg(op.ID0), arg(op.ID1)
		fa, fb := fr(op.ID0), fr(op.ID1)-int(op.Data)
		ex := max(fa, fb)
		w := max(signedWidth(x)+ex-fa, signedWidth(y)+ex-fb) + 1
		k := kAdd
		if op.Opcode == alir.OpSub {
			k = kSub
		}
		v = b.scale(i, b.binop(i, k, b.sel(x, ex-fa, w), b.sel(y, ex-fb, w)), t.Fractionals-ex)

	case op.Opcode == alir.OpSum:
		ex := math.MinInt
		for _, tm := range op.Terms {
			ex = max(ex, fr(tm.ID)-int(tm.Shift))
		}
		w := 0
		for _, tm := range op.Terms {
			w = max(w, signedWidth(arg(tm.ID))+ex-(fr(tm.ID)-int(tm.Shift)))
		}
		w += bits.Len(uint(len(op.Terms))) + 1
		var acc val
		for k, tm := range op.Terms {
			x := b.sel(arg(tm.ID), ex-(fr(tm.ID)-int(tm.Shift)), w)
			switch {
			case k == 0 && !tm.Neg:
				acc = b.binop(i, kAssign, x, nil)
			case k == 0:
				acc = b.binop(i, kSub, expr{constPart(new(big.Int), w)}, x)
			case tm.Neg:
				acc = b.binop(i, kSub, b.sel(acc, 0, w), x)
			default:
				acc = b.binop(i, kAdd, b.sel(acc, 0, w), x)
			}
		}
		v = b.scale(i, acc, t.Fractionals-ex)

	case op.Opcode == alir.OpConstAdd:
		x := arg(op.ID0)
		k, ek := big.NewInt(int64(op.DataLow())), int(op.DataHigh())
		if e.Data == alir.DataConstStep {
			k, ek = big.NewInt(op.Data), t.Fractionals
		}
		fa := fr(op.ID0)
		ex := max(fa, ek)
		kc := constVal(k)
		w := max(signedWidth(x)+ex-fa, signedWidth(kc)+ex-ek) + 1
		v = b.scale(i, b.binop(i, kAdd, b.sel(x, ex-fa, w), b.sel(kc, ex-ek, w)), t.Fractionals-ex)

	case op.Opcode == alir.OpQuantize:
		v = b.typed(i, b.sel(arg(op.ID0), t.Fractionals-fr(op.ID0)+op.RelShift(), wt), t)

	case d == alir.DAIS && op.Opcode == alir.OpNegQuantize:
		v = b.typed(i, b.sel(b.neg(i, arg(op.ID0)), t.Fractionals-fr(op.ID0), wt), t)

	case op.Opcode == alir.OpReLU || (d == alir.DAIS && op.Opcode == alir.OpNegReLU):
		x := arg(op.ID0)
		if op.Opcode == alir.OpNegReLU {
			x = b.neg(i, x)
		}
		q := b.sel(x, t.Fractionals-fr(op.ID0), wt)
		if x.isConst() || !x.signed {
			v = b.typed(i, q, t)
			break
		}
		n := b.tmp(i, net{width: wt, kind: kMux, c: expr{b.bit(x, x.width-1)}, a: expr{constPart(new(big.Int), wt)}, b: q})
		v = typeVal(netVal(n, wt, t.Signed), t)

	case d == alir.ALIR && op.Opcode == alir.OpNeg:
		v = b.neg(i, arg(op.ID0))

	case op.Opcode == alir.OpMux || op.Opcode == alir.OpNegMux:
		v = b.mux(i, op, t, arg)

	case op.Opcode == alir.OpMul:
		x, y := arg(op.ID0), arg(op.ID1)
		w := signedWidth(x) + signedWidth(y)
		v = b.binop(i, kMul, b.sel(x, 0, w), b.sel(y, 0, w))

	case op.Opcode == alir.OpLookup:
		var err error
		if v, err = b.lookup(i, op, arg(op.ID0)); err != nil {
			return err
		}

	case op.Opcode == alir.OpBitUnary || (d == alir.DAIS && op.Opcode == alir.OpNegBitUnary):
		x := arg(op.ID0)
		if op.Opcode == alir.OpNegBitUnary {
			x = b.neg(i, x)
		}
		wa := b.kif[op.ID0].Width()
		switch op.Data {
		case alir.BitNot:
			if t.Signed {
				w := signedWidth(x)
				v = b.binop(i, kNot, b.sel(x, 0, w), nil)
			} else if wa == 0 {
				v = constVal(new(big.Int))
			} else {
				n := b.tmp(i, net{width: wa, kind: kNot, a: b.sel(x, 0, wa)})
				v = netVal(n, wa, false)
			}
		case alir.BitReduceAny:
			if x.isConst() {
				v = constVal(big.NewInt(int64(x.c.Sign() & 1)))
				break
			}
			n := b.tmp(i, net{width: 1, kind: kRedOr, a: b.sel(x, 0, x.width)})
			v = netVal(n, 1, false)
		case alir.BitReduceAll:
			if wa == 0 {
				v = constVal(big.NewInt(1))
				break
			}
			n := b.tmp(i, net{width: 1, kind: kRedAnd, a: b.sel(x, 0, wa)})
			v = netVal(n, 1, false)
		default:
			return fmt.Errorf("rtl: op %d: unknown bit operation %d", i, op.Data)
		}

	case op.Opcode == alir.OpBitBinary:
		x, y := arg(op.ID0), arg(op.ID1)
		if d == alir.DAIS {
			if op.DataHigh()&1 != 0 {
				x = b.neg(i, x)
			}
			if op.DataHigh()&2 != 0 {
				y = b.neg(i, y)
			}
		}
		sh := int(op.DataLow()) + fr(op.ID0) - fr(op.ID1)
		sx, sy := max(-sh, 0), max(sh, 0)
		w := max(signedWidth(x)+sx, signedWidth(y)+sy)
		var k kind
		switch uint64(op.Data) >> 56 {
		case alir.BitAnd:
			k = kAnd
		case alir.BitOr:
			k = kOr
		case alir.BitXor:
			k = kXor
		default:
			return fmt.Errorf("rtl: op %d: unknown bit operation %d", i, uint64(op.Data)>>56)
		}
		v = b.binop(i, k, b.sel(x, sx, w), b.sel(y, sy, w))

	default:
		return fmt.Errorf("%w: op %d: opcode %d (%s) of %v", ErrCannotExpress, i, op.Opcode, e.Name, d)
	}

	// The proven range: a wrapping op's type; else the exact result's
	// range (brought to the op's step for the adders).
	var r alir.Range
	if e.Wraps {
		r = rangeOf(typeVal(val{width: wt}, t))
	} else if e.Operands != alir.InputIndex {
		var ex int
		r, ex = ranges.Op(i)
		if r.Lo != nil && e.Adder {
			r = alir.Range{Lo: shiftBig(r.Lo, t.Fractionals-ex), Hi: shiftBig(r.Hi, t.Fractionals-ex)}
		}
	}
	if r.Lo == nil {
		r = rangeOf(v)
	}
	v = fromRange(v, r)
	b.rng[i] = r
	if !v.isConst() && v.width == 0 {
		v = constVal(new(big.Int))
	}
	if !v.isConst() {
		n := b.addNet(net{name: fmt.Sprintf("%s_v%d", b.d.Name, i), width: v.width, kind: kAssign, a: b.sel(v, 0, v.width),
			comment: fmt.Sprintf("op %d: %s %s", i, e.Name, t)})
		v = netVal(n, v.width, v.signed)
	}
	b.vals[i] = v
	return nil
}

// typed returns the bits x (of t's width) as a value of type t.
func (b *builder) typed(i int, x expr, t alir.KIF) val {
	if t.Width() == 0 {
		return constVal(new(big.Int))
	}
	if len(x) == 1 && x[0].net < 0 {
		c := new(big.Int).Set(x[0].c)
		if t.Signed && c.Bit(t.Width()-1) == 1 {
			c.Sub(c, new(big.Int).Lsh(big.NewInt(1), uint(t.Width())))
		}
		return constVal(c)
	}
	if len(x) == 1 && !x[0].rep && x[0].lo == 0 && b.d.nets[x[0].net].width == x[0].width() {
		return netVal(x[0].net, t.Width(), t.Signed)
	}
	n := b.tmp(i, net{width: t.Width(), kind: kAssign, a: x})
	return netVal(n, t.Width(), t.Signed)
}

// mux lowers mux and DAIS's neg_mux.
func (b *builder) mux(i int, op alir.Op, t alir.KIF, arg func(int32) val) val {
	d := b.p.Dialect
	cid := op.DataLow()
	c := arg(cid)
	tc := b.kif[cid]
	wt := t.Width()
	x, y := arg(op.ID0), arg(op.ID1)
	if op.Opcode == alir.OpNegMux {
		y = b.neg(i, y)
	}
	xa := b.sel(x, t.Fractionals-b.kif[op.ID0].Fractionals, wt)
	yb := b.sel(y, t.Fractionals-b.kif[op.ID1].Fractionals+int(op.DataHigh()), wt)
	// cond selects xa when its bit is 1; swap: xa when the bit is 0.
	var cond part
	swap := false
	switch {
	case c.isConst():
		if alir.MuxTrue(d, tc, c.c) {
			return b.typed(i, xa, t)
		}
		return b.typed(i, yb, t)
	case d == alir.ALIR:
		if tc.Width() == 0 {
			return b.typed(i, yb, t)
		}
		cond = b.bit(c, tc.Width()-1)
	case tc.Signed:
		if !c.signed {
			return b.typed(i, yb, t)
		}
		cond = b.bit(c, c.width-1)
	default:
		// unsigned condition: v > thr, i.e. v - (thr+1) >= 0
		var thr *big.Int
		switch w := tc.Width(); {
		case w >= 2:
			thr = new(big.Int).Lsh(big.NewInt(1), uint(w-2))
		case w == 1:
			thr = new(big.Int)
		default:
			thr = big.NewInt(1 << 62)
		}
		k := constVal(new(big.Int).Add(thr, big.NewInt(1)))
		w := max(signedWidth(c), signedWidth(k)) + 1
		diff := b.binop(i, kSub, b.sel(c, 0, w), b.sel(k, 0, w))
		cond, swap = b.bit(diff, w-1), true
	}
	if cond.net < 0 {
		if (cond.c.Sign() != 0) != swap {
			return b.typed(i, xa, t)
		}
		return b.typed(i, yb, t)
	}
	if swap {
		xa, yb = yb, xa
	}
	n := b.tmp(i, net{width: wt, kind: kMux, c: expr{cond}, a: xa, b: yb})
	return netVal(n, wt, t.Signed)
}

// lookup lowers a table lookup: the index raw + (signed ? 2^(W-1) : 0) - pad
// (ERRATA), modulo the ROM's size, and the ROM.
func (b *builder) lookup(i int, op alir.Op, x val) (val, error) {
	pad, err := b.p.LookupPad(i)
	if err != nil {
		return val{}, err
	}
	tab := b.p.Tables[op.Data]
	ta := b.kif[op.ID0]
	ti, ok := b.tabOf[int(op.Data)]
	if !ok {
		lo, hi := big.NewInt(0), big.NewInt(0)
		vals := make([]*big.Int, len(tab.Values))
		for k, v := range tab.Values {
			vals[k] = big.NewInt(int64(v))
			if vals[k].Cmp(lo) < 0 {
				lo = vals[k]
			}
			if vals[k].Cmp(hi) > 0 {
				hi = vals[k]
			}
		}
		w, _ := bitsFor(lo, hi)
		idx := max(bits.Len(uint(max(len(vals)-1, 0))), 1)
		for k := range vals {
			vals[k] = constPart(vals[k], max(w, 1)).c
		}
		b.d.tables = append(b.d.tables, table{name: fmt.Sprintf("%s_rom%d", b.d.Name, op.Data), values: vals, width: w, index: idx})
		ti = len(b.d.tables) - 1
		b.tabOf[int(op.Data)] = ti
	}
	tb := b.d.tables[ti]
	if tb.width == 0 {
		return constVal(new(big.Int)), nil
	}
	off := big.NewInt(-pad)
	if ta.Signed {
		off.Add(off, new(big.Int).Lsh(big.NewInt(1), uint(ta.Width()-1)))
	}
	k := tb.index
	ix := b.sel(x, 0, k)
	if new(big.Int).Mod(off, new(big.Int).Lsh(big.NewInt(1), uint(k))).Sign() != 0 {
		ix = expr{part{net: b.tmp(i, net{width: k, kind: kAdd, a: ix, b: expr{constPart(off, k)}}), hi: k - 1, lo: 0}}
	}
	n := b.tmp(i, net{width: tb.width, kind: kLookup, table: ti, a: ix})
	signed := false
	for _, v := range tab.Values {
		signed = signed || v < 0
	}
	return netVal(n, tb.width, signed), nil
}
