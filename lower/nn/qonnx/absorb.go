package qonnx

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
)

// val is a tensor of the float graph as the absorption sees it: a
// constant (konst, exact), or an integer code tensor of the new graph
// (code holds code·2^-frac, the integer in [lo, hi]) and, per element, the
// exact value as a monotone function of the integer.
type val struct {
	shape  []int64
	konst  []*big.Rat
	code   *ir.Value
	frac   int
	lo, hi int64
	fn     []elemFn
}

func (v *val) isConst() bool { return v.konst != nil }

// mapConst and the constant nodes keep konst non-nil for a tensor of no
// elements too (make(..., 0)), so that it stays a constant.

// absorber builds the quantized graph of one float graph.
type absorber struct {
	opts    Options
	payload tensor.Payload
	b       *ir.Builder
	vals    map[*ir.Value]*val
	// inputQuant are the nn.quant nodes that quantize a graph input
	// (without input-type): their operand is the circuit's input code.
	inputQuant map[*ir.Operation]bool
	node       *ir.Operation
}

// hasQuantizers reports whether a graph holds a QONNX quantizer.
func hasQuantizers(g *ir.Operation) bool {
	found := false
	g.Walk(func(op *ir.Operation) bool {
		switch op.Name {
		case kQuant, kBipolarQuant, kTrunc, kFloatQuant:
			found = true
		}
		return !found
	})
	return found
}

// absorbGraph returns the quantized graph computing g exactly, or g itself
// when it holds no QONNX quantizer.
func absorbGraph(g *ir.Operation, o Options, p tensor.Payload) (*ir.Operation, error) {
	if !hasQuantizers(g) {
		return g, nil
	}
	name, _ := g.StringAttr("sym_name")
	body := g.Body(0)
	ret := body.Terminator()
	if ret == nil || ret.Name != kReturn {
		return nil, diag.OpErrorf(g, "does not end with nn.return")
	}
	a := &absorber{opts: o, payload: p, vals: map[*ir.Value]*val{}, inputQuant: map[*ir.Operation]bool{}}
	argTypes, err := a.inputs(g, name)
	if err != nil {
		return nil, err
	}
	gb := ir.NewBuilder(&ir.Block{})
	gb.Loc = g.Loc
	ng, nbody := nn.Graph(gb, name, argTypes, nil)
	ng.Block = nil
	a.b = ir.NewBuilder(nbody)
	for i, arg := range body.Args {
		nbody.Args[i].Name = arg.Name
		a.b.Loc = arg.Loc
		a.vals[arg] = a.argVal(arg, nbody.Args[i])
	}
	for _, op := range body.Ops {
		if op == ret {
			break
		}
		a.node, a.b.Loc = op, op.Loc
		v, err := a.visit(op)
		if err != nil {
			if _, ok := err.(*diag.Diagnostic); ok {
				return nil, err
			}
			return nil, diag.OpErrorf(op, "nn-absorb-quant: %v", err)
		}
		a.vals[op.Results[0]] = v
	}
	a.node, a.b.Loc = ret, ret.Loc
	var outs []*ir.Value
	var outTypes []ir.Type
	var tails []*tail
	anyTail := false
	for i, r := range ret.Operands {
		v, t, err := a.output(r)
		if err != nil {
			return nil, diag.OpErrorf(ret, "output #%d: %v", i, err)
		}
		outs = append(outs, v)
		outTypes = append(outTypes, v.Type)
		tails = append(tails, t)
		anyTail = anyTail || t != nil
	}
	nn.Return(a.b, outs...)
	ng.SetAttr("function_type", &ir.FunctionType{Inputs: argTypes, Results: outTypes})
	if anyTail {
		if err := writeTails(a.opts.Tail, name, g, outs, tails); err != nil {
			return nil, diag.OpErrorf(ret, "%v", err)
		}
	}
	return ng, nil
}

// inputs decides the type of each graph argument: input-type's, or the
// code of the one nn.quant that quantizes it.
func (a *absorber) inputs(g *ir.Operation, name string) ([]ir.Type, error) {
	var ts []ir.Type
	for i, arg := range g.Body(0).Args {
		t, _ := arg.Type.(*ir.TensorType)
		if t == nil {
			return nil, diag.Errorf(arg.Loc, "graph @%s: input #%d is not a tensor", name, i)
		}
		if a.opts.Input != nil {
			ts = append(ts, ir.Tensor(t.Shape, a.opts.Input))
			continue
		}
		q := inputQuantizer(arg)
		if q == nil {
			return nil, diag.Errorf(arg.Loc, "graph @%s: input #%d is not quantized by the graph (no nn.quant reads it through shape-only nodes): give the circuit's input type with nn-to-circuit{input-type=fixed<W,I>} or ufixed<W,I>", name, i)
		}
		spec, _ := nn.QuantSpecOf(q)
		if spec.Bipolar() {
			return nil, diag.OpErrorf(q, "quantizes graph input #%d to ±1: give the circuit's input type with nn-to-circuit{input-type=...}", i)
		}
		a.inputQuant[q] = true
		w := int(spec.Bits)
		if spec.Signed && w < 2 {
			w = 2
		}
		ts = append(ts, ir.Tensor(t.Shape, quant.Uniform(w, spec.Signed, 0)))
	}
	return ts, nil
}

// inputQuantizer is the nn.quant that an argument reaches through
// shape-only nodes, each value used once.
func inputQuantizer(v *ir.Value) *ir.Operation {
	body := v.Block
	for {
		uses := usersOf(body, v)
		if len(uses) != 1 {
			return nil
		}
		op := uses[0]
		switch op.Name {
		case kReshape, kFlatten, kPermute, kSwapFirstTwo, kTranspose3dLast:
			v = op.Results[0]
		case kQuant:
			return op
		default:
			return nil
		}
	}
}

// onlyReturned reports whether v's only user is nn.return.
func onlyReturned(body *ir.Block, v *ir.Value) bool {
	us := usersOf(body, v)
	return len(us) == 1 && us[0].Name == kReturn
}

func usersOf(body *ir.Block, v *ir.Value) []*ir.Operation {
	var us []*ir.Operation
	for _, op := range body.Ops {
		for _, o := range op.Operands {
			if o == v {
				us = append(us, op)
				break
			}
		}
	}
	return us
}

// argVal is a graph argument's value: the argument of the new graph, its
// codes at the input type's scale, or the input quantizer's codes.
func (a *absorber) argVal(old, arg *ir.Value) *val {
	shape := old.Type.(*ir.TensorType).Shape
	q := quant.ElementOf(arg.Type)
	v := &val{shape: shape, code: arg, frac: q.Frac, lo: q.QMin(), hi: q.QMax(), fn: make([]elemFn, tileview.Len(shape))}
	step := new(big.Rat).SetFloat64(q.Step())
	for i := range v.fn {
		v.fn[i] = scaleFn(step)
	}
	return v
}

// visit computes the val of one node.
func (a *absorber) visit(op *ir.Operation) (*val, error) {
	ins := make([]*val, len(op.Operands))
	for i, o := range op.Operands {
		if ins[i] = a.vals[o]; ins[i] == nil {
			return nil, fmt.Errorf("operand #%d has no value", i)
		}
	}
	shape := op.Results[0].Type.(*ir.TensorType).Shape
	switch op.Name {
	case kConst:
		return a.constNode(op, shape)
	case kQuant, kBipolarQuant, kTrunc, kFloatQuant, kMultiThreshold:
		return a.quantizer(op, ins[0])
	case kRelu:
		x := ins[0]
		if x.isConst() {
			return a.mapConst(x, func(r *big.Rat) *big.Rat { return maxRat(r, new(big.Rat)) }), nil
		}
		return x.mapFn(func(f elemFn) elemFn { return f.thenRelu() }), nil
	case kInv:
		x := ins[0]
		if !x.isConst() {
			return nil, fmt.Errorf("an inverse of a value that depends on the input has no exact integer form (only nn.inv of constants is absorbed)")
		}
		for _, r := range x.konst {
			if r.Sign() == 0 {
				return nil, fmt.Errorf("inverts a constant 0")
			}
		}
		return a.mapConst(x, func(r *big.Rat) *big.Rat { return new(big.Rat).Inv(r) }), nil
	case kAdd, kSub, kMul:
		return a.binary(op.Name, ins[0], ins[1])
	case kMax, kMin:
		return a.extremum(op.Name == kMax, ins[0], ins[1])
	case kSigmoid, kTanh:
		f, _ := nneval.UnaryFunc(op.Name)
		c := &curve{name: op.Name, f: f}
		if ins[0].isConst() {
			return a.mapConst(ins[0], c.at), nil
		}
		return ins[0].mapFn(func(g elemFn) elemFn { return append(slices.Clone(g), fnStep{curve: c}) }), nil
	case kMatmul:
		return a.matmul(ins[0], ins[1], shape)
	case kLinear:
		return a.linear(op, ins[0], shape)
	case kConv2d:
		return a.conv2d(op, ins[0], shape)
	case kMaxPool2d, kAvgPool2d:
		return a.pool(op, ins[0], shape)
	case kReshape, kFlatten, kDetach, kPermute, kSwapFirstTwo, kTranspose3dLast, kBroadcastTo:
		return a.shapeNode(op, ins[0], shape)
	case kConcat:
		return a.concat(op, ins, shape)
	case kSoftmax:
		if a.opts.DropFinalSoftmax && onlyReturned(op.Block, op.Results[0]) {
			return ins[0], nil
		}
		return a.softmax(op, ins[0])
	}
	return nil, fmt.Errorf("the kind is not absorbed into integer arithmetic (nn-absorb-quant takes nn.quant, nn.bipolar_quant, nn.trunc, nn.float_quant, nn.const, nn.matmul, nn.linear and nn.conv2d by constants, nn.max_pool2d, nn.avg_pool2d, nn.add/sub/mul, nn.max/min with a constant or of one code, nn.inv of a constant, nn.relu, nn.sigmoid, nn.tanh, nn.softmax, nn.concat and shape nodes)")
}

func maxRat(a, b *big.Rat) *big.Rat {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

func minRat(a, b *big.Rat) *big.Rat {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

func (a *absorber) mapConst(x *val, f func(*big.Rat) *big.Rat) *val {
	out := &val{shape: x.shape, konst: make([]*big.Rat, len(x.konst))}
	for i, r := range x.konst {
		out.konst[i] = f(r)
	}
	return out
}

func (v *val) mapFn(f func(elemFn) elemFn) *val {
	out := *v
	out.fn = make([]elemFn, len(v.fn))
	for i, g := range v.fn {
		out.fn[i] = f(g)
	}
	return &out
}

// constNode is a payload entry or an inline value, exactly.
func (a *absorber) constNode(op *ir.Operation, shape []int64) (*val, error) {
	t, err := nneval.ConstValues(op, a.entry, nil)
	if err != nil {
		return nil, err
	}
	if int64(len(t.Data)) != tileview.Count(shape) {
		return nil, fmt.Errorf("holds %d values for %d elements", len(t.Data), tileview.Count(shape))
	}
	v := &val{shape: shape, konst: make([]*big.Rat, len(t.Data))}
	for i, f := range t.Data {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("holds %v at flat index %d: constants must be finite", f, i)
		}
		v.konst[i] = ratOf(f)
	}
	return v, nil
}

func (a *absorber) entry(key string) (*tensor.Tensor, error) {
	t, ok := a.payload[key]
	if !ok {
		return nil, fmt.Errorf("the payload has no entry '%s' (give the parameters with --params FILE.npz)", key)
	}
	return t, nil
}

// param is a quantizer's payload entry NumPy-broadcast to shape.
func (a *absorber) param(key string, shape []int64) ([]float64, error) {
	t, err := a.entry(key)
	if err != nil {
		return nil, err
	}
	ts := t.Shape
	if tileview.Count(ts) == 1 {
		ts = nil
	}
	if !tileview.Fits(ts, shape) {
		return nil, fmt.Errorf("payload entry '%s' of shape %v does not broadcast to %v", key, t.Shape, shape)
	}
	idx := tileview.Map[int](shape, tileview.BroadcastStrides(ts, shape))
	out := make([]float64, len(idx))
	for i, j := range idx {
		out[i] = t.Data[j]
		if math.IsNaN(out[i]) || math.IsInf(out[i], 0) {
			return nil, fmt.Errorf("payload entry '%s' holds %v: it must be finite", key, out[i])
		}
	}
	return out, nil
}

// quantizers builds the per-element quantizers of a node on shape.
func (a *absorber) quantizers(op *ir.Operation, shape []int64) ([]*quantizer, error) {
	params, _ := op.StringAttr("params")
	switch op.Name {
	case kFloatQuant:
		return a.floatQuantizers(op, params, shape)
	case kMultiThreshold:
		return a.thresholdQuantizers(op, params, shape)
	}
	var spec nn.QuantSpec
	if op.Name != kBipolarQuant {
		var err error
		if spec, err = nn.QuantSpecOf(op); err != nil {
			return nil, err
		}
	}
	scale, err := a.param(params+".scale", shape)
	if err != nil {
		return nil, err
	}
	zp := make([]float64, len(scale))
	if op.Name != kBipolarQuant {
		if zp, err = a.param(params+".zero_point", shape); err != nil {
			return nil, err
		}
	}
	outScale := make([]float64, len(scale))
	if op.Name == kTrunc && spec.Version == 2 {
		if outScale, err = a.param(params+".output_scale", shape); err != nil {
			return nil, err
		}
	}
	qs := make([]*quantizer, len(scale))
	for i := range qs {
		if op.Name != kBipolarQuant {
			if err := nn.CheckScale(scale[i]); err != nil {
				return nil, fmt.Errorf("'%s.scale' at flat index %d: %v", params, i, err)
			}
			if err := nn.CheckZeroPoint(zp[i]); err != nil {
				return nil, fmt.Errorf("'%s.zero_point' at flat index %d: %v", params, i, err)
			}
		}
		if op.Name == kTrunc && spec.Version == 2 {
			if err := nn.CheckScale(outScale[i]); err != nil {
				return nil, fmt.Errorf("'%s.output_scale' at flat index %d: %v", params, i, err)
			}
		}
		qs[i] = newQuantizer(op.Name, spec, scale[i], zp[i], outScale[i])
	}
	return qs, nil
}

// floatQuantizers are an nn.float_quant's per-element quantizers. Each
// element's saturation bound min(MaxValue, max_val) must be a multiple of
// the format's smallest step 2^MinExp·scale, so that every value is an
// integer code times that step.
func (a *absorber) floatQuantizers(op *ir.Operation, params string, shape []int64) ([]*quantizer, error) {
	spec, err := nn.FloatQuantSpecOf(op)
	if err != nil {
		return nil, err
	}
	scale, err := a.param(params+".scale", shape)
	if err != nil {
		return nil, err
	}
	maxVal, err := a.param(params+".max_val", shape)
	if err != nil {
		return nil, err
	}
	qs := make([]*quantizer, len(scale))
	for i := range qs {
		if err := nn.CheckScale(scale[i]); err != nil {
			return nil, fmt.Errorf("'%s.scale' at flat index %d: %v", params, i, err)
		}
		if err := nn.CheckMaxVal(maxVal[i]); err != nil {
			return nil, fmt.Errorf("'%s.max_val' at flat index %d: %v", params, i, err)
		}
		if qs[i] = newFloatQuantizer(spec, scale[i], maxVal[i]); !qs[i].maxCode.IsInt() {
			return nil, fmt.Errorf("'%s.max_val' at flat index %d: %v is not a multiple of the format's smallest step 2^%d, so the saturated value has no integer code", params, i, maxVal[i], spec.MinExp())
		}
	}
	return qs, nil
}

// thresholdQuantizers are an nn.multithreshold's per-element quantizers:
// each element's code is the number of its channel's thresholds it
// reaches (nneval.Thresholds reads and checks them as the evaluator does).
func (a *absorber) thresholdQuantizers(op *ir.Operation, params string, shape []int64) ([]*quantizer, error) {
	m, err := nn.MultiThresholdOf(op)
	if err != nil {
		return nil, err
	}
	key := params + ".thresholds"
	t, err := a.entry(key)
	if err != nil {
		return nil, err
	}
	row, err := nneval.Thresholds(t, key, shape, m.Axis)
	if err != nil {
		return nil, err
	}
	qs := make([]*quantizer, tensor.NumElements(shape))
	rows := map[*float64]*quantizer{} // the elements of a channel share one
	for i := range qs {
		r := row(i)
		if len(r) == 0 {
			qs[i] = newThresholdQuantizer(m, r)
			continue
		}
		if q, ok := rows[&r[0]]; ok {
			qs[i] = q
			continue
		}
		qs[i] = newThresholdQuantizer(m, r)
		rows[&r[0]] = qs[i]
	}
	return qs, nil
}

// quantizer is a QONNX quantizer: evaluated on a constant, or a step
// function of the integer code built with integer nodes.
func (a *absorber) quantizer(op *ir.Operation, x *val) (*val, error) {
	qs, err := a.quantizers(op, x.shape)
	if err != nil {
		return nil, err
	}
	if x.isConst() {
		// Weights and biases: the shared rules (nn.QuantSpec's values, as
		// the evaluator computes them, rescaled in float64) where the
		// constant is a float64; exactly otherwise.
		out := &val{shape: x.shape, konst: make([]*big.Rat, len(x.konst))}
		for i, r := range x.konst {
			q := qs[i]
			if f, exact := r.Float64(); exact {
				out.konst[i] = ratOf(q.value(f))
				continue
			}
			n := new(big.Rat).SetInt(q.code(r))
			out.konst[i] = n.Mul(n, q.outMul).Add(n, q.outOff)
		}
		return out, nil
	}
	if a.inputQuant[op] {
		// The input is the code itself (frac 0, the quantizer's range).
		out := *x
		out.fn = make([]elemFn, len(x.fn))
		for i, q := range qs {
			out.fn[i] = elemFn{{a: q.outMul, b: q.outOff}}
		}
		return &out, nil
	}
	return a.step(x, qs)
}

// binary is add, sub or mul of two values: of a constant, composed onto
// the other's chains; of two values that depend on the input, join.
func (a *absorber) binary(kind string, x, y *val) (*val, error) {
	if x.isConst() && y.isConst() {
		out := &val{shape: x.shape, konst: make([]*big.Rat, len(x.konst))}
		for i := range x.konst {
			r := new(big.Rat)
			switch kind {
			case kAdd:
				r.Add(x.konst[i], y.konst[i])
			case kSub:
				r.Sub(x.konst[i], y.konst[i])
			default:
				r.Mul(x.konst[i], y.konst[i])
			}
			out.konst[i] = r
		}
		return out, nil
	}
	if !x.isConst() && !y.isConst() {
		if kind == kMul && oneCode(x, y) && !(allAffinable(x) && allAffinable(y)) {
			return productOf(x, y), nil
		}
		return a.join(kind, x, y)
	}
	flip := false
	if x.isConst() {
		x, y, flip = y, x, true
	}
	one, zero := big.NewRat(1, 1), new(big.Rat)
	out := *x
	out.fn = make([]elemFn, len(x.fn))
	for i, f := range x.fn {
		c := y.konst[i]
		switch {
		case kind == kAdd:
			out.fn[i] = f.then(one, c)
		case kind == kSub && flip: // c - x
			out.fn[i] = f.then(big.NewRat(-1, 1), c)
		case kind == kSub:
			out.fn[i] = f.then(one, new(big.Rat).Neg(c))
		default:
			out.fn[i] = f.then(c, zero)
		}
	}
	return &out, nil
}

// oneCode reports whether x and y are functions of one code tensor.
func oneCode(x, y *val) bool {
	return x.code == y.code && x.frac == y.frac && x.lo == y.lo && x.hi == y.hi
}

// allAffinable reports whether affineOnly makes every element of x one
// affine map of its code (join then multiplies the codes).
func allAffinable(x *val) bool {
	for _, f := range x.fn {
		if !affinable(f) {
			return false
		}
	}
	return true
}

// productOf is x·y of two functions of one code of which one is no affine
// map of it (HardSwish's x·HardSigmoid(x), with two relus; SiLU's
// x·sigmoid(x)): per element the product step, not monotone in general,
// which a quantizer after it absorbs (productSteps).
func productOf(x, y *val) *val {
	out := *x
	out.fn = make([]elemFn, len(x.fn))
	for i := range x.fn {
		out.fn[i] = elemFn{{prod: &product{f: x.fn[i], g: y.fn[i]}}}
	}
	return &out
}

// extremum is nn.max or nn.min: the importer's Clip (ReLU6, Hardtanh)
// with a constant c, LeakyRelu as max(x, α·x) (α ≤ 1) or min(x, α·x)
// (α > 1). With a constant, per element max(v, c) = relu(v − c) + c and
// min(v, c) = c − relu(c − v): monotone steps on the element's function.
// Of two values that depend on the input, only of one code tensor (the
// functions of the same codes, as LeakyRelu's): each element's function
// becomes the extremum of the two, monotone when both move the same way
// or one is constant, for a quantizer after it to absorb as any step
// function.
func (a *absorber) extremum(isMax bool, x, y *val) (*val, error) {
	name := map[bool]string{true: "max", false: "min"}[isMax]
	if x.isConst() && y.isConst() {
		out := &val{shape: x.shape, konst: make([]*big.Rat, len(x.konst))}
		for i, p := range x.konst {
			q := y.konst[i]
			if (p.Cmp(q) >= 0) != isMax {
				p = q
			}
			out.konst[i] = p
		}
		return out, nil
	}
	if x.isConst() {
		x, y = y, x
	}
	out := *x
	out.fn = make([]elemFn, len(x.fn))
	if y.isConst() {
		one, minusOne := big.NewRat(1, 1), big.NewRat(-1, 1)
		for i, f := range x.fn {
			c := y.konst[i]
			if isMax {
				out.fn[i] = f.then(one, new(big.Rat).Neg(c)).thenRelu().then(one, c)
			} else {
				out.fn[i] = f.then(minusOne, c).thenRelu().then(minusOne, c)
			}
		}
		return &out, nil
	}
	if !oneCode(x, y) {
		return nil, fmt.Errorf("an nn.%s of two different tensors that depend on the input is not absorbed (only with a constant, or of two functions of one tensor as LeakyRelu's max(x, α·x))", name)
	}
	for i := range x.fn {
		if !x.fn[i].monotone() || !y.fn[i].monotone() {
			return nil, fmt.Errorf("element %d: the %s of a product of two functions of one code (HardSwish's, SiLU's) has no absorbed form: a quantizer before it absorbs the product", i, name)
		}
		if direction(x.fn[i])*direction(y.fn[i]) < 0 {
			return nil, fmt.Errorf("element %d: the %s of an increasing and a decreasing function of one code is not monotone, and has no absorbed form", i, name)
		}
		out.fn[i] = elemFn{{ext: &extremum{max: isMax, f: x.fn[i], g: y.fn[i]}}}
	}
	return &out, nil
}

// shapeNode moves elements: a constant's values, or the code tensor (the
// same node on it) and the per-element functions.
func (a *absorber) shapeNode(op *ir.Operation, x *val, shape []int64) (*val, error) {
	src := sourceIndex(op, x.shape, shape)
	if x.isConst() {
		out := &val{shape: shape, konst: make([]*big.Rat, len(src))}
		for i, j := range src {
			out.konst[i] = x.konst[j]
		}
		return out, nil
	}
	code, err := nn.Node(a.b, op.Name, []*ir.Value{x.code}, ir.Tensor(shape, x.code.Type.(*ir.TensorType).Elem), op.Attrs)
	if err != nil {
		return nil, err
	}
	out := *x
	out.shape, out.code, out.fn = shape, code, make([]elemFn, len(src))
	for i, j := range src {
		out.fn[i] = x.fn[j]
	}
	return &out, nil
}

// sourceIndex is, per element of a shape node's result, the flat index of
// the operand's element it holds.
func sourceIndex(op *ir.Operation, in, out []int64) []int64 {
	perm := func(p []int64) []int64 { _, src := tileview.Transpose(in, p); return src }
	switch op.Name {
	case kPermute:
		var p []int64
		if arr, ok := op.Attr("perm").(*ir.ArrayAttr); ok {
			for _, e := range arr.Elems {
				if ia, ok := e.(*ir.IntAttr); ok {
					p = append(p, ia.Value.Int64())
				}
			}
		}
		return perm(p)
	case kSwapFirstTwo:
		p := []int64{1, 0}
		for d := 2; d < len(in); d++ {
			p = append(p, int64(d))
		}
		return perm(p)
	case kTranspose3dLast:
		return perm([]int64{0, 2, 1})
	case kBroadcastTo:
		return tileview.Map[int64](out, tileview.BroadcastStrides(in, out))
	}
	idx := make([]int64, tileview.Count(out))
	for i := range idx {
		idx[i] = int64(i)
	}
	return idx
}

// concat is nn.concat along an axis. Each element keeps its function of
// its code; the codes join at the finest scale F of the operands: an
// operand at 2^-frac holds the same reals, whose integer codes at 2^-F are
// its own times 2^(F-frac), so its functions first divide by that (a
// relu's kink stays on an integer code). A constant operand k becomes a
// code of zeros whose functions a·c + k borrow the factor a of the first
// element of the first operand that depends on the input along the axis
// (relus made nn.max / nn.min first), so that a Conv1d's zero padding,
// which the importer writes as a concat, keeps one factor per channel for
// the convolution after it. The new graph concatenates the code tensors;
// the range is the union of the operands' at F.
func (a *absorber) concat(op *ir.Operation, ins []*val, shape []int64) (*val, error) {
	axis, _ := op.IntAttr("axis")
	if axis < 0 {
		axis += int64(len(shape))
	}
	outer, inner := tileview.Count(shape[:axis]), tileview.Count(shape[axis+1:])
	runOf := func(x *val) int64 { return tileview.Count(x.shape) / max(outer, 1) }
	if allConst(ins) {
		out := &val{shape: shape, konst: make([]*big.Rat, 0, tileview.Count(shape))}
		for o := range outer {
			for _, x := range ins {
				out.konst = append(out.konst, x.konst[o*runOf(x):(o+1)*runOf(x)]...)
			}
		}
		return out, nil
	}
	F, firstVar, hasConst := 0, -1, false
	for k, x := range ins {
		if x.isConst() {
			hasConst = true
			continue
		}
		F = max(F, x.frac)
		if firstVar < 0 {
			firstVar = k
		}
	}
	fns := make([][]elemFn, len(ins))
	codes := make([]*ir.Value, len(ins))
	out := &val{shape: shape, frac: F}
	for k, x := range ins {
		if x.isConst() {
			continue
		}
		if hasConst {
			var err error
			if x, err = a.affineOnly(x); err != nil {
				return nil, err
			}
		}
		e := F - x.frac
		if err := limitBits(new(big.Int).Lsh(big.NewInt(x.lo), uint(e)), new(big.Int).Lsh(big.NewInt(x.hi), uint(e))); err != nil {
			return nil, err
		}
		lo, hi := x.lo<<e, x.hi<<e
		if k == firstVar {
			out.lo, out.hi = lo, hi
		}
		out.lo, out.hi = min(out.lo, lo), max(out.hi, hi)
		fns[k] = x.fn
		if e > 0 {
			down := fnStep{a: pow2(-e), b: new(big.Rat)}
			fns[k] = make([]elemFn, len(x.fn))
			for i, f := range x.fn {
				fns[k][i] = append(elemFn{down}, f...)
			}
		}
		codes[k] = x.code
	}
	for k, x := range ins {
		if !x.isConst() {
			continue
		}
		if j := slices.Index(ins, x); j < k { // the same constant again (a padding's two ends)
			fns[k], codes[k] = fns[j], codes[j]
			continue
		}
		zeros := make([]*big.Rat, len(x.konst))
		fns[k] = make([]elemFn, len(x.konst))
		run, ref := runOf(x), fns[firstVar]
		refRun := int64(len(ref)) / max(outer, 1)
		for i, r := range x.konst {
			fa, _, _ := ref[int64(i)/run*refRun+int64(i)%inner].affine()
			zeros[i], fns[k][i] = new(big.Rat), elemFn{{a: fa, b: r}}
		}
		c, err := a.constant(x.shape, zeros)
		if err != nil {
			return nil, err
		}
		codes[k] = c
		out.lo, out.hi = min(out.lo, 0), max(out.hi, 0)
	}
	out.fn = make([]elemFn, 0, tileview.Count(shape))
	for o := range outer {
		for k := range ins {
			run := int64(len(fns[k])) / max(outer, 1)
			out.fn = append(out.fn, fns[k][o*run:(o+1)*run]...)
		}
	}
	code, err := nn.Node(a.b, kConcat, codes, ir.Tensor(shape, f64), op.Attrs)
	out.code = code
	return out, err
}

func allConst(vs []*val) bool {
	for _, v := range vs {
		if !v.isConst() {
			return false
		}
	}
	return true
}
