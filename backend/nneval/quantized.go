package nneval

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"sync"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/ir"
)

// The quantized evaluator (../shared/design/nn-graph.md §5, docs/nn.md
// "Quantized graphs"): in a quantized graph every value is exact, an int64
// mantissa per element and one power-of-two scale per tensor. A quantized
// argument quantizes the caller's input (floor, wrap); every node computes
// its exact result from its operands' exact values and its parameters'
// (a float64 is a dyadic rational); a node of quantized result type then
// floors it to its scale and wraps it to its width, a node of f64 result
// type keeps it. Function kinds read their value from quant.LookupTable
// over the function of the float evaluator's table. An exact value beyond
// 62 bits of mantissa is an error: a circuit would need an adder that wide.

// Exact is a tensor of exact dyadic values: element i is M[i]·2^-F.
type Exact struct {
	Shape []int64
	M     []int64
	F     int
}

// MaxExactBits bounds the mantissas of exact values: |M[i]| < 2^62.
const MaxExactBits = 62

const exactLimit = int64(1) << MaxExactBits

// Float is the tensor of the exact values, each rounded to the nearest
// float64 (exact when the mantissa has at most 53 significant bits).
func (e *Exact) Float() *tensor.Tensor {
	t := tensor.New(e.Shape)
	for i, m := range e.M {
		t.Data[i] = math.Ldexp(float64(m), -e.F)
	}
	return t
}

// newExact is a zero tensor of the given shape at scale 2^-f.
func newExact(shape []int64, f int) *Exact {
	return &Exact{Shape: append([]int64{}, shape...), M: make([]int64, tensor.NumElements(shape)), F: f}
}

// QuantizeInput is a graph argument's value: each element of the caller's
// real input quantized to t (floor, wrap; NaN and ±Inf give 0).
func QuantizeInput(in *tensor.Tensor, t *quant.UniformType) *Exact {
	e := newExact(in.Shape, t.Frac)
	for i, v := range in.Data {
		e.M[i] = t.Quantize(v)
	}
	return e
}

// Requantize floors every value of e to t's scale and wraps it to t's
// width: what a node of quantized result type does to its exact result.
func Requantize(e *Exact, t *quant.UniformType) *Exact {
	out := newExact(e.Shape, t.Frac)
	d := t.Frac - e.F
	for i, m := range e.M {
		var q int64
		if d >= 0 {
			q = int64(uint64(m) << uint(d)) // exact modulo 2^64, and t.Width < 64
		} else {
			q = m >> uint(-d) // floor (Go's shift of a signed integer is arithmetic)
		}
		out.M[i] = t.Wrap(q)
	}
	return out
}

// checked is integer arithmetic on exact mantissas: a result beyond 62 bits
// sets over (and the node's evaluation then fails).
type checked struct{ over bool }

func (c *checked) fit(v int64) int64 {
	if v >= exactLimit || v <= -exactLimit {
		c.over = true
	}
	return v
}

// add of two mantissas below 2^62 cannot overflow an int64.
func (c *checked) add(a, b int64) int64 { return c.fit(a + b) }

func (c *checked) sub(a, b int64) int64 { return c.fit(a - b) }

func (c *checked) mul(a, b int64) int64 {
	hi, lo := bits.Mul64(absU(a), absU(b))
	if hi != 0 || lo >= uint64(exactLimit) {
		c.over = true
		return 0
	}
	if (a < 0) != (b < 0) {
		return -int64(lo)
	}
	return int64(lo)
}

// shl is a·2^s, s ≥ 0.
func (c *checked) shl(a int64, s int) int64 {
	if a == 0 {
		return 0
	}
	if s >= MaxExactBits || bits.Len64(absU(a))+s > MaxExactBits {
		c.over = true
		return 0
	}
	return a << uint(s)
}

func absU(a int64) uint64 {
	if a < 0 {
		return uint64(-a)
	}
	return uint64(a)
}

// floorDiv is ⌊a/n⌋ for n > 0.
func floorDiv(a, n int64) int64 {
	q := a / n
	if a%n != 0 && a < 0 {
		q--
	}
	return q
}

// errTooWide is the error of a node whose exact value needs more than 62
// bits.
func (n *node) errTooWide(f int) error {
	if n.exact.out == nil {
		return fmt.Errorf("its exact value needs more than %d bits at scale 2^%d: give it a quantized result type (a circuit cannot hold it exactly)", MaxExactBits, -f)
	}
	return fmt.Errorf("its exact value, before quantization to '%s', needs more than %d bits at scale 2^%d: narrow its operands' types", n.exact.out, MaxExactBits, -f)
}

// exactResult returns e, or the error of a node whose arithmetic
// overflowed.
func (n *node) exactResult(c *checked, e *Exact) (*Exact, error) {
	if c.over {
		return nil, n.errTooWide(e.F)
	}
	return e, nil
}

// align returns e at the finer scale f ≥ e.F.
func align(c *checked, e *Exact, f int) *Exact {
	if f == e.F {
		return e
	}
	out := newExact(e.Shape, f)
	for i, m := range e.M {
		out.M[i] = c.shl(m, f-e.F)
	}
	return out
}

// alignAll returns the operands at one scale, the finest of theirs.
func alignAll(c *checked, es []*Exact) ([]*Exact, int) {
	f := math.MinInt
	for _, e := range es {
		f = max(f, e.F)
	}
	out := make([]*Exact, len(es))
	for i, e := range es {
		out[i] = align(c, e, f)
	}
	return out, f
}

// exactParam is a payload entry's exact value: every finite float64 is a
// dyadic rational; the tensor's scale is the finest its entries need.
// what names the values in diagnostics (entry(key), nn.ConstSource).
func (n *node) exactParam(what string, t *tensor.Tensor) (*Exact, error) {
	f := math.MinInt
	for _, v := range t.Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s holds %v, which has no exact value", what, v)
		}
		if v != 0 {
			f = max(f, quant.FracOf(v))
		}
	}
	if f == math.MinInt {
		f = 0
	}
	e := newExact(t.Shape, f)
	for i, v := range t.Data {
		m := math.Ldexp(v, f)
		if math.Abs(m) >= float64(exactLimit) {
			return nil, fmt.Errorf("%s needs more than %d bits at one scale (2^%d, for its finest value): round its values to fewer bits", what, MaxExactBits, -f)
		}
		e.M[i] = int64(m)
	}
	return e, nil
}

// RoundParam is payload entry key rounded to the parameter type t (a
// weight_type or bias_type, an nn.const's quantized result type) by
// quant.UniformType.Round (nearest, ties to even, saturating): each value
// q·2^-F as a float64; p itself when t is nil. The evaluator and the
// lowering read parameters through it. A rounded value float64 cannot
// hold (a type wider than 53 bits, saturated) is an error.
func RoundParam(key string, p *tensor.Tensor, t *quant.UniformType) (*tensor.Tensor, error) {
	return roundParam(entry(key), p, t)
}

// entry names payload entry key in diagnostics.
func entry(key string) string { return "payload entry '" + key + "'" }

// ConstValues is the values of nn.const op, rounded to t as RoundParam
// rounds (t nil: as they are): its inline value, or its payload entry as
// payload reads it (each caller checks the entry its own way). The
// evaluator and the lowering read constants through it.
func ConstValues(op *ir.Operation, payload func(key string) (*tensor.Tensor, error), t *quant.UniformType) (*tensor.Tensor, error) {
	var p *tensor.Tensor
	if v, ok := nn.InlineValue(op); ok {
		p = &tensor.Tensor{Data: v}
		if rt, isTensor := op.Results[0].Type.(*ir.TensorType); isTensor {
			p.Shape = append([]int64{}, rt.Shape...)
		}
	} else {
		s, _ := op.StringAttr("params")
		var err error
		if p, err = payload(s); err != nil {
			return nil, err
		}
	}
	return roundParam(nn.ConstSource(op), p, t)
}

// roundParam is RoundParam of the values what names.
func roundParam(what string, p *tensor.Tensor, t *quant.UniformType) (*tensor.Tensor, error) {
	if t == nil {
		return p, nil
	}
	out := tensor.New(p.Shape)
	for i, v := range p.Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s holds %v at flat index %d: parameters must be finite", what, v, i)
		}
		q := t.Round(v)
		r := t.Value(q)
		if back := math.Ldexp(r, t.Frac); back >= 0x1p63 || back < -0x1p63 || int64(back) != q {
			return nil, fmt.Errorf("%s rounds to %d·2^%d at flat index %d, which a float64 cannot hold: narrow '%s'", what, q, -t.Frac, i, t)
		}
		out.Data[i] = r
	}
	return out, nil
}

// lookupTables caches the tables of function kinds across evaluations
// (quant.LookupTable is a function of its types and function), up to
// maxCachedTableEntries entries in all.
var lookupTables struct {
	sync.Mutex
	m       map[tableKey][]int64
	entries int
}

type tableKey struct {
	in, out *quant.UniformType
	op      string
}

const maxCachedTableEntries = 1 << 24

// table is the lookup table of function kind op from in to out.
func table(op string, in, out *quant.UniformType, f func(float64) float64) ([]int64, error) {
	key := tableKey{in, out, op}
	lookupTables.Lock()
	t, ok := lookupTables.m[key]
	lookupTables.Unlock()
	if ok {
		return t, nil
	}
	t, err := quant.LookupTable(in, out, f)
	if err != nil {
		return nil, err
	}
	lookupTables.Lock()
	defer lookupTables.Unlock()
	if lookupTables.entries+len(t) <= maxCachedTableEntries {
		if lookupTables.m == nil {
			lookupTables.m = map[tableKey][]int64{}
		}
		lookupTables.m[key] = t
		lookupTables.entries += len(t)
	}
	return t, nil
}

// errNotQuantized: a function kind's operand or result is not quantized
// (the verifier rejects such a graph).
var errNotQuantized = errors.New("needs quantized operand and result types in a quantized graph: a circuit computes it as a lookup table")

// lookup is a function kind in a quantized graph: the table entry of each
// stored operand integer.
func lookup(n *node) (*Exact, error) {
	in := quant.ElementOf(n.op.Operands[0].Type)
	f, _ := UnaryFunc(n.op.Name)
	if in == nil || n.exact.out == nil || f == nil {
		return nil, errNotQuantized
	}
	tab, err := table(n.op.Name, in, n.exact.out, f)
	if err != nil {
		return nil, err
	}
	x := n.exact.ins[0]
	y := newExact(x.Shape, n.exact.out.Frac)
	for i, q := range x.M {
		j := q - in.QMin()
		if j < 0 || j >= int64(len(tab)) {
			return nil, fmt.Errorf("operand value %d is outside its type '%s'", q, in)
		}
		y.M[i] = tab[j]
	}
	return y, nil
}

// exactRequantize is nn.requantize: every value rounded by the node's
// mode to its result type's scale, then clamped or wrapped
// (nn.Requant.Code).
func exactRequantize(n *node) (*Exact, error) {
	r, err := nn.RequantOf(n.op)
	if err != nil {
		return nil, err
	}
	x := n.exact.ins[0]
	y := newExact(x.Shape, r.Type.Frac)
	for i, m := range x.M {
		y.M[i] = r.Code(m, x.F)
	}
	return y, nil
}

func exactConstant(n *node) (*Exact, error) {
	p, err := ConstValues(n.op, n.constEntry, n.exact.out)
	if err != nil {
		return nil, err
	}
	e, err := n.exactParam(nn.ConstSource(n.op), p)
	if err != nil {
		return nil, err
	}
	e.Shape = append([]int64{}, n.out.Shape...)
	return e, nil
}

// exactAligned applies f to the elements of two equal-shaped operands
// brought to one scale.
func exactAligned(f func(c *checked, a, b int64) int64) func(*node) (*Exact, error) {
	return func(n *node) (*Exact, error) {
		c := &checked{}
		ab, fa := alignAll(c, n.exact.ins)
		y := newExact(n.out.Shape, fa)
		for i := range y.M {
			y.M[i] = f(c, ab[0].M[i], ab[1].M[i])
		}
		return n.exactResult(c, y)
	}
}

func addExact(c *checked, a, b int64) int64 { return c.add(a, b) }
func subExact(c *checked, a, b int64) int64 { return c.sub(a, b) }
func maxExact(_ *checked, a, b int64) int64 { return max(a, b) }
func minExact(_ *checked, a, b int64) int64 { return min(a, b) }

// exactMul multiplies element-wise; the scales add.
func exactMul(n *node) (*Exact, error) {
	c := &checked{}
	a, b := n.exact.ins[0], n.exact.ins[1]
	y := newExact(n.out.Shape, a.F+b.F)
	for i := range y.M {
		y.M[i] = c.mul(a.M[i], b.M[i])
	}
	return n.exactResult(c, y)
}

// exactUnary applies f to every mantissa (a function that commutes with
// the scale: abs, relu).
func exactUnary(f func(int64) int64) func(*node) (*Exact, error) {
	return func(n *node) (*Exact, error) {
		x := n.exact.ins[0]
		y := newExact(n.out.Shape, x.F)
		for i, m := range x.M {
			y.M[i] = f(m)
		}
		return y, nil
	}
}

func absExact(m int64) int64  { return int64(absU(m)) }
func reluExact(m int64) int64 { return max(m, 0) }

// exactGather runs a shape kind (and detach): the float evaluator's entry
// computes where each result element comes from, on tensors that hold the
// operands' element indices (exact in float64: a value has at most 2^28
// elements), and the result takes those elements' mantissas, the operands
// brought to one scale.
func exactGather(n *node) (*Exact, error) {
	c := &checked{}
	xs, f := alignAll(c, n.exact.ins)
	if c.over {
		return nil, n.errTooWide(f)
	}
	var src []int64
	idx := *n
	idx.ins = make([]*tensor.Tensor, len(xs))
	for k, x := range xs {
		t := tensor.New(x.Shape)
		for i := range t.Data {
			t.Data[i] = float64(len(src) + i)
		}
		src = append(src, x.M...)
		idx.ins[k] = t
	}
	s, _ := semOf(n.op.Name)
	t, err := s.eval(&idx)
	if err != nil {
		return nil, err
	}
	y := newExact(t.Shape, f)
	for i, v := range t.Data {
		y.M[i] = src[int64(v)]
	}
	return y, nil
}

// affine is the exact weight and bias of W·x + b, and its scales: the
// products at fp (x's scale plus W's), the result at f, the finer of fp
// and the bias's.
type affine struct {
	w, b  *Exact
	fp, f int
}

// exactAffine reads the exact weight and bias for input x.
func (n *node) exactAffine(x *Exact, wt, bt *tensor.Tensor) (*affine, error) {
	wt, err := RoundParam(n.params()+".weight", wt, nn.ParamType(n.op, nn.WeightTypeAttr))
	if err != nil {
		return nil, err
	}
	bt, err = RoundParam(n.params()+".bias", bt, nn.ParamType(n.op, nn.BiasTypeAttr))
	if err != nil {
		return nil, err
	}
	w, err := n.exactParam(entry(n.params()+".weight"), wt)
	if err != nil {
		return nil, err
	}
	b, err := n.exactParam(entry(n.params()+".bias"), bt)
	if err != nil {
		return nil, err
	}
	fp := x.F + w.F
	return &affine{w: w, b: b, fp: fp, f: max(fp, b.F)}, nil
}

// plusBias is the sum of products s (at fp) plus bias o, at f.
func (a *affine) plusBias(c *checked, s int64, o int64) int64 {
	return c.add(c.shl(s, a.f-a.fp), c.shl(a.b.M[o], a.f-a.b.F))
}

// exactLinear is W·x + b exactly.
func exactLinear(n *node) (*Exact, error) {
	x := n.exact.ins[0]
	rows, in, out, wt, bt, err := n.linearParams(x.Shape)
	if err != nil {
		return nil, err
	}
	a, err := n.exactAffine(x, wt, bt)
	if err != nil {
		return nil, err
	}
	c := &checked{}
	y := newExact(n.out.Shape, a.f)
	for row := range rows {
		xs := x.M[row*in : (row+1)*in]
		for o := range out {
			s := int64(0)
			ws := a.w.M[o*in : (o+1)*in]
			for i, v := range xs {
				s = c.add(s, c.mul(ws[i], v))
			}
			y.M[row*out+o] = a.plusBias(c, s, o)
		}
	}
	return n.exactResult(c, y)
}

// exactMatmul is the matrix product; the scales add.
func exactMatmul(n *node) (*Exact, error) {
	a, b := n.exact.ins[0], n.exact.ins[1]
	c := &checked{}
	y := newExact(n.out.Shape, a.F+b.F)
	matmulInto(a.Shape, b.Shape, a.M, b.M, y.M, func(s, x, w int64) int64 { return c.add(s, c.mul(x, w)) })
	return n.exactResult(c, y)
}

// exactConv2d is conv2d exactly (scales as exactLinear's).
func exactConv2d(n *node) (*Exact, error) {
	x, wd := n.exact.ins[0], n.window()
	outC, wt, bt, err := n.convParams(wd)
	if err != nil {
		return nil, err
	}
	a, err := n.exactAffine(x, wt, bt)
	if err != nil {
		return nil, err
	}
	c := &checked{}
	y := newExact(n.out.Shape, a.f)
	zero := zeroBlocks(wt.Data, outC*wd.c, wd.kh*wd.kw) // exact zeros add nothing (convWork)
	wd.convCells(outC, func(xo, yo, o, i, j int64) {
		s := int64(0)
		for ch := range wd.c {
			if zero[o*wd.c+ch] {
				continue
			}
			wd.taps(i, j, func(at, di, dj int64) {
				s = c.add(s, c.mul(x.M[xo+ch*wd.h*wd.w+at], a.w.M[((o*wd.c+ch)*wd.kh+di)*wd.kw+dj]))
			})
		}
		y.M[yo] = a.plusBias(c, s, o)
	})
	return n.exactResult(c, y)
}

// divide finishes a division by a count: into a quantized result,
// ⌊S·2^F'/count⌋ wrapped (S the exact sum s·2^-f); into f64, the exact
// quotient, which needs a power-of-two count.
func (n *node) divide(c *checked, s int64, f int, count int64) (int64, error) {
	if n.exact.out == nil {
		if count <= 0 || count&(count-1) != 0 {
			return 0, fmt.Errorf("divides by %d, not a power of two, so its exact result is not a fixed-point value: give it a quantized result type (floor division)", count)
		}
		return s, nil // at scale f + log2(count): see divScale
	}
	if count <= 0 {
		return 0, nil // NaN in the float reading, which quantizes to 0
	}
	d := n.exact.out.Frac - f
	var q int64
	if d >= 0 {
		q = floorDiv(c.shl(s, d), count)
	} else {
		q = floorDiv(s>>uint(-d), count) // ⌊⌊s/2^-d⌋/count⌋ = ⌊s/(2^-d·count)⌋
	}
	return n.exact.out.Wrap(q), nil
}

// divScale is the scale of a division's result: the quantized type's, or
// the sum's finer by log2(count).
func (n *node) divScale(f int, count int64) int {
	if n.exact.out != nil {
		return n.exact.out.Frac
	}
	return f + bits.TrailingZeros64(uint64(count))
}

// exactReduce sums along axis exactly (mean: then divides by its size).
func exactReduce(mean bool) func(*node) (*Exact, error) {
	return func(n *node) (*Exact, error) {
		x := n.exact.ins[0]
		c := &checked{}
		outer, size, inner := lines(x.Shape, int(n.intAttr("axis", 0)))
		f := x.F
		if mean {
			f = n.divScale(x.F, size)
		}
		y := newExact(n.out.Shape, f)
		for o := range outer {
			for in := range inner {
				s := int64(0)
				for k := range size {
					s = c.add(s, x.M[(o*size+k)*inner+in])
				}
				if mean {
					var err error
					if s, err = n.divide(c, s, x.F, size); err != nil {
						return nil, err
					}
				}
				y.M[o*inner+in] = s
			}
		}
		return n.exactResult(c, y)
	}
}

func exactSumAll(n *node) (*Exact, error) {
	c := &checked{}
	x := n.exact.ins[0]
	s := int64(0)
	for _, m := range x.M {
		s = c.add(s, m)
	}
	return n.exactResult(c, &Exact{Shape: []int64{}, M: []int64{s}, F: x.F})
}

// exactPool applies one window function per output cell: max over the
// cells of the input (padding ignored), or the sum with padding as 0
// divided by kH·kW.
func exactPool(isMax bool) func(*node) (*Exact, error) {
	return func(n *node) (*Exact, error) {
		x, wd := n.exact.ins[0], n.window()
		c := &checked{}
		count := wd.kh * wd.kw
		f := x.F
		if !isMax {
			f = n.divScale(x.F, count)
		}
		y := newExact(n.out.Shape, f)
		for pl := range wd.batch * wd.c {
			xd := x.M[pl*wd.h*wd.w:]
			yd := y.M[pl*wd.oh*wd.ow:]
			for i := range wd.oh {
				for j := range wd.ow {
					acc, first := int64(0), true
					wd.taps(i, j, func(at, _, _ int64) {
						switch {
						case !isMax:
							acc = c.add(acc, xd[at])
						case first || xd[at] > acc:
							acc = xd[at]
						}
						first = false
					})
					if !isMax {
						var err error
						if acc, err = n.divide(c, acc, x.F, count); err != nil {
							return nil, err
						}
					}
					yd[i*wd.ow+j] = acc
				}
			}
		}
		return n.exactResult(c, y)
	}
}

var (
	exactMaxPool = exactPool(true)
	exactAvgPool = exactPool(false)
)

// exactState is the evaluation of a quantized graph: every value's exact
// value.
type exactState struct {
	values map[*ir.Value]*Exact
}

// exactNode is what a node of a quantized graph reads besides the float
// node: its operands' exact values, its result's quantized element type
// (nil: f64), and its exact result once computed.
type exactNode struct {
	ins    []*Exact
	out    *quant.UniformType
	result *Exact
}

// quantizeArgs quantizes the caller's inputs of the graph's arguments
// (floor, wrap): vals and res.Values then hold the quantized values.
func (st *exactState) quantizeArgs(graph string, args []*ir.Value, vals map[*ir.Value]*tensor.Tensor, res *Result) error {
	for i, a := range args {
		q := quant.ElementOf(a.Type)
		if q == nil {
			return diag.Errorf(a.Loc, "graph @%s: input #%d (%%%s) of type '%s': an argument of a quantized graph must be quantized", graph, i, Name(a, i), a.Type)
		}
		e := QuantizeInput(vals[a], q)
		st.values[a] = e
		vals[a] = e.Float()
		res.Values[i].Tensor = vals[a]
		res.Exact = append(res.Exact, e)
	}
	return nil
}

// node returns the function that evaluates n in the quantized graph: its
// kind's exact value (exactOps), floored and wrapped into a quantized
// result type, as float64.
func (st *exactState) node(n *node) func(*node) (*tensor.Tensor, error) {
	n.exact = &exactNode{}
	for _, v := range n.op.Operands {
		n.exact.ins = append(n.exact.ins, st.values[v])
	}
	return func(n *node) (*tensor.Tensor, error) {
		f, ok := exactOps.Lookup(n.op.Name)
		if !ok {
			return nil, errors.New("is not allowed in a quantized graph")
		}
		n.exact.out = quant.ElementOf(n.out)
		e, err := f(n)
		if err != nil {
			return nil, err
		}
		if n.exact.out != nil {
			e = Requantize(e, n.exact.out)
		}
		n.exact.result = e
		return e.Float(), nil
	}
}

// record keeps the exact value of node n's result v.
func (st *exactState) record(v *ir.Value, n *node, res *Result) {
	st.values[v] = n.exact.result
	res.Exact = append(res.Exact, n.exact.result)
}
