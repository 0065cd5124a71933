package qonnx_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/pipelines/nncircuit/circuittest"
)

// The differential test: random QONNX MLPs (nn.quant of activations,
// weights and biases with every rounding mode, signed/unsigned, narrow,
// po2 and float32 scales, per tensor and per channel, zero points,
// bipolar quantizers, matmul, batch norm as sub/mul/add with zero and
// negative factors, a division as mul by nn.inv, relu, LeakyRelu and Clip
// as nn.max / nn.min) through
// nn-to-circuit; the ALIR program must give, on inputs of the input grid,
// exactly what exactModel computes (the float graph on exact rationals:
// QONNX's reference semantics without float64 rounding) and what the
// float evaluator (backend/nneval) computes. OTIR_QONNXDIFF_KEEP=DIR keeps
// each graph, payload and input-type option.

var roundings = []string{"ROUND", "CEIL", "FLOOR", "UP", "DOWN", "HALF_UP", "HALF_DOWN"}

// rtensor is an exact tensor of the model.
type rtensor struct {
	shape []int64
	data  []*big.Rat
}

// qgen builds a random QONNX graph, its payload and its exact model.
type qgen struct {
	rng     *rand.Rand
	lines   []string
	n       int
	payload map[string]*tensor.Tensor
	model   []func(env map[string]rtensor)
	// po2 makes every scale and batch-norm factor a power of two
	// (genResidualMLP: hls4ml's and FINN's power-of-two residual networks;
	// joins at unrelated float32 scales are tests/qonnx's resnet models).
	po2 bool
	// floats makes half the activation quantizers minifloats
	// (nn.float_quant; genFloatMLP).
	floats bool
	// thresholds makes half the activation quantizers FINN's thresholds
	// (nn.multithreshold; genThresholdMLP).
	thresholds bool
}

func (g *qgen) name() string { g.n++; return fmt.Sprintf("%%v%d", g.n) }

func ttype(shape []int64) string {
	var sb strings.Builder
	sb.WriteString("tensor<")
	for _, d := range shape {
		fmt.Fprintf(&sb, "%dx", d)
	}
	return sb.String() + "f64>"
}

func (g *qgen) line(format string, args ...any) {
	g.lines = append(g.lines, "    "+fmt.Sprintf(format, args...))
}

func (g *qgen) put(key string, shape []int64, data []float64) {
	g.payload[key] = &tensor.Tensor{Shape: shape, Data: data}
}

// scale is a random scale: a power of two or a float32 value (with po2,
// always a power of two).
func (g *qgen) scale() float64 {
	if g.rng.IntN(2) == 0 || g.po2 {
		return math.Ldexp(1, -g.rng.IntN(6))
	}
	return float64(float32(0.02 + g.rng.Float64()))
}

// constNode emits a payload constant.
func (g *qgen) constNode(key string, shape []int64, data []float64) string {
	g.put(key, shape, data)
	v := g.name()
	g.line("%s = nn.const {params = %q} : () -> %s", v, key, ttype(shape))
	t := rtensor{shape: shape}
	for _, f := range data {
		t.data = append(t.data, new(big.Rat).SetFloat64(f))
	}
	g.model = append(g.model, func(env map[string]rtensor) { env[v] = t })
	return v
}

// quantNode emits an nn.quant (or nn.bipolar_quant) of x with random
// parameters, per channel along the last dimension when perChannel.
func (g *qgen) quantNode(x string, shape []int64, key string, bits int, signed, narrow bool, rounding string, perChannel, zeroPoint bool) string {
	const weights = false
	pshape := []int64{}
	n := 1
	if perChannel {
		last := shape[len(shape)-1]
		pshape = make([]int64, len(shape))
		for i := range pshape {
			pshape[i] = 1
		}
		pshape[len(shape)-1] = last
		n = int(last)
	}
	scales, zps := make([]float64, n), make([]float64, n)
	for i := range scales {
		scales[i] = g.scale()
		if perChannel && !weights {
			// per-channel activation scales that are not powers of two
			// make the next product's integers huge (x_i·s_i·W_ij has no
			// common factor): powers of two keep them narrow
			scales[i] = math.Ldexp(1, -g.rng.IntN(6))
		}
		if zeroPoint && bits > 2 {
			zps[i] = float64(g.rng.IntN(3) - 1)
		}
	}
	channel := func(i int) int { return i % n } // the scale of element i
	if bits != 0 {
		return g.quant(x, shape, pshape, key, bits, signed, narrow, rounding, scales, zps, channel)
	}
	g.put(key+".scale", pshape, scales)
	v := g.name()
	g.line("%s = nn.bipolar_quant %s {params = %q} : (%s) -> %s", v, x, key, ttype(shape), ttype(shape))
	g.mapModel(v, x, func(i int, r *big.Rat) *big.Rat {
		y := new(big.Rat).SetFloat64(scales[channel(i)])
		if r.Sign() < 0 {
			y.Neg(y)
		}
		return y
	})
	return v
}

// quant emits an nn.quant of x with the given parameters, its scales and
// zero points (of shape pshape, channel(i) the one of element i) in the
// payload, and its exact model.
func (g *qgen) quant(x string, shape, pshape []int64, key string, bits int, signed, narrow bool, rounding string, scales, zps []float64, channel func(i int) int) string {
	g.put(key+".scale", pshape, scales)
	g.put(key+".zero_point", pshape, zps)
	v := g.name()
	g.line("%s = nn.quant %s {params = %q, bits = %d, signed = %t, narrow = %t, rounding = %q} : (%s) -> %s", v, x, key, bits, signed, narrow, rounding, ttype(shape), ttype(shape))
	g.mapModel(v, x, func(i int, r *big.Rat) *big.Rat {
		c := channel(i)
		return quantRef(r, new(big.Rat).SetFloat64(scales[c]), new(big.Rat).SetFloat64(zps[c]), bits, signed, narrow, rounding)
	})
	return v
}

// floatQuant emits an nn.float_quant of x: a random minifloat format (2 to
// 4 exponent bits, 0 to 3 mantissa bits, the IEEE bias or one off it), a
// random per-tensor scale, a max_val that is the format's largest value or
// a smaller value of the format, a random rounding mode.
func (g *qgen) floatQuant(x string, shape []int64, key string) string {
	e, m := int64(2+g.rng.IntN(3)), int64(g.rng.IntN(4))
	bias := int64(1)<<(e-1) - 1 + int64(g.rng.IntN(3)-1)
	top := int64(1)<<e - 1 - bias // the largest binade's exponent
	maxv := math.Ldexp(2-math.Ldexp(1, -int(m)), int(top))
	if g.rng.IntN(2) == 0 {
		maxv = math.Ldexp(1+float64(g.rng.Int64N(int64(1)<<m))/float64(int64(1)<<m), int(top)-g.rng.IntN(3))
	}
	scale := g.scale()
	rounding := roundings[g.rng.IntN(len(roundings))]
	g.put(key+".scale", nil, []float64{scale})
	g.put(key+".max_val", nil, []float64{maxv})
	v := g.name()
	g.line("%s = nn.float_quant %s {params = %q, exponent_bits = %d, mantissa_bits = %d, exponent_bias = %d, rounding = %q} : (%s) -> %s", v, x, key, e, m, bias, rounding, ttype(shape), ttype(shape))
	g.mapModel(v, x, func(_ int, r *big.Rat) *big.Rat {
		return floatRef(r, new(big.Rat).SetFloat64(scale), e, m, bias, maxv, rounding)
	})
	return v
}

// multiThreshold emits an nn.multithreshold of x [1, n]: 1 to 15 float32
// thresholds per channel (or one row for all), on a grid of a random
// scale around 0 or anywhere, ±inf among them; out_scale and out_bias
// random (a signed range for half); its model counts the thresholds t ≤ x
// exactly.
func (g *qgen) multiThreshold(x string, shape []int64, key string) string {
	n := shape[len(shape)-1]
	rows := int64(1)
	if g.rng.IntN(2) == 0 {
		rows = n
	}
	k := int64(1 + g.rng.IntN(15))
	step := g.scale()
	t := make([]float64, rows*k)
	for i := range t {
		switch g.rng.IntN(8) {
		case 0:
			t[i] = math.Inf(2*g.rng.IntN(2) - 1)
		case 1, 2:
			t[i] = float64(float32(g.rng.NormFloat64() * 4 * step))
		default:
			t[i] = float64(g.rng.IntN(17)-8) * step
		}
	}
	outScale := g.scale()
	outBias := 0.0
	if g.rng.IntN(2) == 0 {
		outBias = -outScale * float64(k/2)
	}
	g.put(key+".thresholds", []int64{rows, k}, t)
	v := g.name()
	g.line("%s = nn.multithreshold %s {params = %q, axis = %d, out_scale = %v, out_bias = %v} : (%s) -> %s", v, x, key, len(shape)-1, floatText(outScale), floatText(outBias), ttype(shape), ttype(shape))
	a, b := new(big.Rat).SetFloat64(outScale), new(big.Rat).SetFloat64(outBias)
	g.mapModel(v, x, func(i int, r *big.Rat) *big.Rat {
		row := t[:k]
		if rows > 1 {
			row = t[int64(i)%n*k : (int64(i)%n+1)*k]
		}
		c := int64(0)
		for _, th := range row {
			if math.IsInf(th, -1) || !math.IsInf(th, 1) && r.Cmp(new(big.Rat).SetFloat64(th)) >= 0 {
				c++
			}
		}
		return new(big.Rat).Add(new(big.Rat).Mul(a, big.NewRat(c, 1)), b)
	})
	return v
}

// floatText is f as an MLIR float literal (a decimal point or exponent).
func floatText(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

// floatRef is QONNX's float_quant (signed, saturating) on exact
// rationals: y = x/s, its binade k = ⌊log2|y|⌋, the step 2^max(k − M, 1 −
// bias − M), y rounded to a multiple of it, clamped to ±min((2 −
// 2^-M)·2^(2^E − 1 − bias), maxv), times s.
func floatRef(x, s *big.Rat, e, m, bias int64, maxv float64, mode string) *big.Rat {
	y := new(big.Rat).Quo(x, s)
	if y.Sign() == 0 {
		return y
	}
	pow := func(k int64) *big.Rat {
		if k >= 0 {
			return new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(k)))
		}
		return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(-k)))
	}
	a := new(big.Rat).Abs(y)
	k := int64(0)
	for a.Cmp(pow(k)) < 0 {
		k--
	}
	for a.Cmp(pow(k+1)) >= 0 {
		k++
	}
	step := pow(max(k-m, 1-bias-m))
	q := new(big.Rat).SetInt(roundRef(new(big.Rat).Quo(y, step), mode))
	q.Mul(q, step)
	mv := new(big.Rat).SetFloat64(min(math.Ldexp(2-math.Ldexp(1, -int(m)), int(int64(1)<<e-1-bias)), maxv))
	if q.Cmp(mv) > 0 {
		q = mv
	} else if q.Cmp(new(big.Rat).Neg(mv)) < 0 {
		q = new(big.Rat).Neg(mv)
	}
	return q.Mul(q, s)
}

// quantRef is QONNX's quant on exact rationals.
func quantRef(x, s, z *big.Rat, bits int, signed, narrow bool, mode string) *big.Rat {
	v := new(big.Rat).Quo(x, s)
	v.Add(v, z)
	var n *big.Int
	if bits == 1 && signed {
		n = big.NewInt(-1)
		if v.Sign() >= 0 {
			n = big.NewInt(1)
		}
	} else {
		lo, hi := codeRange(bits, signed, narrow)
		if v.Cmp(new(big.Rat).SetInt64(lo)) < 0 {
			v.SetInt64(lo)
		}
		if v.Cmp(new(big.Rat).SetInt64(hi)) > 0 {
			v.SetInt64(hi)
		}
		n = roundRef(v, mode)
	}
	y := new(big.Rat).SetInt(n)
	y.Sub(y, z)
	return y.Mul(y, s)
}

// roundRef rounds by a QONNX mode, from floor and the fraction.
func roundRef(v *big.Rat, mode string) *big.Int {
	fl := new(big.Int).Div(v.Num(), v.Denom()) // Euclidean: floor for a positive denominator
	frac := new(big.Rat).Sub(v, new(big.Rat).SetInt(fl))
	ce := new(big.Int).Set(fl)
	if frac.Sign() != 0 {
		ce.Add(ce, big.NewInt(1))
	}
	half := frac.Cmp(big.NewRat(1, 2))
	neg := v.Sign() < 0
	switch mode {
	case "FLOOR":
		return fl
	case "CEIL":
		return ce
	case "UP":
		if neg {
			return fl
		}
		return ce
	case "DOWN":
		if neg {
			return ce
		}
		return fl
	}
	if half < 0 {
		return fl
	}
	if half > 0 {
		return ce
	}
	switch mode {
	case "HALF_UP":
		if neg {
			return fl
		}
		return ce
	case "HALF_DOWN":
		if neg {
			return ce
		}
		return fl
	}
	if fl.Bit(0) == 0 { // ROUND: to even
		return fl
	}
	return ce
}

// elementwise emits a binary node of x and a broadcast constant row.
func (g *qgen) elementwise(kind, x string, shape []int64, key string, c []float64, inverse bool) string {
	n := shape[len(shape)-1]
	cv := g.constNode(key, []int64{n}, c)
	if inverse {
		iv, src := g.name(), cv
		g.line("%s = nn.inv %s : (%s) -> %s", iv, cv, ttype([]int64{n}), ttype([]int64{n}))
		g.model = append(g.model, func(env map[string]rtensor) {
			t := env[src]
			out := rtensor{shape: t.shape}
			for _, r := range t.data {
				out.data = append(out.data, new(big.Rat).Inv(r))
			}
			env[iv] = out
		})
		cv = iv
	}
	bv := g.name()
	g.line("%s = nn.broadcast_to %s : (%s) -> %s", bv, cv, ttype([]int64{n}), ttype(shape))
	g.model = append(g.model, func(env map[string]rtensor) {
		cs := env[cv]
		out := rtensor{shape: shape}
		for i := range len(env[x].data) {
			out.data = append(out.data, cs.data[i%int(n)])
		}
		env[bv] = out
	})
	return g.join(kind, x, bv, shape)
}

// join emits x + y, x - y or x·y of two values of one shape.
func (g *qgen) join(kind, x, y string, shape []int64) string {
	v := g.name()
	g.line("%s = nn.%s %s, %s : (%s, %s) -> %s", v, kind, x, y, ttype(shape), ttype(shape), ttype(shape))
	g.model = append(g.model, func(env map[string]rtensor) {
		a, b := env[x], env[y]
		out := rtensor{shape: a.shape}
		for i, r := range a.data {
			out.data = append(out.data, binaryRat(kind, r, b.data[i]))
		}
		env[v] = out
	})
	return v
}

// concat emits the concatenation of x and y [1, n] along their features.
func (g *qgen) concat(x, y string, shape []int64) string {
	v, out := g.name(), []int64{1, 2 * shape[1]}
	g.line("%s = nn.concat %s, %s {axis = 1} : (%s, %s) -> %s", v, x, y, ttype(shape), ttype(shape), ttype(out))
	g.model = append(g.model, func(env map[string]rtensor) {
		env[v] = rtensor{shape: out, data: append(slices.Clone(env[x].data), env[y].data...)}
	})
	return v
}

// activation emits, before the next layer's quantizer, relu (half the
// time) or what the ONNX importer writes for LeakyRelu, max(x, α·x) (α
// 0.1 or 0.3; min(x, 1.5·x) for α = 1.5), or for Clip (ReLU6, Hardtanh):
// a max with a lower bound, a min with an upper one, or both; with floats
// also sigmoid, tanh, HardSwish and SiLU (products, not monotone).
func (g *qgen) activation(x string, shape []int64, key string) string {
	n := shape[len(shape)-1]
	row := func(f func() float64) []float64 {
		r := make([]float64, n)
		for i := range r {
			r[i] = f()
		}
		return r
	}
	kinds := 4
	if g.floats {
		kinds = 8 // the minifloat MLPs draw sigmoid, tanh, HardSwish and SiLU too
	}
	switch g.rng.IntN(kinds) {
	case 4:
		return g.curve("nn.sigmoid", x, shape)
	case 5:
		return g.curve("nn.tanh", x, shape)
	case 6: // HardSwish as the importer writes it: x·max(min(x·(1/6) + 0.5, 1), 0)
		h := g.elementwise("mul", x, shape, key+".hs_alpha", row(func() float64 { return 1.0 / 6 }), false)
		h = g.elementwise("add", h, shape, key+".hs_beta", row(func() float64 { return 0.5 }), false)
		h = g.elementwise("min", h, shape, key+".hs_one", row(func() float64 { return 1 }), false)
		h = g.elementwise("max", h, shape, key+".hs_zero", row(func() float64 { return 0 }), false)
		return g.join("mul", x, h, shape)
	case 7: // SiLU: x·sigmoid(x)
		return g.join("mul", x, g.curve("nn.sigmoid", x, shape), shape)
	case 0:
		alpha := []float64{float64(float32(0.1)), float64(float32(0.3)), 1.5}[g.rng.IntN(3)] // float32, as ONNX's attribute: its products with codes are exact in float64
		ax := g.elementwise("mul", x, shape, key+".alpha", row(func() float64 { return alpha }), false)
		if alpha > 1 {
			return g.join("min", x, ax, shape)
		}
		return g.join("max", x, ax, shape)
	case 1:
		bound := func() float64 { return float64(float32(g.rng.NormFloat64())) }
		kind := g.rng.IntN(3)
		if kind != 1 {
			x = g.elementwise("max", x, shape, key+".lo", row(func() float64 { return -math.Abs(bound()) }), false)
		}
		if kind != 0 {
			x = g.elementwise("min", x, shape, key+".hi", row(func() float64 { return math.Abs(bound()) }), false)
		}
		return x
	}
	return g.relu(x, shape)
}

// curve emits nn.sigmoid or nn.tanh of x; its model is the evaluator's
// float64 function of the float64 nearest the exact value (the value a
// quantizer after it decides on).
func (g *qgen) curve(kind, x string, shape []int64) string {
	f, _ := nneval.UnaryFunc(kind)
	v := g.name()
	g.line("%s = %s %s : (%s) -> %s", v, kind, x, ttype(shape), ttype(shape))
	g.mapModel(v, x, func(_ int, r *big.Rat) *big.Rat {
		y, _ := r.Float64()
		return new(big.Rat).SetFloat64(f(y))
	})
	return v
}

func (g *qgen) relu(x string, shape []int64) string {
	v := g.name()
	g.line("%s = nn.relu %s : (%s) -> %s", v, x, ttype(shape), ttype(shape))
	g.mapModel(v, x, func(_ int, r *big.Rat) *big.Rat {
		if r.Sign() < 0 {
			return new(big.Rat)
		}
		return new(big.Rat).Set(r)
	})
	return v
}

// mapModel adds v = f of each element of x (i its flat index) to the
// model.
func (g *qgen) mapModel(v, x string, f func(i int, r *big.Rat) *big.Rat) {
	g.model = append(g.model, func(env map[string]rtensor) {
		in := env[x]
		out := rtensor{shape: in.shape, data: make([]*big.Rat, len(in.data))}
		for i, r := range in.data {
			out.data[i] = f(i, r)
		}
		env[v] = out
	})
}

// dense emits x·Q(W)ᵀ: W [out, in] in the payload, quantized per row or
// per tensor, permuted, multiplied.
func (g *qgen) dense(x string, in, out int64, layer int) string {
	w := make([]float64, in*out)
	for i := range w {
		w[i] = g.rng.NormFloat64()
	}
	key := fmt.Sprintf("l%d.w", layer)
	wv := g.constNode(key, []int64{out, in}, w)
	bits := 2 + g.rng.IntN(3)
	wq := g.name()
	perRow := g.rng.IntN(2) == 0
	pshape := []int64{}
	ns := 1
	if perRow {
		pshape, ns = []int64{out, 1}, int(out)
	}
	scales := make([]float64, ns)
	for i := range scales {
		scales[i] = g.scale()
	}
	narrow := g.rng.IntN(2) == 0
	rounding := roundings[g.rng.IntN(len(roundings))]
	g.put(key+"q.scale", pshape, scales)
	g.put(key+"q.zero_point", nil, []float64{0})
	g.line("%s = nn.quant %s {params = %q, bits = %d, signed = true, narrow = %t, rounding = %q} : (%s) -> %s", wq, wv, key+"q", bits, narrow, rounding, ttype([]int64{out, in}), ttype([]int64{out, in}))
	g.model = append(g.model, func(env map[string]rtensor) {
		t := env[wv]
		o := rtensor{shape: t.shape}
		for i, r := range t.data {
			s := new(big.Rat).SetFloat64(scales[0])
			if perRow {
				s.SetFloat64(scales[i/int(in)])
			}
			o.data = append(o.data, quantRef(r, s, new(big.Rat), bits, true, narrow, rounding))
		}
		env[wq] = o
	})
	wt := g.name()
	g.line("%s = nn.permute %s {perm = [1, 0]} : (%s) -> %s", wt, wq, ttype([]int64{out, in}), ttype([]int64{in, out}))
	g.model = append(g.model, func(env map[string]rtensor) {
		t := env[wq]
		o := rtensor{shape: []int64{in, out}, data: make([]*big.Rat, in*out)}
		for r := range out {
			for c := range in {
				o.data[c*out+r] = t.data[r*in+c]
			}
		}
		env[wt] = o
	})
	v := g.name()
	g.line("%s = nn.matmul %s, %s : (%s, %s) -> %s", v, x, wt, ttype([]int64{1, in}), ttype([]int64{in, out}), ttype([]int64{1, out}))
	g.model = append(g.model, func(env map[string]rtensor) {
		a, b := env[x], env[wt]
		o := rtensor{shape: []int64{1, out}}
		for j := range out {
			s := new(big.Rat)
			for i := range in {
				s.Add(s, new(big.Rat).Mul(a.data[i], b.data[i*out+j]))
			}
			o.data = append(o.data, s)
		}
		env[v] = o
	})
	return v
}

// randomQuant is an activation quantizer with random parameters.
func (g *qgen) randomQuant(x string, shape []int64, key string) string {
	if g.floats && g.rng.IntN(2) == 0 {
		return g.floatQuant(x, shape, key)
	}
	if g.thresholds && g.rng.IntN(2) == 0 {
		return g.multiThreshold(x, shape, key)
	}
	if g.rng.IntN(8) == 0 {
		return g.quantNode(x, shape, key, 0, true, false, "", g.rng.IntN(2) == 0, false) // bipolar
	}
	bits := 1 + g.rng.IntN(6)
	signed := g.rng.IntN(2) == 0
	if bits == 1 && !signed && g.rng.IntN(2) == 0 {
		signed = true // QONNX's bipolar signed 1-bit quant
	}
	q := g.quantNode(x, shape, key, bits, signed, g.rng.IntN(3) == 0, roundings[g.rng.IntN(len(roundings))], g.rng.IntN(2) == 0, g.rng.IntN(4) == 0)
	if bits >= 3 && g.rng.IntN(4) == 0 {
		q = g.truncNode(q, shape, key+".t", bits, 1+g.rng.IntN(bits-1))
	}
	return q
}

// truncNode emits a version-1 nn.trunc of x: in_bits to out_bits at a
// random scale, QONNX's trunc_v1 in the model.
func (g *qgen) truncNode(x string, shape []int64, key string, inBits, outBits int) string {
	scale := g.scale()
	mode := roundings[g.rng.IntN(len(roundings))]
	g.put(key+".scale", nil, []float64{scale})
	g.put(key+".zero_point", nil, []float64{0})
	v := g.name()
	g.line("%s = nn.trunc %s {params = %q, in_bits = %d, out_bits = %d, rounding = %q} : (%s) -> %s", v, x, key, inBits, outBits, mode, ttype(shape), ttype(shape))
	g.model = append(g.model, func(env map[string]rtensor) {
		in := env[x]
		out := rtensor{shape: in.shape}
		s := new(big.Rat).SetFloat64(scale)
		div := new(big.Rat).SetInt64(int64(1) << (inBits - outBits))
		for _, r := range in.data {
			a := new(big.Rat).SetInt(roundRef(new(big.Rat).Quo(r, s), "ROUND"))
			n := new(big.Rat).SetInt(roundRef(a.Quo(a, div), mode))
			out.data = append(out.data, n.Mul(n, s))
		}
		env[v] = out
	})
	return v
}

// genMLP builds a random QONNX MLP; inputType "" quantizes the input by
// the graph's own nn.quant (the circuit then takes its codes).
func genMLP(rng *rand.Rand) (*qgen, string, []int64, *quant.UniformType) {
	return genLayers(rng, false, false, false)
}

// genFloatMLP is genMLP with half its activation quantizers minifloats
// (Brevitas's FloatQuant), and sigmoid and tanh among its activations.
func genFloatMLP(rng *rand.Rand) (*qgen, string, []int64, *quant.UniformType) {
	return genLayers(rng, false, true, false)
}

// genResidualMLP is genMLP with residual joins: layers as wide as their
// input, whose result, quantized, is added to, subtracted from or
// multiplied by (a gate) the layer's quantized input, as it is or
// quantized again at another scale, before the layer's relu; or whose
// result, quantized or not, is concatenated with that input (or with the
// raw input of an input type, at its own scale), as DenseNet does.
func genResidualMLP(rng *rand.Rand) (*qgen, string, []int64, *quant.UniformType) {
	return genLayers(rng, true, false, false)
}

// genThresholdMLP is genMLP with half its activation quantizers FINN's
// thresholds (nn.multithreshold).
func genThresholdMLP(rng *rand.Rand) (*qgen, string, []int64, *quant.UniformType) {
	return genLayers(rng, false, false, true)
}

func genLayers(rng *rand.Rand, residual, floats, thresholds bool) (*qgen, string, []int64, *quant.UniformType) {
	g := &qgen{rng: rng, payload: map[string]*tensor.Tensor{}, po2: residual, floats: floats, thresholds: thresholds}
	widths := []int64{int64(2 + rng.IntN(5))}
	for range 1 + rng.IntN(3) {
		w := int64(2 + rng.IntN(6))
		if residual && rng.IntN(3) != 0 {
			w = widths[len(widths)-1]
		}
		widths = append(widths, w)
	}
	var in *quant.UniformType
	x := "%arg0"
	shape := []int64{1, widths[0]}
	if rng.IntN(3) != 0 {
		w := 4 + rng.IntN(7)
		in = quant.Uniform(w, rng.IntN(4) != 0, w-1-rng.IntN(4))
	}
	for l := 1; l < len(widths); l++ {
		raw := x
		if l == 1 && in == nil {
			// the input quantizer: its codes are the circuit's input
			bits := 2 + rng.IntN(6)
			x = g.quantNode(x, shape, "qin", bits, rng.IntN(2) == 0, rng.IntN(3) == 0, roundings[rng.IntN(len(roundings))], rng.IntN(2) == 0, false)
		} else {
			x = g.randomQuant(x, shape, fmt.Sprintf("l%d.qa", l))
		}
		skip, join := "", ""
		if residual && widths[l] == widths[l-1] {
			join = []string{"add", "sub", "mul", "concat"}[rng.IntN(4)]
			skip = x
			switch {
			case join == "concat" && raw == "%arg0" && in != nil && rng.IntN(2) == 0:
				skip = raw // the input itself, at the input type's scale
			case rng.IntN(3) == 0:
				skip = g.randomQuant(skip, shape, fmt.Sprintf("l%d.qskip", l))
			}
		}
		x = g.dense(x, widths[l-1], widths[l], l)
		shape = []int64{1, widths[l]}
		n := widths[l]
		if rng.IntN(2) == 0 {
			b := make([]float64, n)
			for i := range b {
				b[i] = float64(float32(rng.NormFloat64()))
			}
			x = g.elementwise("add", x, shape, fmt.Sprintf("l%d.b", l), b, false)
		}
		if rng.IntN(2) == 0 { // batch norm: sub mean, mul a (some 0, some < 0), add beta
			mean, a, beta := make([]float64, n), make([]float64, n), make([]float64, n)
			for i := range mean {
				mean[i] = float64(float32(rng.NormFloat64()))
				a[i] = float64(float32(rng.NormFloat64()))
				if g.po2 {
					a[i] = math.Copysign(math.Ldexp(1, 1-rng.IntN(4)), a[i])
				}
				if rng.IntN(6) == 0 {
					a[i] = 0
				}
				beta[i] = float64(float32(rng.NormFloat64()))
			}
			x = g.elementwise("sub", x, shape, fmt.Sprintf("l%d.bn.mean", l), mean, false)
			if rng.IntN(3) == 0 { // a division: mul by inv(1/a) — only when no a is 0
				ok := true
				for i := range a {
					if a[i] == 0 {
						a[i] = 1
					}
					ok = ok && a[i] != 0
				}
				x = g.elementwise("mul", x, shape, fmt.Sprintf("l%d.bn.d", l), a, true)
			} else {
				x = g.elementwise("mul", x, shape, fmt.Sprintf("l%d.bn.a", l), a, false)
			}
			x = g.elementwise("add", x, shape, fmt.Sprintf("l%d.bn.beta", l), beta, false)
		}
		if skip != "" {
			// The branch quantized before the join, as Brevitas and QKeras
			// networks do (a join of raw accumulators, batch-normed by
			// unrelated float32 factors, can need integers beyond the
			// circuit's 62 bits: an error at the node).
			if join != "concat" || rng.IntN(2) == 0 {
				x = g.randomQuant(x, shape, fmt.Sprintf("l%d.qbranch", l))
			}
			if join == "concat" {
				widths[l] *= 2
				x, shape = g.concat(x, skip, shape), []int64{1, widths[l]}
			} else {
				x = g.join(join, x, skip, shape)
			}
		}
		if l < len(widths)-1 && rng.IntN(3) != 0 {
			x = g.activation(x, shape, fmt.Sprintf("l%d.act", l))
		}
	}
	// the output: quantized (a division's tail must not reach it unquantized)
	x = g.randomQuant(x, shape, "qout")
	text := fmt.Sprintf("module {\n  nn.graph @mlp(%%arg0: %s) -> %s {\n%s\n    nn.return %s : %s\n  }\n}\n",
		ttype([]int64{1, widths[0]}), ttype(shape), strings.Join(g.lines, "\n"), x, ttype(shape))
	return g, text, shape, in
}

// inputs draws samples on the input grid: reals for an input type, the
// input quantizer's codes otherwise (with the real input they stand for).
func (g *qgen) inputs(in *quant.UniformType, n int64, rows int) (circuit []float64, model [][]*big.Rat) {
	for range rows {
		var row []*big.Rat
		for j := range n {
			if in != nil {
				q := in.QMin() + g.rng.Int64N(in.QMax()-in.QMin()+1)
				circuit = append(circuit, in.Value(q))
				row = append(row, new(big.Rat).SetFloat64(in.Value(q)))
				continue
			}
			// the code c of the input quantizer qin; the real input (c - zp)·s
			s := g.payload["qin.scale"]
			z := g.payload["qin.zero_point"]
			k := 0
			if len(s.Data) > 1 {
				k = int(j)
			}
			lo, hi := codeRange(g.inputSpec())
			c := lo + g.rng.Int64N(hi-lo+1)
			circuit = append(circuit, float64(c))
			r := new(big.Rat).SetInt64(c)
			r.Sub(r, new(big.Rat).SetFloat64(z.Data[k]))
			row = append(row, r.Mul(r, new(big.Rat).SetFloat64(s.Data[k])))
		}
		model = append(model, row)
	}
	return circuit, model
}

// inputSpec reads bits, signed, narrow of the input quantizer's line.
func (g *qgen) inputSpec() (bits int, signed, narrow bool) {
	for _, l := range g.lines {
		if strings.Contains(l, `params = "qin"`) {
			fmt.Sscanf(l[strings.Index(l, "bits = "):], "bits = %d, signed = %t, narrow = %t", &bits, &signed, &narrow)
			signed = strings.Contains(l, "signed = true")
			narrow = strings.Contains(l, "narrow = true")
		}
	}
	return
}

func codeRange(bits int, signed, narrow bool) (int64, int64) {
	lo, hi := int64(0), int64(1)<<bits-1
	if signed {
		lo, hi = -(int64(1) << (bits - 1)), int64(1)<<(bits-1)-1
	}
	if narrow && signed {
		lo++
	} else if narrow {
		hi--
	}
	return lo, hi
}

// exactModel runs the generated model on one input row.
func (g *qgen) exactModel(row []*big.Rat, out string) []*big.Rat {
	env := map[string]rtensor{"%arg0": {shape: []int64{1, int64(len(row))}, data: row}}
	for _, f := range g.model {
		f(env)
	}
	return env[out].data
}

func inputTypeOption(in *quant.UniformType) string {
	if in == nil {
		return ""
	}
	u := "u"
	if in.Signed {
		u = ""
	}
	return fmt.Sprintf(" input-type=%sfixed<%d,%d>", u, in.Width, in.Width-in.Frac)
}

func TestRandomMLPs(t *testing.T) {
	checkRandomGraphs(t, 60, 100, 27, "", genMLP)
}

// TestRandomFloatMLPs is TestRandomMLPs with minifloat activations.
func TestRandomFloatMLPs(t *testing.T) {
	checkRandomGraphs(t, 60, 100, 31, "float", genFloatMLP)
}

// TestRandomThresholdMLPs is TestRandomMLPs with FINN's thresholds.
func TestRandomThresholdMLPs(t *testing.T) {
	checkRandomGraphs(t, 60, 100, 32, "threshold", genThresholdMLP)
}

// TestRandomResidualMLPs is TestRandomMLPs with residual joins.
func TestRandomResidualMLPs(t *testing.T) {
	checkRandomGraphs(t, 60, 100, 29, "residual", genResidualMLP)
}

// FuzzRandomQONNX is the differential test on the graphs of fuzzed seeds:
// MLPs, residual MLPs, CNNs, CNNs ending in a global average pool, MLPs
// with minifloat activations, CNNs with pools of random windows or MLPs
// with FINN's thresholds (kind % 7), 20 inputs each. No panic, and a
// circuit equal to the exact model and the evaluator, or a diagnostic.
func FuzzRandomQONNX(f *testing.F) {
	f.Add(uint64(0), uint64(27), uint8(0))
	f.Add(uint64(1), uint64(29), uint8(1))
	f.Add(uint64(2), uint64(2727), uint8(2))
	f.Fuzz(func(t *testing.T, seed, stream uint64, kind uint8) {
		gen := []func(*rand.Rand) (*qgen, string, []int64, *quant.UniformType){genMLP, genResidualMLP, genCNN, genGAPCNN, genFloatMLP, genWindowCNN, genThresholdMLP}[kind%7]
		g, text, outShape, in := gen(rand.New(rand.NewPCG(seed, stream)))
		checkDifferential(t, g, text, outShape, in, 20, "", true)
	})
}

// TestFloatQuantMaxValOffGrid: a max_val that is no multiple of the
// format's smallest step saturates to a value with no integer code, an
// error at the node rather than a circuit that rounds it.
func TestFloatQuantMaxValOffGrid(t *testing.T) {
	payload := map[string]*tensor.Tensor{
		"qin.scale": {Data: []float64{0.25}}, "qin.zero_point": {Data: []float64{0}},
		"f.scale": {Data: []float64{1}}, "f.max_val": {Data: []float64{1.3}},
	}
	text := `nn.graph @g(%x: tensor<1x4xf64>) -> tensor<1x4xf64> {
  %0 = nn.quant %x {params = "qin", bits = 8} : (tensor<1x4xf64>) -> tensor<1x4xf64>
  %1 = nn.float_quant %0 {params = "f", exponent_bits = 4, mantissa_bits = 3, exponent_bias = 7} : (tensor<1x4xf64>) -> tensor<1x4xf64>
  nn.return %1 : tensor<1x4xf64>
}
`
	params := circuittest.WritePayload(t, t.TempDir(), payload)
	_, ds := circuittest.TryCircuit(t, text, "params="+params)
	want := "'f.max_val' at flat index 0: 1.3 is not a multiple of the format's smallest step 2^-9"
	if !ds.HasErrors() || !strings.Contains(ds.Error(), want) {
		t.Fatalf("got %v, want an error containing %q", ds, want)
	}
}
