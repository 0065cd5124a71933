package tiles

import (
	"math/big"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/internal/intrange"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// emitTyped appends a dais op with a result of type t whose values are
// lo..hi, and returns its slot.
//
// Identical ops (same name, operands, attributes and type) are emitted once:
// the lowering often computes the same difference or shift for several
// elements or comparisons. Inputs are never merged (their index attribute
// is set later).
func (l *lowerer) emitTyped(name string, operands []*slot, attrs ir.Attrs, t alir.QInterval, lo, hi *big.Int) (*slot, error) {
	var ids [3]int32
	for i, s := range operands {
		ids[i] = s.id
	}
	op, err := dais.NewOp(name, ids[:len(operands)], attrs, t)
	if err != nil {
		return nil, l.errf("internal error: %v", err)
	}
	// The op's fields are its name, operands, attributes and type.
	memo := name != dais.OpInput
	if memo {
		if id := l.memo.Find(alir.KeyOf(&op), l.keyFn); id >= 0 {
			return l.slots[id], nil
		}
	}
	l.nOps++
	if l.nOps > l.opts.MaxOps {
		return nil, l.overMaxOps("the program needs", int64(l.opts.MaxOps), "operations", 1)
	}
	loc := l.locIndex()
	s := l.newSlot()
	*s = slot{id: int32(len(l.ops)), lo: lo, hi: hi}
	if len(l.ops) == cap(l.ops) {
		// Doubling: append grows big slices by a quarter, which copies
		// (and allocates) the program about five times over.
		l.growOps(max(cap(l.ops), 1024))
	}
	l.ops = append(l.ops, op)
	l.opLoc = append(l.opLoc, loc)
	l.slots = append(l.slots, s)
	if memo {
		l.memo.Insert(s.id, l.keyFn)
	}
	return s, nil
}

// growOps makes room for n more ops (a lowering that knows how many it
// will emit says so, and the program is not copied as it grows), never
// beyond max-ops.
func (l *lowerer) growOps(n int) {
	if rest := l.opts.MaxOps - len(l.ops); rest >= 0 && n > rest+1 {
		n = rest + 1
	}
	if n <= cap(l.ops)-len(l.ops) {
		return
	}
	c := len(l.ops) + n
	l.memo.Reserve(c)
	l.ops = append(make([]alir.Op, 0, c), l.ops...)
	l.opLoc = append(make([]int32, 0, c), l.opLoc...)
	l.slots = append(make([]*slot, 0, c), l.slots...)
}

// newSlot returns a fresh slot, from a block of them (one allocation per
// block, not per op).
func (l *lowerer) newSlot() *slot {
	if len(l.slotBlock) == 0 {
		l.slotBlock = make([]slot, 1024)
	}
	s := &l.slotBlock[0]
	l.slotBlock = l.slotBlock[1:]
	return s
}

// locIndex returns the index in l.locs of the location of the op being
// lowered, adding it when it is new.
func (l *lowerer) locIndex() int32 {
	loc, ok := l.locOf[l.cur]
	if !ok {
		loc = int32(len(l.locs))
		l.locs = append(l.locs, l.cur.Loc)
		l.locOf[l.cur] = loc
	}
	return loc
}

// emit appends a dais op whose result holds the integers lo..hi exactly.
func (l *lowerer) emit(name string, operands []*slot, attrs ir.Attrs, lo, hi *big.Int) (*slot, error) {
	t, err := dais.IntInterval(lo, hi)
	if err != nil {
		return nil, l.cannot("a value in [%v, %v] needs %d bits, more than ALIR's %d", lo, hi, dais.IntBits(lo, hi).Width(), 64)
	}
	return l.emitTyped(name, operands, attrs, t, lo, hi)
}

// value appends a dais op whose exact result lies in lo..hi and which must
// produce a value of type rt. Inside rt's range the result is exact (and a
// single possible value is a constant, with no op). Otherwise the result is
// the exact one converted to rt (the executor's "exact result, then
// convert"): an op that wraps in ALIR (quantize, relu, mux) gets rt's whole
// range as its interval and wraps by itself; any other op (adders,
// negations, products, bit operations: they never wrap) gets its exact
// interval and a dais.quantize to rt's range follows it. A result that
// does not fit 64 bits is computed modulo 2^64 (mod64.go).
func (l *lowerer) value(name string, operands []*slot, attrs ir.Attrs, lo, hi *big.Int, rt intT) (num, error) {
	switch {
	case dais.IntBits(lo, hi).Width() > 64 && modular(name):
		// Only the result modulo 2^rt.width is needed, or for a type wider
		// than 64 bits, modulo 2^64 (mod64.go).
		s, err := l.mod64(name, operands, attrs)
		if err != nil {
			return num{}, err
		}
		if rt.width > 64 {
			return slotNum(&slot{id: s.id, lo: s.lo, hi: s.hi, mod64: true}), nil
		}
		return l.convert(slotNum(s), rt)
	case !rt.contains(lo, hi) && !wraps(name):
		s, err := l.emit(name, operands, attrs, lo, hi)
		if err != nil {
			return num{}, err
		}
		return l.value(dais.OpQuantize, []*slot{s}, nil, lo, hi, rt)
	case !rt.contains(lo, hi):
		lo, hi = rt.lo, rt.hi
	case lo.Cmp(hi) == 0:
		return constNum(lo), nil
	}
	s, err := l.emit(name, operands, attrs, lo, hi)
	if err != nil {
		return num{}, err
	}
	return slotNum(s), nil
}

// modular reports whether dais op name can be computed modulo 2^64 by
// mod64.go when its exact result does not fit 64 bits.
func modular(name string) bool {
	switch name {
	case dais.OpAdd, dais.OpSub, dais.OpConstAdd, dais.OpNeg, dais.OpMul:
		return true
	}
	return false
}

// needExact rejects values kept modulo 2^64 where the operation being
// lowered needs their exact value.
func (l *lowerer) needExact(ns ...num) error {
	for _, n := range ns {
		if n.s != nil && n.s.mod64 {
			return l.cannot("it needs the exact value of a result that takes more than 64 bits")
		}
	}
	return nil
}

// wraps reports whether dais op name wraps its result to its type, as ALIR
// defines it (alir.Dialect.Wraps).
func wraps(name string) bool {
	switch name {
	case dais.OpQuantize, dais.OpReLU, dais.OpMux, dais.OpInput:
		return true
	}
	return false
}

// shiftAttr returns the attributes {shift = k} (shared for small k: never
// modify them).
func shiftAttr(k int) ir.Attrs {
	if k >= -maxSharedShift && k <= maxSharedShift {
		return sharedShifts[k+maxSharedShift]
	}
	return ir.Attrs{{Name: "shift", Value: ir.I64(int64(k))}}
}

const maxSharedShift = 128

var sharedShifts = func() []ir.Attrs {
	as := make([]ir.Attrs, 2*maxSharedShift+1)
	for k := range as {
		as[k] = ir.Attrs{{Name: "shift", Value: ir.I64(int64(k - maxSharedShift))}}
	}
	return as
}()

// constSlot returns a slot holding the constant v (one dais.const per
// distinct value; beyond int64, a constant wrapped into place).
func (l *lowerer) constSlot(v *big.Int) (*slot, error) {
	key := v.String()
	if s := l.consts[key]; s != nil {
		return s, nil
	}
	var s *slot
	var err error
	if v.IsInt64() {
		s, err = l.emit(dais.OpConst, nil, ir.Attrs{{Name: "value", Value: ir.I64(v.Int64())}}, v, v)
	} else {
		// Only u64 values reach here: the constant v - 2^64, wrapped to 64
		// unsigned bits, is v.
		low := sub(v, pow2(64))
		if !low.IsInt64() {
			return nil, l.errf("cannot be lowered: constant %v does not fit 64 bits", v)
		}
		var c *slot
		if c, err = l.constSlot(low); err == nil {
			s, err = l.emit(dais.OpQuantize, []*slot{c}, nil, v, v)
		}
	}
	if err != nil {
		return nil, err
	}
	l.consts[key] = s
	return s, nil
}

// data returns a slot holding n's value: constants become dais.const, msb
// conditions a 0/1 mux.
func (l *lowerer) data(n num) (*slot, error) {
	switch {
	case n.s != nil:
		return n.s, nil
	case n.c != nil:
		return l.constSlot(n.c)
	}
	k := boolKey{n.m, n.inv}
	if s := l.bools[k]; s != nil {
		return s, nil
	}
	one, err := l.constSlot(bigOne)
	if err != nil {
		return nil, err
	}
	zero, err := l.constSlot(bigZero)
	if err != nil {
		return nil, err
	}
	a, b := one, zero
	if n.inv {
		a, b = zero, one
	}
	s, err := l.emit(dais.OpMux, []*slot{n.m, a, b}, shiftAttr(0), bigZero, bigOne)
	if err != nil {
		return nil, err
	}
	l.bools[k] = s
	return s, nil
}

// condition returns how to test n as a mux condition: known >= 0 for a
// constant (0 or 1), else the slot whose msb is the truth, inverted if inv.
// Boolean data slots hold 0 or 1 in one bit, so their msb is their value.
func (l *lowerer) condition(n num) (c *slot, inv bool, known int) {
	switch {
	case n.c != nil:
		if n.c.Sign() != 0 {
			return nil, false, 1
		}
		return nil, false, 0
	case n.m != nil:
		return n.m, n.inv, -1
	}
	return n.s, false, -1
}

// mux returns cond ? a : b, as a value of type rt (a and b are values of rt).
func (l *lowerer) mux(cond, a, b num, rt intT) (num, error) {
	return l.muxWithin(cond, a, b, nil, nil, rt)
}

// muxWithin is mux where the caller knows the result lies in [lo, hi] (nil:
// unknown), tighter than the union of a's and b's ranges (max and min).
func (l *lowerer) muxWithin(cond, a, b num, lo, hi *big.Int, rt intT) (num, error) {
	c, inv, known := l.condition(cond)
	switch {
	case known == 1:
		return a, nil
	case known == 0 || a.same(b):
		return b, nil
	}
	if inv {
		a, b = b, a
	}
	sa, sb, err := l.dataPair(a, b)
	if err != nil {
		return num{}, err
	}
	ulo, uhi := intrange.Min(sa.lo, sb.lo), intrange.Max(sa.hi, sb.hi)
	if lo == nil {
		lo, hi = ulo, uhi
	}
	return l.value(dais.OpMux, []*slot{c, sa, sb}, shiftAttr(0), intrange.Max(lo, ulo), intrange.Min(hi, uhi), rt)
}

// convert returns n as a value of type rt: unchanged when it already is one,
// else wrapped by a dais.quantize to rt's range.
func (l *lowerer) convert(n num, rt intT) (num, error) {
	if n.c != nil {
		return constNum(rt.wrap(n.c)), nil
	}
	if n.s != nil && n.s.mod64 && rt.width > 64 {
		return n, nil // still known modulo 2^64 only
	}
	lo, hi := n.bounds()
	if rt.contains(lo, hi) {
		if n.s != nil && n.s.mod64 { // i64: the slot is the value wrapped to it
			return slotNum(&slot{id: n.s.id, lo: n.s.lo, hi: n.s.hi}), nil
		}
		return n, nil
	}
	s, err := l.data(n)
	if err != nil {
		return num{}, err
	}
	return l.value(dais.OpQuantize, []*slot{s}, nil, lo, hi, rt)
}
