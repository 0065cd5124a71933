package nnqonnx

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"

	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
)

// The lookup-table softmax (docs/nn-to-circuit.md, "A softmax as lookup
// tables"): over the last axis of an exact value x, with N = softmax-bits,
//
//	m = max_k x_k                          nn.max_pool2d of the [1, M, K] view, exact
//	d = max(x − m, L)                      floored to 2^-(N-2): i at 2^-(N-2), d ≤ 0
//	e = exp(d)                             a table, floored to 2^-(N+3): e(0) = 1
//	s = Σ_k e_k                            floored to 2^-N: s ∈ [1, K]
//	r = inv(s)                             a table, floored to 2^-(N+2)
//	y = floor(e·r·2^N + 1/2) / 2^N         rounded to 2^-N: u(N+1), y ∈ [0, 1]
//
// L = −(⌊(N+3)·ln 2⌋ + 1) is the integer nearest zero whose exp is below
// one step of e's type: every x_k − m < L has e = 0 as its unclamped table
// entry would, so the clamp adds no error. The tables are quant.LookupTable
// of the float evaluator's exp and inv, so the quantized evaluator computes
// what the circuit does. Against the exact softmax p of x, |y − p| ≤
// softmaxBound(K, N) (≤ 2^-8 for N = 10 and K ≤ 10).

// DefaultSoftmaxBits is softmax-bits' default: the probabilities' fraction
// bits.
const DefaultSoftmaxBits = 10

// Bounds of softmax-bits: at least one fraction bit for d, at most tables
// of 2^20 entries for small K.
const minSoftmaxBits, maxSoftmaxBits = 3, 16

// softmaxTypes are the types of the lookup-table softmax for N bits.
type softmaxTypes struct {
	clampLow int64              // L, an integer ≤ −1
	d, e     *quant.UniformType // exp's operand and result
	s, r     *quant.UniformType // inv's operand and result
	y        *quant.UniformType // the probabilities
	half     *big.Rat           // 2^-(N+1), added before y's floor
	bits     int                // N
	tables   [2]int             // the widths of exp's and inv's operands
}

// newSoftmaxTypes chooses the types for K classes at N bits, or says
// why a table would be too large.
func newSoftmaxTypes(k int64, n int) (*softmaxTypes, error) {
	fd, fe, fs, fr := n-2, n+3, n, n+2
	low := -(int64(math.Floor(float64(fe)*math.Ln2)) + 1)
	dw := 1 + big.NewInt(-low<<uint(fd)).BitLen() // signed, holds L·2^fd
	sw := big.NewInt(k).BitLen() + fs             // holds K at 2^-fs
	t := &softmaxTypes{
		clampLow: low,
		d:        quant.Uniform(dw, true, fd),
		e:        quant.Uniform(fe+1, false, fe),
		s:        quant.Uniform(sw, false, fs),
		r:        quant.Uniform(fr+1, false, fr),
		y:        quant.Uniform(n+1, false, n),
		half:     pow2(-(n + 1)),
		bits:     n,
		tables:   [2]int{dw, sw},
	}
	for i, w := range t.tables {
		if w > quant.MaxTableWidth {
			return nil, fmt.Errorf("the softmax's %s table would have 2^%d entries (at most 2^%d): give a smaller softmax-bits (now %d) or drop-final-softmax=true", [2]string{"exp", "inv"}[i], w, quant.MaxTableWidth, n)
		}
	}
	return t, nil
}

// softmaxBound is the largest |y − p| of the lookup-table softmax of K
// classes at N bits, p the exact softmax: the floor of d (a shift of at
// most h = 2^-(N-2) per class moves a probability by at most
// (e^h − 1)/4), exp's table and the clamp (each e_k at most one step
// 2^-(N+3) low, the maximum's exact: max(1, K−1) steps), the floor of s
// (2^-N), inv's table (2^-(N+2)) and y's rounding (2^-(N+1)).
func softmaxBound(k int64, n int) float64 {
	h := math.Ldexp(1, -(n - 2))
	return math.Expm1(h)/4 + float64(max(1, k-1))*math.Ldexp(1, -(n+3)) +
		math.Ldexp(1, -n) + math.Ldexp(1, -(n+2)) + math.Ldexp(1, -(n+1))
}

// checkSoftmaxBits validates softmax-bits when the pipeline is parsed.
func checkSoftmaxBits(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < minSoftmaxBits || n > maxSoftmaxBits {
		return fmt.Errorf("expected an integer from %d to %d", minSoftmaxBits, maxSoftmaxBits)
	}
	return nil
}

// softmax lowers an nn.softmax over the last axis of x to lookup tables.
func (a *absorber) softmax(op *ir.Operation, x *val) (*val, error) {
	axis, _ := op.IntAttr("axis")
	rank := int64(len(x.shape))
	if axis != rank-1 {
		return nil, fmt.Errorf("a softmax over axis %d of a rank-%d tensor: only the last axis is lowered to lookup tables (or give drop-final-softmax=true when it is the graph's last node)", axis, rank)
	}
	if tileview.Count(x.shape) == 0 {
		return &val{shape: x.shape, konst: []*big.Rat{}}, nil // a softmax of no elements
	}
	k := x.shape[rank-1]
	rows := tileview.Count(x.shape) / k
	n := a.opts.SoftmaxBits
	if n == 0 {
		n = DefaultSoftmaxBits
	}
	t, err := newSoftmaxTypes(k, n)
	if err != nil {
		return nil, err
	}
	xe, err := a.emitExact(x)
	if err != nil {
		return nil, fmt.Errorf("the softmax's operand has no exact fixed-point value (%v): give drop-final-softmax=true to end the circuit at the logits", err)
	}
	view := []int64{1, rows, k}
	e := &nodeChain{a: a}
	x3 := e.node(kReshape, view, f64, nil, xe)
	m := e.node(kMaxPool2d, []int64{1, rows, 1}, f64, ir.Attrs{
		{Name: "kernel", Value: &ir.ArrayAttr{Elems: []ir.Attr{ir.I64(1), ir.I64(k)}}},
		{Name: "stride", Value: ir.I64(1)},
	}, x3)
	d := e.node(kSub, view, f64, nil, x3, e.node(kBroadcastTo, view, f64, nil, m))
	low := e.konst(view, ratInt(t.clampLow))
	dq := e.node(kMax, view, t.d, nil, d, low)
	ex := e.node(kExp, view, t.e, nil, dq)
	s := e.node(kReduceSum, []int64{1, rows}, t.s, ir.Attrs{{Name: "axis", Value: ir.I64(2)}}, ex)
	r := e.node(kInv, []int64{1, rows}, t.r, nil, s)
	rb := e.node(kBroadcastTo, view, t.r, nil, e.node(kReshape, []int64{1, rows, 1}, t.r, nil, r))
	p := e.node(kMul, view, f64, nil, ex, rb)
	y := e.node(kAdd, view, t.y, nil, p, e.konst(view, t.half))
	y = e.node(kReshape, x.shape, t.y, nil, y)
	if e.err != nil {
		return nil, e.err
	}
	out := &val{shape: x.shape, code: y, frac: t.bits, lo: 0, hi: 1 << t.bits, fn: make([]elemFn, len(x.fn))}
	step := pow2(-t.bits)
	for i := range out.fn {
		out.fn[i] = scaleFn(step)
	}
	return out, nil
}

// nodeChain emits nodes until the first error.
type nodeChain struct {
	a   *absorber
	err error
}

func (c *nodeChain) node(kind string, shape []int64, elem ir.Type, attrs ir.Attrs, operands ...*ir.Value) *ir.Value {
	if c.err != nil {
		return nil
	}
	if kind == kReshape && slices.Equal(operands[0].Type.(*ir.TensorType).Shape, shape) {
		return operands[0]
	}
	v, err := nn.Node(c.a.b, kind, operands, ir.Tensor(shape, elem), attrs)
	c.err = err
	return v
}

// konst is an inline constant of shape, every element r.
func (c *nodeChain) konst(shape []int64, r *big.Rat) *ir.Value {
	if c.err != nil {
		return nil
	}
	rs := make([]*big.Rat, tileview.Count(shape))
	for i := range rs {
		rs[i] = r
	}
	v, err := c.a.constant(shape, rs)
	c.err = err
	return v
}
