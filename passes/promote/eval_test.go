package promote

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/internal/intrange"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/typing"
)

// A small reference evaluator for scalar integer kernels, written for these
// tests from design section 4 and the choices docs/executor.md makes (so that
// it agrees with backend/exec, which tests/promote runs too): each operation
// computes the exact result of what it reads of its operands and converts it
// to its result type (floor, then wrap). Division rounds the quotient toward
// zero and the remainder takes the dividend's sign, as in C (a = b*(a/b) +
// a%b); x / 0 and a negative shift amount are
// errors; div_s/rem_s/shr_s and s* predicates read their operands' bits as
// signed numbers in their own widths, the _u forms and u* as unsigned ones.

// convert wraps an integer value into an integer (or index, i64) type.
func convert(v *big.Int, t ir.Type) *big.Int {
	m, ok := intModel(t)
	if !ok {
		panic(fmt.Sprintf("convert to %v", t))
	}
	mod := new(big.Int).Lsh(one, uint(m.Width))
	r := new(big.Int).Mod(v, mod) // in [0, 2^w)
	if m.Signed && r.Bit(m.Width-1) == 1 {
		r.Sub(r, mod)
	}
	return r
}

const maxShift = 8192 // beyond any type width: x << maxShift is 0 modulo every 2^w

func shiftLeft(a, b *big.Int) *big.Int {
	if b.Cmp(big.NewInt(maxShift)) >= 0 {
		return big.NewInt(0)
	}
	return new(big.Int).Lsh(a, uint(b.Int64()))
}

func shiftRight(a, b *big.Int) *big.Int {
	if b.Cmp(big.NewInt(maxShift)) >= 0 {
		b = big.NewInt(maxShift)
	}
	return new(big.Int).Rsh(a, uint(b.Int64())) // big.Int Rsh floors
}

// reading is what an operation reads of an operand value of type t.
func reading(k readKind, v *big.Int, t ir.Type) *big.Int {
	m, _ := intModel(t)
	switch k {
	case readSigned:
		return convert(v, ir.Int(m.Width, true)) // (a 1-bit signed reading is handled below)
	case readUnsigned:
		return convert(v, ir.Int(m.Width, false))
	}
	return v
}

// truncDivMod is C's a / b and a % b: math/big's QuoRem is exactly this
// "T-division" (the quotient rounds toward zero, the remainder has a's sign).
func truncDivMod(a, b *big.Int) (q, r *big.Int) {
	return new(big.Int).QuoRem(a, b, new(big.Int))
}

// exactOp is the exact result of an integer operation.
func exactOp(op *ir.Operation, xs []*big.Int) (*big.Int, error) {
	key, _ := typing.KeyOf(op)
	pred, _ := op.StringAttr("kind")
	sem := semOf(op.Name, pred, key)
	for i := range xs {
		if i < len(sem.reads) {
			xs[i] = reading(sem.reads[i], xs[i], op.Operands[i].Type)
			if sem.reads[i] == readSigned && modelWidth(op.Operands[i].Type) == 1 && xs[i].Sign() != 0 {
				xs[i] = big.NewInt(-1) // a 1-bit signed reading: 1 is -1
			}
		}
	}
	a := xs[0]
	var b *big.Int
	if len(xs) > 1 {
		b = xs[1]
	}
	switch op.Name {
	case otir.OpAdd:
		return add(a, b), nil
	case otir.OpSub:
		return sub(a, b), nil
	case otir.OpMul:
		return new(big.Int).Mul(a, b), nil
	case otir.OpNeg:
		return neg(a), nil
	case otir.OpDivS, otir.OpDivU, otir.OpRemS, otir.OpRemU:
		if b.Sign() == 0 {
			return nil, fmt.Errorf("division by zero: %w", errRunTime)
		}
		q, r := truncDivMod(a, b)
		if op.Name == otir.OpRemS || op.Name == otir.OpRemU {
			return r, nil
		}
		return q, nil
	case otir.OpAnd:
		return new(big.Int).And(a, b), nil
	case otir.OpOr:
		return new(big.Int).Or(a, b), nil
	case otir.OpXor:
		return new(big.Int).Xor(a, b), nil
	case otir.OpNot:
		return new(big.Int).Not(a), nil
	case otir.OpShl, otir.OpShrS, otir.OpShrU:
		if b.Sign() < 0 {
			return nil, fmt.Errorf("negative shift amount: %w", errRunTime)
		}
		if op.Name == otir.OpShl {
			return shiftLeft(a, b), nil
		}
		return shiftRight(a, b), nil
	case otir.OpMax:
		return intrange.Max(a, b), nil
	case otir.OpMin:
		return intrange.Min(a, b), nil
	case otir.OpAbs:
		return new(big.Int).Abs(a), nil
	case otir.OpCast:
		return a, nil
	case otir.OpCmp:
		c := a.Cmp(b)
		res := map[string]bool{"eq": c == 0, "ne": c != 0, "lt": c < 0, "le": c <= 0, "gt": c > 0, "ge": c >= 0}[key]
		if res {
			return big.NewInt(1), nil
		}
		return big.NewInt(0), nil
	}
	return nil, fmt.Errorf("evaluator: unsupported operation %s", op.Name)
}

// evalBlock runs a block of scalar integer operations, adding every result
// to env. A run-time error (division by zero, negative shift amount) makes
// the result nil, "poison", and so every result computed from it: one
// evaluation then checks every value, failing or not.
func evalBlock(b *ir.Block, env map[*ir.Value]*big.Int) error {
	for _, op := range b.Ops {
		switch op.Name {
		case otir.OpReturn:
			continue
		case otir.OpConstant:
			a, ok := op.Attr("value").(*ir.IntAttr)
			if !ok {
				return fmt.Errorf("evaluator: non-integer constant")
			}
			env[op.Results[0]] = convert(a.Value, op.Results[0].Type)
			continue
		}
		xs := make([]*big.Int, len(op.Operands))
		poison := false
		for i, v := range op.Operands {
			x, ok := env[v]
			if !ok {
				return fmt.Errorf("evaluator: %s uses an undefined value", op.Name)
			}
			xs[i], poison = x, poison || x == nil
		}
		if poison {
			env[op.Results[0]] = nil
			continue
		}
		r, err := exactOp(op, xs)
		switch {
		case errors.Is(err, errRunTime):
			env[op.Results[0]] = nil
		case err != nil:
			return err
		default:
			env[op.Results[0]] = convert(r, op.Results[0].Type)
		}
	}
	return nil
}

// errRunTime marks the evaluated program's own errors.
var errRunTime = errors.New("run-time error")
