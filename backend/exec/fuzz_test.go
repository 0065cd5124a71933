package exec

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/internal/fuzzbytes"
	"github.com/otir-dev/otir/ir"
)

var fuzzElemTypes = []string{"i1", "i7", "i8", "u8", "i33", "u63", "i64", "u64", "i65", "i128", "u1024", "f16", "bf16", "f32", "f64"}

// buildFuzzKernel builds a small kernel from the bytes: arguments %a, %b and
// %c of 4 elements of one element type, a grid of 1 to 3 workgroups, and a
// sequence of element-wise, shape, matmul, control-flow, atomic and memory
// operations over a pool of #private 4-element values. The kernels follow
// the verifier's rules, so that most of them run rather than being rejected.
func buildFuzzKernel(t testing.TB, f *fuzzbytes.Reader) (*ir.Module, []*Buffer) {
	elem := fuzzElemTypes[f.Pick(len(fuzzElemTypes))]
	isFloat := strings.HasPrefix(elem, "f") || elem == "bf16"
	G := "!otir.tile<4x" + elem + ", #global>"
	P := "!otir.tile<4x" + elem + ", #private>"
	P22 := "!otir.tile<2x2x" + elem + ", #private>"
	x := newKB(t, []int64{int64(1 + f.Pick(3))}, "a: "+G, "b: "+G, "c: "+G)
	pool := []*ir.Value{x.load(x.arg("a"), P), x.load(x.arg("b"), P)}
	val := func() *ir.Value { return pool[f.Pick(len(pool))] }
	intBin := []string{otir.OpAdd, otir.OpSub, otir.OpMul, otir.OpDivS, otir.OpDivU, otir.OpRemS, otir.OpRemU, otir.OpAnd, otir.OpOr, otir.OpXor, otir.OpShl, otir.OpShrS, otir.OpShrU, otir.OpMax, otir.OpMin}
	floatBin := []string{otir.OpAdd, otir.OpSub, otir.OpMul, otir.OpMax, otir.OpMin}
	intPreds := []string{"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"}
	floatPreds := []string{"eq", "ne", "oeq", "one", "olt", "ole", "ogt", "oge"}
	c0, c1 := x.c(0, "index"), x.c(1, "index")
	var emit func(depth int)
	emit = func(depth int) {
		switch f.Pick(12) {
		case 0, 1: // binary
			ops := intBin
			if isFloat {
				ops = floatBin
			}
			pool = append(pool, x.op(ops[f.Pick(len(ops))], P, nil, val(), val()))
		case 2: // unary
			ops := []string{otir.OpNeg, otir.OpAbs, otir.OpNot}
			if isFloat {
				ops = []string{otir.OpNeg, otir.OpAbs, otir.OpSqrt, otir.OpExp, otir.OpLog}
			}
			pool = append(pool, x.op(ops[f.Pick(len(ops))], P, nil, val()))
		case 3: // cmp + select
			preds := intPreds
			if isFloat {
				preds = floatPreds
			}
			cond := x.op(otir.OpCmp, "!otir.tile<4xi1, #private>", ir.Attrs{{Name: "kind", Value: &ir.StringAttr{Value: preds[f.Pick(len(preds))]}}}, val(), val())
			pool = append(pool, x.op(otir.OpSelect, P, nil, cond, val(), val()))
		case 4: // a round trip through another element type
			other := fuzzElemTypes[f.Pick(len(fuzzElemTypes))]
			mid := x.op(otir.OpCast, "!otir.tile<4x"+other+", #private>", nil, val())
			pool = append(pool, x.op(otir.OpCast, P, nil, mid))
		case 5: // a constant from the bytes
			a := &ir.DenseAttr{Type: ty(t, P).(*ir.TileType)}
			for i := 0; i < 4; i++ {
				v := int64(f.Next()) - 128
				if isFloat {
					a.Floats = append(a.Floats, float64(v)/8)
				} else {
					a.Ints = append(a.Ints, fitInt(ty(t, elem), v))
				}
			}
			pool = append(pool, otir.ConstDense(x.b, a))
			x.next()
		case 6: // slices and reshapes
			off := f.Pick(3)
			s := x.slice(val(), "!otir.tile<2x"+elem+", #private>", []any{off}, []int64{2}, []int64{1})
			pool = append(pool, x.insert(s, val(), P, []any{f.Pick(3)}, []int64{2}, []int64{1}))
		case 7: // matmul on 2x2 reshapes
			r := func() *ir.Value { return x.op(otir.OpReshape, P22, nil, val()) }
			mm := x.op(otir.OpMatmul, P22, nil, r(), r(), r())
			pool = append(pool, x.op(otir.OpReshape, P, nil, mm))
		case 8: // scf.if on the program id
			if depth > 2 {
				return
			}
			cond := x.op(otir.OpCmp, "i1", ir.Attrs{{Name: "kind", Value: &ir.StringAttr{Value: "eq"}}}, x.pid(0), c0)
			// Values made in a branch are yielded or dropped: they do not
			// dominate what follows.
			branch := func() []*ir.Value {
				saved := pool
				emit(depth + 1)
				y := val()
				pool = saved
				return []*ir.Value{y}
			}
			res := x.ifOp(cond, []string{P}, branch, branch)
			pool = append(pool, res[0])
		case 9: // scf.for carrying a value
			if depth > 2 {
				return
			}
			n := x.c(int64(f.Pick(4)), "index")
			init := val()
			res := x.forLoop(c0, n, c1, []*ir.Value{init}, func(_ *ir.Value, it []*ir.Value) []*ir.Value {
				saved := pool
				pool = append(pool, it[0])
				emit(depth + 1)
				y := pool[len(pool)-1]
				pool = saved
				return []*ir.Value{y}
			})
			pool = append(pool, res[0])
		case 10: // an atomic on %c
			kinds := []string{"add", "max", "min", "xchg", "and", "or", "xor", "umax", "umin"}
			if isFloat {
				kinds = kinds[:4]
			}
			k := kinds[f.Pick(len(kinds))]
			pool = append(pool, x.op(otir.OpAtomic, P, ir.Attrs{{Name: "kind", Value: &ir.StringAttr{Value: k}}, {Name: "memory_order", Value: &ir.StringAttr{Value: "relaxed"}}}, x.arg("c"), val()))
		case 11: // memory through views: a masked copy from %b (transposed or not), a store into a transposed %c
			transposed := func(g *ir.Value) *ir.Value {
				space := "#global>"
				m := x.op(otir.OpReshape, "!otir.tile<2x2x"+elem+", "+space, nil, g)
				tr := x.op(otir.OpTranspose, "!otir.tile<2x2x"+elem+", "+space, ir.Attrs{{Name: "permutation", Value: &ir.DenseI64Attr{Values: []int64{1, 0}}}}, m)
				return x.op(otir.OpReshape, G, nil, tr)
			}
			w := x.alloc("!otir.tile<4x" + elem + ", #workgroup>")
			x.store(val(), w)
			preds := intPreds
			if isFloat {
				preds = floatPreds
			}
			mask := x.op(otir.OpCmp, "!otir.tile<4xi1, #private>", ir.Attrs{{Name: "kind", Value: &ir.StringAttr{Value: preds[f.Pick(len(preds))]}}}, val(), val())
			src := x.arg("b")
			if f.Pick(2) == 0 {
				src = transposed(src)
			}
			x.wait(x.dma(src, w, mask))
			pool = append(pool, x.load(w, P))
			if f.Pick(2) == 0 {
				x.store(val(), transposed(x.arg("c")))
			}
		}
	}
	for n := 2 + f.Pick(10); n > 0; n-- {
		emit(0)
	}
	if f.Pick(2) == 0 {
		x.store(pool[len(pool)-1], x.arg("c"))
	} else {
		w := x.alloc("!otir.tile<4x" + elem + ", #workgroup>")
		x.store(pool[len(pool)-1], w)
		x.wait(x.dma(w, x.arg("c")))
	}
	var args []*Buffer
	for i := 0; i < 3; i++ {
		b := NewBuffer(ty(t, elem), 4)
		for j := 0; j < 4; j++ {
			v := int64(f.Next()) - 128
			if isFloat {
				b.Floats[j] = roundFloat64(float64(v)/4, ty(t, elem).(*ir.FloatType).Kind)
			} else {
				_ = b.SetInt(j, fitInt(ty(t, elem), v))
			}
		}
		args = append(args, b)
	}
	return x.done(), args
}

// fitInt wraps v into an integer type.
func fitInt(typ ir.Type, v int64) *big.Int {
	w, s, _ := intInfo(typ)
	return wrapInt(intNum(v), w, s).big()
}

// FuzzExec runs random small valid kernels: the executor may report errors
// (division by zero, races, ...) but must never crash.
func FuzzExec(f *testing.F) {
	for _, seed := range []string{"", "\x02\x00\x00\x07", "\x0b\x01\x07\x07\x09\x08\x03", "\x0e\x02\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a",
		"\x03\x00\x09\x03\x01\x08\x02\x07\x00\x01\x02\x03\x04\x05\x06", "\x0c\x02\x0a\x00\x0a\x03\x0a\x08\x05\x01\x02\x03\x04"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, args := buildFuzzKernel(t, fuzzbytes.New(data))
		_, err := Run(m, "k", args, Options{MaxSteps: 10000, CheckRaces: len(data)%2 == 1})
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("%v\n%s", err, m)
		}
	})
}

// TestFuzzCorpusRuns runs many generated kernels deterministically, so
// ordinary test runs cover the generator beyond the seed corpus, and checks
// that most of them pass the verifier (a generator gone wrong would only
// test the verifier).
func TestFuzzCorpusRuns(t *testing.T) {
	verified := 0
	for i := 0; i < 300; i++ {
		data := make([]byte, 40)
		for j := range data {
			data[j] = byte((i*131 + j*97 + i*j*7) % 251)
		}
		m, args := buildFuzzKernel(t, fuzzbytes.New(data))
		_, err := Run(m, "k", args, Options{MaxSteps: 10000, CheckRaces: i%2 == 1})
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("%v\n%s", err, m)
		}
		if err == nil || !strings.Contains(fmt.Sprintf("%T", err), "List") {
			verified++
		} else if testing.Verbose() {
			t.Logf("rejected: %v", err)
		}
	}
	if verified < 250 {
		t.Fatalf("only %d of 300 generated kernels passed the verifier", verified)
	}
}
