package qonnx

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"
)

// The lookup-table softmax (docs/nn-to-circuit.md, "A softmax as lookup
// tables"): over the last axis of x, an exact or quantized value (another
// axis is permuted last and back), with N = softmax-bits,
//
//	m = max_k x_k                          nn.max_pool2d of the [1, M, K] view, x's type
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
// SoftmaxBound(K, N) (≤ 2^-8 for N = 10 and K ≤ 10). nn-absorb-quant
// (absorber.softmax) and nn-quantize (lower/nn/quantize) both build it with
// LookupSoftmax.

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
		tables:   [2]int{dw, sw},
	}
	for i, w := range t.tables {
		if w > quant.MaxTableWidth {
			return nil, &tableSizeError{table: [2]string{"exp", "inv"}[i], width: w, bits: n}
		}
	}
	return t, nil
}

// SoftmaxBound is the largest |y − p| of the lookup-table softmax of K
// classes at N bits, p the exact softmax: the floor of d (a shift of at
// most h = 2^-(N-2) per class moves a probability by at most
// (e^h − 1)/4), exp's table and the clamp (each e_k at most one step
// 2^-(N+3) low, the maximum's exact: max(1, K−1) steps), the floor of s
// (2^-N), inv's table (2^-(N+2)) and y's rounding (2^-(N+1)).
func SoftmaxBound(k int64, n int) float64 {
	h := math.Ldexp(1, -(n - 2))
	return math.Expm1(h)/4 + float64(max(1, k-1))*math.Ldexp(1, -(n+3)) +
		math.Ldexp(1, -n) + math.Ldexp(1, -(n+2)) + math.Ldexp(1, -(n+1))
}

// DeclareSoftmaxBits declares softmax-bits, an option of nn-absorb-quant
// and of nn-quantize (and so of nn-to-circuit): one option, one meaning.
func DeclareSoftmaxBits(d *passes.Decl, p *int) {
	d.Int(p, "softmax-bits", DefaultSoftmaxBits, "the fraction bits N of a softmax's probabilities: it becomes lookup tables of exp(x − max) and inv, within about 2^-N·(2.75 + (K−1)/8) of the exact softmax of its operand's values for K classes (an error of the operand itself adds at most half its largest element's: docs/nn.md \"nn-quantize\")").
		Range(minSoftmaxBits, maxSoftmaxBits)
}

// softmax lowers an nn.softmax of x to lookup tables (LookupSoftmax).
func (a *absorber) softmax(op *ir.Operation, x *val) (*val, error) {
	if tileview.Count(x.shape) == 0 {
		return &val{shape: x.shape, konst: []*big.Rat{}}, nil // a softmax of no elements
	}
	axis, _ := op.IntAttr("axis")
	xe, err := a.emitExact(x)
	if err != nil {
		return nil, fmt.Errorf("the softmax's operand has no exact fixed-point value (%v): give drop-final-softmax=true to end the circuit at the logits", err)
	}
	n := cmp.Or(a.opts.SoftmaxBits, DefaultSoftmaxBits)
	y, err := LookupSoftmax(a.b, xe, axis, n, nil)
	if err != nil {
		if _, ok := err.(*tableSizeError); ok {
			err = fmt.Errorf("%v or drop-final-softmax=true", err)
		}
		return nil, err
	}
	out := &val{shape: x.shape, code: y, frac: n, lo: 0, hi: 1 << n, fn: make([]elemFn, len(x.fn))}
	step := pow2(-n)
	for i := range out.fn {
		out.fn[i] = scaleFn(step)
	}
	return out, nil
}

// tableSizeError says that a softmax's table would be too large.
type tableSizeError struct {
	table       string
	width, bits int
}

func (e *tableSizeError) Error() string {
	return fmt.Sprintf("the softmax's %s table would have 2^%d entries (at most 2^%d): give a smaller softmax-bits (now %d)", e.table, e.width, quant.MaxTableWidth, e.bits)
}

// LookupSoftmax builds at b's insertion point the lookup-table softmax of
// softmax-bits n along axis of x, an exact (f64) or quantized tensor, and
// returns its probabilities, of x's shape and type u(n+1) at 2^-n: the
// nodes of the table above, over the [1, M, K] view of x (x's type until
// the subtraction), with a permute before and after when the axis is not
// the last. Its error against the exact softmax of x's values is at most
// SoftmaxBound(K, n). name, when not nil, is told each new node by its part
// ("max", "exp", "sum", "inv", ...). nn-absorb-quant and nn-quantize both
// lower nn.softmax by it.
func LookupSoftmax(b *ir.Builder, x *ir.Value, axis int64, n int, name func(part string, v *ir.Value)) (*ir.Value, error) {
	xt := x.Type.(*ir.TensorType)
	shape, rank := xt.Shape, int64(len(xt.Shape))
	if axis < 0 || axis >= rank {
		return nil, fmt.Errorf("a softmax over axis %d of a rank-%d tensor", axis, rank)
	}
	k := shape[axis]
	t, err := newSoftmaxTypes(k, n)
	if err != nil {
		return nil, err
	}
	e := &nodeChain{b: b, name: name}
	if tileview.Count(shape) == 0 {
		return e.konst("out", shape, t.y, nil), e.err // no elements: nothing to compute
	}
	// The softmax's axis last: perm moves it there, back undoes it.
	perm, back := make([]int64, 0, rank), make([]int64, rank)
	for i := range rank {
		if i != axis {
			perm = append(perm, i)
		}
	}
	perm = append(perm, axis)
	last := make([]int64, rank)
	for i, p := range perm {
		last[i], back[p] = shape[p], int64(i)
	}
	if axis != rank-1 {
		x = e.node("perm", kPermute, last, xt.Elem, permAttr(perm), x)
	}
	rows := tileview.Count(shape) / k
	view := []int64{1, rows, k}
	x3 := e.node("rows", kReshape, view, xt.Elem, nil, x)
	m := e.node("max", kMaxPool2d, []int64{1, rows, 1}, xt.Elem, ir.Attrs{
		{Name: "kernel", Value: &ir.ArrayAttr{Elems: []ir.Attr{ir.I64(1), ir.I64(k)}}},
		{Name: "stride", Value: ir.I64(1)},
	}, x3)
	d := e.node("diff", kSub, view, f64, nil, x3, e.node("max_broadcast", kBroadcastTo, view, xt.Elem, nil, m))
	dq := e.node("clamp", kMax, view, t.d, nil, d, e.konst("low", view, f64, ratInt(t.clampLow)))
	ex := e.node("exp", kExp, view, t.e, nil, dq)
	s := e.node("sum", kReduceSum, []int64{1, rows}, t.s, ir.Attrs{{Name: "axis", Value: ir.I64(2)}}, ex)
	r := e.node("inv", kInv, []int64{1, rows}, t.r, nil, s)
	rk := e.node("inv_keepdim", kReshape, []int64{1, rows, 1}, t.r, nil, r)
	p := e.node("product", kMul, view, f64, nil, ex, e.node("inv_broadcast", kBroadcastTo, view, t.r, nil, rk))
	y := e.node("rounded", kAdd, view, t.y, nil, p, e.konst("half", view, f64, t.half))
	y = e.node("unview", kReshape, last, t.y, nil, y)
	if axis != rank-1 {
		y = e.node("unperm", kPermute, shape, t.y, permAttr(back), y)
	}
	if e.err != nil {
		return nil, e.err
	}
	return y, nil
}

func permAttr(perm []int64) ir.Attrs {
	elems := make([]ir.Attr, len(perm))
	for i, p := range perm {
		elems[i] = ir.I64(p)
	}
	return ir.Attrs{{Name: "perm", Value: &ir.ArrayAttr{Elems: elems}}}
}

// nodeChain emits nodes until the first error, telling name each one.
type nodeChain struct {
	b    *ir.Builder
	name func(part string, v *ir.Value)
	err  error
}

// node emits kind(operands) of the given shape and element type; a
// reshape to the operand's own shape is the operand.
func (c *nodeChain) node(part, kind string, shape []int64, elem ir.Type, attrs ir.Attrs, operands ...*ir.Value) *ir.Value {
	if c.err != nil {
		return nil
	}
	if kind == kReshape && slices.Equal(operands[0].Type.(*ir.TensorType).Shape, shape) {
		return operands[0]
	}
	v, err := nn.Node(c.b, kind, operands, ir.Tensor(shape, elem), attrs)
	c.err = err
	if err == nil && c.name != nil {
		c.name(part, v)
	}
	return v
}

// konst is an inline constant part of shape and element type, every element r.
func (c *nodeChain) konst(part string, shape []int64, elem ir.Type, r *big.Rat) *ir.Value {
	if c.err != nil {
		return nil
	}
	rs := make([]*big.Rat, tileview.Count(shape))
	for i := range rs {
		rs[i] = r
	}
	v, err := inlineConst(c.b, shape, elem, rs)
	c.err = err
	if err == nil && c.name != nil {
		c.name(part, v)
	}
	return v
}
