package nncircuit_test

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/pipelines/nncircuit/circuittest"
)

// The differential test: random quantized graphs (MLPs and CNNs with random
// widths and scales; linear, conv2d, requantize, relu, add, sub, max, min,
// mul, abs, the function kinds, max_pool2d, avg_pool2d, reduce_sum, reduce_mean, the
// shape kinds, const, matmul) through nn-to-circuit, whose ALIR programs
// must give, on random real inputs (in range, between grid points and
// wrapping), bit for bit what refModel computes (the quantized-graph
// contract evaluated on exact rationals, math/big, independently of the
// lowering's integers and scales) and what the quantized evaluator
// (backend/nneval) computes.

// gtensor is a value of a generated graph: its SSA name, shape and
// quantized type (nil: f64, exact).
type gtensor struct {
	name  string
	shape []int64
	q     *quant.UniformType
}

func (t gtensor) typ() string {
	var sb strings.Builder
	sb.WriteString("tensor<")
	for _, d := range t.shape {
		fmt.Fprintf(&sb, "%dx", d)
	}
	if t.q != nil {
		sb.WriteString(t.q.String())
	} else {
		sb.WriteString("f64")
	}
	return sb.String() + ">"
}

// functionKinds are the nn kinds that become lookup tables.
var functionKinds = []string{"exp", "log", "tanh", "sigmoid", "sqrt", "inv", "sin", "cos"}

// node is one generated node for the reference model.
type node struct {
	kind  string
	ins   []int // operand tensors
	out   int
	param string
	attrs map[string]int64
}

// graphGen builds a random graph, its payload and its reference model.
type graphGen struct {
	rng     *rand.Rand
	ts      []gtensor
	nodes   []node
	lines   []string
	payload map[string]*tensor.Tensor
	// ptypes are the parameter types (weight_type, bias_type, a const's
	// quantized type) of payload entries: their values are rounded.
	ptypes map[string]*quant.UniformType
}

func (g *graphGen) quantType() *quant.UniformType {
	signed := g.rng.IntN(3) != 0
	w := 3 + g.rng.IntN(7)
	if !signed {
		w = 2 + g.rng.IntN(7)
	}
	return quant.Uniform(w, signed, g.rng.IntN(7)-1)
}

// result is a random result type: quantized or, sometimes, exact.
func (g *graphGen) result(exact bool) *quant.UniformType {
	if exact && g.rng.IntN(2) == 0 {
		return nil
	}
	return g.quantType()
}

func (g *graphGen) add(kind string, ins []int, shape []int64, q *quant.UniformType, param string, attrs map[string]int64, attrText string) int {
	out := len(g.ts)
	t := gtensor{name: fmt.Sprintf("%%v%d", out), shape: shape, q: q}
	g.ts = append(g.ts, t)
	var names, types []string
	for _, i := range ins {
		names = append(names, g.ts[i].name)
		types = append(types, g.ts[i].typ())
	}
	a := attrText
	if param != "" {
		a = strings.TrimSuffix(fmt.Sprintf("{params = %q, %s", param, strings.TrimPrefix(attrText, "{")), ", ")
		if attrText == "" {
			a = fmt.Sprintf("{params = %q}", param)
		}
	}
	g.lines = append(g.lines, fmt.Sprintf("  %s = nn.%s %s %s : (%s) -> %s", t.name, kind, strings.Join(names, ", "), a, strings.Join(types, ", "), t.typ()))
	g.nodes = append(g.nodes, node{kind: kind, ins: ins, out: out, param: param, attrs: attrs})
	return out
}

// weights draws small dyadic parameters: integers in [-7, 7] / 2^f.
func (g *graphGen) weights(key string, shape []int64) {
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	f := g.rng.IntN(5)
	t := tensor.New(shape)
	for i := range t.Data {
		t.Data[i] = math.Ldexp(float64(g.rng.IntN(15)-7), -f)
	}
	g.payload[key] = t
}

func (g *graphGen) linear(x int, out int64, q *quant.UniformType) int {
	key := fmt.Sprintf("fc%d", len(g.nodes))
	in := g.ts[x].shape[len(g.ts[x].shape)-1]
	g.weights(key+".weight", []int64{out, in})
	g.weights(key+".bias", []int64{out})
	shape := append(append([]int64{}, g.ts[x].shape[:len(g.ts[x].shape)-1]...), out)
	return g.add("linear", []int{x}, shape, q, key, nil, g.paramTypes(key, ""))
}

// paramTypes, for one parameterized node in three, draws float parameters
// off every grid (payload key.weight, key.bias) and types to round them to
// (the bias one time in two; else it stays on its grid, exact), and returns the attribute text with them
// added to attrs ("{...}" or "").
func (g *graphGen) paramTypes(key, attrs string) string {
	if g.rng.IntN(3) != 0 {
		return attrs
	}
	var list []string
	for _, role := range []string{"weight", "bias"} {
		if role == "bias" && g.rng.IntN(2) == 0 {
			continue // an exact bias, on a grid
		}
		t := g.payload[key+"."+role]
		for i := range t.Data {
			t.Data[i] = (g.rng.Float64()*2 - 1) * math.Ldexp(1, g.rng.IntN(3)) // saturates some types
		}
		q := quant.Uniform(3+g.rng.IntN(6), true, g.rng.IntN(6))
		g.ptypes[key+"."+role] = q
		list = append(list, fmt.Sprintf("%s_type = %s", role, q))
	}
	if attrs != "" {
		list = append(list, strings.TrimSuffix(strings.TrimPrefix(attrs, "{"), "}"))
	}
	return "{" + strings.Join(list, ", ") + "}"
}

// param is element i of payload entry key, exactly: rounded to its
// parameter type when it has one.
func (g *graphGen) param(key string, i int) *big.Rat {
	f := g.payload[key].Data[i]
	if q := g.ptypes[key]; q != nil {
		return roundRat(q, f)
	}
	return rat(f)
}

// roundRat is f rounded to q's grid, to nearest with ties to even, and
// saturated at q's bounds (in rationals, independently of quant.Round).
func roundRat(q *quant.UniformType, f float64) *big.Rat {
	s := new(big.Rat).Mul(rat(f), pow2(q.Frac))
	fl := new(big.Int).Div(s.Num(), s.Denom()) // floor
	rem := new(big.Rat).Sub(s, new(big.Rat).SetInt(fl))
	if c := rem.Cmp(big.NewRat(1, 2)); c > 0 || c == 0 && fl.Bit(0) == 1 {
		fl.Add(fl, big.NewInt(1))
	}
	if fl.Cmp(big.NewInt(q.QMax())) > 0 {
		fl.SetInt64(q.QMax())
	}
	if fl.Cmp(big.NewInt(q.QMin())) < 0 {
		fl.SetInt64(q.QMin())
	}
	return ratQ(q, fl.Int64())
}

// maybeRequantize, one time in two, requantizes x to a random type by a
// random rounding mode, saturating or wrapping.
func (g *graphGen) maybeRequantize(x int) int {
	if g.rng.IntN(2) == 0 {
		return x
	}
	mode, wrap := g.rng.IntN(len(nn.RoundingModes)), g.rng.IntN(3) == 0
	overflow := map[bool]string{false: "saturate", true: "wrap"}[wrap]
	attrs := map[string]int64{"mode": int64(mode)}
	if wrap {
		attrs["wrap"] = 1
	}
	text := fmt.Sprintf("{overflow = %q, rounding = %q}", overflow, nn.RoundingModes[mode])
	return g.add("requantize", []int{x}, g.ts[x].shape, g.quantType(), "", attrs, text)
}

// requantRat is nn.requantize of an exact value, by the definitions of
// QONNX's rounding modes: s = v·2^F becomes ⌊s⌋ or ⌊s⌋ + 1, then is
// clamped to q's range or wrapped to its width.
func requantRat(q *quant.UniformType, mode string, wrap bool, v *big.Rat) *big.Rat {
	s := new(big.Rat).Mul(v, pow2(q.Frac))
	n := new(big.Int).Div(s.Num(), s.Denom()) // floor
	f := new(big.Rat).Sub(s, new(big.Rat).SetInt(n))
	half, neg := f.Cmp(big.NewRat(1, 2)), s.Sign() < 0
	up := false
	if f.Sign() != 0 {
		switch mode {
		case "CEIL":
			up = true
		case "UP":
			up = !neg
		case "DOWN":
			up = neg
		case "ROUND":
			up = half > 0 || half == 0 && n.Bit(0) == 1
		case "HALF_UP":
			up = half > 0 || half == 0 && !neg
		case "HALF_DOWN":
			up = half > 0 || half == 0 && neg
		}
	}
	if up {
		n.Add(n, big.NewInt(1))
	}
	if wrap {
		return quantizeRat(q, new(big.Rat).Mul(new(big.Rat).SetInt(n), pow2(-q.Frac)))
	}
	if n.Cmp(big.NewInt(q.QMax())) > 0 {
		n.SetInt64(q.QMax())
	}
	if n.Cmp(big.NewInt(q.QMin())) < 0 {
		n.SetInt64(q.QMin())
	}
	return ratQ(q, n.Int64())
}

// mlp: linear layers with relu, an element-wise join of two branches, and
// a reduction at the end.
func (g *graphGen) mlp() {
	n := int64(2 + g.rng.IntN(6))
	x := 0
	g.ts = append(g.ts, gtensor{name: "%x", shape: []int64{n}, q: g.quantType()})
	for range 1 + g.rng.IntN(3) {
		m := int64(2 + g.rng.IntN(6))
		h := g.maybeRequantize(g.linear(x, m, g.result(true)))
		x = g.add("relu", []int{h}, []int64{m}, g.quantType(), "", nil, "")
		if g.rng.IntN(3) == 0 { // a function of a quantized value: a lookup table
			fn := functionKinds[g.rng.IntN(len(functionKinds))]
			x = g.add(fn, []int{x}, []int64{m}, g.quantType(), "", nil, "")
		}
	}
	m := int64(2 + g.rng.IntN(4))
	a := g.linear(x, m, g.result(true))
	b := g.linear(x, m, g.result(true))
	kind := []string{"add", "sub", "max", "min", "mul"}[g.rng.IntN(5)]
	y := g.add(kind, []int{a, b}, []int64{m}, g.quantType(), "", nil, "")
	if g.rng.IntN(2) == 0 {
		y = g.add("abs", []int{y}, []int64{m}, g.result(true), "", nil, "")
	}
	switch g.rng.IntN(3) {
	case 0:
		g.add("reduce_sum", []int{y}, []int64{}, g.result(true), "", map[string]int64{"axis": 0}, "{axis = 0}")
	case 1:
		g.add("reduce_mean", []int{y}, []int64{}, g.quantType(), "", map[string]int64{"axis": 0}, "{axis = 0}")
	}
}

// cnn: conv2d, relu, a pool, flatten, linear; sometimes over a batch of
// two samples, and with padded windows.
func (g *graphGen) cnn() {
	c, h, w := int64(1+g.rng.IntN(2)), int64(4+g.rng.IntN(3)), int64(4+g.rng.IntN(3))
	var batch []int64
	if g.rng.IntN(3) == 0 {
		batch = []int64{2}
	}
	shape := func(s ...int64) []int64 { return append(append([]int64{}, batch...), s...) }
	g.ts = append(g.ts, gtensor{name: "%x", shape: shape(c, h, w), q: g.quantType()})
	k, s, p := int64(2+g.rng.IntN(2)), int64(1+g.rng.IntN(2)), int64(g.rng.IntN(2))
	oc := int64(1 + g.rng.IntN(3))
	oh, ow := (h+2*p-k)/s+1, (w+2*p-k)/s+1
	key := fmt.Sprintf("conv%d", len(g.nodes))
	g.weights(key+".weight", []int64{oc, c, k, k})
	g.weights(key+".bias", []int64{oc})
	attrs := map[string]int64{"k": k, "stride": s, "padding": p}
	y := g.add("conv2d", []int{0}, shape(oc, oh, ow), g.result(true), key, attrs, g.paramTypes(key, fmt.Sprintf("{kernel = [%d, %d], padding = %d, stride = %d}", k, k, p, s)))
	y = g.add("relu", []int{g.maybeRequantize(y)}, shape(oc, oh, ow), g.quantType(), "", nil, "")
	ph, pw := oh, ow
	if pk, ps, pp := int64(2), int64(1+g.rng.IntN(2)), int64(g.rng.IntN(2)); oh >= pk && ow >= pk {
		ph, pw = (oh+2*pp-pk)/ps+1, (ow+2*pp-pk)/ps+1
		pa := map[string]int64{"k": pk, "stride": ps, "padding": pp}
		pt := fmt.Sprintf("{kernel = [%d, %d], padding = %d, stride = %d}", pk, pk, pp, ps)
		if g.rng.IntN(2) == 0 {
			y = g.add("max_pool2d", []int{y}, shape(oc, ph, pw), g.result(true), "", pa, pt)
		} else {
			y = g.add("avg_pool2d", []int{y}, shape(oc, ph, pw), g.result(true), "", pa, pt) // count 4: exact allowed
		}
	}
	if batch != nil {
		y = g.add("reshape", []int{y}, []int64{2, oc * ph * pw}, g.ts[y].q, "", nil, "")
	} else {
		y = g.add("flatten", []int{y}, []int64{oc * ph * pw}, g.ts[y].q, "", nil, "")
	}
	g.linear(y, int64(1+g.rng.IntN(3)), g.result(true))
}

// shapes: a constant, concat, permute, a product of two tensors, a batched
// linear, swap_first_two, reshape, broadcast_to, transpose3d_last_two and
// sum.
func (g *graphGen) shapes() {
	a, b := int64(2+g.rng.IntN(2)), int64(2+g.rng.IntN(2))
	g.ts = append(g.ts, gtensor{name: "%x", shape: []int64{a, b}, q: g.quantType()})
	g.weights("c", []int64{a, b})
	cq := g.result(true)
	if cq != nil { // a quantized constant: float values, rounded to its type
		for i := range g.payload["c"].Data {
			g.payload["c"].Data[i] = (g.rng.Float64()*2 - 1) * 4
		}
		g.ptypes["c"] = cq
	}
	c := g.add("const", nil, []int64{a, b}, cq, "c", nil, "")
	y := g.add("add", []int{0, c}, []int64{a, b}, g.result(true), "", nil, "")
	axis := int64(g.rng.IntN(2))
	zs := []int64{a, b}
	zs[axis] *= 2
	z := g.add("concat", []int{0, y}, zs, g.result(true), "", map[string]int64{"axis": axis}, fmt.Sprintf("{axis = %d}", axis))
	pz := g.add("permute", []int{z}, []int64{zs[1], zs[0]}, g.ts[z].q, "", nil, "{perm = [1, 0]}")
	m := g.add("matmul", []int{pz, z}, []int64{zs[1], zs[1]}, g.quantType(), "", nil, "")
	k := int64(1 + g.rng.IntN(3))
	lin := g.linear(m, k, g.quantType())
	sw := g.add("swap_first_two", []int{lin}, []int64{k, zs[1]}, g.ts[lin].q, "", nil, "")
	n := k * zs[1]
	r := g.add("reshape", []int{sw}, []int64{n}, g.ts[sw].q, "", nil, "")
	bc := g.add("broadcast_to", []int{r}, []int64{2, n}, g.ts[r].q, "", nil, "")
	r3 := g.add("reshape", []int{bc}, []int64{2, k, zs[1]}, g.ts[r].q, "", nil, "")
	t3 := g.add("transpose3d_last_two", []int{r3}, []int64{2, zs[1], k}, g.ts[r].q, "", nil, "")
	g.add("sum", []int{t3}, []int64{}, g.result(true), "", nil, "")
}

func (g *graphGen) text() string {
	x, y := g.ts[0], g.ts[len(g.ts)-1]
	return fmt.Sprintf("nn.graph @g(%s: %s) -> %s {\n%s\n  nn.return %s : %s\n}\n", x.name, x.typ(), y.typ(), strings.Join(g.lines, "\n"), y.name, y.typ())
}

// refModel evaluates the graph on one input sample, exactly.
func (g *graphGen) refModel(in []float64) []float64 {
	vals := make([][]*big.Rat, len(g.ts))
	x := g.ts[0]
	vals[0] = make([]*big.Rat, len(in))
	for i, v := range in {
		vals[0][i] = ratQ(x.q, x.q.Quantize(v))
	}
	for _, n := range g.nodes {
		var v []*big.Rat
		var a []*big.Rat
		if len(n.ins) > 0 {
			a = vals[n.ins[0]]
		}
		switch n.kind {
		case "const":
			for i := range g.payload[n.param].Data {
				v = append(v, g.param(n.param, i))
			}
		case "concat", "permute", "swap_first_two", "transpose3d_last_two", "broadcast_to":
			v = g.gather(n, vals)
		case "matmul":
			v = g.matmul(n, vals)
		case "sum":
			s := new(big.Rat)
			for _, e := range a {
				s.Add(s, e)
			}
			v = []*big.Rat{s}
		case "linear":
			w := g.payload[n.param+".weight"]
			out, in := int(w.Shape[0]), int(w.Shape[1])
			for row := 0; row < len(a); row += in {
				for o := range out {
					s := g.param(n.param+".bias", o)
					for i := range in {
						s.Add(s, new(big.Rat).Mul(g.param(n.param+".weight", o*in+i), a[row+i]))
					}
					v = append(v, s)
				}
			}
		case "conv2d":
			v = g.conv(n, a)
		case "max_pool2d", "avg_pool2d":
			v = g.pool(n, a)
		case "relu":
			for _, e := range a {
				v = append(v, maxRat(e, new(big.Rat)))
			}
		case "abs":
			for _, e := range a {
				v = append(v, new(big.Rat).Abs(e))
			}
		case "add", "sub", "max", "min", "mul":
			b := vals[n.ins[1]]
			for i := range a {
				r := new(big.Rat)
				switch n.kind {
				case "add":
					r.Add(a[i], b[i])
				case "sub":
					r.Sub(a[i], b[i])
				case "mul":
					r.Mul(a[i], b[i])
				case "max":
					r.Set(maxRat(a[i], b[i]))
				case "min":
					r.Set(a[i])
					if b[i].Cmp(a[i]) < 0 {
						r.Set(b[i])
					}
				}
				v = append(v, r)
			}
		case "reduce_sum", "reduce_mean":
			s := new(big.Rat)
			for _, e := range a {
				s.Add(s, e)
			}
			if n.kind == "reduce_mean" {
				s.Quo(s, big.NewRat(int64(len(a)), 1))
			}
			v = []*big.Rat{s}
		case "flatten", "reshape":
			v = a
		case "requantize":
			q := g.ts[n.out].q
			for _, e := range a {
				v = append(v, requantRat(q, nn.RoundingModes[n.attrs["mode"]], n.attrs["wrap"] == 1, e))
			}
		case "exp", "log", "tanh", "sigmoid", "sqrt", "inv", "sin", "cos":
			// The contract: out.Quantize(f(value)) of the operand's exact
			// (quantized, so float64-exact) value.
			f, _ := nneval.UnaryFunc("nn." + n.kind)
			in, out := g.ts[n.ins[0]].q, g.ts[n.out].q
			for _, e := range a {
				x, _ := e.Float64()
				v = append(v, ratQ(out, out.Quantize(f(x))))
			}
			_ = in
		default:
			panic(n.kind)
		}
		if q := g.ts[n.out].q; q != nil {
			for i, e := range v {
				v[i] = quantizeRat(q, e)
			}
		}
		vals[n.out] = v
	}
	var out []float64
	for _, e := range vals[len(g.ts)-1] {
		f, _ := e.Float64()
		out = append(out, f)
	}
	return out
}

// gather computes the shape kinds element by element: out[i] = in[src(i)].
func (g *graphGen) gather(n node, vals [][]*big.Rat) []*big.Rat {
	in, out := g.ts[n.ins[0]].shape, g.ts[n.out].shape
	x := vals[n.ins[0]]
	var v []*big.Rat
	idx := make([]int64, len(out))
	total := int64(1)
	for _, d := range out {
		total *= d
	}
	for flat := range total {
		r := flat
		for d := len(out) - 1; d >= 0; d-- {
			idx[d] = r % out[d]
			r /= out[d]
		}
		src := append([]int64{}, idx...)
		from := x
		switch n.kind {
		case "permute", "swap_first_two":
			src[0], src[1] = idx[1], idx[0]
		case "transpose3d_last_two":
			src[1], src[2] = idx[2], idx[1]
		case "broadcast_to":
			src = src[len(out)-len(in):]
			for d := range in {
				if in[d] == 1 {
					src[d] = 0
				}
			}
		case "concat":
			axis := n.attrs["axis"]
			if src[axis] >= in[axis] {
				src[axis] -= in[axis]
				from = vals[n.ins[1]]
			}
		}
		off := int64(0)
		for d, i := range src {
			off = off*in[d] + i
		}
		v = append(v, from[off])
	}
	return v
}

// matmul is [m,n]·[n,p].
func (g *graphGen) matmul(n node, vals [][]*big.Rat) []*big.Rat {
	a, b := vals[n.ins[0]], vals[n.ins[1]]
	sa, sb := g.ts[n.ins[0]].shape, g.ts[n.ins[1]].shape
	var v []*big.Rat
	for i := range sa[0] {
		for j := range sb[1] {
			s := new(big.Rat)
			for k := range sa[1] {
				s.Add(s, new(big.Rat).Mul(a[i*sa[1]+k], b[k*sb[1]+j]))
			}
			v = append(v, s)
		}
	}
	return v
}

// window is the geometry of a conv2d or pool node: batch, channels,
// input and output planes, kernel, stride, padding.
func (g *graphGen) window(n node) (batch, c, h, w, oh, ow, k, s, p int64) {
	in, out := g.ts[n.ins[0]].shape, g.ts[n.out].shape
	r := len(in)
	batch = 1
	if r == 4 {
		batch = in[0]
	}
	return batch, in[r-3], in[r-2], in[r-1], out[r-2], out[r-1], n.attrs["k"], n.attrs["stride"], n.attrs["padding"]
}

func (g *graphGen) conv(n node, x []*big.Rat) []*big.Rat {
	batch, c, h, w, oh, ow, k, s, p := g.window(n)
	out := g.ts[n.out].shape
	oc := out[len(out)-3]
	var v []*big.Rat
	for bt := range batch {
		xs := x[bt*c*h*w:]
		for o := range oc {
			for i := range oh {
				for j := range ow {
					acc := g.param(n.param+".bias", int(o))
					for ci := range c {
						for di := range k {
							for dj := range k {
								hi, wj := i*s+di-p, j*s+dj-p
								if hi < 0 || hi >= h || wj < 0 || wj >= w {
									continue
								}
								acc.Add(acc, new(big.Rat).Mul(xs[(ci*h+hi)*w+wj], g.param(n.param+".weight", int(((o*c+ci)*k+di)*k+dj))))
							}
						}
					}
					v = append(v, acc)
				}
			}
		}
	}
	return v
}

// pool: max ignores the padding, avg counts it as zeros and divides by k².
func (g *graphGen) pool(n node, x []*big.Rat) []*big.Rat {
	batch, c, h, w, oh, ow, k, s, p := g.window(n)
	var v []*big.Rat
	for pl := range batch * c {
		xs := x[pl*h*w:]
		for i := range oh {
			for j := range ow {
				var acc *big.Rat
				if n.kind == "avg_pool2d" {
					acc = new(big.Rat)
				}
				for di := range k {
					for dj := range k {
						hi, wj := i*s+di-p, j*s+dj-p
						if hi < 0 || hi >= h || wj < 0 || wj >= w {
							continue
						}
						e := xs[hi*w+wj]
						switch {
						case acc == nil:
							acc = new(big.Rat).Set(e)
						case n.kind == "max_pool2d":
							acc = maxRat(acc, e)
						default:
							acc = new(big.Rat).Add(acc, e)
						}
					}
				}
				if n.kind == "avg_pool2d" {
					acc.Quo(acc, big.NewRat(k*k, 1))
				}
				v = append(v, acc)
			}
		}
	}
	return v
}

func rat(f float64) *big.Rat { return new(big.Rat).SetFloat64(f) }

func ratQ(q *quant.UniformType, v int64) *big.Rat {
	r := new(big.Rat).SetInt64(v)
	return r.Mul(r, pow2(-q.Frac))
}

// pow2 is 2^e as a rational.
func pow2(e int) *big.Rat {
	if e >= 0 {
		return new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(e)))
	}
	return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(-e)))
}

// quantizeRat is Quantize on an exact value: floor(v*2^F), wrapped.
func quantizeRat(q *quant.UniformType, v *big.Rat) *big.Rat {
	s := new(big.Rat).Mul(v, pow2(q.Frac))
	fl := new(big.Int).Div(s.Num(), s.Denom()) // Euclidean: floor for a positive denominator
	m := new(big.Int).Lsh(big.NewInt(1), uint(q.Width))
	fl.Mod(fl, m)
	if q.Signed && fl.Cmp(new(big.Int).Rsh(m, 1)) >= 0 {
		fl.Sub(fl, m)
	}
	return ratQ(q, fl.Int64())
}

func maxRat(a, b *big.Rat) *big.Rat {
	if a.Cmp(b) >= 0 {
		return new(big.Rat).Set(a)
	}
	return new(big.Rat).Set(b)
}

// randomInputs draws samples of real inputs: most on the input type's grid
// and range, some between grid points, some beyond the range (they wrap).
func randomInputs(rng *rand.Rand, q *quant.UniformType, n, rows int) []float64 {
	in := make([]float64, n*rows)
	for i := range in {
		span := float64(q.QMax()-q.QMin()) + 1
		v := float64(q.QMin()) + math.Floor(rng.Float64()*span)
		switch rng.IntN(4) {
		case 0:
			v += rng.Float64() // between grid points: floors
		case 1:
			v += (rng.Float64() - 0.5) * 4 * span // wraps
		}
		in[i] = math.Ldexp(v, -q.Frac)
	}
	return in
}

// runReference runs a program in alkaid's ALIR spec 4 interpreter (the
// reference tools' alir_v4_run) on rows of inputs.
func runReference(t testing.TB, bin string, p *alir.Program, in []float64) []float64 {
	t.Helper()
	file := filepath.Join(t.TempDir(), "m.json")
	if err := alir.WriteFile(file, p, alir.FormatJSONV4); err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := alir.WriteRows(&text, in, p.NumInputs()); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, file, "-")
	cmd.Stdin = &text
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v: %s", bin, err, stderr.String())
	}
	got, _, _, err := alir.ReadRows(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestRandomGraphsMatchModel runs the generated graphs; with
// OTIR_REFERENCE_BIN set (the reference tools' bin folder) each program
// also runs in alkaid's ALIR spec 4 interpreter, which must agree:
//
//	OTIR_REFERENCE_BIN=/work/ref/bin go test ./lower/nn/kernels -run RandomGraphs
func TestRandomGraphsMatchModel(t *testing.T) {
	graphs := 60
	if testing.Short() {
		graphs = 15
	}
	nonzero, total := 0, 0
	defer func() {
		// The outputs are not trivially zero (wrapped and floored to
		// nothing): most graphs compute something.
		if total > 0 && nonzero*4 < total {
			t.Errorf("only %d of %d outputs are non-zero", nonzero, total)
		}
		t.Logf("%d of %d outputs non-zero", nonzero, total)
	}()
	for seed := range graphs {
		kind, _ := graphKind(uint64(seed))
		t.Run(fmt.Sprintf("%s%d", kind, seed), func(t *testing.T) {
			nz, n := checkRandomGraph(t, uint64(seed), 200)
			nonzero, total = nonzero+nz, total+n
		})
	}
}

// FuzzRandomGraphs explores more generated graphs than the test's 60: the
// fuzzer picks the seed, and the circuit must equal the rational model and
// the quantized evaluator bit for bit (go test -fuzz FuzzRandomGraphs).
func FuzzRandomGraphs(f *testing.F) {
	for _, seed := range []uint64{0, 1, 2, 54, 1 << 40} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { checkRandomGraph(t, seed, 20) })
}

// graphKind is the kind of graph a seed generates.
func graphKind(seed uint64) (string, int) {
	kinds := []string{"mlp", "cnn", "shapes"}
	return kinds[seed%3], int(seed % 3)
}

// checkRandomGraph generates the graph of a seed, lowers it to a circuit
// and compares the circuit on rows random inputs with the test's rational
// model, with backend/nneval and, when OTIR_REFERENCE_BIN is set, with
// alir_v4_run; it returns how many of the model's outputs are non-zero,
// and how many there are.
func checkRandomGraph(t *testing.T, seed uint64, rows int) (nonzero, total int) {
	g := &graphGen{rng: rand.New(rand.NewPCG(seed, 19)), payload: map[string]*tensor.Tensor{}, ptypes: map[string]*quant.UniformType{}}
	switch _, k := graphKind(seed); k {
	case 0:
		g.mlp()
	case 1:
		g.cnn()
	default:
		g.shapes()
	}
	text := g.text()
	dir := t.TempDir()
	if keep := os.Getenv("OTIR_NNDIFF_KEEP"); keep != "" {
		// Keep each graph and payload for a look by hand.
		dir = filepath.Join(keep, t.Name())
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "graph.mlir"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := circuittest.Circuit(t, text, "params="+circuittest.WritePayload(t, dir, g.payload))
	x := g.ts[0]
	nIn := 1
	for _, d := range x.shape {
		nIn *= int(d)
	}
	in := randomInputs(g.rng, x.q, nIn, rows)
	got := circuittest.Run(t, p, in, rows)
	var want []float64
	for r := range rows {
		want = append(want, g.refModel(in[r*nIn:(r+1)*nIn])...)
	}
	for _, v := range want {
		total++
		if v != 0 {
			nonzero++
		}
	}
	if k := sameBits(got, want); k >= 0 {
		nOut := len(want) / rows
		t.Fatalf("row %d output %d: circuit %v, model %v\n%s", k/nOut, k%nOut, got[k], want[k], text)
	}
	// The quantized evaluator (backend/nneval) computes the same.
	if k := sameBits(circuittest.Eval(t, circuittest.Graph(t, text), g.payload, in, rows), want); k >= 0 {
		nOut := len(want) / rows
		t.Fatalf("nneval: row %d output %d differs from the model's %v\n%s", k/nOut, k%nOut, want[k], text)
	}
	if ref := os.Getenv("OTIR_REFERENCE_BIN"); ref != "" {
		got := runReference(t, filepath.Join(ref, "alir_v4_run"), p, in)
		if k := sameBits(got, want); k >= 0 {
			nOut := len(want) / rows
			t.Fatalf("alir_v4_run: row %d output %d: %v, model %v\n%s", k/nOut, k%nOut, got[k], want[k], text)
		}
	}
	return nonzero, total
}
