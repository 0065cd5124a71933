package daisopt

import (
	"math/big"

	"otir/backend/alir"
	"otir/ir"
)

// Fold runs dais-fold on one program: in one forward walk, every op whose
// operands are all constants becomes a dais.const of the same type (computed
// by ALIR's exact arithmetic, quantization and wrap included), and these
// identities are applied, x being any value:
//
//	add(x, 0, s), sub(x, 0, s), add(0, x, 0)   -> quantize(x)
//	sub(0, x, 0)                                -> neg(x)
//	sub(x, x, 0)                                -> const 0
//	const_add(x, 0)                             -> quantize(x)
//	mul(x, 1), mul(1, x)                        -> quantize(x)
//	mul(x, -1), mul(-1, x)                      -> neg(x)
//	mul(x, 0), mul(0, x)                        -> const 0
//	mux(c, a, b, s) with constant c             -> quantize(a), or quantize(b) when s = 0
//	mux(c, x, x, 0)                             -> quantize(x)
//	relu(x) with x unsigned                     -> quantize(x)
//	neg(neg(x)) when the inner neg is exact     -> quantize(x)
//	quantize(x) to x's own type                 -> x
//
// Each rewritten op keeps its result type, so it quantizes its new exact
// result exactly as before; the last rule replaces the op by x, whose type is
// identical. The constants and ops left unused are not removed (dais-dce
// does that). Fold returns the number of ops rewritten or replaced.
func Fold(prog *ir.Operation) (int, error) {
	v, err := load(prog)
	if err != nil {
		return 0, err
	}
	return v.fold(), nil
}

// folder holds the state of the walk, by slot: the slot that now stands for
// it (itself unless replaced) and the op that now defines it.
type folder struct {
	v     *view
	rep   []int32
	def   []alir.Op
	konst []*big.Int // raw value of slots defined by a constant
}

func (v *view) fold() int {
	n := len(v.p.Ops)
	fo := &folder{v: v, rep: make([]int32, n), def: make([]alir.Op, n), konst: make([]*big.Int, n)}
	cur := make([]*ir.Value, n)
	ops := make([]*ir.Operation, 0, len(v.body.Ops))
	changed := 0
	slot := 0
	for _, irop := range v.body.Ops {
		if !isSlot(irop) {
			ops = append(ops, irop)
			continue
		}
		i := slot
		slot++
		ids, k := args(v.p.Ops[i])
		for j := range ids[:k] {
			ids[j] = fo.rep[ids[j]]
		}
		orig := withArgs(v.p.Ops[i], ids)
		op, alias := fo.simplify(i, orig)
		fo.rep[i] = int32(i)
		switch {
		case alias >= 0:
			fo.rep[i] = alias
			cur[i] = cur[alias]
			changed++
			continue
		case op != orig:
			nids, nk := args(op)
			vals := make([]*ir.Value, nk)
			for j, s := range nids[:nk] {
				vals[j] = cur[s]
			}
			irop = newSlotOp(op, vals, irop.Results[0].Type, irop.Loc)
			changed++
		default:
			for j, s := range ids[:k] {
				irop.Operands[j] = cur[s]
			}
		}
		fo.def[i] = op
		if op.Opcode == alir.OpConst {
			fo.konst[i] = wrap(big.NewInt(op.Data), v.kif[i])
		}
		cur[i] = irop.Results[0]
		ops = append(ops, irop)
	}
	v.remapOutput(cur)
	v.setOps(ops)
	return changed
}

// simplify applies the folding rules to op (slot i, operands already
// replaced by their representatives) until none applies. It returns the new
// op, or alias >= 0 when slot i is to be replaced by slot alias.
func (fo *folder) simplify(i int, op alir.Op) (res alir.Op, alias int32) {
	for range 4 { // each rule makes the op simpler; a few rounds suffice
		if op.Opcode == alir.OpInput || op.Opcode == alir.OpConst {
			return op, -1
		}
		if z, ok := fo.v.evalConst(i, op, func(s int32) *big.Int { return fo.konst[s] }); ok {
			return alir.Op{ID0: -1, ID1: -1, Opcode: alir.OpConst, Data: rawInt64(z), QInt: op.QInt}, -1
		}
		next, alias := fo.identity(i, op)
		if alias >= 0 {
			return op, alias
		}
		if next == op {
			return op, -1
		}
		op = next
	}
	return op, -1
}

// Values of constants, as the identities test them.
const (
	isZero = iota
	isOne
	isMinusOne
)

// is reports whether slot s is a constant of real value 0, 1 or -1.
func (fo *folder) is(s int32, what int) bool {
	z := fo.konst[s]
	if z == nil {
		return false
	}
	if what == isZero {
		return z.Sign() == 0
	}
	f := fo.v.kif[s].Fractionals
	if f < 0 {
		return false // the step exceeds 1
	}
	one := new(big.Int).Lsh(big.NewInt(1), uint(f))
	if what == isMinusOne {
		one.Neg(one)
	}
	return z.Cmp(one) == 0
}

// unary returns op turned into a one-operand op (neg or quantize) of a.
func unary(op alir.Op, code alir.Opcode, a int32) alir.Op {
	return alir.Op{ID0: a, ID1: -1, Opcode: code, QInt: op.QInt}
}

// zero returns op turned into the constant 0 of its type.
func zero(op alir.Op) alir.Op {
	return alir.Op{ID0: -1, ID1: -1, Opcode: alir.OpConst, QInt: op.QInt}
}

// identity applies one algebraic identity to op (slot i), returning the
// rewritten op (op itself when none applies) or the slot op reduces to.
func (fo *folder) identity(i int, op alir.Op) (alir.Op, int32) {
	a, b := op.ID0, op.ID1
	switch op.Opcode {
	case alir.OpAdd, alir.OpSub:
		shift := op.DataLow()
		switch {
		case fo.is(b, isZero):
			return unary(op, alir.OpQuantize, a), -1
		case fo.is(a, isZero) && shift == 0 && op.Opcode == alir.OpAdd:
			return unary(op, alir.OpQuantize, b), -1
		case fo.is(a, isZero) && shift == 0:
			return unary(op, alir.OpNeg, b), -1
		case a == b && shift == 0 && op.Opcode == alir.OpSub:
			return zero(op), -1
		}
	case alir.OpConstAdd:
		if op.DataLow() == 0 {
			return unary(op, alir.OpQuantize, a), -1
		}
	case alir.OpMul:
		for _, pair := range [2][2]int32{{a, b}, {b, a}} {
			x, c := pair[0], pair[1]
			switch {
			case fo.is(c, isZero):
				return zero(op), -1
			case fo.is(c, isOne):
				return unary(op, alir.OpQuantize, x), -1
			case fo.is(c, isMinusOne):
				return unary(op, alir.OpNeg, x), -1
			}
		}
	case alir.OpMux:
		cond, shift := op.DataLow(), op.DataHigh()
		if c := fo.konst[cond]; c != nil {
			if msb(c, fo.v.kif[cond]) {
				return unary(op, alir.OpQuantize, a), -1
			}
			if shift == 0 {
				return unary(op, alir.OpQuantize, b), -1
			}
		}
		if a == b && shift == 0 {
			return unary(op, alir.OpQuantize, a), -1
		}
	case alir.OpReLU:
		if !fo.v.kif[a].Signed {
			return unary(op, alir.OpQuantize, a), -1
		}
	case alir.OpNeg:
		if in := fo.def[a]; in.Opcode == alir.OpNeg && fo.exactNeg(a, in.ID0) {
			return unary(op, alir.OpQuantize, in.ID0), -1
		}
	case alir.OpQuantize:
		if fo.v.p.Ops[a].QInt == op.QInt {
			return op, a
		}
	}
	return op, -1
}

// exactNeg reports whether slot n = neg(x) holds -x exactly for every value
// of x's type: no fraction bit dropped and no wrap.
func (fo *folder) exactNeg(n, x int32) bool {
	tn, tx := fo.v.kif[n], fo.v.kif[x]
	if tn.Fractionals < tx.Fractionals {
		return false
	}
	s := fullSpan(tx).neg().shl(uint(tn.Fractionals - tx.Fractionals))
	return s.within(fullSpan(tn))
}
