package daisopt

import (
	"math/big"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
)

// Fold runs dais-fold on one program: in one forward walk, every op whose
// operands are all constants becomes a dais.const of the same type (computed
// by alir's reference semantics, alir.Evaluator; a value beyond int64, which
// a dais.const cannot hold, is left alone), and these identities are
// applied, x being any value and T the op's type:
//
//	add(x, 0, s), sub(x, 0, s), add(0, x, 0)   -> quantize(x)   T's step no finer than x's
//	sub(0, x, 0)                                -> neg(x)        T at x's step
//	sub(x, x, 0)                                -> const 0
//	const_add(x, 0)                             -> quantize(x)   T's step no finer than x's
//	mul(x, 1), mul(1, x)                        -> quantize(x)   1 and T at steps 1 and x's
//	mul(x, -1), mul(-1, x)                      -> neg(x)        -1 at step 1
//	mul(x, 0), mul(0, x)                        -> const 0
//	mux(c, a, b, s) with constant c             -> quantize(a), or quantize(b) when s = 0,
//	                                               T at that operand's step
//	mux(c, x, x, 0)                             -> quantize(x)   T at x's step
//	relu(x) with x unsigned                     -> quantize(x)
//	neg(neg(x))                                 -> quantize(x)   T at x's step
//	quantize(x) to x's own type                 -> x
//
// Each rewritten op keeps its result type and computes the same value: the
// conditions on steps follow from the semantics (ERRATA, "Quantization":
// neg and mul give their raw result, unscaled; a quantize floors to its step
// and wraps, and a portable one never makes the step finer), and a quantize
// that replaces an op that does not wrap does not wrap either, as that op's
// result lay in T (the program is portable). The last rule replaces the op
// by x, whose type is identical.
//
// A rewrite can make alir.Program.Portability prove less of the ops that
// depend on it, as it relies on the program's shape: a quantize is a new
// source for its linear forms where add(x, 0) was x itself (x - (x + 0) is
// 0), and replacing -(-x) by x undoes the clamp mux(-x < 0, c, -(-x)) that
// it recognises. So the rewrites are planned first and the planned program
// checked by Portability; the rewrites behind an op that is not portable
// (those of its operands, theirs, and so on) are dropped, and the plan is
// made again, until it is portable (a program whose rewrites all go is the
// one given).
//
// The constants and ops left unused are not removed (dais-dce does that).
// Fold returns the number of ops rewritten or replaced.
func Fold(prog *ir.Operation) (int, error) {
	v, err := load(prog)
	if err != nil {
		return 0, err
	}
	return v.fold(), nil
}

// folder holds a plan of the rewrites, by slot: the slot that now stands
// for it (itself unless replaced) and the op that now defines it (def).
// blocked marks the slots that keep their op.
type folder struct {
	v   *view
	rep []int32
	// defAt[i] is 0 when slot i keeps its op (reading the slots that now
	// stand for its operands), else k: slot i is rewritten to defs[k-1].
	// (Most ops are kept: an Op per slot would be most of the pass's
	// memory.)
	defAt   []int32
	defs    []alir.Op
	konst   []*big.Int // raw value of slots defined by a constant
	blocked []bool
	changed bool // some op is rewritten or replaced
}

func (v *view) fold() int {
	blocked := make([]bool, len(v.p.Ops))
	for {
		fo := v.plan(blocked)
		if !fo.block() {
			return fo.apply()
		}
	}
}

// plan plans the rewrites in one forward walk.
func (v *view) plan(blocked []bool) *folder {
	n := len(v.p.Ops)
	fo := &folder{v: v, rep: make([]int32, n), defAt: make([]int32, n), konst: make([]*big.Int, n), blocked: blocked}
	for i, op := range v.p.Ops {
		orig := withArgs(op, fo.reps(op))
		op, alias := orig, int32(-1)
		if !blocked[i] {
			op, alias = fo.simplify(i, orig)
		}
		if alias >= 0 {
			fo.rep[i], fo.changed = alias, true
			continue
		}
		fo.rep[i] = int32(i)
		if !op.Equal(orig) {
			fo.defs = append(fo.defs, op)
			fo.defAt[i], fo.changed = int32(len(fo.defs)), true
		}
		if op.Opcode == alir.OpConst {
			fo.konst[i] = big.NewInt(op.Data) // a constant is its raw value
		}
	}
	return fo
}

// def returns the op that defines slot i (where i stands for itself).
func (fo *folder) def(i int32) alir.Op {
	if k := fo.defAt[i]; k > 0 {
		return fo.defs[k-1]
	}
	op := fo.v.p.Ops[i]
	return withArgs(op, fo.reps(op))
}

// reps returns the slots op reads (in args order), each replaced by the
// slot that stands for it.
func (fo *folder) reps(op alir.Op) [3]int32 {
	ids, k := args(op)
	for j := range ids[:k] {
		ids[j] = fo.rep[ids[j]]
	}
	return ids
}

// planned returns the program as planned: slot i computes def[i], or, when
// it is replaced by another, the constant 0 (which no op reads).
func (fo *folder) planned() *alir.Program {
	p := *fo.v.p
	p.Ops = make([]alir.Op, len(fo.rep))
	for i := range p.Ops {
		if fo.rep[i] != int32(i) {
			p.Ops[i] = alir.Op{ID0: -1, ID1: -1, Opcode: alir.OpConst, QInt: fo.v.p.Ops[i].QInt}
		} else {
			p.Ops[i] = fo.def(int32(i))
		}
	}
	p.Outputs = append([]alir.Output(nil), p.Outputs...)
	for k := range p.Outputs {
		if s := p.Outputs[k].Index; s >= 0 {
			p.Outputs[k].Index = fo.rep[s]
		}
	}
	return &p
}

// block blocks the rewrites behind the ops of the planned program that are
// not portable, and reports whether it blocked any: every slot the op
// depends on in the program as given, and the op itself, keeps its op. (A
// slot whose every dependency is blocked is computed as in the program
// given, which is portable.)
func (fo *folder) block() bool {
	if !fo.changed {
		return false
	}
	bad, err := fo.planned().Portability()
	if err != nil || len(bad) == 0 {
		return false
	}
	seen := make([]bool, len(fo.rep))
	var stack []int32
	added := false
	for _, np := range bad {
		stack = append(stack[:0], int32(np.Index))
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[s] {
				continue
			}
			seen[s] = true
			if !fo.blocked[s] && (fo.rep[s] != s || fo.defAt[s] > 0) {
				fo.blocked[s], added = true, true
			}
			ids, k := args(fo.v.p.Ops[s])
			stack = append(stack, ids[:k]...)
		}
	}
	return added
}

// apply rewrites the block as planned.
func (fo *folder) apply() int {
	if !fo.changed {
		return 0 // nothing planned: no need to copy the program
	}
	v := fo.v
	r := v.rebuild()
	changed := 0
	for i, op := range v.p.Ops {
		if rep := fo.rep[i]; rep != int32(i) {
			r.alias(i, rep)
			changed++
			continue
		}
		if k := fo.defAt[i]; k > 0 {
			// A new op: no annotation, as the ir op the pass made.
			def := fo.defs[k-1]
			def.Latency, def.Cost = 0, 0
			r.keep(i, def)
			changed++
			continue
		}
		r.keep(i, withArgs(op, fo.reps(op)))
	}
	if changed == 0 {
		return 0
	}
	r.finish()
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
		if z, ok := fo.v.evalConst(i, op, func(s int32) *big.Int { return fo.konst[s] }); ok && z.IsInt64() {
			return alir.Op{ID0: -1, ID1: -1, Opcode: alir.OpConst, Data: z.Int64(), QInt: op.QInt}, -1
		}
		next, alias := fo.identity(i, op)
		if alias >= 0 {
			return op, alias
		}
		if next.Equal(op) {
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

// frac returns the fractional bits of slot s's type.
func (fo *folder) frac(s int32) int { return fo.v.kif[s].Fractionals }

// quantizeOf returns op (slot i) turned into quantize(x), which computes the
// same value when op's exact result is x's value brought to op's step (by
// floor): unless op's step is finer than x's, which a quantize may not make
// (the original interpreter shifts one way only).
func (fo *folder) quantizeOf(i int, op alir.Op, x int32) alir.Op {
	if fo.frac(int32(i)) > fo.frac(x) {
		return op
	}
	return unary(op, alir.OpQuantize, x)
}

// negOf returns op (slot i) turned into neg(x), which computes the same
// raw value when op's exact result is -x at op's step: neg gives the raw
// -x, so op must be at x's step.
func (fo *folder) negOf(i int, op alir.Op, x int32) alir.Op {
	if fo.frac(int32(i)) != fo.frac(x) {
		return op
	}
	return unary(op, alir.OpNeg, x)
}

// identity applies one algebraic identity to op (slot i), returning the
// rewritten op (op itself when none applies) or the slot op reduces to.
func (fo *folder) identity(i int, op alir.Op) (alir.Op, int32) {
	a, b := op.ID0, op.ID1
	// A rewrite, not a fact: the identities are this pass's own (x + 0,
	// x - x, x * ±1, mux of equal branches, ...), so they stay a switch
	// here; the facts they rely on (steps, wrapping) come from alir.
	switch op.Opcode {
	case alir.OpAdd, alir.OpSub:
		shift := op.DataLow()
		switch {
		case fo.is(b, isZero):
			return fo.quantizeOf(i, op, a), -1
		case fo.is(a, isZero) && shift == 0 && op.Opcode == alir.OpAdd:
			return fo.quantizeOf(i, op, b), -1
		case fo.is(a, isZero) && shift == 0:
			return fo.negOf(i, op, b), -1
		case a == b && shift == 0 && op.Opcode == alir.OpSub:
			return zero(op), -1
		}
	case alir.OpConstAdd:
		if op.DataLow() == 0 {
			return fo.quantizeOf(i, op, a), -1
		}
	case alir.OpMul:
		// mul gives the raw product x*c at op's step: x's raw value (c = 1)
		// or its negation (c = -1) when c's step is 1 and op is at x's step.
		for _, pair := range [2][2]int32{{a, b}, {b, a}} {
			x, c := pair[0], pair[1]
			switch {
			case fo.is(c, isZero):
				return zero(op), -1
			case fo.frac(c) != 0 || fo.frac(int32(i)) != fo.frac(x):
			case fo.is(c, isOne):
				return fo.quantizeOf(i, op, x), -1
			case fo.is(c, isMinusOne):
				return fo.negOf(i, op, x), -1
			}
		}
	case alir.OpMux:
		// A mux brings the operand it takes to its step and wraps, as a
		// quantize does; it shifts left only, so its step is the operand's
		// step or finer, and quantizeOf takes only the former.
		cond, shift := op.DataLow(), op.DataHigh()
		if c := fo.konst[cond]; c != nil {
			if msb(c, fo.v.kif[cond]) {
				return fo.quantizeOf(i, op, a), -1
			}
			if shift == 0 {
				return fo.quantizeOf(i, op, b), -1
			}
		}
		if a == b && shift == 0 {
			return fo.quantizeOf(i, op, a), -1
		}
	case alir.OpReLU:
		if !fo.v.kif[a].Signed {
			return fo.quantizeOf(i, op, a), -1
		}
	case alir.OpNeg:
		// The raw values are -(-x) = x, at op's step: x's value when that
		// is x's step (it lies in op's type: the program is portable).
		if in := fo.def(a); in.Opcode == alir.OpNeg && fo.frac(int32(i)) == fo.frac(in.ID0) {
			return fo.quantizeOf(i, op, in.ID0), -1
		}
	case alir.OpQuantize:
		if fo.v.p.Ops[a].QInt == op.QInt {
			return op, a
		}
	}
	return op, -1
}
