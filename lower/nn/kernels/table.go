package kernels

import (
	"fmt"
	"math/big"
	"math/bits"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/internal/intrange"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/ir/optable"
)

// The lowering of every nn node kind, in one table keyed by operation name
// (an optable.Table): this is the only file of the package that names nn operations.
// TestLoweringsComplete checks that every nn operation has an entry.

// lowering is how one node kind lowers: lower computes the node's exact
// value (the caller then quantizes it to a quantized result type), or
// unsupported says why the kind has no lowering.
type lowering struct {
	lower       func(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error)
	unsupported string
}

var lowerings *optable.Table[lowering]

func init() {
	notQuantized := lowering{unsupported: "not allowed in a quantized graph (nn-quantize decomposes softmax and layer_norm into primitive nodes)"}
	function := lowering{lower: lookupNode}
	lowerings = optable.New("nn-to-otir's lowerings", "table.go", map[string]lowering{
		nn.OpLinear: {lower: linear},
		nn.OpConv2d: {lower: conv2d},
		nn.OpMatmul: {lower: matmulNode},
		nn.OpConst:  {lower: constNode},

		nn.OpRequantize: {lower: requantizeNode},

		nn.OpAdd:    {lower: addSub("add")},
		nn.OpSub:    {lower: addSub("sub")},
		nn.OpMul:    {lower: mulNode},
		nn.OpMax:    {lower: maxMin("max")},
		nn.OpMin:    {lower: maxMin("min")},
		nn.OpRelu:   {lower: relu},
		nn.OpAbs:    {lower: absNode},
		nn.OpDetach: {lower: identity},

		nn.OpMaxPool2d:  {lower: pool(true)},
		nn.OpAvgPool2d:  {lower: pool(false)},
		nn.OpReduceSum:  {lower: reduceNode(false)},
		nn.OpReduceMean: {lower: reduceNode(true)},
		nn.OpSum:        {lower: sumAll},

		nn.OpReshape:         {lower: reshapeNode},
		nn.OpFlatten:         {lower: reshapeNode},
		nn.OpPermute:         {lower: permute},
		nn.OpSwapFirstTwo:    {lower: swapFirstTwo},
		nn.OpTranspose3dLast: {lower: fixedPerm([]int64{0, 2, 1})},
		nn.OpBroadcastTo:     {lower: broadcastTo},
		nn.OpConcat:          {lower: concat},

		nn.OpExp: function, nn.OpLog: function, nn.OpTanh: function, nn.OpSigmoid: function,
		nn.OpSqrt: function, nn.OpInv: function, nn.OpSin: function, nn.OpCos: function,

		nn.OpSoftmax: notQuantized, nn.OpLayerNorm: notQuantized, nn.OpMseLoss: notQuantized,
		nn.OpRandUniform: notQuantized, nn.OpBernoulliMask: notQuantized,
		nn.OpQuant: notQuantized, nn.OpBipolarQuant: notQuantized, nn.OpTrunc: notQuantized, nn.OpFloatQuant: notQuantized, nn.OpMultiThreshold: notQuantized,
	}, func(lw lowering) string { return lw.unsupported })
}

// Support reports whether nn-to-otir lowers the named nn operation, and if
// not, why.
func Support(name string) (ok bool, why string) { return lowerings.Support(name) }

func paramsOf(op *ir.Operation) string {
	s, _ := op.StringAttr("params")
	return s
}

func numel(shape []int64) int64 {
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	return n
}

// linear is W·x + b over the last dimension: one constant-matrix product
// of all rows.
func linear(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	x := ins[0]
	r := len(x.shape)
	in, out := x.shape[r-1], res.Shape[r-1]
	w, err := l.param(paramsOf(op)+".weight", []int64{out, in}, false)
	if err != nil {
		return nil, err
	}
	if w, err = nneval.RoundParam(paramsOf(op)+".weight", w, nn.ParamType(op, nn.WeightTypeAttr)); err != nil {
		return nil, err
	}
	b, err := l.param(paramsOf(op)+".bias", []int64{out}, false)
	if err != nil {
		return nil, err
	}
	if b, err = nneval.RoundParam(paramsOf(op)+".bias", b, nn.ParamType(op, nn.BiasTypeAttr)); err != nil {
		return nil, err
	}
	// B[i][o] = W[o][i].
	wt := make([]float64, in*out)
	for o := range out {
		for i := range in {
			wt[i*out+o] = w.Data[o*in+i]
		}
	}
	rows := numel(x.shape[:r-1])
	acc, err := l.affine(x, x.lo, x.hi, rows, in, out, wt, b.Data)
	if err != nil {
		return nil, err
	}
	acc.v = l.reshape(acc.v, tileShape(res.Shape))
	return acc, nil
}

// affine is the exact product of x (its tile read as [rows, in], values in
// [xlo, xhi]) by the constant matrix w ([in, out], row-major) plus the bias
// b (one per output column): an otir.matmul by an integer weight tile at
// the accumulator's scale 2^-F, F the smallest that makes x's products and
// the bias integers.
func (l *lowerer) affine(x *fixedTile, xlo, xhi *big.Int, rows, in, out int64, w, b []float64) (*fixedTile, error) {
	fw, fb := paramFrac(w), paramFrac(b)
	if fw == noFrac {
		fw = 0
	}
	F := x.frac + fw
	if fb != noFrac {
		F = max(F, fb)
	}
	wf := F - x.frac
	if wf > maxParamFrac || F > maxParamFrac+x.frac {
		return nil, l.errf("its parameters need a scale of 2^-%d (finer than 2^-%d): round them to fewer fractional bits (nn-quantize{weight-bits=N}: weight_type, bias_type)", F, maxParamFrac)
	}
	wi, wlo, whi := integers(w, wf)
	bi, _, _ := integers(b, F)
	// The accumulator's interval, over the outputs.
	var lo, hi *big.Int
	p, q := new(big.Int), new(big.Int)
	for o := range out {
		olo, ohi := new(big.Int).Set(bi[o]), new(big.Int).Set(bi[o])
		for i := range in {
			c := wi[i*out+o]
			if c.Sign() == 0 {
				continue
			}
			p.Mul(c, xlo)
			q.Mul(c, xhi)
			if p.Cmp(q) > 0 {
				p, q = q, p
			}
			olo.Add(olo, p)
			ohi.Add(ohi, q)
		}
		if lo == nil || olo.Cmp(lo) < 0 {
			lo = olo
		}
		if hi == nil || ohi.Cmp(hi) > 0 {
			hi = ohi
		}
	}
	if lo == nil {
		lo, hi = new(big.Int), new(big.Int)
	}
	// The accumulator type holds the result and both inputs (otir.matmul's
	// rule).
	welem := intType(wlo, whi)
	accElem := intType(intrange.Min(lo, xlo, wlo), intrange.Max(hi, xhi, whi))
	bias := make([]*big.Int, rows*out)
	for r := range rows {
		copy(bias[r*out:], bi)
	}
	if allZero(bias) {
		bias = bias[:1]
	}
	a := l.reshape(x.v, []int64{rows, in})
	d := l.matmul(a, l.constant([]int64{in, out}, welem, wi), l.constant([]int64{rows, out}, accElem, bias))
	t := l.exact(d, F, lo, hi)
	if err := l.checkExact(t); err != nil {
		return nil, err
	}
	return t, nil
}

func allZero(xs []*big.Int) bool {
	for _, x := range xs {
		if x.Sign() != 0 {
			return false
		}
	}
	return true
}

// window reads the attributes of conv2d and the pools: kernel, stride and
// padding, and the input's last three dimensions C, H, W.
type window struct {
	kh, kw, stride, pad int64
	c, h, w, oh, ow     int64
}

func windowOf(op *ir.Operation, x []int64, res []int64) window {
	k := op.Attr("kernel").(*ir.ArrayAttr)
	kh, _ := k.Elems[0].(*ir.IntAttr).Int64()
	kw, _ := k.Elems[1].(*ir.IntAttr).Int64()
	s, ok := op.IntAttr("stride")
	if !ok {
		s = 1
	}
	p, _ := op.IntAttr("padding")
	r := len(x)
	return window{kh: kh, kw: kw, stride: s, pad: p, c: x[r-3], h: x[r-2], w: x[r-1], oh: res[len(res)-2], ow: res[len(res)-1]}
}

// padded returns x's tile with its last two dimensions padded by p cells
// of the value fill on each side.
func (l *lowerer) padded(x *fixedTile, p, fill int64) *ir.Value {
	if p == 0 {
		return x.v
	}
	shape := append([]int64{}, tileShape(x.shape)...)
	r := len(shape)
	shape[r-2] += 2 * p
	shape[r-1] += 2 * p
	z := l.splat(shape, elemOf(x.v), fill)
	offs := make([]int64, r)
	offs[r-2], offs[r-1] = p, p
	return l.insert(x.v, z, offs)
}

// windows returns the kH·kW strided slices of a padded tile, one per kernel
// offset (di, dj): slice[..., i, j] = xp[..., i·s+di, j·s+dj].
func (l *lowerer) windows(xp *ir.Value, wd window) []*ir.Value {
	shape := shapeOf(xp)
	r := len(shape)
	var out []*ir.Value
	for di := range wd.kh {
		for dj := range wd.kw {
			offs := make([]int64, r)
			sizes := append([]int64{}, shape...)
			strides := make([]int64, r)
			for i := range strides {
				strides[i] = 1
			}
			offs[r-2], offs[r-1] = di, dj
			sizes[r-2], sizes[r-1] = wd.oh, wd.ow
			strides[r-2], strides[r-1] = wd.stride, wd.stride
			out = append(out, l.extract(xp, offs, sizes, strides))
		}
	}
	return out
}

// conv2d is im2col and one constant-matrix product per sample: the
// patches [oH·oW, C·kH·kW] times the weights [C·kH·kW, outC], plus bias.
func conv2d(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	x := ins[0]
	wd := windowOf(op, x.shape, res.Shape)
	outC := res.Shape[len(res.Shape)-3]
	w, err := l.param(paramsOf(op)+".weight", []int64{outC, wd.c, wd.kh, wd.kw}, false)
	if err != nil {
		return nil, err
	}
	if w, err = nneval.RoundParam(paramsOf(op)+".weight", w, nn.ParamType(op, nn.WeightTypeAttr)); err != nil {
		return nil, err
	}
	b, err := l.param(paramsOf(op)+".bias", []int64{outC}, false)
	if err != nil {
		return nil, err
	}
	if b, err = nneval.RoundParam(paramsOf(op)+".bias", b, nn.ParamType(op, nn.BiasTypeAttr)); err != nil {
		return nil, err
	}
	K := wd.c * wd.kh * wd.kw
	wmat := make([]float64, K*outC)
	for o := range outC {
		for k := range K {
			wmat[k*outC+o] = w.Data[o*K+k]
		}
	}
	xlo, xhi := x.lo, x.hi
	if wd.pad > 0 { // the padding cells are zeros
		xlo, xhi = intrange.Min(xlo, new(big.Int)), intrange.Max(xhi, new(big.Int))
	}
	batch := numel(x.shape[:len(x.shape)-3])
	sample := []int64{wd.c, wd.h, wd.w}
	var out *ir.Value
	var acc *fixedTile
	for n := range batch {
		xs := x.v
		if len(x.shape) == 4 {
			xs = l.reshape(l.extract(x.v, []int64{n, 0, 0, 0}, []int64{1, wd.c, wd.h, wd.w}, []int64{1, 1, 1, 1}), sample)
		}
		xp := l.padded(&fixedTile{v: xs, shape: sample}, wd.pad, 0)
		rows := wd.oh * wd.ow
		patches := l.splat([]int64{rows, K}, elemOf(xp), 0)
		for i, s := range l.windows(xp, wd) { // i = di·kW + dj, slices [C, oH, oW]
			for c := range wd.c {
				col := l.reshape(l.extract(s, []int64{c, 0, 0}, []int64{1, wd.oh, wd.ow}, []int64{1, 1, 1}), []int64{rows, 1})
				patches = l.insert(col, patches, []int64{0, c*wd.kh*wd.kw + int64(i)})
			}
		}
		acc, err = l.affine(&fixedTile{v: patches, frac: x.frac}, xlo, xhi, rows, K, outC, wmat, b.Data)
		if err != nil {
			return nil, err
		}
		y := l.reshape(l.transpose(acc.v, []int64{1, 0}), []int64{outC, wd.oh, wd.ow})
		if len(x.shape) == 3 {
			out = y
			break
		}
		if out == nil {
			out = l.splat(res.Shape, elemOf(y), 0)
		}
		out = l.insert(l.reshape(y, []int64{1, outC, wd.oh, wd.ow}), out, []int64{n, 0, 0, 0})
	}
	if out == nil { // an empty batch
		return &fixedTile{v: l.splat(tileShape(res.Shape), intType(new(big.Int), new(big.Int)), 0), frac: 0, lo: new(big.Int), hi: new(big.Int)}, nil
	}
	return &fixedTile{v: out, frac: acc.frac, lo: acc.lo, hi: acc.hi}, nil
}

// pool is max_pool2d (a max tree over the window, padding with the
// smallest value) or avg_pool2d (a sum tree, padding with zeros, divided by
// kH·kW).
func pool(isMax bool) func(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	return func(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
		x := ins[0]
		wd := windowOf(op, x.shape, res.Shape)
		if isMax {
			xp := l.padded(x, wd.pad, x.lo.Int64())
			v := l.tree("max", l.windows(xp, wd), elemOf(x.v))
			return &fixedTile{v: v, frac: x.frac, lo: x.lo, hi: x.hi}, nil
		}
		n := wd.kh * wd.kw
		xlo, xhi := intrange.Min(x.lo, new(big.Int)), intrange.Max(x.hi, new(big.Int))
		lo, hi := new(big.Int).Mul(xlo, big.NewInt(n)), new(big.Int).Mul(xhi, big.NewInt(n))
		xp := l.padded(x, wd.pad, 0)
		s := &fixedTile{v: l.tree("add", l.windows(xp, wd), intType(lo, hi)), frac: x.frac, lo: lo, hi: hi}
		return l.divide(s, n, res)
	}
}

// tree combines values pairwise, as a balanced tree, in type elem.
func (l *lowerer) tree(kind string, vs []*ir.Value, elem ir.Type) *ir.Value {
	for len(vs) > 1 {
		var next []*ir.Value
		for i := 0; i+1 < len(vs); i += 2 {
			next = append(next, l.binary(kind, vs[i], vs[i+1], elem))
		}
		if len(vs)%2 == 1 {
			next = append(next, vs[len(vs)-1])
		}
		vs = next
	}
	return l.cast(vs[0], elem)
}

// divide is the exact sum s divided by the count n: with a quantized
// result floor(s·2^F / n) at the result's scale (then wrapped by the
// caller); with an f64 result exact, so n must be a power of two.
func (l *lowerer) divide(s *fixedTile, n int64, res *ir.TensorType) (*fixedTile, error) {
	m := bits.TrailingZeros64(uint64(n))
	q := quant.ElementOf(res)
	if q == nil {
		if n&(n-1) != 0 {
			return nil, l.errf("divides by %d, which is not a power of two, for an f64 (exact) result: give the node a quantized result type", n)
		}
		return &fixedTile{v: s.v, frac: s.frac + m, lo: s.lo, hi: s.hi}, nil
	}
	if q.Frac >= s.frac {
		s = l.shiftLeft(s, q.Frac)
	} else {
		s = l.floorShift(s, q.Frac)
	}
	if n&(n-1) == 0 { // floor(s / 2^m)
		t := l.floorShift(s, s.frac-m)
		t.frac = q.Frac
		return t, nil
	}
	// floor(s / n) = (s + c·n) / n - c, with c·n >= -lo so that the
	// division, of a non-negative number, truncates as floor.
	N := big.NewInt(n)
	c := new(big.Int)
	if s.lo.Sign() < 0 {
		c.Neg(s.lo)
		c.Add(c, big.NewInt(n-1))
		c.Quo(c, N)
	}
	cn := new(big.Int).Mul(c, N)
	lo, hi := new(big.Int).Add(s.lo, cn), new(big.Int).Add(s.hi, cn)
	v := s.v
	if c.Sign() != 0 {
		v = l.withScalar("add", v, cn.Int64(), intType(intrange.Min(s.lo, lo), intrange.Max(s.hi, hi, cn)))
	}
	v = l.withScalar("div_u", v, n, intType(lo, intrange.Max(hi, N)))
	qlo, qhi := new(big.Int).Quo(lo, N), new(big.Int).Quo(hi, N)
	if c.Sign() != 0 {
		rlo, rhi := new(big.Int).Sub(qlo, c), new(big.Int).Sub(qhi, c)
		v = l.withScalar("sub", v, c.Int64(), intType(intrange.Min(rlo, qlo), intrange.Max(rhi, qhi, c)))
		qlo, qhi = rlo, rhi
	}
	return &fixedTile{v: l.cast(v, intType(qlo, qhi)), frac: q.Frac, lo: qlo, hi: qhi}, nil
}

// reduceNode is reduce_sum (mean: reduce_mean) along axis.
func reduceNode(mean bool) func(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	return func(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
		x := ins[0]
		axis, _ := op.IntAttr("axis")
		n := x.shape[axis]
		s := l.sumAlong(x, int(axis), n)
		s.v = l.reshape(s.v, tileShape(res.Shape))
		if !mean {
			return s, nil
		}
		if n == 0 {
			return nil, l.errf("takes the mean of an empty axis")
		}
		return l.divide(s, n, res)
	}
}

// sumAlong sums n values along axis exactly.
func (l *lowerer) sumAlong(x *fixedTile, axis int, n int64) *fixedTile {
	N := big.NewInt(n)
	lo, hi := new(big.Int).Mul(intrange.Min(x.lo, new(big.Int)), N), new(big.Int).Mul(intrange.Max(x.hi, new(big.Int)), N)
	if n > 0 {
		lo, hi = new(big.Int).Mul(x.lo, N), new(big.Int).Mul(x.hi, N)
	}
	elem := intType(intrange.Min(lo, x.lo), intrange.Max(hi, x.hi))
	return &fixedTile{v: l.reduce("add", x.v, axis, elem), frac: x.frac, lo: lo, hi: hi}
}

func sumAll(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	x := ins[0]
	n := numel(x.shape)
	flat := &fixedTile{v: l.reshape(x.v, []int64{n}), shape: []int64{n}, frac: x.frac, lo: x.lo, hi: x.hi}
	return l.sumAlong(flat, 0, n), nil
}

// matmulNode is the product of two tensors (no constant: products of
// values), per batch for rank 3.
func matmulNode(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	a, b := ins[0], ins[1]
	r := len(a.shape)
	m, k, p := a.shape[r-2], a.shape[r-1], b.shape[r-1]
	plo, phi := productBounds(a.lo, a.hi, b.lo, b.hi)
	K := big.NewInt(k)
	lo, hi := new(big.Int).Mul(intrange.Min(plo, new(big.Int)), K), new(big.Int).Mul(intrange.Max(phi, new(big.Int)), K)
	elem := intType(intrange.Min(lo, a.lo, b.lo), intrange.Max(hi, a.hi, b.hi))
	zero := l.splat([]int64{m, p}, elem, 0)
	if r == 2 {
		return l.exact(l.matmul(a.v, b.v, zero), a.frac+b.frac, lo, hi), nil
	}
	out := l.splat(res.Shape, elem, 0)
	for bt := range a.shape[0] {
		as := l.reshape(l.extract(a.v, []int64{bt, 0, 0}, []int64{1, m, k}, []int64{1, 1, 1}), []int64{m, k})
		bs := l.reshape(l.extract(b.v, []int64{bt, 0, 0}, []int64{1, k, p}, []int64{1, 1, 1}), []int64{k, p})
		d := l.reshape(l.matmul(as, bs, zero), []int64{1, m, p})
		out = l.insert(d, out, []int64{bt, 0, 0})
	}
	return l.exact(out, a.frac+b.frac, lo, hi), nil
}

// productBounds is the range of x*y for x in [alo, ahi], y in [blo, bhi].
func productBounds(alo, ahi, blo, bhi *big.Int) (lo, hi *big.Int) {
	ps := []*big.Int{new(big.Int).Mul(alo, blo), new(big.Int).Mul(alo, bhi), new(big.Int).Mul(ahi, blo), new(big.Int).Mul(ahi, bhi)}
	return intrange.Min(ps...), intrange.Max(ps...)
}

// constNode is a payload tensor or an inline value (read as the evaluator
// reads them, nneval.ConstValues), exactly: integers at the smallest scale
// that makes them so.
func constNode(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	entry := func(key string) (*tensor.Tensor, error) { return l.param(key, res.Shape, true) }
	t, err := nneval.ConstValues(op, entry, quant.ElementOf(res))
	if err != nil {
		return nil, err
	}
	f := paramFrac(t.Data)
	if f == noFrac {
		f = 0
	}
	if f > maxParamFrac {
		return nil, l.errf("its values need a scale of 2^-%d (finer than 2^-%d): round them to fewer fractional bits", f, maxParamFrac)
	}
	ints, lo, hi := integers(t.Data, f)
	elem := intType(lo, hi)
	if allZero(ints) {
		ints = ints[:min(len(ints), 1)]
	}
	if len(ints) == 0 {
		ints = []*big.Int{new(big.Int)}
	}
	return &fixedTile{v: l.constant(tileShape(res.Shape), elem, ints), frac: f, lo: lo, hi: hi}, nil
}

func addSub(kind string) func(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	return func(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
		ab := l.align(ins[0], ins[1])
		a, b := ab[0], ab[1]
		var lo, hi *big.Int
		if kind == "add" {
			lo, hi = new(big.Int).Add(a.lo, b.lo), new(big.Int).Add(a.hi, b.hi)
		} else {
			lo, hi = new(big.Int).Sub(a.lo, b.hi), new(big.Int).Sub(a.hi, b.lo)
		}
		elem := intType(intrange.Min(lo, a.lo, b.lo), intrange.Max(hi, a.hi, b.hi))
		return l.exact(l.binary(kind, a.v, b.v, elem), a.frac, lo, hi), nil
	}
}

func mulNode(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	a, b := ins[0], ins[1]
	lo, hi := productBounds(a.lo, a.hi, b.lo, b.hi)
	elem := intType(intrange.Min(lo, a.lo, b.lo), intrange.Max(hi, a.hi, b.hi))
	return l.exact(l.binary("mul", a.v, b.v, elem), a.frac+b.frac, lo, hi), nil
}

func maxMin(kind string) func(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	return func(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
		ab := l.align(ins[0], ins[1])
		a, b := ab[0], ab[1]
		lo, hi := intrange.Max(a.lo, b.lo), intrange.Max(a.hi, b.hi)
		if kind == "min" {
			lo, hi = intrange.Min(a.lo, b.lo), intrange.Min(a.hi, b.hi)
		}
		elem := intType(intrange.Min(a.lo, b.lo), intrange.Max(a.hi, b.hi))
		return l.exact(l.binary(kind, a.v, b.v, elem), a.frac, lo, hi), nil
	}
}

func relu(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	x := ins[0]
	zero := new(big.Int)
	lo, hi := intrange.Max(x.lo, zero), intrange.Max(x.hi, zero)
	return l.exact(l.withScalar("max", x.v, 0, elemOf(x.v)), x.frac, lo, hi), nil
}

func absNode(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	x := ins[0]
	zero := new(big.Int)
	hi := intrange.Max(x.hi, new(big.Int).Neg(x.lo))
	lo := zero // 0 in [lo, hi]
	switch {
	case x.lo.Sign() > 0:
		lo = x.lo
	case x.hi.Sign() < 0:
		lo = new(big.Int).Neg(x.hi)
	}
	elem := intType(intrange.Min(x.lo, zero), hi)
	return l.exact(l.abs(x.v, elem), x.frac, lo, hi), nil
}

func identity(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	x := *ins[0]
	return &x, nil
}

func reshapeNode(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	x := *ins[0]
	x.v = l.reshape(x.v, tileShape(res.Shape))
	return &x, nil
}

func permute(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	a, _ := op.Attr("perm").(*ir.ArrayAttr)
	var perm []int64
	if a != nil {
		for _, e := range a.Elems {
			v, _ := e.(*ir.IntAttr).Int64()
			perm = append(perm, v)
		}
	}
	return fixedPerm(perm)(l, op, ins, res)
}

func swapFirstTwo(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	perm := []int64{1, 0}
	for i := 2; i < len(ins[0].shape); i++ {
		perm = append(perm, int64(i))
	}
	return fixedPerm(perm)(l, op, ins, res)
}

func fixedPerm(perm []int64) func(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	return func(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
		x := *ins[0]
		if len(perm) != len(x.shape) {
			return nil, l.errf("permutation %v does not match rank %d", perm, len(x.shape))
		}
		x.v = l.transpose(x.v, perm)
		return &x, nil
	}
}

func broadcastTo(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	x := *ins[0]
	target := tileShape(res.Shape)
	aligned := make([]int64, len(target))
	for i := range aligned {
		aligned[i] = 1
	}
	copy(aligned[len(target)-len(x.shape):], x.shape)
	x.v = l.broadcast(l.reshape(x.v, aligned), target)
	return &x, nil
}

func concat(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	axis, _ := op.IntAttr("axis")
	ts := l.align(ins...)
	lo, hi := ts[0].lo, ts[0].hi
	for _, t := range ts[1:] {
		lo, hi = intrange.Min(lo, t.lo), intrange.Max(hi, t.hi)
	}
	elem := intType(lo, hi)
	out := l.splat(res.Shape, elem, 0)
	offs := make([]int64, len(res.Shape))
	for _, t := range ts {
		out = l.insert(l.cast(t.v, elem), out, append([]int64{}, offs...))
		offs[axis] += t.shape[axis]
	}
	return &fixedTile{v: out, frac: ts[0].frac, lo: lo, hi: hi}, nil
}

// errf is a diagnostic at the node being lowered.
func (l *lowerer) errf(format string, args ...any) error {
	return fmt.Errorf(format, args...)
}

// lookupNode is a function kind (exp, log, tanh, sigmoid, sqrt, inv, sin,
// cos) on a quantized operand with a quantized result: a table over every
// stored value of the operand (quant.LookupTable of the float evaluator's
// function, nneval.UnaryFunc), read by otir.lookup (ALIR opcode 8).
func lookupNode(l *lowerer, op *ir.Operation, ins []*fixedTile, res *ir.TensorType) (*fixedTile, error) {
	in, out := quant.ElementOf(op.Operands[0].Type), quant.ElementOf(res)
	if in == nil || out == nil {
		return nil, l.errf("needs a quantized operand and a quantized result: it becomes a lookup table over the operand's stored values")
	}
	f, ok := nneval.UnaryFunc(op.Name)
	if !ok {
		return nil, l.errf("has no function to tabulate")
	}
	table, err := quant.LookupTable(in, out, f)
	if err != nil {
		return nil, err
	}
	return &fixedTile{v: l.lookup(ins[0].v, table, storage(out)), frac: out.Frac, lo: big.NewInt(out.QMin()), hi: big.NewInt(out.QMax())}, nil
}
