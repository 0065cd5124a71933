package promote

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/typing"
)

// The pass must not change the value any operation computes. These tests
// build random scalar integer kernels (chains that form expression trees,
// explicit result types both narrower and wider than inference would give,
// mixed signs, 1-bit to 100-bit integers, index), evaluate every value on
// random inputs before and after the pass, and compare every value that
// survives the rewrite (roots and rewritten operations keep their result
// values; only single-use inner nodes of rebuilt trees disappear).

var randTypes = []string{
	"bool", "i2", "u2", "i3", "u3", "i4", "u4", "i5", "u6", "i7", "i8", "u8", "i9", "u9",
	"i12", "u12", "i16", "u16", "i31", "u31", "i32", "u32", "i33", "i64", "u64", "i70", "u100",
}

var randBinary = []string{
	otir.OpAdd, otir.OpAdd, otir.OpAdd, otir.OpSub, otir.OpSub, otir.OpMul, otir.OpMul,
	otir.OpDivS, otir.OpDivU, otir.OpRemS, otir.OpRemU, otir.OpAnd, otir.OpOr, otir.OpXor,
	otir.OpShl, otir.OpShrS, otir.OpShrU, otir.OpMax, otir.OpMin,
}

var randUnary = []string{otir.OpNeg, otir.OpNot, otir.OpAbs}

var randPreds = []string{"eq", "ne", "slt", "sle", "ugt", "uge", "olt"}

// randProgram builds a random kernel; withIndex adds index arguments.
func randProgram(t *testing.T, rng *rand.Rand, style string, withIndex bool) *kb {
	nArgs := 2 + rng.IntN(4)
	var args []string
	for i := 0; i < nArgs; i++ {
		if withIndex && rng.IntN(4) == 0 {
			args = append(args, "index")
		} else {
			args = append(args, randTypes[rng.IntN(len(randTypes))])
		}
	}
	k := newKB(t, style, args...)
	vals := append([]*ir.Value(nil), k.args...)
	pick := func() *ir.Value {
		if rng.IntN(10) < 6 { // recent values make chains, hence trees
			return vals[max(0, len(vals)-1-rng.IntN(3))]
		}
		return vals[rng.IntN(len(vals))]
	}
	nOps := 3 + rng.IntN(10)
	for len(vals) < nArgs+nOps {
		a, b := pick(), pick()
		var name string
		operands := []*ir.Value{a, b}
		switch r := rng.IntN(20); {
		case r < 2:
			name, operands = randUnary[rng.IntN(len(randUnary))], operands[:1]
		case r < 4:
			pred := randPreds[rng.IntN(len(randPreds))]
			if _, err := typing.InferCmp(style, "otir.cmp", pred, []ir.Type{a.Type, b.Type}); err != nil {
				continue
			}
			vals = append(vals, k.cmp(pred, a, b))
			continue
		default:
			name = randBinary[rng.IntN(len(randBinary))]
		}
		ts := make([]ir.Type, len(operands))
		for i, v := range operands {
			ts[i] = v.Type
		}
		inferred, err := typing.InferResult(style, name, ts)
		if err != nil {
			continue
		}
		result := inferred
		if rng.IntN(2) == 0 {
			result = ir.MustParseType(randTypes[rng.IntN(len(randTypes))])
		}
		k.b.Loc = k.loc()
		if len(operands) == 1 {
			vals = append(vals, k.b.Unary(name, a, result))
		} else {
			vals = append(vals, k.b.Binary(name, a, b, result))
		}
	}
	otir.Return(k.b)
	return k
}

// randValue draws a value of an integer type, often an extreme one.
func randValue(rng *rand.Rand, t ir.Type) *big.Int {
	lo, hi := typeRange(t)
	switch rng.IntN(8) {
	case 0:
		return lo
	case 1:
		return hi
	case 2:
		return convert(big.NewInt(int64(rng.IntN(3)-1)), t)
	}
	span := add(sub(hi, lo), one)
	r := new(big.Int)
	for i := 0; i <= span.BitLen()/64; i++ {
		r.Lsh(r, 64).Or(r, new(big.Int).SetUint64(rng.Uint64()))
	}
	r.Mod(r, span)
	return r.Add(r, lo)
}

func TestRandomProgramsKeepTheirValues(t *testing.T) {
	left, ops, compared, poisoned := 0, 0, 0, 0
	for _, style := range []string{"hls", "cpp"} {
		for _, withIndex := range []bool{false, true} {
			for seed := uint64(1); seed <= 150; seed++ {
				name := fmt.Sprintf("%s/index=%v/seed=%d", style, withIndex, seed)
				rng := rand.New(rand.NewPCG(seed, 77))
				k := randProgram(t, rng, style, withIndex)
				before := k.m.String()
				var inputs [][]*big.Int
				var envs []map[*ir.Value]*big.Int
				for n := 0; n < 12; n++ {
					in := make([]*big.Int, len(k.args))
					for i, a := range k.args {
						in[i] = randValue(rng, a.Type)
					}
					inputs, envs = append(inputs, in), append(envs, evalWith(t, name, k, in, before))
				}
				if err := k.run(); err != nil {
					t.Fatalf("%s: pass failed: %v\n%s", name, err, before)
				}
				after := k.m.String()
				for n, in := range inputs {
					env := evalWith(t, name, k, in, after)
					for v, want := range envs[n] {
						got, ok := env[v]
						if !ok {
							continue // an absorbed inner node of a tree
						}
						if (got == nil) != (want == nil) || got != nil && got.Cmp(want) != 0 {
							t.Fatalf("%s: inputs %v: a value changed from %v to %v (nil: a run-time error)\nbefore:\n%s\nafter:\n%s",
								name, in, want, got, before, after)
						}
						compared++
						if want == nil {
							poisoned++
						}
					}
				}
				left += checkExplicit(t, name, k, after)
				ops += len(k.args[0].Block.Ops)
			}
		}
	}
	t.Logf("%d values compared (%d of them run-time errors in both); %d of %d operations left as written",
		compared, poisoned, left, ops)
	if poisoned*3 > compared || left*10 > ops {
		t.Errorf("the random programs exercise too little: %d of %d values are errors, %d of %d operations left as written",
			poisoned, compared, left, ops)
	}
}

// evalWith evaluates k's body on the given inputs.
func evalWith(t *testing.T, name string, k *kb, in []*big.Int, text string) map[*ir.Value]*big.Int {
	t.Helper()
	env := map[*ir.Value]*big.Int{}
	for i, a := range k.args {
		env[a] = in[i]
	}
	if err := evalBlock(k.args[0].Block, env); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, text)
	}
	return env
}

// checkExplicit asserts the pass's postcondition: every element-wise
// operation computes in one type (comparisons: equal operand types; shifts:
// the shifted operand has the result type), unless no compute type keeps its
// value, in which case it is left as written. It returns how many were.
func checkExplicit(t *testing.T, name string, k *kb, text string) (left int) {
	t.Helper()
	st, _ := typing.ParseStyle(otir.TypingStyle(k.m))
	k.m.Walk(func(op *ir.Operation) bool {
		key, ok := typing.KeyOf(op)
		if !ok || op.Name == otir.OpCast {
			return true
		}
		var elems []ir.Type
		for _, v := range op.Operands {
			elems = append(elems, ir.ElementType(v.Type))
		}
		r := ir.ElementType(op.Results[0].Type)
		if explicit(key, elems, r) {
			return true
		}
		left++
		var signs []int
		if key == "sub" {
			signs = []int{1, -1}
		}
		p, err := typing.Promote(st, key, elems, signs)
		pred, _ := op.StringAttr("kind")
		if err != nil {
			t.Errorf("%s: %s: %v", name, op.Name, err)
		} else if q, ok := computeType(semOf(op.Name, pred, key), elems, p, r); ok {
			t.Errorf("%s: %s could compute in %s but was left as written:\n%s", name, op.Name, q, text)
		}
		return true
	})
	return left
}

// Running the pass on its own output changes nothing.
func TestPassIsIdempotent(t *testing.T) {
	for _, style := range []string{"hls", "cpp"} {
		for seed := uint64(1); seed <= 100; seed++ {
			rng := rand.New(rand.NewPCG(seed, 99))
			k := randProgram(t, rng, style, seed%2 == 0)
			if err := k.run(); err != nil {
				t.Fatal(err)
			}
			once := k.m.String()
			if err := k.run(); err != nil {
				t.Fatal(err)
			}
			if twice := k.m.String(); twice != once {
				t.Fatalf("%s seed %d: second run changed the IR:\n%s\nthen:\n%s", style, seed, once, twice)
			}
		}
	}
}
