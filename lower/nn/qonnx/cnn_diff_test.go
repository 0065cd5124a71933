package qonnx_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/pipelines/nncircuit/circuittest"
)

// The CNN sibling of TestRandomMLPs: random small QONNX CNNs as the
// importer writes them (nn.conv2d by integer weight codes in the payload,
// then nn.mul by per-output-channel scales, po2 or float32, and a bias
// add; or dyadic float weights), 3x3 or 2x2 kernels, stride 1 or 2,
// padding 0 or 1, batch norms with zero and negative factors, relu,
// activation quantizers per tensor or per channel (axis 1) with every
// rounding mode and zero points, max pools (of increasing and of
// decreasing functions of the codes, per channel) and 2x2 average pools,
// a reshape to [1, N] and a dense layer: circuit == exact model == float evaluator on
// inputs of the input grid.

// chw is a [1, C, H, W] activation's shape.
type chw struct{ c, h, w int64 }

func (s chw) shape() []int64 { return []int64{1, s.c, s.h, s.w} }
func (s chw) plane() int64   { return s.h * s.w }

// channelOp emits a [1, C, 1, 1] payload constant broadcast to s and
// kind (add, sub, mul) of x by it.
func (g *qgen) channelOp(kind, x string, s chw, key string, c []float64) string {
	cs := []int64{1, s.c, 1, 1}
	cv := g.constNode(key, cs, c)
	bv := g.name()
	g.line("%s = nn.broadcast_to %s : (%s) -> %s", bv, cv, ttype(cs), ttype(s.shape()))
	v := g.name()
	g.line("%s = nn.%s %s, %s : (%s, %s) -> %s", v, kind, x, bv, ttype(s.shape()), ttype(s.shape()), ttype(s.shape()))
	g.model = append(g.model, func(env map[string]rtensor) {
		in, k := env[x], env[cv]
		out := rtensor{shape: s.shape()}
		for i, r := range in.data {
			out.data = append(out.data, binaryRat(kind, r, k.data[int64(i)/s.plane()%s.c]))
		}
		env[v] = out
	})
	return v
}

// binaryRat is add, sub, mul, max or min on exact rationals.
func binaryRat(kind string, a, b *big.Rat) *big.Rat {
	switch kind {
	case "add":
		return new(big.Rat).Add(a, b)
	case "sub":
		return new(big.Rat).Sub(a, b)
	case "max", "min":
		if (a.Cmp(b) >= 0) == (kind == "max") {
			return new(big.Rat).Set(a)
		}
		return new(big.Rat).Set(b)
	}
	return new(big.Rat).Mul(a, b)
}

// channelQuant is an nn.quant of an activation, per tensor or per channel
// (axis 1, power-of-two scales: see quantNode), in the model too.
func (g *qgen) channelQuant(x string, s chw, key string) string {
	bits := 1 + g.rng.IntN(6)
	signed := g.rng.IntN(2) == 0
	narrow := g.rng.IntN(3) == 0
	rounding := roundings[g.rng.IntN(len(roundings))]
	perChannel := g.rng.IntN(2) == 0
	n := 1
	pshape := []int64{}
	if perChannel {
		n, pshape = int(s.c), []int64{1, s.c, 1, 1}
	}
	scales, zps := make([]float64, n), make([]float64, n)
	for i := range scales {
		scales[i] = g.scale()
		if perChannel {
			scales[i] = math.Ldexp(1, -g.rng.IntN(6))
		}
		if bits > 2 && g.rng.IntN(4) == 0 {
			zps[i] = float64(g.rng.IntN(3) - 1)
		}
	}
	return g.quant(x, s.shape(), pshape, key, bits, signed, narrow, rounding, scales, zps, func(i int) int { return int(int64(i) / s.plane() % int64(n)) })
}

// convLayer emits a convolution of x to oc channels: the importer's form
// (integer codes, a per-channel scale after, a bias) or dyadic float
// weights with a payload bias.
func (g *qgen) convLayer(x string, s chw, oc, k, stride, pad int64, key string) (string, chw) {
	o := chw{oc, (s.h+2*pad-k)/stride + 1, (s.w+2*pad-k)/stride + 1}
	n := oc * s.c * k * k
	w, bias := make([]float64, n), make([]float64, oc)
	importer := g.rng.IntN(3) != 0
	wbits := 2 + g.rng.IntN(4)
	top := int64(1)<<(wbits-1) - 1
	for i := range w {
		w[i] = float64(g.rng.Int64N(2*top+1) - top)
		if !importer {
			w[i] = math.Ldexp(w[i], -g.rng.IntN(4))
		}
	}
	for i := range bias {
		if !importer && g.rng.IntN(2) == 0 {
			bias[i] = math.Ldexp(float64(g.rng.IntN(17)-8), -g.rng.IntN(4))
		}
	}
	g.put(key+".weight", []int64{oc, s.c, k, k}, w)
	g.put(key+".bias", []int64{oc}, bias)
	cv := g.name()
	v := cv
	attrs := fmt.Sprintf("kernel = [%d, %d], params = %q, stride = %d", k, k, key, stride)
	if pad > 0 {
		attrs += fmt.Sprintf(", padding = %d", pad)
	}
	g.line("%s = nn.conv2d %s {%s} : (%s) -> %s", v, x, attrs, ttype(s.shape()), ttype(o.shape()))
	g.model = append(g.model, func(env map[string]rtensor) {
		in := env[x]
		out := rtensor{shape: o.shape()}
		for oo := range oc {
			for i := range o.h {
				for j := range o.w {
					sum := new(big.Rat).SetFloat64(bias[oo])
					nneval.Taps(s.h, s.w, k, k, stride, pad, i, j, func(at, di, dj int64) {
						for c := range s.c {
							wv := new(big.Rat).SetFloat64(w[((oo*s.c+c)*k+di)*k+dj])
							sum.Add(sum, wv.Mul(wv, in.data[c*s.plane()+at]))
						}
					})
					out.data = append(out.data, sum)
				}
			}
		}
		env[cv] = out
	})
	if importer {
		scales := make([]float64, oc)
		for i := range scales {
			scales[i] = g.scale()
		}
		v = g.channelOp("mul", v, o, key+".weight_scale", scales)
		if g.rng.IntN(2) == 0 {
			b := make([]float64, oc)
			for i := range b {
				b[i] = float64(float32(g.rng.NormFloat64()))
			}
			v = g.channelOp("add", v, o, key+".bias_add", b)
		}
	}
	return v, o
}

// poolLayer emits a max pool (or average pool) of x over k×k windows of
// the given stride and padding (an average counting the padding's cells,
// as nn.avg_pool2d does), and its exact model.
func (g *qgen) poolLayer(x string, s chw, isMax bool, k, stride, pad int64) (string, chw) {
	o := chw{s.c, (s.h+2*pad-k)/stride + 1, (s.w+2*pad-k)/stride + 1}
	kind := "max_pool2d"
	if !isMax {
		kind = "avg_pool2d"
	}
	padding := ""
	if pad != 0 {
		padding = fmt.Sprintf("padding = %d, ", pad)
	}
	v := g.name()
	g.line("%s = nn.%s %s {kernel = [%d, %d], %sstride = %d} : (%s) -> %s", v, kind, x, k, k, padding, stride, ttype(s.shape()), ttype(o.shape()))
	g.model = append(g.model, func(env map[string]rtensor) {
		in := env[x]
		out := rtensor{shape: o.shape()}
		for c := range s.c {
			for i := range o.h {
				for j := range o.w {
					var m *big.Rat
					sum := new(big.Rat)
					nneval.Taps(s.h, s.w, k, k, stride, pad, i, j, func(at, _, _ int64) {
						r := in.data[c*s.plane()+at]
						sum.Add(sum, r)
						if m == nil || r.Cmp(m) > 0 {
							m = r
						}
					})
					if !isMax {
						m = sum.Quo(sum, big.NewRat(k*k, 1))
					}
					out.data = append(out.data, m)
				}
			}
		}
		env[v] = out
	})
	return v, o
}

// globalPool emits a global average pool of x (the window its plane, of
// any number of cells), and its exact model.
func (g *qgen) globalPool(x string, s chw) (string, chw) {
	o := chw{s.c, 1, 1}
	v := g.name()
	g.line("%s = nn.avg_pool2d %s {kernel = [%d, %d], stride = 1} : (%s) -> %s", v, x, s.h, s.w, ttype(s.shape()), ttype(o.shape()))
	g.model = append(g.model, func(env map[string]rtensor) {
		in := env[x]
		out := rtensor{shape: o.shape()}
		for c := range s.c {
			sum := new(big.Rat)
			for _, r := range in.data[c*s.plane() : (c+1)*s.plane()] {
				sum.Add(sum, r)
			}
			out.data = append(out.data, sum.Quo(sum, big.NewRat(s.plane(), 1)))
		}
		env[v] = out
	})
	return v, o
}

// genCNN builds a random QONNX CNN.
func genCNN(rng *rand.Rand) (*qgen, string, []int64, *quant.UniformType) {
	return genConvNet(rng, false, false)
}

// genGAPCNN is genCNN ending in a global average pool (MobileNet's, over
// a plane of any size, 1 to 49 cells) and a quantizer before its dense
// layer.
func genGAPCNN(rng *rand.Rand) (*qgen, string, []int64, *quant.UniformType) {
	return genConvNet(rng, true, false)
}

// genWindowCNN is genCNN with pools of random windows (genCNN's are 2x2
// of stride 2): 2x2 or 3x3 cells, stride 1 to 3, padding 0 or 1, so that
// average pools over 9 cells overlap, hold padding, or tile the plane.
func genWindowCNN(rng *rand.Rand) (*qgen, string, []int64, *quant.UniformType) {
	return genConvNet(rng, false, true)
}

func genConvNet(rng *rand.Rand, gap, windows bool) (*qgen, string, []int64, *quant.UniformType) {
	g := &qgen{rng: rng, payload: map[string]*tensor.Tensor{}}
	s := chw{int64(1 + rng.IntN(2)), int64(4 + rng.IntN(4)), 0}
	s.w = s.h
	in0 := s
	var in *quant.UniformType
	x := "%arg0"
	if rng.IntN(3) != 0 {
		w := 4 + rng.IntN(5)
		in = quant.Uniform(w, rng.IntN(4) != 0, w-1-rng.IntN(4))
	} else {
		bits := 2 + rng.IntN(6)
		x = g.quantNode(x, s.shape(), "qin", bits, rng.IntN(2) == 0, rng.IntN(3) == 0, roundings[rng.IntN(len(roundings))], false, false)
	}
	for l := range 1 + rng.IntN(2) {
		if l > 0 {
			x = g.channelQuant(x, s, fmt.Sprintf("c%d.qa", l))
		}
		k := int64(2 + rng.IntN(2))
		stride, pad := int64(1+rng.IntN(2)), int64(rng.IntN(2))
		if s.h+2*pad < k {
			pad = 1
		}
		x, s = g.convLayer(x, s, int64(1+rng.IntN(3)), k, stride, pad, fmt.Sprintf("c%d", l))
		if rng.IntN(3) == 0 { // batch norm
			mean, a, beta := make([]float64, s.c), make([]float64, s.c), make([]float64, s.c)
			for i := range mean {
				mean[i], a[i], beta[i] = float64(float32(rng.NormFloat64())), float64(float32(rng.NormFloat64())), float64(float32(rng.NormFloat64()))
				if rng.IntN(6) == 0 {
					a[i] = 0
				}
			}
			x = g.channelOp("sub", x, s, fmt.Sprintf("c%d.bn.mean", l), mean)
			x = g.channelOp("mul", x, s, fmt.Sprintf("c%d.bn.a", l), a)
			x = g.channelOp("add", x, s, fmt.Sprintf("c%d.bn.beta", l), beta)
		}
		if rng.IntN(3) != 0 {
			x = g.relu(x, s.shape())
		}
		if s.h >= 2 && s.w >= 2 && rng.IntN(2) == 0 {
			x = g.channelQuant(x, s, fmt.Sprintf("c%d.qp", l))
			if rng.IntN(3) == 0 { // decreasing functions of the codes in some channels
				neg := make([]float64, s.c)
				for i := range neg {
					neg[i] = float64(2*rng.IntN(2)-1) * 0.5
				}
				x = g.channelOp("mul", x, s, fmt.Sprintf("c%d.neg", l), neg)
			}
			isMax, k, stride, pad := rng.IntN(3) != 0, int64(2), int64(2), int64(0)
			if windows {
				isMax, k, stride, pad = rng.IntN(3) == 0, int64(2+rng.IntN(2)), int64(1+rng.IntN(3)), int64(rng.IntN(2))
				if s.h+2*pad < k {
					pad = 1
				}
			}
			x, s = g.poolLayer(x, s, isMax, k, stride, pad)
		}
	}
	if gap {
		x = g.channelQuant(x, s, "qg")
		x, s = g.globalPool(x, s)
	}
	x = g.channelQuant(x, s, "qf")
	n := s.c * s.h * s.w
	r := g.name()
	g.line("%s = nn.reshape %s : (%s) -> %s", r, x, ttype(s.shape()), ttype([]int64{1, n}))
	src := x
	g.model = append(g.model, func(env map[string]rtensor) { env[r] = rtensor{shape: []int64{1, n}, data: env[src].data} })
	x = g.dense(r, n, int64(2+rng.IntN(3)), 9)
	shape := []int64{1, g.payload["l9.w"].Shape[0]}
	x = g.randomQuant(x, shape, "qout")
	text := fmt.Sprintf("module {\n  nn.graph @cnn(%%arg0: %s) -> %s {\n%s\n    nn.return %s : %s\n  }\n}\n",
		ttype(in0.shape()), ttype(shape), strings.Join(g.lines, "\n"), x, ttype(shape))
	return g, text, shape, in
}

func TestRandomCNNs(t *testing.T) {
	checkRandomGraphs(t, 60, 50, 2727, "cnn", genCNN)
}

// TestRandomGAPCNNs is TestRandomCNNs ending in global average pools.
func TestRandomGAPCNNs(t *testing.T) {
	checkRandomGraphs(t, 60, 50, 2728, "gapcnn", genGAPCNN)
}

// TestRandomWindowCNNs is TestRandomCNNs with pools of random windows.
func TestRandomWindowCNNs(t *testing.T) {
	checkRandomGraphs(t, 60, 50, 2729, "windowcnn", genWindowCNN)
}

// checkRandomGraphs checks graphs graphs of gen (seeds 0, 1, ... with
// stream the PCG's second word) on rows inputs each (checkDifferential);
// with OTIR_QONNXDIFF_KEEP set, each graph's files are kept in
// $OTIR_QONNXDIFF_KEEP/sub/seed.
func checkRandomGraphs(t *testing.T, graphs, rows int, stream uint64, sub string, gen func(*rand.Rand) (*qgen, string, []int64, *quant.UniformType)) {
	keep := os.Getenv("OTIR_QONNXDIFF_KEEP")
	for seed := range uint64(graphs) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			g, text, outShape, in := gen(rand.New(rand.NewPCG(seed, stream)))
			dir := ""
			if keep != "" {
				dir = filepath.Join(keep, sub, fmt.Sprint(seed))
			}
			checkDifferential(t, g, text, outShape, in, rows, dir, false)
		})
	}
}

// checkDifferential runs a generated graph through nn-to-circuit and
// checks, on rows inputs of the input grid, circuit == exact model ==
// float evaluator; keep (when not "") receives the graph, payload and
// input-type option. A graph nn-to-circuit reports an error on fails t,
// or with lenient (fuzzing: a diagnostic such as a range beyond 62 bits is
// a clean answer) skips it.
func checkDifferential(t *testing.T, g *qgen, text string, outShape []int64, in *quant.UniformType, rows int, keep string, lenient bool) {
	t.Helper()
	dir := t.TempDir()
	if keep != "" {
		dir = keep
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "g.mlir"), []byte(text), 0o644)
		os.WriteFile(filepath.Join(dir, "options"), []byte(inputTypeOption(in)), 0o644)
	}
	params := circuittest.WritePayload(t, dir, g.payload)
	opts := "params=" + params + inputTypeOption(in)
	p, ds := circuittest.TryCircuit(t, text, opts)
	if ds.HasErrors() {
		if lenient {
			t.Skipf("nn-to-circuit{%s}: %v", opts, ds)
		}
		t.Fatalf("nn-to-circuit{%s}: %v\n%s", opts, ds, text)
	}
	nin := p.NumInputs()
	cin, model := g.inputs(in, int64(nin), rows)
	got := circuittest.Run(t, p, cin, rows)
	var x []float64 // the inputs of the model, for the float evaluator
	for _, row := range model {
		for _, v := range row {
			f, _ := v.Float64()
			x = append(x, f)
		}
	}
	ev := circuittest.Eval(t, circuittest.Graph(t, text), g.payload, x, rows)
	nout := int(outShape[1])
	last := "%v" + fmt.Sprint(g.n)
	for r := range rows {
		want := g.exactModel(model[r], last)
		for j := range nout {
			w, _ := want[j].Float64()
			if got[r*nout+j] != w {
				t.Fatalf("row %d output %d: circuit %v, exact %v (%s)\ninputs %v\n%s", r, j, got[r*nout+j], w, want[j].RatString(), cin[r*nin:(r+1)*nin], text)
			}
			if e := ev[r*nout+j]; e != w {
				t.Fatalf("row %d output %d: float evaluator %v, exact %v\n%s", r, j, e, w, text)
			}
		}
	}
}
