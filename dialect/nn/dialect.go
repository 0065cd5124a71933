// Package nn defines the nn dialect: neural-network graphs whose node kinds
// are those of the nn graph specification (../shared/spec/nn-graph-ops.md,
// docs/nn.md), one record per operation (operands, results, attributes,
// traits, effect, assembly format, Verify hook with the kind's shape rule,
// result type inference), registered with the IR on import.
//
// Each file holds one family of node kinds, as the otir dialect's do:
//
//	graph.go        nn.graph, nn.return, the GraphSignature directive
//	const.go        nn.const
//	random.go       nn.rand_uniform, nn.bernoulli_mask
//	elementwise.go  nn.add, nn.sub, nn.mul, nn.max, nn.min and the unary kinds (nn.relu, nn.exp, nn.detach, ...)
//	linalg.go       nn.linear, nn.matmul, nn.conv2d
//	pool.go         nn.max_pool2d, nn.avg_pool2d
//	norm.go         nn.softmax, nn.layer_norm
//	reduce.go       nn.reduce_sum, nn.reduce_mean, nn.sum
//	shape.go        nn.permute, nn.broadcast_to, nn.reshape, nn.flatten, nn.concat, nn.swap_first_two, nn.transpose3d_last_two
//	loss.go         nn.mse_loss
//	qonnx.go        nn.quant, nn.bipolar_quant, nn.trunc, nn.float_quant, nn.multithreshold (QONNX's quantizers; qonnxround.go: their scalar rules)
//	requant.go      nn.requantize (rounding and saturation in a quantized graph)
//	quantized.go    the rules of quantized graphs and each kind's role in them
//
// dialect.go holds what they share: the family record, the node verifier
// every compute op's hook is made of, and helpers that name no operation.
package nn

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/ir"
)

// families are the dialect's families of operations, in the order of the
// specification's table.
var families = []*family{&graphFamily, &constFamily, &randomFamily, &elementwiseFamily, &linalgFamily,
	&poolFamily, &normFamily, &reduceFamily, &shapeFamily, &lossFamily, &qonnxFamily, &requantFamily}

// registered is families as registered with ir.
var registered []ir.Family

func init() {
	for _, f := range families {
		registered = append(registered, ir.Family{Ops: f.ops, Register: f.register, NoVerify: f.noVerify})
		maps.Copy(quantRules, f.quant)
	}
	ir.RegisterFamilies(NoVerify, registered...)
}

// A family is one file's operations: their records and what the dialect
// registers with them.
type family struct {
	ops []ir.OpDef
	// register, when set, registers what the records need before them (the
	// custom directives of their formats).
	register func()
	// noVerify is the family's entries of NoVerify.
	noVerify map[string]string
	// quant is how the family's kinds compute in a quantized graph, for
	// the kinds that are not exact (QuantExact is the default).
	quant map[string]quantRule
}

// NoVerify lists the ops whose record is all there is to check, each with
// the reason (none today: every nn op has a shape rule).
var NoVerify = map[string]string{}

// Formats shared by the node kinds: operands, the attribute dictionary,
// then the functional type, `%r = nn.<kind> operands {attributes} :
// (operand types) -> result type` (docs/nn.md).
const (
	formatNullary = "attr-dict `:` functional-type(operands, results)"
	formatUnary   = "$input attr-dict `:` functional-type(operands, results)"
	formatBinary  = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)"
)

// Operand and result declarations shared by the records.
var (
	unaryOperand   = []ir.ArgDef{{Name: "input", Doc: "a tensor"}}
	binaryOperands = []ir.ArgDef{{Name: "lhs", Doc: "a tensor"}, {Name: "rhs", Doc: "a tensor of the same shape"}}
	outputResult   = []ir.ArgDef{{Name: "output", Doc: "the declared output shape (outShape), checked against the shape rule"}}
	// graphParent: every node lives in an nn.graph's body.
	graphParent = []string{OpGraph}
)

// node is what a shape rule reads: the operands' tensor types, the
// attributes, and the declared result type (nil when the rule infers it).
type node struct {
	ins   []*ir.TensorType
	attrs ir.Attrs
	res   *ir.TensorType
}

// A rule is a node kind's shape rule: the result shape its operands and
// attributes give (reading the declared result for what only it says: the
// out features of nn.linear, the target of nn.reshape), or the first rule
// the node breaks, as a message without the "'nn.x' op " prefix.
type rule func(n *node) ([]int64, error)

// errNeedsResult: the result shape is not a function of the operands and
// attributes alone (the rule was called without a declared result).
var errNeedsResult = errors.New("the result type must be written")

// nodeHook is the Verify hook of a compute node: operand and result types
// are tensors of f64 or f32, all of the same element type; then the rule;
// then the declared result shape against the rule's.
func nodeHook(r rule) func(*ir.Operation, *ir.VerifyContext) error {
	return func(op *ir.Operation, _ *ir.VerifyContext) error {
		if d := checkNode(op, r); d != nil {
			return d
		}
		return nil
	}
}

func checkNode(op *ir.Operation, r rule) *diag.Diagnostic {
	n := &node{attrs: op.Attrs}
	var elem ir.Type
	for i, v := range op.Operands {
		t, ok := v.Type.(*ir.TensorType)
		if !ok || t == nil {
			return diag.OpErrorf(op, "operand #%d must be a tensor, but got '%s'", i, diag.TypeStr(v.Type))
		}
		if d := checkElem(op, t, &elem); d != nil {
			return d
		}
		n.ins = append(n.ins, t)
	}
	if len(op.Results) != 1 {
		return diag.OpErrorf(op, "must have exactly one result, but has %d", len(op.Results))
	}
	res, ok := op.Results[0].Type.(*ir.TensorType)
	if !ok || res == nil {
		return diag.OpErrorf(op, "result must be a tensor, but got '%s'", diag.TypeStr(op.Results[0].Type))
	}
	if d := checkElem(op, res, &elem); d != nil {
		return d
	}
	n.res = res
	shape, err := r(n)
	if err != nil {
		return diag.OpErrorf(op, "%s", err.Error())
	}
	if !slices.Equal(shape, res.Shape) {
		return diag.OpErrorf(op, "result type '%s' does not match the shape rule: expected '%s'", res, ir.Tensor(shape, res.Elem))
	}
	return nil
}

// checkElem: t's element type is f64, f32 or a quantized type, and agrees
// with the op's other tensors (elem, set by the first): float tensors share
// one element type; quantized tensors mix with f64 ones (an f64 tensor of a
// quantized graph holds exact values, ../shared/design/nn-graph.md §5).
func checkElem(op *ir.Operation, t *ir.TensorType, elem *ir.Type) *diag.Diagnostic {
	if !IsElementType(t.Elem) {
		return diag.OpErrorf(op, "element type must be f64, f32 or !quant.uniform, but got '%s'", diag.TypeStr(t))
	}
	switch {
	case *elem == nil:
		*elem = t.Elem
	case *elem == t.Elem:
	case compatibleQuantized(*elem, t.Elem):
		if quant.ElementOf(*elem) == nil {
			*elem = t.Elem // remember a quantized one
		}
	default:
		return diag.OpErrorf(op, "operands and result must have the same element type, but got '%s' and '%s'", diag.TypeStr(*elem), diag.TypeStr(t.Elem))
	}
	return nil
}

// compatibleQuantized: a and b are quantized or f64, and not both f64.
func compatibleQuantized(a, b ir.Type) bool {
	f64 := ir.Type(ir.Float(ir.F64))
	qa, qb := quant.ElementOf(a) != nil, quant.ElementOf(b) != nil
	return (qa || a == f64) && (qb || b == f64) && (qa || qb)
}

// IsElementType reports whether t is an element type of nn tensors: f64
// (the reference), f32, or a quantized type (!quant.uniform).
func IsElementType(t ir.Type) bool {
	return t == ir.Type(ir.Float(ir.F64)) || t == ir.Type(ir.Float(ir.F32)) || quant.ElementOf(t) != nil
}

// inferWith makes a record's Infer of a rule that needs no declared result:
// the result is a tensor of the rule's shape and the operands' element type.
func inferWith(r rule) ir.InferFunc {
	return func(in *ir.InferInput, out []ir.Type) error {
		n := &node{attrs: in.Attrs}
		var elem ir.Type
		for _, g := range in.Operands {
			for _, t := range g {
				tt, ok := t.(*ir.TensorType)
				if !ok {
					return fmt.Errorf("'%s' op operand must be a tensor, but got '%s'", in.Def.Name, diag.TypeStr(t))
				}
				n.ins = append(n.ins, tt)
				elem = tt.Elem
			}
		}
		if elem == nil {
			return fmt.Errorf("'%s' op %s", in.Def.Name, errNeedsResult)
		}
		shape, err := r(n)
		if err != nil {
			return fmt.Errorf("'%s' op %s", in.Def.Name, err)
		}
		out[0] = ir.Tensor(shape, elem)
		return nil
	}
}

// InferResult is the result type of a node of kind name on operands of the
// given types with the given attributes, by its shape rule, for builders
// (the ONNX importer); an error when the kind's result is not a function of
// them (nn.const, nn.linear, nn.reshape, ...) or the node breaks its rule.
func InferResult(name string, operands []ir.Type, attrs ir.Attrs) (ir.Type, error) {
	d := ir.LookupOp(name)
	if d == nil || d.Infer == nil {
		return nil, fmt.Errorf("'%s' op %s", name, errNeedsResult)
	}
	out := make([]ir.Type, 1)
	err := d.Infer(&ir.InferInput{Def: d, Operands: [][]ir.Type{operands}, Attrs: attrs}, out)
	return out[0], err
}

// Shape rules' building blocks.

// same is the rule of a kind whose result has its operand's shape.
func same(n *node) ([]int64, error) { return n.ins[0].Shape, nil }

// declared is the declared result's shape (for the kinds whose result only
// the type says).
func (n *node) declared() ([]int64, error) {
	if n.res == nil {
		return nil, errNeedsResult
	}
	return n.res.Shape, nil
}

// intAttr reads the integer attribute name (nil when absent).
func (n *node) intAttr(name string) (*big.Int, error) {
	a := n.attrs.Get(name)
	if a == nil {
		return nil, nil
	}
	ia, ok := a.(*ir.IntAttr)
	if !ok || ia == nil || ia.Value == nil {
		return nil, fmt.Errorf("attribute '%s' must be an integer attribute, but got %s", name, diag.AttrKind(a))
	}
	return ia.Value, nil
}

// axis reads the axis attribute: an integer in [0, rank).
func (n *node) axis(rank int) (int, error) { return n.axisOr(-1, rank) }

// axisOr is axis with def when the attribute is absent (def < 0: it is
// required).
func (n *node) axisOr(def int64, rank int) (int, error) {
	v, err := n.intAttr("axis")
	if err != nil {
		return 0, err
	}
	if v == nil && def < 0 {
		return 0, errors.New("requires attribute 'axis'")
	}
	if v == nil {
		v = big.NewInt(def)
	}
	if v.Sign() < 0 {
		return 0, fmt.Errorf("axis must be non-negative, but got %s", v)
	}
	if !v.IsInt64() || v.Int64() >= int64(rank) {
		return 0, fmt.Errorf("axis %s is out of range for an operand of rank %d", v, rank)
	}
	return int(v.Int64()), nil
}

// nonNegative reads a size attribute: def when absent (def < 0: the
// attribute is required), positive when positive is set (stride), else
// non-negative (padding).
func (n *node) nonNegative(name string, def int64, positive bool) (int64, error) {
	v, err := n.intAttr(name)
	if err != nil {
		return 0, err
	}
	if v == nil {
		if def < 0 {
			return 0, fmt.Errorf("requires attribute '%s'", name)
		}
		return def, nil
	}
	if positive && v.Sign() <= 0 {
		return 0, fmt.Errorf("%s must be positive, but got %s", name, v)
	}
	if v.Sign() < 0 {
		return 0, fmt.Errorf("%s must be non-negative, but got %s", name, v)
	}
	if !v.IsInt64() || v.Int64() > maxDim {
		return 0, fmt.Errorf("%s %s is out of range", name, v)
	}
	return v.Int64(), nil
}

// maxDim bounds the integers of attributes that are sizes (kernel, stride,
// padding): a tensor dimension's limit.
const maxDim = 1 << 31

// intList reads an array attribute of integers.
func (n *node) intList(name string) ([]int64, error) {
	a := n.attrs.Get(name)
	if a == nil {
		return nil, fmt.Errorf("requires attribute '%s'", name)
	}
	arr, ok := a.(*ir.ArrayAttr)
	if !ok || arr == nil {
		return nil, fmt.Errorf("attribute '%s' must be an array of integers, but got %s", name, diag.AttrKind(a))
	}
	vs := make([]int64, len(arr.Elems))
	for i, e := range arr.Elems {
		ia, ok := e.(*ir.IntAttr)
		if !ok || ia == nil || ia.Value == nil || !ia.Value.IsInt64() {
			return nil, fmt.Errorf("attribute '%s' must be an array of integers, but element #%d is %s", name, i, diag.AttrKind(e))
		}
		vs[i] = ia.Value.Int64()
	}
	return vs, nil
}

// params checks the params attribute: a non-empty payload name.
func (n *node) params() error {
	a := n.attrs.Get("params")
	s, ok := a.(*ir.StringAttr)
	if a == nil {
		return errors.New("requires attribute 'params'")
	}
	if !ok || s == nil {
		return fmt.Errorf("attribute 'params' must be a string attribute, but got %s", diag.AttrKind(a))
	}
	if s.Value == "" {
		return errors.New("attribute 'params' must name a payload entry, but is empty")
	}
	return nil
}

// float reads the optional float attribute name (def when absent).
func (n *node) float(name string, def float64) (float64, error) {
	a := n.attrs.Get(name)
	if a == nil {
		return def, nil
	}
	f, ok := a.(*ir.FloatAttr)
	if !ok || f == nil {
		return 0, fmt.Errorf("attribute '%s' must be a float attribute, but got %s", name, diag.AttrKind(a))
	}
	return f.Value, nil
}

// numel is the number of elements of a shape.
func numel(shape []int64) int64 {
	p := int64(1)
	for _, d := range shape {
		p *= d
	}
	return p
}

// shapeText prints a shape as the spec does: [2, 3], [] for rank 0.
func shapeText(s []int64) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = fmt.Sprint(d)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// finite reports whether f is neither infinite nor NaN.
func finite(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }

// Node creates a node of kind name (nn.relu, nn.linear, ...) with the given
// operands, declared result type and attributes at the builder's insertion
// point, and returns its result. A nil result type is inferred by the kind's
// shape rule (InferResult), when the kind has one.
func Node(b *ir.Builder, name string, operands []*ir.Value, result ir.Type, attrs ir.Attrs) (*ir.Value, error) {
	if result == nil {
		ts := make([]ir.Type, len(operands))
		for i, v := range operands {
			ts[i] = v.Type
		}
		var err error
		if result, err = InferResult(name, ts, attrs); err != nil {
			return nil, err
		}
	}
	return b.Create(name, operands, []ir.Type{result}, attrs).Results[0], nil
}

// window is the shape rule shared by nn.conv2d and the pools: the input is
// [C, H, W] or batched [N, C, H, W]; kernel = [kH, kW] and stride are
// positive, padding (default 0) non-negative, and the kernel fits the padded
// input (PyTorch rejects a larger one). It returns the batch dimensions, the
// input's C, and the output's spatial size ⌊(H+2p−kH)/s⌋+1 × ⌊(W+2p−kW)/s⌋+1,
// and the kernel and padding for the pools' further rule.
func (n *node) window() (batch []int64, c int64, out [2]int64, kernel [2]int64, pad int64, err error) {
	x := n.ins[0]
	if r := x.Rank(); r != 3 && r != 4 {
		return nil, 0, out, kernel, 0, fmt.Errorf("input must have rank 3 ([C, H, W]) or 4 ([N, C, H, W]), but got '%s'", x)
	}
	k, err := n.intList("kernel")
	if err != nil {
		return nil, 0, out, kernel, 0, err
	}
	if len(k) != 2 {
		return nil, 0, out, kernel, 0, fmt.Errorf("kernel must be [kH, kW], but has %d entries", len(k))
	}
	for i, v := range k {
		if v <= 0 {
			return nil, 0, out, kernel, 0, fmt.Errorf("kernel %s must be positive, but got %d", [2]string{"height", "width"}[i], v)
		}
		if v > maxDim {
			return nil, 0, out, kernel, 0, fmt.Errorf("kernel %s %d is out of range", [2]string{"height", "width"}[i], v)
		}
		kernel[i] = v
	}
	stride, err := n.nonNegative("stride", -1, true)
	if err != nil {
		return nil, 0, out, kernel, 0, err
	}
	if pad, err = n.nonNegative("padding", 0, false); err != nil {
		return nil, 0, out, kernel, 0, err
	}
	r := x.Rank()
	hw := x.Shape[r-2:]
	for i := range 2 {
		if hw[i]+2*pad < kernel[i] {
			return nil, 0, out, kernel, 0, fmt.Errorf("kernel %dx%d does not fit the padded input %dx%d (padding %d)", kernel[0], kernel[1], hw[0]+2*pad, hw[1]+2*pad, pad)
		}
		out[i] = (hw[i]+2*pad-kernel[i])/stride + 1
	}
	return x.Shape[:r-3], x.Shape[r-3], out, kernel, pad, nil
}
