// Package promote_test checks the promote-types pass against the reference
// executor: random kernels, written as OTIR text (element-wise operations on
// 16-element tiles of integers of 1 to 100 bits, bool and floats, with result
// types inferred by the parser or written explicitly), run on random inputs
// before and after the pass must write the same outputs, or fail alike.
// The golden tests beside this file show the rewrites themselves.
package promote_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/exec"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/parse"
	"github.com/otir-dev/otir/passes"
	"github.com/otir-dev/otir/passes/promote"
	"github.com/otir-dev/otir/passes/verify"
	"github.com/otir-dev/otir/typing"
)

const lanes = 8

var (
	intTypes = []string{"i1", "i2", "u2", "i3", "u3", "i4", "u4", "i5", "u6", "i7", "i8", "u8", "i9",
		"i12", "u12", "i16", "u16", "i31", "u31", "i32", "u32", "i33", "i64", "u64", "i70", "u100"}
	floatTypes = []string{"f16", "bf16", "f32", "f64"}
	binaryOps  = []string{"add", "add", "add", "add", "sub", "sub", "sub", "mul", "mul", "mul", "and", "or",
		"xor", "max", "min", "div_s", "div_u", "rem_s", "rem_u", "shl", "shr_s", "shr_u"}
	unaryOps = []string{"neg", "not", "abs", "exp", "log", "sqrt"}
	preds    = []string{"eq", "ne", "slt", "sle", "sgt", "uge", "ult", "olt", "oge"}
)

func tile(elem ir.Type, space string) string {
	return fmt.Sprintf("!otir.tile<%dx%s, %s>", lanes, elem, space)
}

// program is a random kernel in text form.
type program struct {
	text   string
	inputs []ir.Type // element types of the #global inputs, then the outputs
	nIn    int
}

func randProgram(rng *rand.Rand, style string, floats bool) program {
	var elems []ir.Type // element type of each %vN
	var body []string
	used := map[int]bool{}
	nIn := 2 + rng.IntN(3)
	for i := 0; i < nIn; i++ {
		name := intTypes[rng.IntN(len(intTypes))]
		if floats && rng.IntN(3) == 0 {
			name = floatTypes[rng.IntN(len(floatTypes))]
		}
		t, _ := ir.ParseType(name)
		body = append(body, fmt.Sprintf("%%v%d = otir.load %%g%d : %s -> %s", i, i, tile(t, "#global"), tile(t, "#private")))
		elems = append(elems, t)
	}
	pick := func() int {
		if rng.IntN(10) < 6 {
			return max(0, len(elems)-1-rng.IntN(3))
		}
		return rng.IntN(len(elems))
	}
	want := nIn + 3 + rng.IntN(8)
	for tries := 0; len(elems) < want && tries < 200; tries++ {
		a, b := pick(), pick()
		ta, tb := elems[a], elems[b]
		pa, pb := ir.Tile([]int64{lanes}, ta, ir.Private), ir.Tile([]int64{lanes}, tb, ir.Private)
		var line string
		var res ir.Type
		hasFloat := isFloat(ta) || isFloat(tb)
		switch r := rng.IntN(20); {
		case r < 3:
			op := unaryOps[rng.IntN(len(unaryOps))]
			if op == "not" && isFloat(ta) {
				continue
			}
			rt, err := typing.InferResult(style, "otir."+op, []ir.Type{pa})
			if err != nil {
				continue
			}
			res = ir.ElementType(rt)
			if special := op == "exp" || op == "log" || op == "sqrt"; rng.IntN(2) == 0 {
				res = randElem(rng, floats)
				if special != isFloat(res) && (special || isFloat(ta)) {
					continue // the verifier wants special functions to yield floats
				}
				line = fmt.Sprintf("otir.%s %%v%d : (%s) -> %s", op, a, pa, tile(res, "#private"))
			} else {
				line = fmt.Sprintf("otir.%s %%v%d : (%s) -> %s", op, a, pa, rt)
			}
		case r < 6:
			pred := preds[rng.IntN(len(preds))]
			// The verifier wants o* on floats, s*/u* on integers.
			if pred[0] == 'o' && !(isFloat(ta) && isFloat(tb)) || hasFloat && (pred[0] == 's' || pred[0] == 'u') {
				continue
			}
			if _, err := typing.InferCmp(style, "otir.cmp", pred, []ir.Type{pa, pb}); err != nil {
				continue
			}
			res = ir.Bool()
			line = fmt.Sprintf("otir.cmp kind(%s) %%v%d, %%v%d : (%s, %s) -> %s", pred, a, b, pa, pb, tile(res, "#private"))
		default:
			op := binaryOps[rng.IntN(len(binaryOps))]
			if strings.HasPrefix(op, "sh") && signed(tb) && rng.IntN(4) != 0 {
				continue // mostly shift by unsigned amounts: a negative one is an error
			}
			if hasFloat && (strings.Contains(op, "_") || op == "and" || op == "or" || op == "xor" || op == "shl") {
				continue
			}
			rt, err := typing.InferResult(style, "otir."+op, []ir.Type{pa, pb})
			if err != nil {
				continue
			}
			if rng.IntN(2) == 0 {
				res = ir.ElementType(rt)
				line = fmt.Sprintf("otir.%s %%v%d, %%v%d : %s, %s", op, a, b, pa, pb) // inferred by the parser
			} else {
				res = randElem(rng, floats)
				if isFloat(res) && strings.Contains(op, "sh") {
					continue
				}
				line = fmt.Sprintf("otir.%s %%v%d, %%v%d : (%s, %s) -> %s", op, a, b, pa, pb, tile(res, "#private"))
			}
			used[b] = true
		}
		used[a] = true
		body = append(body, fmt.Sprintf("%%v%d = %s", len(elems), line))
		elems = append(elems, res)
	}
	p := program{nIn: nIn}
	var params []string
	for i := 0; i < nIn; i++ {
		params = append(params, fmt.Sprintf("%%g%d: %s", i, tile(elems[i], "#global")))
		p.inputs = append(p.inputs, elems[i])
	}
	nOut := 0
	for i := nIn; i < len(elems); i++ {
		if used[i] {
			continue
		}
		params = append(params, fmt.Sprintf("%%o%d: %s", nOut, tile(elems[i], "#global")))
		body = append(body, fmt.Sprintf("otir.store %%v%d, %%o%d : %s, %s", i, nOut, tile(elems[i], "#private"), tile(elems[i], "#global")))
		p.inputs = append(p.inputs, elems[i])
		nOut++
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "module attributes {otir.typing_style = %q} {\n", style)
	fmt.Fprintf(&sb, "  otir.kernel @k(%s) {\n", strings.Join(params, ", "))
	for _, l := range body {
		sb.WriteString("    " + l + "\n")
	}
	sb.WriteString("    otir.return\n  }\n}\n")
	p.text = sb.String()
	return p
}

func randElem(rng *rand.Rand, floats bool) ir.Type {
	name := intTypes[rng.IntN(len(intTypes))]
	if floats && rng.IntN(4) == 0 {
		name = floatTypes[rng.IntN(len(floatTypes))]
	}
	t, _ := ir.ParseType(name)
	return t
}

func signed(t ir.Type) bool {
	it, ok := t.(*ir.IntType)
	return ok && it.Signed
}

func isFloat(t ir.Type) bool {
	_, ok := t.(*ir.FloatType)
	return ok
}

// randBuffer fills an input: integers anywhere in range (often at the ends),
// floats m * 2^e with |m| < 256 (exact in every format, bf16 included).
// Small values are 1 and 2 rather than 0, so that fewer runs divide by zero.
func randBuffer(rng *rand.Rand, elem ir.Type) *exec.Buffer {
	b := exec.NewBuffer(elem, lanes)
	for i := 0; i < lanes; i++ {
		if isFloat(elem) {
			b.Floats[i] = math.Ldexp(float64(rng.IntN(511)-255), rng.IntN(16)-8)
			continue
		}
		w := elem.(*ir.IntType).Width
		signed := elem.(*ir.IntType).Signed
		span := new(big.Int).Lsh(big.NewInt(1), uint(w))
		v := new(big.Int)
		for j := 0; j <= w/64; j++ {
			v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(rng.Uint64()))
		}
		v.Mod(v, span)
		switch rng.IntN(6) {
		case 0:
			v.Sub(span, big.NewInt(1)) // all ones: -1 or the maximum
		case 1:
			v.SetInt64(int64(1 + rng.IntN(2))) // 1, 2
			v.Mod(v, span)
		}
		if signed && v.Bit(w-1) == 1 {
			v.Sub(v, span)
		}
		if err := b.SetInt(i, v); err != nil {
			panic(err)
		}
	}
	return b
}

func same(a, b *exec.Buffer) bool {
	for i := 0; i < lanes; i++ {
		if a.IsFloat() {
			x, y := a.Floats[i], b.Floats[i]
			if math.Float64bits(x) != math.Float64bits(y) && !(math.IsNaN(x) && math.IsNaN(y)) {
				return false
			}
		} else if a.BigAt(i).Cmp(b.BigAt(i)) != 0 {
			return false
		}
	}
	return true
}

func TestPromoteKeepsExecutorResults(t *testing.T) {
	spec, err := passes.Spec(promote.PassName, nil)
	if err != nil {
		t.Fatal(err)
	}
	runs, failedBoth, outputs, invalid := 0, 0, 0, 0
	for _, style := range []string{"hls", "cpp"} {
		for _, floats := range []bool{false, true} {
			for seed := uint64(1); seed <= 100; seed++ {
				name := fmt.Sprintf("%s/floats=%v/seed=%d", style, floats, seed)
				rng := rand.New(rand.NewPCG(seed, 4242))
				p := randProgram(rng, style, floats)
				before, err := parse.Parse(name, []byte(p.text), parse.Options{})
				if err != nil {
					t.Fatalf("%s: %v\n%s", name, err, p.text)
				}
				if l := verify.Verify(before); l.HasErrors() {
					invalid++ // the generator does not know every verifier rule
					t.Logf("%s: skipped: %v", name, l[0])
					continue
				}
				after, _ := parse.Parse(name, []byte(p.text), parse.Options{})
				pass, err := spec.Build(passes.NewContext())
				if err != nil {
					t.Fatal(err)
				}
				if err := pass.Run(after); err != nil {
					t.Fatalf("%s: %v\n%s", name, err, p.text)
				}
				for n := 0; n < 4; n++ {
					args := make([]*exec.Buffer, len(p.inputs))
					for i, e := range p.inputs {
						if i < p.nIn {
							args[i] = randBuffer(rng, e)
						} else {
							args[i] = exec.NewBuffer(e, lanes)
						}
					}
					r1, err1 := exec.Run(before, "k", args, exec.Options{})
					r2, err2 := exec.Run(after, "k", args, exec.Options{})
					runs++
					if (err1 == nil) != (err2 == nil) {
						t.Fatalf("%s: before: %v; after: %v\n%s\nafter the pass:\n%s", name, err1, err2, p.text, after)
					}
					if err1 != nil {
						if testing.Verbose() {
							t.Logf("%s: both fail: %v", name, err1)
						}
						failedBoth++
						continue
					}
					for i := p.nIn; i < len(p.inputs); i++ {
						outputs++
						if !same(r1.Args[i], r2.Args[i]) {
							t.Fatalf("%s: output %d differs: %v, then %v\ninputs %v\n%s\nafter the pass:\n%s",
								name, i-p.nIn, r1.Args[i], r2.Args[i], args[:p.nIn], p.text, after)
						}
					}
				}
			}
		}
	}
	t.Logf("%d runs (%d failing alike), %d outputs of %d lanes compared", runs, failedBoth, outputs, lanes)
	if invalid > 20 {
		t.Errorf("%d random programs were invalid", invalid)
	}
	if failedBoth*2 > runs {
		t.Errorf("too many runs fail (%d of %d): the test checks too little", failedBoth, runs)
	}
}
