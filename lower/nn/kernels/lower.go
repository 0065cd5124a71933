package kernels

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/internal/intrange"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"
)

// MaxExactBits bounds an exact value: its integer at its scale has at most
// this many bits (besides the sign), as the quantized evaluator's.
const MaxExactBits = 62

// fixedTile is an nn value inside the kernel: a #private integer tile v whose
// elements q mean the reals q*2^-frac, every q in [lo, hi].
type fixedTile struct {
	v      *ir.Value
	shape  []int64 // the nn shape ([] for rank 0, whose tile is [1])
	frac   int
	lo, hi *big.Int
}

// tileShape is the tile shape of an nn shape (rank 0 is [1]).
func tileShape(shape []int64) []int64 {
	if len(shape) == 0 {
		return []int64{1}
	}
	return shape
}

// lowerer builds the kernel of one graph.
type lowerer struct {
	b       *ir.Builder
	loc     ir.Location
	payload tensor.Payload
	node    *ir.Operation // the node being lowered (for diagnostics)
	vals    map[*ir.Value]*fixedTile
}

// Lower replaces every nn.graph of the module by an otir.kernel of the same
// name (package doc), reading payload parameters from p. A graph must be
// quantized (some tensor has a !quant.uniform element type) and its inputs
// quantized. Errors are diagnostics at the node concerned.
func Lower(m *ir.Module, p tensor.Payload) error {
	return passes.ReplaceTopLevel(m,
		func(op *ir.Operation) bool { return op.Name == nn.OpGraph },
		func(op *ir.Operation) (*ir.Operation, error) { return LowerGraph(op, p) })
}

// LowerGraph builds the detached otir.kernel of one verified nn.graph.
func LowerGraph(g *ir.Operation, p tensor.Payload) (k *ir.Operation, err error) {
	name, _ := g.StringAttr("sym_name")
	body := g.Body(0)
	if body == nil {
		return nil, diag.OpErrorf(g, "has no body")
	}
	if !nn.IsQuantized(g) {
		return nil, diag.OpErrorf(g, "graph @%s is not quantized: no tensor has a !quant.uniform element type (write the types, or run nn-quantize first)", name)
	}
	ret := body.Terminator()
	if ret == nil || ret.Name != nn.OpReturn {
		return nil, diag.OpErrorf(g, "does not end with nn.return")
	}
	if err := checkNonEmpty(name, body); err != nil {
		return nil, err
	}
	// The kernel's arguments: the graph's inputs, then one per output.
	var argTypes []ir.Type
	var fracs []int64
	for i, a := range body.Args {
		q := quant.ElementOf(a.Type)
		t, _ := a.Type.(*ir.TensorType)
		if q == nil || t == nil {
			return nil, diag.Errorf(a.Loc, "graph @%s: input #%d has type '%s', but the inputs of a quantized graph must be quantized (the circuit quantizes its real inputs on entry)", name, i, diag.TypeStr(a.Type))
		}
		argTypes = append(argTypes, ir.Tile(tileShape(t.Shape), storage(q), ir.Global))
		fracs = append(fracs, int64(q.Frac))
	}
	l := &lowerer{payload: p, vals: map[*ir.Value]*fixedTile{}, loc: g.Loc}
	// The kernel is built with placeholder output arguments, whose types
	// are known once the outputs are lowered.
	kb := ir.NewBuilder(&ir.Block{})
	kb.Loc = g.Loc
	k, kbody := otir.Kernel(kb, name, argTypes, nil)
	k.Block = nil
	l.b = ir.NewBuilder(kbody)
	for i, a := range body.Args {
		kbody.Args[i].Name = a.Name
		q := quant.ElementOf(a.Type)
		l.loc = a.Loc
		l.vals[a] = &fixedTile{v: l.load(kbody.Args[i]), shape: a.Type.(*ir.TensorType).Shape, frac: q.Frac,
			lo: big.NewInt(q.QMin()), hi: big.NewInt(q.QMax())}
	}
	for _, op := range body.Ops {
		if op == ret {
			break
		}
		l.node, l.loc = op, op.Loc
		lw, ok := lowerings.Lookup(op.Name)
		if !ok {
			return nil, diag.OpErrorf(op, "has no lowering to OTIR")
		}
		if lw.unsupported != "" {
			return nil, diag.OpErrorf(op, "cannot be lowered to OTIR: %s", lw.unsupported)
		}
		ins := make([]*fixedTile, len(op.Operands))
		for j, v := range op.Operands {
			ins[j] = l.vals[v]
			if ins[j] == nil {
				return nil, diag.OpErrorf(op, "operand #%d has no lowered value", j)
			}
		}
		res, _ := op.Results[0].Type.(*ir.TensorType)
		if res == nil {
			return nil, diag.OpErrorf(op, "result must be a tensor")
		}
		if res.Elem == ir.Type(ir.Float(ir.F32)) {
			return nil, diag.OpErrorf(op, "has an f32 result in a quantized graph (every tensor must be quantized or f64)")
		}
		out, err := lw.lower(l, op, ins, res)
		if err != nil {
			if _, ok := err.(*diag.Diagnostic); ok {
				return nil, err
			}
			return nil, diag.OpErrorf(op, "%v", err)
		}
		if q := quant.ElementOf(res); q != nil {
			out = l.requantize(out, q)
		} else if err := l.checkExact(out); err != nil {
			return nil, err
		}
		out.shape = res.Shape
		l.vals[op.Results[0]] = out
	}
	// Outputs: one #global argument each, of the value's type and scale.
	l.loc = ret.Loc
	for j, v := range ret.Operands {
		t := l.vals[v]
		if t == nil {
			return nil, diag.OpErrorf(ret, "operand #%d has no lowered value", j)
		}
		arg := kbody.AddArg(ir.Tile(tileShape(t.shape), elemOf(t.v), ir.Global), ret.Loc)
		arg.Name = fmt.Sprintf("out%d", j)
		argTypes = append(argTypes, arg.Type)
		fracs = append(fracs, int64(t.frac))
		l.store(t.v, arg)
	}
	l.ret()
	k.SetAttr("function_type", &ir.FunctionType{Inputs: argTypes})
	k.SetAttr("frac_bits", &ir.DenseI64Attr{Values: fracs})
	return k, nil
}

// storage is the integer type of a quantized type's stored values.
func storage(q *quant.UniformType) ir.Type { return ir.Int(q.Width, q.Signed) }

// intType is the narrowest integer type holding [lo, hi]: unsigned when lo
// is not negative; at least 2 bits (i1 is the boolean).
func intType(lo, hi *big.Int) ir.Type {
	if lo.Sign() >= 0 {
		return ir.Int(max(hi.BitLen(), 2), false)
	}
	return ir.Int(max(signedBits(lo), signedBits(hi), 2), true)
}

// signedBits is the width of the narrowest signed type holding x.
func signedBits(x *big.Int) int {
	if x.Sign() >= 0 {
		return x.BitLen() + 1
	}
	return new(big.Int).Not(x).BitLen() + 1
}

// exact makes a fixedTile of an exact value in the narrowest type of [lo, hi]
// (v is cast to it).
func (l *lowerer) exact(v *ir.Value, frac int, lo, hi *big.Int) *fixedTile {
	return &fixedTile{v: l.cast(v, intType(lo, hi)), frac: frac, lo: lo, hi: hi}
}

// checkExact rejects an exact value too wide for the circuit's int64
// arithmetic.
func (l *lowerer) checkExact(t *fixedTile) error {
	if max(signedBits(t.lo), signedBits(t.hi)) > MaxExactBits+1 {
		hint := ""
		if nn.TakesParamTypes(l.node) && l.node.Attr(nn.WeightTypeAttr) == nil {
			hint = ", or round its parameters to fewer bits (nn-quantize{weight-bits=N}: weight_type, bias_type)"
		}
		return diag.OpErrorf(l.node, "exact value in [%v, %v] * 2^-%d needs more than %d bits: give the node a quantized result type%s", t.lo, t.hi, t.frac, MaxExactBits, hint)
	}
	return nil
}

// shiftLeft returns t at the finer scale frac (>= t.frac): q*2^(frac-t.frac).
func (l *lowerer) shiftLeft(t *fixedTile, frac int) *fixedTile {
	k := frac - t.frac
	if k <= 0 {
		return t
	}
	lo, hi := new(big.Int).Lsh(t.lo, uint(k)), new(big.Int).Lsh(t.hi, uint(k))
	elem := intType(lo, intrange.Max(hi, big.NewInt(int64(k)))) // the type holds the shift amount too
	return &fixedTile{v: l.withScalar("shl", t.v, int64(k), elem), shape: t.shape, frac: frac, lo: lo, hi: hi}
}

// floorShift returns t at the coarser scale frac (< t.frac):
// floor(q / 2^(t.frac-frac)).
func (l *lowerer) floorShift(t *fixedTile, frac int) *fixedTile {
	k := t.frac - frac
	if k <= 0 {
		return t
	}
	lo, hi := floorDiv(t.lo, k), floorDiv(t.hi, k)
	kind, elem := "shr_s", intType(t.lo, intrange.Max(t.hi, big.NewInt(int64(min(k, 64)))))
	if t.lo.Sign() >= 0 {
		kind = "shr_u"
	}
	v := l.withScalar(kind, t.v, int64(min(k, 64)), elem)
	return &fixedTile{v: l.cast(v, intType(lo, hi)), shape: t.shape, frac: frac, lo: lo, hi: hi}
}

// floorDiv is floor(x / 2^k).
func floorDiv(x *big.Int, k int) *big.Int { return new(big.Int).Rsh(x, uint(k)) }

// requantize applies Quantize of q to the exact value t: floor to q's
// scale, then wrap to its storage (a cast).
func (l *lowerer) requantize(t *fixedTile, q *quant.UniformType) *fixedTile {
	if t.frac < q.Frac {
		t = l.shiftLeft(t, q.Frac)
	} else {
		t = l.floorShift(t, q.Frac)
	}
	return &fixedTile{v: l.cast(t.v, storage(q)), shape: t.shape, frac: q.Frac,
		lo: big.NewInt(q.QMin()), hi: big.NewInt(q.QMax())}
}

// align brings tensors to their finest scale (exactly, by left shifts).
func (l *lowerer) align(ts ...*fixedTile) []*fixedTile {
	f := ts[0].frac
	for _, t := range ts[1:] {
		f = max(f, t.frac)
	}
	out := make([]*fixedTile, len(ts))
	for i, t := range ts {
		out[i] = l.shiftLeft(t, f)
	}
	return out
}

// scaled returns v*2^frac, an integer (the caller chose frac so).
func scaled(v float64, frac int) *big.Int {
	f := new(big.Float).SetFloat64(v)
	f.SetMantExp(f, frac)
	i, _ := f.Int(nil)
	return i
}

// param reads the payload entry key of the shape want (or, anyShape, any
// shape of as many elements, as the evaluator reads nn.const), its values
// finite.
func (l *lowerer) param(key string, want []int64, anyShape bool) (*tensor.Tensor, error) {
	t, ok := l.payload[key]
	if !ok || t == nil {
		return nil, diag.OpErrorf(l.node, "the payload has no entry '%s' (give the parameters with --params FILE.npz)", key)
	}
	if anyShape && int64(len(t.Data)) != tensor.NumElements(want) {
		return nil, diag.OpErrorf(l.node, "payload entry '%s' has %d elements (shape %v), but the node's type holds %d", key, len(t.Data), t.Shape, tensor.NumElements(want))
	}
	if !anyShape && !slices.Equal(t.Shape, want) {
		return nil, diag.OpErrorf(l.node, "payload entry '%s' has shape %v, but the node needs %v", key, t.Shape, want)
	}
	for i, v := range t.Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, diag.OpErrorf(l.node, "payload entry '%s' holds %v at flat index %d: parameters must be finite", key, v, i)
		}
	}
	return t, nil
}

// noFrac is paramFrac of zeros only.
const noFrac = math.MinInt

// paramFrac is the smallest F that makes every value an integer once
// multiplied by 2^F (noFrac when all are zero).
func paramFrac(data []float64) int {
	f := noFrac
	for _, v := range data {
		if v != 0 {
			f = max(f, quant.FracOf(v))
		}
	}
	return f
}

// maxParamFrac bounds the scale of a parameter tensor: weights finer than
// 2^-MaxParamFrac would make the products too wide.
const maxParamFrac = 60

// integers returns the values times 2^frac, as integers, and their range.
func integers(data []float64, frac int) (ints []*big.Int, lo, hi *big.Int) {
	ints = make([]*big.Int, len(data))
	for i, v := range data {
		ints[i] = scaled(v, frac)
		if i == 0 || ints[i].Cmp(lo) < 0 {
			lo = ints[i]
		}
		if i == 0 || ints[i].Cmp(hi) > 0 {
			hi = ints[i]
		}
	}
	if lo == nil {
		lo, hi = new(big.Int), new(big.Int)
	}
	return ints, lo, hi
}

// checkNonEmpty refuses a graph with a tensor of no elements: a tile has
// positive dimensions, and a circuit no lanes to give such a tensor. The
// first such argument or node is the error's place.
func checkNonEmpty(graph string, body *ir.Block) error {
	empty := func(t ir.Type) bool {
		tt, ok := t.(*ir.TensorType)
		return ok && slices.Contains(tt.Shape, 0)
	}
	for i, a := range body.Args {
		if empty(a.Type) {
			return diag.Errorf(a.Loc, "graph @%s: input #%d has type '%s', which has no elements: a circuit has no lanes for it", graph, i, diag.TypeStr(a.Type))
		}
	}
	for _, op := range body.Ops {
		for _, r := range op.Results {
			if empty(r.Type) {
				return diag.OpErrorf(op, "result of type '%s' has no elements: a circuit has no lanes for it", diag.TypeStr(r.Type))
			}
		}
	}
	return nil
}
