package onnximport

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/internal/onnxpb"
	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
)

// This file is the package's only one that names nn operations: each
// supported ONNX operator's translation.

const opConst = nn.OpConst

// operators are the supported ONNX operators of the default domain.
var operators map[string]operator

func init() {
	unaryOps := map[string]string{"Relu": nn.OpRelu, "Tanh": nn.OpTanh, "Sigmoid": nn.OpSigmoid, "Sqrt": nn.OpSqrt,
		"Exp": nn.OpExp, "Log": nn.OpLog, "Abs": nn.OpAbs, "Sin": nn.OpSin, "Cos": nn.OpCos, "Reciprocal": nn.OpInv}
	binaryOps := map[string]string{"Add": nn.OpAdd, "Sub": nn.OpSub, "Mul": nn.OpMul, "Max": nn.OpMax, "Min": nn.OpMin}
	operators = map[string]operator{
		"Identity": {min: 1, max: 1, run: (*importer).identity},
		"Dropout": {attrs: attrs{"seed": kindInt, "ratio": kindFloat, "is_test": kindInt}, until: map[string]int64{"is_test": 7}, min: 1, max: 3,
			in: []input{{at: 2, what: "training_mode", is: constValue}}, run: (*importer).dropout},
		"Cast": {attrs: attrs{"to": kindInt, "saturate": kindInt}, min: 1, max: 1, run: (*importer).cast},
		"Constant": {attrs: attrs{"value": kindTensor, "value_float": kindFloat, "value_floats": kindFloats, "value_int": kindInt, "value_ints": kindInts},
			run: (*importer).constantNode},
		"Div": {attrs: legacyBroadcast, until: legacyBroadcastUntil, min: 2, max: 2, run: (*importer).div},
		"Pow": {attrs: legacyBroadcast, until: legacyBroadcastUntil, min: 2, max: 2, in: []input{{at: 1, what: "exponent", is: constValue, need: true}}, run: (*importer).pow},
		"Neg": {min: 1, max: 1, run: (*importer).neg},
		"Gemm": {attrs: attrs{"alpha": kindFloat, "beta": kindFloat, "transA": kindInt, "transB": kindInt, "broadcast": kindInt}, until: map[string]int64{"broadcast": 7}, min: 2, max: 3,
			in: []input{{at: 2}}, run: (*importer).gemm},
		"MatMul": {min: 2, max: 2, run: (*importer).matmulNode},
		"Conv": {attrs: attrs{"auto_pad": kindString, "dilations": kindInts, "group": kindInt, "kernel_shape": kindInts, "pads": kindInts, "strides": kindInts},
			min: 2, max: 3, in: []input{{at: 1, what: "weight", is: paramValue, need: true}, {at: 2, what: "bias", is: paramValue}}, run: (*importer).conv},
		"MaxPool": {attrs: attrs{"auto_pad": kindString, "ceil_mode": kindInt, "dilations": kindInts, "kernel_shape": kindInts, "pads": kindInts, "storage_order": kindInt, "strides": kindInts},
			min: 1, max: 1, run: poolOp(nn.OpMaxPool2d)},
		"AveragePool": {attrs: attrs{"auto_pad": kindString, "ceil_mode": kindInt, "count_include_pad": kindInt, "kernel_shape": kindInts, "pads": kindInts, "strides": kindInts},
			min: 1, max: 1, run: poolOp(nn.OpAvgPool2d)},
		"Pad": {attrs: attrs{"mode": kindString, "pads": kindInts, "value": kindFloat}, min: 1, max: 4, in: []input{
			{at: 1, what: "pads", is: constValue, need: true, since: 11, attr: "pads"},
			{at: 2, what: "constant_value", is: constValue, since: 11, attr: "value"},
			{at: 3, what: "axes", since: 11}}, run: (*importer).pad},
		"Softmax": {attrs: attrs{"axis": kindInt}, min: 1, max: 1, run: (*importer).softmax},
		"LayerNormalization": {attrs: attrs{"axis": kindInt, "epsilon": kindFloat, "stash_type": kindInt}, min: 2, max: 3,
			in: []input{{at: 2}}, run: (*importer).layerNorm},
		"ReduceMean": {attrs: attrs{"axes": kindInts, "keepdims": kindInt}, min: 1, max: 2,
			in: []input{{at: 1, what: "axes", is: constValue, since: 18, attr: "axes"}}, run: reduceOp(nn.OpReduceMean)},
		"ReduceSum": {attrs: attrs{"axes": kindInts, "keepdims": kindInt, "noop_with_empty_axes": kindInt}, min: 1, max: 2,
			in: []input{{at: 1, what: "axes", is: constValue, since: 13, attr: "axes"}}, run: reduceOp(nn.OpReduceSum)},
		"Transpose": {attrs: attrs{"perm": kindInts}, min: 1, max: 1, run: (*importer).transpose},
		"Reshape": {attrs: attrs{"allowzero": kindInt}, min: 2, max: 2, in: []input{{at: 1, what: "shape", is: constValue, need: true}},
			run: (*importer).reshapeNode},
		"Flatten": {attrs: attrs{"axis": kindInt}, min: 1, max: 1, run: (*importer).flattenNode},
		"Squeeze": {attrs: attrs{"axes": kindInts}, min: 1, max: 2, in: []input{{at: 1, what: "axes", is: constValue, since: 13, attr: "axes"}},
			run: (*importer).squeeze},
		"Unsqueeze": {attrs: attrs{"axes": kindInts}, min: 1, max: 2, in: []input{{at: 1, what: "axes", is: constValue, since: 13, attr: "axes"}},
			run: (*importer).unsqueeze},
		"Concat": {attrs: attrs{"axis": kindInt}, min: 1, max: -1, run: (*importer).concat},
		"Shape":  {attrs: attrs{"start": kindInt, "end": kindInt}, min: 1, max: 1, run: (*importer).shapeNode},
		"ConstantOfShape": {attrs: attrs{"value": kindTensor}, min: 1, max: 1, in: []input{{at: 0, what: "shape", is: constValue, need: true}},
			run: (*importer).constantOfShape},
		"Gather": {attrs: attrs{"axis": kindInt}, min: 2, max: 2, in: []input{
			{at: 0, what: "data", is: constValue, need: true}, {at: 1, what: "indices", is: constValue, need: true}}, run: (*importer).gather},
		"Slice": {attrs: attrs{"starts": kindInts, "ends": kindInts, "axes": kindInts}, min: 1, max: 5, later: minFrom{10, 3}, in: []input{
			{at: 0, what: "data", is: constValue, need: true},
			{at: 1, what: "starts", is: constValue, since: 10, attr: "starts"},
			{at: 2, what: "ends", is: constValue, since: 10, attr: "ends"},
			{at: 3, what: "axes", is: constValue, since: 10, attr: "axes"},
			{at: 4, what: "steps", is: constValue, since: 10}}, run: (*importer).slice},
		"Clip": {attrs: attrs{"min": kindFloat, "max": kindFloat}, min: 1, max: 3,
			in: []input{{at: 1, what: "min", since: 11, attr: "min"}, {at: 2, what: "max", since: 11, attr: "max"}}, run: (*importer).clip},
		"BatchNormalization": {attrs: attrs{"epsilon": kindFloat, "momentum": kindFloat, "training_mode": kindInt, "is_test": kindInt, "spatial": kindInt},
			until: map[string]int64{"is_test": 7, "spatial": 9}, min: 5, max: 5, in: []input{
				{at: 1, what: "scale", is: constValue, need: true}, {at: 2, what: "B", is: constValue, need: true},
				{at: 3, what: "input_mean", is: constValue, need: true}, {at: 4, what: "input_var", is: constValue, need: true}}, run: (*importer).batchNorm},
		"LeakyRelu":         {attrs: attrs{"alpha": kindFloat}, min: 1, max: 1, run: (*importer).leakyRelu},
		"HardSigmoid":       {attrs: attrs{"alpha": kindFloat, "beta": kindFloat}, min: 1, max: 1, run: (*importer).hardSigmoid},
		"HardSwish":         {min: 1, max: 1, run: (*importer).hardSwish},
		"Elu":               {attrs: attrs{"alpha": kindFloat}, min: 1, max: 1, run: (*importer).elu},
		"Selu":              {attrs: attrs{"alpha": kindFloat, "gamma": kindFloat}, min: 1, max: 1, run: (*importer).elu},
		"PRelu":             {min: 2, max: 2, run: (*importer).prelu},
		"Softsign":          {min: 1, max: 1, run: (*importer).softsign},
		"GlobalAveragePool": {min: 1, max: 1, run: (*importer).globalAveragePool},
		"Resize": {attrs: attrs{"mode": kindString, "coordinate_transformation_mode": kindString, "nearest_mode": kindString,
			"cubic_coeff_a": kindFloat, "exclude_outside": kindInt, "extrapolation_value": kindFloat}, min: 2, max: 4,
			in:  []input{{at: 1, what: "roi or scales", is: constValue}, {at: 2, what: "scales", is: constValue}, {at: 3, what: "sizes", is: constValue}},
			run: (*importer).resize},
		"Upsample": {attrs: attrs{"mode": kindString, "scales": kindFloats}, min: 1, max: 2, later: minFrom{9, 2},
			in: []input{{at: 1, what: "scales", is: constValue, need: true, since: 9, attr: "scales"}}, run: (*importer).resize},
		"ConvTranspose": {attrs: attrs{"auto_pad": kindString, "dilations": kindInts, "group": kindInt, "kernel_shape": kindInts, "output_padding": kindInts,
			"output_shape": kindInts, "pads": kindInts, "strides": kindInts},
			min: 2, max: 3, in: []input{{at: 1, what: "weight", is: paramValue, need: true}, {at: 2, what: "bias", is: paramValue}}, run: (*importer).convTranspose},
	}
	for onnxName, kind := range unaryOps {
		operators[onnxName] = operator{min: 1, max: 1, run: unaryOp(kind)}
	}
	for onnxName, kind := range binaryOps {
		operators[onnxName] = operator{min: 2, max: 2, run: binaryOp(kind)}
		if onnxName != "Max" && onnxName != "Min" {
			operators[onnxName] = operator{attrs: legacyBroadcast, until: legacyBroadcastUntil, min: 2, max: 2, run: binaryOp(kind)}
		}
	}
}

// Before opset 7 the arithmetic operators broadcast only when told to, B
// to A from A's axis on (legacyBroadcast, the function).
var (
	legacyBroadcast      = attrs{"broadcast": kindInt, "axis": kindInt}
	legacyBroadcastUntil = map[string]int64{"broadcast": 7, "axis": 7}
)

// introduced are the supported operators of the default domain that ONNX
// added after opset 6 (Upsample: its form before 7 was experimental), with
// the opset that added them: a model of an earlier opset cannot hold them.
var introduced = map[string]int64{"Sin": 7, "Cos": 7, "Upsample": 7, "ConstantOfShape": 9, "HardSwish": 14, "LayerNormalization": 17, "Resize": 10}

// attrRules are the values each attribute may take, by name, whatever the
// operator (ONNX gives a name one meaning): translate checks every
// attribute of a node against its rule before the node's translation reads
// it, so that no translation divides by a zero stride or sizes a window
// from a negative kernel. What depends on the input's rank (an axis, perm,
// axes, the number of strides) is checked where the rank is known
// (axisOf, window, transpose). An attribute without a rule takes any
// value of its kind.
var attrRules = map[string]func(*onnxpb.AttributeProto) string{
	"strides":      eachInt(1, math.MaxInt32),
	"dilations":    eachInt(1, math.MaxInt32),
	"kernel_shape": eachInt(1, math.MaxInt32),
	"pads":         eachInt(0, math.MaxInt32),
	"group":        oneInt(1, math.MaxInt32),

	"transA": oneInt(0, 1), "transB": oneInt(0, 1), "keepdims": oneInt(0, 1), "noop_with_empty_axes": oneInt(0, 1),
	"ceil_mode": oneInt(0, 1), "count_include_pad": oneInt(0, 1), "allowzero": oneInt(0, 1), "saturate": oneInt(0, 1),
	"storage_order": oneInt(0, 1), "training_mode": oneInt(0, 1),
	"signed": oneInt(0, 1), "narrow": oneInt(0, 1),
	"has_inf": oneInt(0, 1), "has_nan": oneInt(0, 1), "has_subnormal": oneInt(0, 1), "saturation": oneInt(0, 1),
	"rounding_mode": oneString("one of "+strings.Join(nn.RoundingModes, ", ")+" (or HALF_EVEN)", isRoundingMode),

	"epsilon":  oneFloat("finite and non-negative", func(f float64) bool { return f >= 0 && !math.IsInf(f, 0) }),
	"alpha":    oneFloat("finite", isFinite),
	"gamma":    oneFloat("finite", isFinite),
	"beta":     oneFloat("finite", isFinite),
	"momentum": oneFloat("finite", isFinite),
	"ratio":    oneFloat("in [0, 1)", func(f float64) bool { return f >= 0 && f < 1 }),
}

// eachInt: every entry of a list attribute lies in [lo, hi].
func eachInt(lo, hi int64) func(*onnxpb.AttributeProto) string {
	return func(a *onnxpb.AttributeProto) string {
		for _, v := range a.GetInts() {
			if v < lo || v > hi {
				return fmt.Sprintf("%s=%v: every entry must lie in [%d, %d]", a.GetName(), a.GetInts(), lo, hi)
			}
		}
		return ""
	}
}

// oneInt: an integer attribute lies in [lo, hi].
func oneInt(lo, hi int64) func(*onnxpb.AttributeProto) string {
	return func(a *onnxpb.AttributeProto) string {
		if v := a.GetI(); v < lo || v > hi {
			return fmt.Sprintf("%s=%d must lie in [%d, %d]", a.GetName(), v, lo, hi)
		}
		return ""
	}
}

// oneFloat: a float attribute satisfies ok (what says how).
func oneFloat(what string, ok func(float64) bool) func(*onnxpb.AttributeProto) string {
	return func(a *onnxpb.AttributeProto) string {
		if f := float64(a.GetF()); !ok(f) {
			return fmt.Sprintf("%s=%v must be %s", a.GetName(), f, what)
		}
		return ""
	}
}

// oneString: a string attribute satisfies ok (what says how).
func oneString(what string, ok func(string) bool) func(*onnxpb.AttributeProto) string {
	return func(a *onnxpb.AttributeProto) string {
		if s := string(a.GetS()); !ok(s) {
			return fmt.Sprintf("%s=%q must be %s", a.GetName(), s, what)
		}
		return ""
	}
}

func isFinite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// Operators lists the supported ONNX operators, sorted (for the docs and
// the command's help).
func Operators() []string { return sortedKeys(operators) }

// translate translates one node.
func (im *importer) translate(n *onnxpb.NodeProto) error {
	table, channelsLast := operators, false
	switch d := n.GetDomain(); {
	case d == "" || d == "ai.onnx":
	case d == ChannelsLastDomain:
		if !slices.Contains(channelsLastOperators, n.GetOpType()) {
			return im.errorf("operator %s of the domain '%s' is not supported (only %s)", n.GetOpType(), d, strings.Join(channelsLastOperators, ", "))
		}
		channelsLast = true
	case qonnxDomains[d]:
		table = qonnxOperators
		if _, ok := table[n.GetOpType()]; !ok {
			if n.GetOpType() == "FloatQuant" {
				return im.errorf("float-output quantizer, not supported")
			}
			return im.errorf("operator %s of the QONNX domain '%s' is not supported (only %s)", n.GetOpType(), d, strings.Join(QONNXOperators(), ", "))
		}
	default:
		return im.errorf("the domain '%s' is not supported", d)
	}
	op, ok := table[n.GetOpType()]
	if !ok {
		return im.errorf("operator %s is not supported", n.GetOpType())
	}
	seen := map[string]bool{}
	for _, a := range n.GetAttribute() {
		kind, ok := op.attrs[a.GetName()]
		switch {
		case !ok:
			return im.errorf("attribute '%s' is not supported", a.GetName())
		case a.GetType() != kind:
			return im.errorf("attribute '%s' must be of kind %s, but is %s", a.GetName(), kind, a.GetType())
		case seen[a.GetName()]:
			return im.errorf("attribute '%s' is given twice", a.GetName())
		case op.until[a.GetName()] != 0 && im.opset >= op.until[a.GetName()]:
			return im.errorf("attribute '%s' exists only before opset %d (the model's opset is %d)", a.GetName(), op.until[a.GetName()], im.opset)
		}
		if rule := attrRules[a.GetName()]; rule != nil {
			if msg := rule(a); msg != "" {
				return im.errorf("%s", msg)
			}
		}
		seen[a.GetName()] = true
	}
	if len(n.GetOutput()) == 0 || n.GetOutput()[0] == "" {
		return im.errorf("has no output")
	}
	for _, o := range n.GetOutput() {
		if _, dup := im.vals[o]; dup && o != "" {
			return im.errorf("output '%s' is defined twice", o)
		}
	}
	if since := introduced[n.GetOpType()]; !qonnxDomains[n.GetDomain()] && im.opset < since {
		return im.errorf("%s exists from opset %d (the model's opset is %d)", n.GetOpType(), since, im.opset)
	}
	if err := im.checkSignature(op); err != nil {
		return err
	}
	if channelsLast {
		return im.channelsLast(op)
	}
	return op.run(im)
}

// QONNX's channels-last operators (qonnx.custom_op.channels_last, written
// by QONNX's ConvertToChannelsLastAndClean, as hls4ml's and FINN's flows
// use it): ONNX's operator of the same name on tensors whose channels are
// the last axis.
const ChannelsLastDomain = "qonnx.custom_op.channels_last"

var channelsLastOperators = []string{"BatchNormalization", "Conv", "MaxPool"}

// ChannelsLastOperators lists the operators of ChannelsLastDomain the
// importer reads, sorted.
func ChannelsLastOperators() []string { return slices.Clone(channelsLastOperators) }

// channelsLast translates a node of ChannelsLastDomain as QONNX's
// ChannelsLastWrappedOp executes it: its input ([N, H, W, C] or [N, L, C])
// and a Conv's weight ([O, kH, kW, C/group]) moved to channels-first by
// nn.permute (the weight at import), ONNX's operator, and its output moved
// back. A permute of a permute's result by the inverse order is its
// operand (permuted), so a chain of channels-last nodes holds only the
// permutes around what lies between them; each is wires in a circuit.
func (im *importer) channelsLast(op operator) error {
	x := im.args[0]
	r := len(x.shape)
	if r < 3 {
		return im.errorf("input must have rank 3 or more ([N, ..., C]), but has shape %s", shapeText(x.shape))
	}
	if x.pad != nil {
		return im.errorf("the output of Pad '%s' cannot be read by a channels-last node", x.name)
	}
	first := make([]int64, 0, r) // QONNX's to_channels_first_args
	first = append(first, 0, int64(r-1))
	for i := 1; i < r-1; i++ {
		first = append(first, int64(i))
	}
	back := make([]int64, r)
	for i, p := range first {
		back[p] = int64(i)
	}
	var err error
	if im.args[0], err = im.permuted(x, first); err != nil {
		return err
	}
	if im.node.GetOpType() == "Conv" {
		w := im.consts[1]
		if len(w.shape) != r {
			return im.errorf("weight of shape %s does not fit an input of shape %s", shapeText(w.shape), shapeText(x.shape))
		}
		im.consts[1] = permuteConst(w, first, permutedShape(w.shape, first))
	}
	if err := op.run(im); err != nil {
		return err
	}
	y, err := im.permuted(im.vals[im.node.GetOutput()[0]], back)
	if err != nil {
		return err
	}
	return im.define(y)
}

// permuted is x with its axes in the order perm (ONNX's Transpose).
func (im *importer) permuted(x *value, perm []int64) (*value, error) {
	shape := permutedShape(x.shape, perm)
	if x.c != nil {
		return &value{shape: shape, c: permuteConst(x.c, perm, shape)}, nil
	}
	in, err := im.use(x)
	if err != nil {
		return nil, err
	}
	if p, ok := im.permutes[in]; ok && isInverse(p.perm, perm) {
		// The permute that made x goes when this node is x's only reader,
		// so that what computes p.of sees its true readers (a Conv that a
		// BatchNormalization folds into).
		if im.uses[x.name] == 1 && im.readers(in) == 0 {
			ops := im.b.Block.Ops
			if i := slices.Index(ops, in.Def); i >= 0 {
				im.b.Block.Ops = slices.Delete(ops, i, i+1)
			}
		}
		return &value{name: x.name, shape: shape, ssa: p.of}, nil
	}
	y, err := im.emit(nn.OpPermute, []*ir.Value{in}, shape, ir.Attrs{intsAttr("perm", perm)})
	if err != nil {
		return nil, err
	}
	if im.permutes == nil {
		im.permutes = map[*ir.Value]permute{}
	}
	im.permutes[y] = permute{of: in, perm: perm}
	return &value{shape: shape, ssa: y}, nil
}

// A permute is the nn.permute that permuted made of a value.
type permute struct {
	of   *ir.Value
	perm []int64
}

func permutedShape(s, perm []int64) []int64 {
	out := make([]int64, len(perm))
	for i, p := range perm {
		out[i] = s[p]
	}
	return out
}

// isInverse: applying p then q leaves every axis in place.
func isInverse(p, q []int64) bool {
	if len(p) != len(q) {
		return false
	}
	for i, a := range q {
		if a < 0 || a >= int64(len(p)) || p[a] != int64(i) {
			return false
		}
	}
	return true
}

// Inputs, outputs and attributes of the current node.

// define makes v the node's first output.
func (im *importer) define(v *value) error {
	v.name = im.node.GetOutput()[0]
	if err := im.checkSize(v.shape); err != nil {
		return im.errorf("%v", err)
	}
	im.vals[v.name] = v
	return nil
}

func (im *importer) defineSSA(x *ir.Value) error {
	return im.define(&value{shape: x.Type.(*ir.TensorType).Shape, ssa: x})
}

func (im *importer) attr(name string) *onnxpb.AttributeProto {
	for _, a := range im.node.GetAttribute() {
		if a.GetName() == name {
			return a
		}
	}
	return nil
}

// The accessors of the node's attributes, whose kinds translate has
// checked against the operator's table: the value, or def when absent.

func (im *importer) attrInt(name string, def int64) int64 {
	if a := im.attr(name); a != nil {
		return a.GetI()
	}
	return def
}

// attrInts is a list attribute and whether the node has it.
func (im *importer) attrInts(name string) ([]int64, bool) {
	if a := im.attr(name); a != nil {
		return a.GetInts(), true
	}
	return nil, false
}

func (im *importer) attrFloat(name string, def float64) float64 {
	if a := im.attr(name); a != nil {
		return widen(a.GetF())
	}
	return def
}

func (im *importer) attrString(name, def string) string {
	if a := im.attr(name); a != nil {
		return string(a.GetS())
	}
	return def
}

// widen reads a float attribute, which ONNX stores as a float32, as the
// float64 of the shortest decimal that rounds to it: the value PyTorch
// held (an epsilon of 1e-05 is exported as the float32 9.99999974e-06 and
// read back as 1e-05).
func widen(f float32) float64 {
	d, err := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	if err != nil || math.IsNaN(d) || math.IsInf(d, 0) {
		return float64(f)
	}
	return d
}

// axisOf normalizes an ONNX axis (negative: from the back) for a rank.
func (im *importer) axisOf(what string, a int64, rank int) (int, error) {
	if a < -int64(rank) || a >= int64(rank) || rank == 0 && a != 0 {
		return 0, im.errorf("%s %d is out of range for rank %d", what, a, rank)
	}
	if a < 0 {
		a += int64(rank)
	}
	return int(a), nil
}

// Emitting nodes.

// emit creates an nn node (result nil: inferred by its shape rule) and
// checks it by its verifier; a rule it breaks is the ONNX node's error.
func (im *importer) emit(kind string, operands []*ir.Value, result []int64, attrs ir.Attrs) (*ir.Value, error) {
	var rt ir.Type
	if result != nil {
		if err := im.checkSize(result); err != nil {
			return nil, im.errorf("%v", err)
		}
		rt = ir.Tensor(result, f64)
	}
	attrs = slices.Clone(attrs)
	slices.SortFunc(attrs, func(a, b ir.NamedAttr) int { return strings.Compare(a.Name, b.Name) })
	v, err := nn.Node(im.b, kind, operands, rt, attrs)
	if err != nil {
		return nil, im.errorf("%v", err)
	}
	if d := ir.LookupOp(kind); d != nil && d.Verify != nil {
		if err := d.Verify(v.Def, nil); err != nil {
			im.b.Block.Ops = im.b.Block.Ops[:len(im.b.Block.Ops)-1]
			return nil, im.errorf("%v", err)
		}
	}
	if err := im.checkSize(v.Type.(*ir.TensorType).Shape); err != nil {
		return nil, im.errorf("%v", err)
	}
	return v, nil
}

// emitOut emits a node (as emit) and makes it the ONNX node's output.
func (im *importer) emitOut(kind string, operands []*ir.Value, result []int64, attrs ir.Attrs) error {
	y, err := im.emit(kind, operands, result, attrs)
	if err != nil {
		return err
	}
	return im.defineSSA(y)
}

func intAttr(name string, v int64) ir.NamedAttr { return ir.NamedAttr{Name: name, Value: ir.I64(v)} }

func intsAttr(name string, vs []int64) ir.NamedAttr {
	elems := make([]ir.Attr, len(vs))
	for i, v := range vs {
		elems[i] = ir.I64(v)
	}
	return ir.NamedAttr{Name: name, Value: &ir.ArrayAttr{Elems: elems}}
}

// reshape reshapes x to shape (x itself when it has that shape; a reshape
// of a reshape reshapes the first one's operand).
func (im *importer) reshape(x *ir.Value, shape []int64) (*ir.Value, error) {
	if x.Def != nil && x.Def.Name == nn.OpReshape && len(x.Def.Operands) == 1 {
		x = x.Def.Operands[0]
	}
	if slices.Equal(x.Type.(*ir.TensorType).Shape, shape) {
		return x, nil
	}
	return im.memoized(nn.OpReshape, x, shape)
}

// memoized is x reshaped or broadcast (kind) to shape, made once.
func (im *importer) memoized(kind string, x *ir.Value, shape []int64) (*ir.Value, error) {
	key := memoKey{kind, x, shapeText(shape)}
	if y, ok := im.memo[key]; ok {
		return y, nil
	}
	y, err := im.emit(kind, []*ir.Value{x}, shape, nil)
	if err == nil {
		im.memo[key] = y
	}
	return y, err
}

// broadcast is v broadcast to shape (v itself when it has that shape).
func (im *importer) broadcast(v *value, shape []int64) (*ir.Value, error) {
	x, err := im.use(v)
	if err != nil {
		return nil, err
	}
	if slices.Equal(v.shape, shape) {
		return x, nil
	}
	return im.memoized(nn.OpBroadcastTo, x, shape)
}

// broadcastShape is the shape two shapes broadcast to (numpy's rule, which
// is PyTorch's and nn.broadcast_to's: aligned from the back).
func (im *importer) broadcastShape(a, b []int64) ([]int64, error) {
	n := max(len(a), len(b))
	out := make([]int64, n)
	for i := range n {
		da, db := int64(1), int64(1)
		if j := i - (n - len(a)); j >= 0 {
			da = a[j]
		}
		if j := i - (n - len(b)); j >= 0 {
			db = b[j]
		}
		switch {
		case da == db, db == 1:
			out[i] = da
		case da == 1:
			out[i] = db
		default:
			return nil, im.errorf("shapes %s and %s do not broadcast", shapeText(a), shapeText(b))
		}
	}
	return out, nil
}

// constValue is a new constant value holding data of shape.
func (im *importer) constValue(name string, shape []int64, data []float64) *value {
	return &value{name: name, shape: shape, c: &constant{shape: shape, floats: data}}
}

// scalar is the constant f of rank 0, named name.
func (im *importer) scalar(name string, f float64) *value {
	return im.constValue(name, []int64{}, []float64{f})
}

// Element-wise operators.

func unaryOp(kind string) func(*importer) error {
	return func(im *importer) error {
		in, err := im.use(im.args[0])
		if err != nil {
			return err
		}
		return im.emitOut(kind, []*ir.Value{in}, nil, nil)
	}
}

// binary is an element-wise operator of two operands (Max and Min of
// two), broadcast as numpy; constants fold.
func binaryOp(kind string) func(*importer) error {
	return func(im *importer) error {
		if err := im.legacyBroadcast(); err != nil {
			return err
		}
		a, b := im.args[0], im.args[1]
		if a.c != nil && b.c != nil {
			return im.foldBinary(kind, a, b)
		}
		return im.binaryOf(kind, a, b)
	}
}

// legacyBroadcast applies the broadcasting of Add, Sub, Mul, Div and Pow
// before opset 7: without broadcast=1 both operands have one shape; with
// it, B's dimensions stand for A's from axis on (by default A's last
// ones), and B is reshaped to A's rank with ones around them, so that the
// numpy rule the translations apply does the same.
func (im *importer) legacyBroadcast() error {
	if im.opset >= 7 {
		return nil
	}
	a, b := im.args[0], im.args[1]
	if im.attrInt("broadcast", 0) == 0 {
		if !slices.Equal(a.shape, b.shape) {
			return im.errorf("operands of shapes %s and %s need broadcast=1 before opset 7", shapeText(a.shape), shapeText(b.shape))
		}
		return nil
	}
	ra, rb := len(a.shape), len(b.shape)
	axis := im.attrInt("axis", int64(ra-rb))
	if axis < 0 || axis+int64(rb) > int64(ra) {
		return im.errorf("axis=%d does not place B of shape %s in A of shape %s", axis, shapeText(b.shape), shapeText(a.shape))
	}
	shape := slices.Repeat([]int64{1}, ra)
	for i, d := range b.shape {
		if d != 1 && d != a.shape[axis+int64(i)] {
			return im.errorf("B of shape %s does not broadcast to A of shape %s from axis %d", shapeText(b.shape), shapeText(a.shape), axis)
		}
		shape[axis+int64(i)] = d
	}
	v, err := im.reshaped(b, shape)
	if err != nil {
		return err
	}
	if im.args[1] = v; im.consts[1] != nil { // Pow's exponent
		im.consts[1] = v.c
	}
	return nil
}

// binaryOf defines the node's output as kind(a, b) with broadcasting.
func (im *importer) binaryOf(kind string, a, b *value) error {
	v, err := im.binaryValue(kind, a, b)
	if err != nil {
		return err
	}
	return im.define(v)
}

// binaryValue is kind(a, b) with broadcasting, a value of the node's
// translation that is not (yet) its output.
func (im *importer) binaryValue(kind string, a, b *value) (*value, error) {
	shape, err := im.broadcastShape(a.shape, b.shape)
	if err != nil {
		return nil, err
	}
	x, err := im.broadcast(a, shape)
	if err != nil {
		return nil, err
	}
	y, err := im.broadcast(b, shape)
	if err != nil {
		return nil, err
	}
	r, err := im.emit(kind, []*ir.Value{x, y}, nil, nil)
	if err != nil {
		return nil, err
	}
	return &value{shape: shape, ssa: r}, nil
}

// foldBinary computes a constant element-wise operation.
func (im *importer) foldBinary(kind string, a, b *value) error {
	shape, err := im.broadcastShape(a.shape, b.shape)
	if err != nil {
		return err
	}
	if err := im.checkSize(shape); err != nil {
		return im.errorf("%v", err)
	}
	ia, ib := broadcastIndex(a.shape, shape), broadcastIndex(b.shape, shape)
	f := map[string]func(x, y float64) float64{
		nn.OpAdd: func(x, y float64) float64 { return x + y }, nn.OpSub: func(x, y float64) float64 { return x - y },
		nn.OpMul: func(x, y float64) float64 { return x * y }, "div": func(x, y float64) float64 { return x / y },
		"pow": math.Pow,
		nn.OpMax: func(x, y float64) float64 {
			if math.IsNaN(x) || math.IsNaN(y) {
				return math.NaN()
			}
			return math.Max(x, y)
		},
		nn.OpMin: func(x, y float64) float64 {
			if math.IsNaN(x) || math.IsNaN(y) {
				return math.NaN()
			}
			return math.Min(x, y)
		},
	}[kind]
	if a.c.isInt && b.c.isInt && kind != "div" && kind != "pow" {
		g := map[string]func(x, y int64) int64{
			nn.OpAdd: func(x, y int64) int64 { return x + y }, nn.OpSub: func(x, y int64) int64 { return x - y },
			nn.OpMul: func(x, y int64) int64 { return x * y }, nn.OpMax: func(x, y int64) int64 { return max(x, y) },
			nn.OpMin: func(x, y int64) int64 { return min(x, y) },
		}[kind]
		out := make([]int64, len(ia))
		for i := range out {
			out[i] = g(a.c.ints[ia[i]], b.c.ints[ib[i]])
		}
		return im.defineConst(&constant{shape: shape, isInt: true, ints: out})
	}
	out := make([]float64, len(ia))
	for i := range out {
		out[i] = f(a.c.float(int(ia[i])), b.c.float(int(ib[i])))
	}
	return im.defineConst(&constant{shape: shape, floats: out})
}

// defineConst makes c the node's output (a folded constant).
func (im *importer) defineConst(c *constant) error {
	n := numel(c.shape)
	if im.total+n > im.opts.MaxTotalElements {
		return im.errorf("the constants hold more than %d elements together", im.opts.MaxTotalElements)
	}
	im.total += n
	return im.define(&value{shape: c.shape, c: c})
}

// broadcastIndex maps each element of shape out (row-major) to the element
// of shape in (broadcast to out) it reads.
func broadcastIndex(in, out []int64) []int64 {
	return tileview.Map[int64](out, tileview.BroadcastStrides(in, out))
}

// div: a / b is a · inv(b), or a · (1/b) when b is a constant whose every
// element is a power of two (so that 1/b is exact and the product equals
// the quotient).
func (im *importer) div() error {
	if err := im.legacyBroadcast(); err != nil {
		return err
	}
	a, b := im.args[0], im.args[1]
	if a.c != nil && b.c != nil {
		return im.foldBinary("div", a, b)
	}
	if b.c != nil {
		if r, ok := exactReciprocal(b.c); ok {
			return im.binaryOf(nn.OpMul, a, im.constValue(b.name+"_reciprocal", b.shape, r))
		}
	}
	y, err := im.use(b)
	if err != nil {
		return err
	}
	inv, err := im.emit(nn.OpInv, []*ir.Value{y}, nil, nil)
	if err != nil {
		return err
	}
	return im.binaryOf(nn.OpMul, a, &value{name: b.name, shape: b.shape, ssa: inv})
}

// exactReciprocal is 1/c when every element of c is ± a power of two
// whose reciprocal is a normal float64 (then x/c = x·(1/c) exactly).
func exactReciprocal(c *constant) ([]float64, bool) {
	r := make([]float64, c.len())
	for i := range r {
		x := c.float(i)
		frac, _ := math.Frexp(x)
		if math.Abs(frac) != 0.5 || math.IsInf(x, 0) {
			return nil, false
		}
		r[i] = 1 / x
		if math.IsInf(r[i], 0) || math.Abs(r[i]) < 0x1p-1022 || r[i]*x != 1 {
			return nil, false
		}
	}
	return r, true
}

// pow: a constant to a constant power folds (in float64: the Pow(var,
// 0.5) of an exported batch norm); otherwise only x^2 (the exponent a
// constant of 2s), which is x · x.
func (im *importer) pow() error {
	if err := im.legacyBroadcast(); err != nil {
		return err
	}
	x, e := im.args[0], im.consts[1]
	if x.c != nil {
		return im.foldBinary("pow", x, &value{name: im.node.GetInput()[1], shape: e.shape, c: e})
	}
	for i := range e.len() {
		if e.float(i) != 2 {
			return im.errorf("exponent %v is not supported (only the constant 2)", e.float(i))
		}
	}
	shape, err := im.broadcastShape(x.shape, e.shape)
	if err != nil {
		return err
	}
	xs, err := im.broadcast(x, shape)
	if err != nil {
		return err
	}
	return im.emitOut(nn.OpMul, []*ir.Value{xs, xs}, nil, nil)
}

// clip: Clip(x, min, max) is nn.max by min, then nn.min by max (an absent
// bound clips nothing); the bounds are float attributes before opset 11
// (their float32 values, as ONNX compares) and optional inputs from it.
func (im *importer) clip() error {
	v := im.args[0]
	for i, bound := range []struct{ attr, kind string }{{"min", nn.OpMax}, {"max", nn.OpMin}} {
		b := im.arg(i + 1)
		if a := im.attr(bound.attr); a != nil {
			b = im.scalar(im.node.GetOutput()[0]+"_"+bound.attr, float64(a.GetF()))
		}
		if b == nil {
			continue
		}
		if numel(b.shape) != 1 {
			return im.errorf("the %s bound (input '%s') must be one value, but has shape %s", bound.attr, b.name, shapeText(b.shape))
		}
		var err error
		if v, err = im.binaryValue(bound.kind, v, b); err != nil {
			return err
		}
	}
	return im.alias(v)
}

// neg: −x is x · (−1), exact.
func (im *importer) neg() error {
	x := im.args[0]
	return im.binaryOf(nn.OpMul, x, im.scalar(im.node.GetOutput()[0]+"_minus_one", -1))
}

// leakyRelu: LeakyRelu(x) (alpha default 0.01) is x where x ≥ 0 and
// alpha·x below, which is exactly nn.max(x, alpha·x) for alpha ≤ 1 (x ≥ 0:
// alpha·x ≤ x; x < 0: alpha·x ≥ x) and nn.min(x, alpha·x) for alpha > 1:
// nn.mul by the constant alpha, then nn.max or nn.min. Any finite alpha.
func (im *importer) leakyRelu() error {
	x := im.args[0]
	alpha := im.attrFloat("alpha", 0.01)
	ax, err := im.scaled(x, alpha, im.node.GetOutput()[0]+"_alpha")
	if err != nil {
		return err
	}
	if alpha > 1 {
		return im.binaryOf(nn.OpMin, x, ax)
	}
	return im.binaryOf(nn.OpMax, x, ax)
}

// hardSigmoid: HardSigmoid(x) = max(0, min(1, alpha·x + beta)) (alpha
// default 0.2, beta 0.5; PyTorch's nn.Hardsigmoid exports alpha = 1/6 as a
// float32): nn.mul by alpha, nn.add of beta, nn.min by 1, nn.max by 0, as
// ONNX defines it.
func (im *importer) hardSigmoid() error {
	x := im.args[0]
	v, err := im.hardSigmoidOf(x, im.attrFloat("alpha", 0.2), im.attrFloat("beta", 0.5))
	if err != nil {
		return err
	}
	return im.define(v)
}

// hardSwish: HardSwish(x) = x · HardSigmoid(x) with alpha = 1/6 and beta =
// 0.5 (opset 14; PyTorch 1.13 exports nn.Hardswish as HardSigmoid and Mul).
func (im *importer) hardSwish() error {
	x := im.args[0]
	h, err := im.hardSigmoidOf(x, 1.0/6, 0.5)
	if err != nil {
		return err
	}
	return im.binaryOf(nn.OpMul, x, h)
}

// elu: Elu(x) = x for x > 0, alpha·(e^x − 1) otherwise (alpha default 1;
// Keras's elu), and Selu(x) = gamma·Elu(x) with Selu's alpha and gamma
// (defaults ONNX's float32 1.6732632 and 1.0507010), as ONNX's reference
// computes them: max(x, 0) + (exp(min(x, 0)) − 1)·alpha, and
// max(x, 0)·gamma + (exp(min(x, 0))·alpha − alpha)·gamma.
func (im *importer) elu() error {
	x, name := im.args[0], im.node.GetOutput()[0]
	k := func(key string, f float64) *value { return im.scalar(name+key, f) }
	selu := im.node.GetOpType() == "Selu"
	alpha, gamma := im.attrFloat("alpha", 1), 1.0
	if selu {
		alpha, gamma = im.attrFloat("alpha", widen(1.67326319217681884765625)), im.attrFloat("gamma", widen(1.05070102214813232421875))
	}
	pos, neg, err := im.signParts(x)
	if err != nil {
		return err
	}
	e, err := im.unaryValue(nn.OpExp, neg)
	if err != nil {
		return err
	}
	type step struct {
		kind string
		k    *value
	}
	a := k("_alpha", alpha)
	steps := []step{{nn.OpSub, k("_one", 1)}, {nn.OpMul, a}}
	if selu {
		g := k("_gamma", gamma)
		steps = []step{{nn.OpMul, a}, {nn.OpSub, a}, {nn.OpMul, g}}
		if pos, err = im.binaryValue(nn.OpMul, pos, g); err != nil {
			return err
		}
	}
	for _, st := range steps {
		if e, err = im.binaryValue(st.kind, e, st.k); err != nil {
			return err
		}
	}
	return im.binaryOf(nn.OpAdd, pos, e)
}

// prelu: PRelu(x, slope) = x for x ≥ 0, slope·x otherwise, the slope
// broadcast to x (PyTorch's nn.PReLU: one slope, or [C, 1, 1], one a
// channel). A constant slope whose values are all at most 1 is
// max(x, slope·x), all above 1 min(x, slope·x) (exact, as LeakyRelu: the
// form nn-absorb-quant takes into a quantizer); any other is
// max(x, 0) + slope·min(x, 0).
func (im *importer) prelu() error {
	x, slope := im.args[0], im.args[1]
	if shape, err := im.broadcastShape(x.shape, slope.shape); err != nil || !slices.Equal(shape, x.shape) {
		return im.errorf("slope of shape %s does not broadcast to the input's %s", shapeText(slope.shape), shapeText(x.shape))
	}
	if slope.c != nil {
		f := floatsOf(slope.c)
		switch {
		case !slices.ContainsFunc(f, func(v float64) bool { return !(v <= 1) }):
			sx, err := im.binaryValue(nn.OpMul, x, slope)
			if err != nil {
				return err
			}
			return im.binaryOf(nn.OpMax, x, sx)
		case !slices.ContainsFunc(f, func(v float64) bool { return !(v > 1) }):
			sx, err := im.binaryValue(nn.OpMul, x, slope)
			if err != nil {
				return err
			}
			return im.binaryOf(nn.OpMin, x, sx)
		}
	}
	pos, neg, err := im.signParts(x)
	if err != nil {
		return err
	}
	if neg, err = im.binaryValue(nn.OpMul, neg, slope); err != nil {
		return err
	}
	return im.binaryOf(nn.OpAdd, pos, neg)
}

// signParts are max(x, 0) and min(x, 0), the two sides of Elu's and
// PRelu's kink.
func (im *importer) signParts(x *value) (pos, neg *value, err error) {
	zero := im.scalar(im.node.GetOutput()[0]+"_zero", 0)
	if pos, err = im.binaryValue(nn.OpMax, x, zero); err != nil {
		return nil, nil, err
	}
	neg, err = im.binaryValue(nn.OpMin, x, zero)
	return pos, neg, err
}

// softsign: Softsign(x) = x / (1 + |x|), as Div is: x·(1/(1 + |x|)).
func (im *importer) softsign() error {
	x := im.args[0]
	a, err := im.unaryValue(nn.OpAbs, x)
	if err != nil {
		return err
	}
	if a, err = im.binaryValue(nn.OpAdd, a, im.scalar(im.node.GetOutput()[0]+"_one", 1)); err != nil {
		return err
	}
	if a, err = im.unaryValue(nn.OpInv, a); err != nil {
		return err
	}
	return im.binaryOf(nn.OpMul, x, a)
}

// unaryValue is kind(v), an element-wise node of one operand.
func (im *importer) unaryValue(kind string, v *value) (*value, error) {
	x, err := im.use(v)
	if err != nil {
		return nil, err
	}
	y, err := im.emit(kind, []*ir.Value{x}, v.shape, nil)
	return &value{shape: v.shape, ssa: y}, err
}

// hardSigmoidOf is max(0, min(1, alpha·x + beta)).
func (im *importer) hardSigmoidOf(x *value, alpha, beta float64) (*value, error) {
	name := im.node.GetOutput()[0]
	v, err := im.scaled(x, alpha, name+"_alpha")
	for _, step := range []struct {
		kind, key string
		k         float64
	}{{nn.OpAdd, "_beta", beta}, {nn.OpMin, "_one", 1}, {nn.OpMax, "_zero", 0}} {
		if err != nil {
			return nil, err
		}
		v, err = im.binaryValue(step.kind, v, im.scalar(name+step.key, step.k))
	}
	return v, err
}

// resize: Resize (and opset 9's Upsample) in mode nearest, of any axes
// (PyTorch's nn.Upsample and Keras's UpSampling2D resize H and W of
// [N, C, H, W], a channels-last model those of [N, H, W, C]): each output
// cell copies the input cell that ONNX's coordinate transformation and
// nearest rounding give it (before opset 11: asymmetric and floor),
// written as an nn.linear by a one-hot matrix along each resized axis,
// moved last by nn.permute: exact, and what nn-absorb-quant takes as a
// selection. The output size is floor(size·scale), or sizes.
func (im *importer) resize() error {
	x := im.args[0]
	r := len(x.shape)
	if mode := im.attrString("mode", "nearest"); mode != "nearest" {
		return im.errorf("mode=%s is not supported (only nearest)", mode)
	}
	if r == 0 {
		return im.errorf("input must have rank 1 or more, but is a scalar")
	}
	ctm, nearest := im.attrString("coordinate_transformation_mode", "half_pixel"), im.attrString("nearest_mode", "round_prefer_floor")
	scalesAt := 2
	if im.opset < 11 || im.node.GetOpType() == "Upsample" {
		ctm, nearest, scalesAt = "asymmetric", "floor", 1
	}
	scales, out := make([]float64, r), slices.Clone(x.shape)
	if c := im.constArg(3); scalesAt == 2 && c != nil && c.len() > 0 {
		if c.len() != r {
			return im.errorf("sizes of shape %s do not have one entry per dimension (%d)", shapeText(c.shape), r)
		}
		for i := range r {
			out[i] = int64(c.float(i))
			if float64(out[i]) != c.float(i) || out[i] < 1 || x.shape[i] == 0 {
				return im.errorf("sizes %v: each must be a positive integer, of a non-empty dimension", floatsOf(c))
			}
			scales[i] = float64(out[i]) / float64(x.shape[i])
		}
	} else {
		c := im.constArg(scalesAt)
		if a := im.attr("scales"); a != nil { // Upsample before opset 9
			c = &constant{shape: []int64{int64(len(a.GetFloats()))}}
			for _, f := range a.GetFloats() {
				c.floats = append(c.floats, widen(f))
			}
		}
		if c == nil || c.len() != r {
			return im.errorf("the scales must be a constant with one entry per dimension (%d)", r)
		}
		for i := range r {
			scales[i] = c.float(i)
			if !(scales[i] > 0) || math.IsInf(scales[i], 1) || math.Floor(float64(x.shape[i])*scales[i]) > math.MaxInt32 {
				return im.errorf("scales %v: each must be positive, and the output at most 2^31 cells", floatsOf(c))
			}
			out[i] = int64(math.Floor(float64(x.shape[i]) * scales[i]))
		}
	}
	in, err := im.use(x)
	if err != nil {
		return err
	}
	if err := im.checkSize(out); err != nil {
		return im.errorf("%v", err)
	}
	s := x.shape
	for axis := r - 1; axis >= 0; axis-- {
		src, err := nearestSources(s[axis], out[axis], scales[axis], ctm, nearest)
		if err != nil {
			return im.errorf("%v", err)
		}
		if in, s, err = im.pickAlong(in, s, axis, src); err != nil {
			return err
		}
	}
	return im.defineSSA(in)
}

// nearestSources is, for each of out cells of an axis of n, the input cell
// ONNX's Resize copies in mode nearest: the coordinate transformation of
// the output index, rounded by the nearest mode, clamped to [0, n).
func nearestSources(n, out int64, scale float64, ctm, nearest string) ([]int64, error) {
	src := make([]int64, out)
	for i := range out {
		var x float64
		switch fi := float64(i); ctm {
		case "half_pixel":
			x = (fi+0.5)/scale - 0.5
		case "pytorch_half_pixel":
			if out > 1 {
				x = (fi+0.5)/scale - 0.5
			}
		case "asymmetric":
			x = fi / scale
		case "tf_half_pixel_for_nn":
			x = (fi + 0.5) / scale
		case "align_corners":
			if out > 1 {
				x = fi * float64(n-1) / float64(out-1)
			}
		default:
			return nil, fmt.Errorf("coordinate_transformation_mode=%s is not supported (half_pixel, pytorch_half_pixel, asymmetric, tf_half_pixel_for_nn, align_corners)", ctm)
		}
		var k float64
		switch f := math.Floor(x); nearest {
		case "round_prefer_floor":
			k = math.Ceil(x - 0.5)
		case "round_prefer_ceil":
			k = math.Floor(x + 0.5)
		case "floor":
			k = f
		case "ceil":
			k = math.Ceil(x)
		default:
			return nil, fmt.Errorf("nearest_mode=%s is not supported (round_prefer_floor, round_prefer_ceil, floor, ceil)", nearest)
		}
		src[i] = min(max(int64(k), 0), n-1)
	}
	return src, nil
}

// pickAlong is x (shape s) with axis replaced by the cells src picks from
// it (-1: a zero): an nn.linear of the last axis by a matrix of one-hot
// and zero rows (nothing when src is the identity), another axis swapped
// with the last by nn.permute before and after.
func (im *importer) pickAlong(x *ir.Value, s []int64, axis int, src []int64) (*ir.Value, []int64, error) {
	n, out := s[axis], int64(len(src))
	identity := n == out
	for i, k := range src {
		identity = identity && k == int64(i)
	}
	if identity {
		return x, s, nil
	}
	end := len(s) - 1
	perm := make([]int64, len(s))
	for i := range perm {
		perm[i] = int64(i)
	}
	perm[axis], perm[end] = int64(end), int64(axis)
	swap := ir.Attrs{intsAttr("perm", perm)}
	last := slices.Clone(s)
	var err error
	if axis != end {
		last[axis], last[end] = s[end], s[axis]
		if x, err = im.emit(nn.OpPermute, []*ir.Value{x}, last, swap); err != nil {
			return nil, nil, err
		}
	}
	w := make([]float64, out*n)
	for i, k := range src {
		if k >= 0 { // -1: a row of zeros
			w[int64(i)*n+k] = 1
		}
	}
	name := im.addParams("", "", w, []int64{out, n}, make([]float64, out), []int64{out})
	picked := slices.Clone(last)
	picked[end] = out
	y, err := im.emit(nn.OpLinear, []*ir.Value{x}, picked, ir.Attrs{{Name: "params", Value: &ir.StringAttr{Value: name}}})
	if err != nil {
		return nil, nil, err
	}
	res := slices.Clone(s)
	res[axis] = out
	if axis != end {
		if y, err = im.emit(nn.OpPermute, []*ir.Value{y}, res, swap); err != nil {
			return nil, nil, err
		}
	}
	return y, res, nil
}

// Aliases.

func (im *importer) alias(v *value) error {
	return im.define(&value{shape: v.shape, ssa: v.ssa, c: v.c, pad: v.pad})
}

func (im *importer) identity() error {
	x := im.args[0]
	return im.alias(x)
}

// dropout in inference: the identity (a mask output or a training mode
// input is not supported).
func (im *importer) dropout() error {
	if im.opset < 7 && im.attrInt("is_test", 0) == 0 {
		return im.errorf("training mode (is_test=0, the default before opset 7) is not supported")
	}
	if t := im.constArg(2); t != nil && t.len() == 1 && t.float(0) != 0 {
		return im.errorf("training mode is not supported")
	}
	return im.alias(im.args[0])
}

// cast between float types is the identity on a graph's values (graphs are
// float64); constants are converted.
func (im *importer) cast() error {
	x := im.args[0]
	to := im.attrInt("to", -1)
	dt := onnxpb.TensorProto_DataType(to)
	isFloat := dt == onnxpb.TensorProto_FLOAT || dt == onnxpb.TensorProto_DOUBLE || dt == onnxpb.TensorProto_FLOAT16
	if x.c == nil {
		if !isFloat {
			return im.errorf("a cast to %s of a computed value is not supported", dt)
		}
		return im.alias(x)
	}
	c := &constant{shape: x.c.shape}
	switch {
	case dt == onnxpb.TensorProto_DOUBLE:
		c.floats = floatsOf(x.c)
	case dt == onnxpb.TensorProto_FLOAT || dt == onnxpb.TensorProto_FLOAT16:
		c.floats = make([]float64, x.c.len())
		for i := range c.floats {
			c.floats[i] = float64(float32(x.c.float(i)))
			if dt == onnxpb.TensorProto_FLOAT16 {
				c.floats[i] = float16(c.floats[i])
			}
		}
	case dt == onnxpb.TensorProto_BOOL:
		c.isInt, c.ints = true, make([]int64, x.c.len())
		for i := range c.ints {
			if x.c.float(i) != 0 {
				c.ints[i] = 1
			}
		}
	case intTypes[dt].bits != 0:
		t := intTypes[dt]
		c.isInt, c.ints = true, make([]int64, x.c.len())
		for i := range c.ints {
			var ok bool
			if x.c.isInt {
				c.ints[i], ok = t.wrap(x.c.ints[i])
			} else {
				c.ints[i], ok = t.truncate(x.c.floats[i])
			}
			if !ok {
				return im.errorf("cannot cast %v to %s (out of its range)", x.c.float(i), dt)
			}
		}
	default:
		return im.errorf("a cast to %s is not supported", dt)
	}
	return im.defineConst(c)
}

// intType is an integer type of Cast's: its width and signedness.
type intType struct {
	bits   uint
	signed bool
}

// intTypes are the integer types Cast converts constants to.
var intTypes = map[onnxpb.TensorProto_DataType]intType{
	onnxpb.TensorProto_INT8: {8, true}, onnxpb.TensorProto_INT16: {16, true}, onnxpb.TensorProto_INT32: {32, true}, onnxpb.TensorProto_INT64: {64, true},
	onnxpb.TensorProto_UINT8: {8, false}, onnxpb.TensorProto_UINT16: {16, false}, onnxpb.TensorProto_UINT32: {32, false}, onnxpb.TensorProto_UINT64: {64, false},
}

// wrap is the integer v wrapped to the type's width (NumPy's astype, ONNX
// Runtime's static_cast); not ok for a UINT64 that an int64 cannot hold.
func (t intType) wrap(v int64) (int64, bool) {
	shift := 64 - t.bits
	if t.signed {
		return v << shift >> shift, true
	}
	w := int64(uint64(v) << shift >> shift)
	return w, w >= 0
}

// truncate is f truncated toward zero; not ok out of the type's range (or
// of int64's), which ONNX leaves undefined.
func (t intType) truncate(f float64) (int64, bool) {
	lo, hi := 0.0, math.Ldexp(1, int(t.bits))
	if t.signed {
		lo, hi = -math.Ldexp(1, int(t.bits)-1), math.Ldexp(1, int(t.bits)-1)
	}
	f = math.Trunc(f)
	if !(f >= lo && f < hi && f < 1<<63) {
		return 0, false
	}
	return int64(f), true
}

// Constants.

func (im *importer) constantNode() error {
	if len(im.node.GetAttribute()) != 1 {
		return im.errorf("must have exactly one attribute")
	}
	a := im.node.GetAttribute()[0]
	var c *constant
	switch a.GetName() {
	case "value":
		if a.GetT() == nil {
			return im.errorf("attribute 'value' must be a tensor")
		}
		var err error
		if c, err = im.tensor(a.GetT()); err != nil {
			return im.errorf("%v", err)
		}
		return im.define(&value{shape: c.shape, c: c})
	case "value_float":
		c = &constant{shape: []int64{}, floats: []float64{float64(a.GetF())}}
	case "value_floats":
		c = &constant{shape: []int64{int64(len(a.GetFloats()))}}
		for _, f := range a.GetFloats() {
			c.floats = append(c.floats, float64(f))
		}
	case "value_int":
		c = &constant{shape: []int64{}, isInt: true, ints: []int64{a.GetI()}}
	case "value_ints":
		c = &constant{shape: []int64{int64(len(a.GetInts()))}, isInt: true, ints: a.GetInts()}
	}
	return im.defineConst(c)
}

// constantOfShape: a constant of the shape given by a constant.
func (im *importer) constantOfShape() error {
	shape, err := im.consts[0].int64s()
	if err != nil {
		return im.errorf("shape: %v", err)
	}
	if err := im.checkSize(shape); err != nil {
		return im.errorf("%v", err)
	}
	fill := &constant{shape: []int64{}, floats: []float64{0}}
	if a := im.attr("value"); a != nil {
		if a.GetT() == nil {
			return im.errorf("attribute 'value' must be a tensor")
		}
		if fill, err = im.tensor(a.GetT()); err != nil {
			return im.errorf("%v", err)
		}
		if fill.len() != 1 {
			return im.errorf("attribute 'value' must hold one element")
		}
	}
	n := numel(shape)
	c := &constant{shape: shape, isInt: fill.isInt}
	if fill.isInt {
		c.ints = make([]int64, n)
		for i := range c.ints {
			c.ints[i] = fill.ints[0]
		}
	} else {
		c.floats = make([]float64, n)
		for i := range c.floats {
			c.floats[i] = fill.floats[0]
		}
	}
	return im.defineConst(c)
}

// shapeNode: the (static) shape of any value, a constant.
func (im *importer) shapeNode() error {
	x := im.args[0]
	r := int64(len(x.shape))
	start := im.attrInt("start", 0)
	end := im.attrInt("end", r)
	clamp := func(v int64) int64 {
		if v < 0 {
			v += r
		}
		return min(max(v, 0), r)
	}
	start, end = clamp(start), clamp(end)
	dims := []int64{}
	if start < end {
		dims = append(dims, x.shape[start:end]...)
	}
	return im.defineConst(&constant{shape: []int64{int64(len(dims))}, isInt: true, ints: dims})
}

// Linear algebra.

// gemm: alpha·A'·B' + beta·C (A' = A or Aᵀ, B' likewise). With alpha =
// beta = 1, A a graph value of rank 2, B and C constants (C one value per
// output or absent), it is nn.linear; otherwise nn.matmul, nn.mul and
// nn.add.
func (im *importer) gemm() error {
	a, b, c := im.args[0], im.args[1], im.arg(2)
	alpha := im.attrFloat("alpha", 1)
	beta := im.attrFloat("beta", 1)
	transA := im.attrInt("transA", 0)
	transB := im.attrInt("transB", 0)
	if len(a.shape) != 2 || len(b.shape) != 2 {
		return im.errorf("A and B must have rank 2, but have shapes %s and %s", shapeText(a.shape), shapeText(b.shape))
	}
	k, out := b.shape[0], b.shape[1]
	if transB != 0 {
		k, out = out, k
	}
	ak := a.shape[1]
	if transA != 0 {
		ak = a.shape[0]
	}
	if ak != k {
		return im.errorf("A of shape %s and B of shape %s do not multiply (transA=%d, transB=%d)", shapeText(a.shape), shapeText(b.shape), transA, transB)
	}
	if m := a.shape[transA]; im.opset < 7 && c != nil && im.attrInt("broadcast", 0) == 0 && !slices.Equal(c.shape, []int64{m, out}) {
		return im.errorf("C of shape %s is not [%d, %d], as broadcast=0 requires before opset 7", shapeText(c.shape), m, out)
	}
	if alpha == 1 && beta == 1 && transA == 0 && b.c != nil && (c == nil || c.c != nil) {
		if bias, ok := im.linearBias(c, out); ok {
			w := floatsOf(b.c)
			if transB == 0 { // B is [in, out]: the weight is its transpose
				w = transpose2(w, k, out)
			}
			x, err := im.use(a)
			if err != nil {
				return err
			}
			name := im.addParams(b.name, nameOf(c), w, []int64{out, k}, bias, []int64{out})
			return im.emitOut(nn.OpLinear, []*ir.Value{x}, []int64{a.shape[0], out}, ir.Attrs{{Name: "params", Value: &ir.StringAttr{Value: name}}})
		}
	}
	x, err := im.use(a)
	if err != nil {
		return err
	}
	if transA != 0 {
		if x, err = im.emit(nn.OpPermute, []*ir.Value{x}, nil, ir.Attrs{intsAttr("perm", []int64{1, 0})}); err != nil {
			return err
		}
	}
	y, err := im.use(b)
	if err != nil {
		return err
	}
	if transB != 0 {
		if y, err = im.emit(nn.OpPermute, []*ir.Value{y}, nil, ir.Attrs{intsAttr("perm", []int64{1, 0})}); err != nil {
			return err
		}
	}
	p, err := im.emit(nn.OpMatmul, []*ir.Value{x, y}, nil, nil)
	if err != nil {
		return err
	}
	pv := &value{name: im.node.GetOutput()[0], shape: p.Type.(*ir.TensorType).Shape, ssa: p}
	out0 := im.node.GetOutput()[0]
	if alpha != 1 {
		if pv, err = im.scaled(pv, alpha, out0+"_alpha"); err != nil {
			return err
		}
	}
	if c == nil || beta == 0 {
		return im.alias(pv)
	}
	cv := c
	if beta != 1 {
		if cv, err = im.scaled(c, beta, out0+"_beta"); err != nil {
			return err
		}
	}
	return im.binaryOf(nn.OpAdd, pv, cv)
}

// scaled is v · s (s a constant scalar).
func (im *importer) scaled(v *value, s float64, name string) (*value, error) {
	if v.c != nil {
		f := floatsOf(v.c)
		out := make([]float64, len(f))
		for i, x := range f {
			out[i] = x * s
		}
		return im.constValue(name, v.shape, out), nil
	}
	x, err := im.use(v)
	if err != nil {
		return nil, err
	}
	k, err := im.broadcast(im.scalar(name, s), v.shape)
	if err != nil {
		return nil, err
	}
	r, err := im.emit(nn.OpMul, []*ir.Value{x, k}, nil, nil)
	if err != nil {
		return nil, err
	}
	return &value{name: name, shape: v.shape, ssa: r}, nil
}

// linearBias is Gemm's C as nn.linear's bias of out values (zeros when C
// is absent), when C is one value per output column (shape [out], [1,
// out], [1] or []).
func (im *importer) linearBias(c *value, out int64) ([]float64, bool) {
	if c == nil {
		return make([]float64, out), true
	}
	f := floatsOf(c.c)
	switch {
	case len(f) == 1 && len(c.shape) <= 1:
		b := make([]float64, out)
		for i := range b {
			b[i] = f[0]
		}
		return b, true
	case int64(len(f)) == out && (len(c.shape) == 1 || len(c.shape) == 2 && c.shape[0] == 1):
		return f, true
	}
	return nil, false
}

// nameOf is v's ONNX name ("" for an absent input).
func nameOf(v *value) string {
	if v == nil {
		return ""
	}
	return v.name
}

// transpose2 transposes a row-major [r, c] matrix.
func transpose2(m []float64, r, c int64) []float64 {
	t := make([]float64, len(m))
	for i := range r {
		for j := range c {
			t[j*r+i] = m[i*c+j]
		}
	}
	return t
}

// matmulNode: numpy's matmul, as nn.matmul of rank-2 or batched rank-3
// operands with reshapes and broadcasts around it: a vector operand is a
// one-row or one-column matrix, leading dimensions of a with a matrix b
// fold into the rows, batch dimensions broadcast and fold into one.
func (im *importer) matmulNode() error {
	a, b := im.args[0], im.args[1]
	if done, err := im.matmulAsLinear(a, b); done || err != nil {
		return err
	}
	as, bs := a.shape, b.shape
	if len(as) == 0 || len(bs) == 0 {
		return im.errorf("operands must not be scalars")
	}
	dropM, dropP := len(as) == 1, len(bs) == 1
	if dropM {
		as = []int64{1, as[0]}
	}
	if dropP {
		bs = []int64{bs[0], 1}
	}
	m, n, n2, p := as[len(as)-2], as[len(as)-1], bs[len(bs)-2], bs[len(bs)-1]
	if n != n2 {
		return im.errorf("shapes %s and %s do not multiply", shapeText(a.shape), shapeText(b.shape))
	}
	x, err := im.use(a)
	if err != nil {
		return err
	}
	y, err := im.use(b)
	if err != nil {
		return err
	}
	var r *ir.Value
	var batch []int64
	if len(bs) == 2 {
		// [..., m, n] · [n, p]: the leading dimensions are rows.
		batch = as[:len(as)-2]
		rows := numel(batch) * m
		if x, err = im.reshape(x, []int64{rows, n}); err != nil {
			return err
		}
		if y, err = im.reshape(y, []int64{n, p}); err != nil {
			return err
		}
		if r, err = im.emit(nn.OpMatmul, []*ir.Value{x, y}, nil, nil); err != nil {
			return err
		}
	} else {
		if batch, err = im.broadcastShape(as[:len(as)-2], bs[:len(bs)-2]); err != nil {
			return err
		}
		bn := numel(batch)
		if x, err = im.reshape(x, as); err != nil {
			return err
		}
		if y, err = im.reshape(y, bs); err != nil {
			return err
		}
		if x, err = im.broadcast(&value{shape: as, ssa: x}, append(slices.Clone(batch), m, n)); err != nil {
			return err
		}
		if y, err = im.broadcast(&value{shape: bs, ssa: y}, append(slices.Clone(batch), n, p)); err != nil {
			return err
		}
		if x, err = im.reshape(x, []int64{bn, m, n}); err != nil {
			return err
		}
		if y, err = im.reshape(y, []int64{bn, n, p}); err != nil {
			return err
		}
		if r, err = im.emit(nn.OpMatmul, []*ir.Value{x, y}, nil, nil); err != nil {
			return err
		}
	}
	shape := slices.Clone(batch)
	if !dropM {
		shape = append(shape, m)
	}
	if !dropP {
		shape = append(shape, p)
	}
	if r, err = im.reshape(r, shape); err != nil {
		return err
	}
	return im.defineSSA(r)
}

// matmulAsLinear translates x · W, W a constant [in, out] matrix and x of
// rank ≥ 2 (what torch.onnx.export writes for an nn.Linear on a batched
// input), as nn.linear (weight Wᵀ): with the bias of the Add that follows
// when it adds a constant vector of out values to the product and nothing
// else reads the product (nn.linear adds the bias after the sum, as the
// Add does), else with a zero bias.
func (im *importer) matmulAsLinear(a, b *value) (bool, error) {
	if b.c == nil || a.c != nil || len(b.shape) != 2 || len(a.shape) < 2 || a.shape[len(a.shape)-1] != b.shape[0] {
		return false, nil
	}
	in, out := b.shape[0], b.shape[1]
	bias := make([]float64, out)
	biasName := ""
	product := im.node.GetOutput()[0]
	fused := false
	if n := im.next; n != nil && n.GetOpType() == "Add" && n.GetDomain() == "" && len(n.GetInput()) == 2 && len(n.GetOutput()) == 1 &&
		len(n.GetAttribute()) == 0 && im.uses[product] == 1 {
		other := ""
		switch product {
		case n.GetInput()[0]:
			other = n.GetInput()[1]
		case n.GetInput()[1]:
			other = n.GetInput()[0]
		}
		if c, ok := im.vals[other]; ok && c.c != nil && int64(c.c.len()) == out && numel(c.shape[:max(len(c.shape)-1, 0)]) == 1 && len(c.shape) <= len(a.shape) {
			if _, dup := im.vals[n.GetOutput()[0]]; !dup && n.GetOutput()[0] != "" {
				bias, biasName, fused = floatsOf(c.c), c.name, true
			}
		}
	}
	x, err := im.use(a)
	if err != nil {
		return true, err
	}
	name := im.addParams(b.name, biasName, transpose2(floatsOf(b.c), in, out), []int64{out, in}, bias, []int64{out})
	shape := append(slices.Clone(a.shape[:len(a.shape)-1]), out)
	y, err := im.emit(nn.OpLinear, []*ir.Value{x}, shape, ir.Attrs{{Name: "params", Value: &ir.StringAttr{Value: name}}})
	if err != nil {
		return true, err
	}
	if fused {
		im.node, im.fusedNext = im.next, true
	}
	return true, im.defineSSA(y)
}

// Windows: convolution and pooling.

// window reads the attributes a window node on an input of the given
// shape ([N, C, L] or [N, C, H, W]) shares (kernel_shape, strides, pads,
// auto_pad, dilations) and returns the kernel, the strides (one per
// spatial axis: oneStride makes them nn's one), the pads as ONNX orders
// them (the begins then the ends of the spatial axes) and the dilations.
// auto_pad=SAME_UPPER and SAME_LOWER give ceil(size/stride) outputs, the
// odd cell at the end (UPPER) or at the beginning (LOWER), for the dilated
// kernel's extent; VALID none. A 1-D window's kernel [k] and dilation [d]
// are returned as [1, k] and [1, d], the 2-D window of lift's unit axis
// (its strides and pads stay those of L).
func (im *importer) window(kernelDefault, shape []int64) (kernel, strides, pads, dil []int64, err error) {
	spatial := len(shape) - 2
	kernel, ok := im.attrInts("kernel_shape")
	if !ok {
		kernel = kernelDefault
	}
	if len(kernel) != spatial {
		return nil, nil, nil, nil, im.errorf("kernel_shape %v does not have one entry per spatial dimension of the input (%d)", kernel, spatial)
	}
	dil, ok = im.attrInts("dilations")
	if ok && len(dil) != len(kernel) {
		return nil, nil, nil, nil, im.errorf("dilations=%v does not have one entry per kernel dimension (%d)", dil, len(kernel))
	}
	if !ok {
		dil = slices.Repeat([]int64{1}, spatial)
	}
	strides, ok = im.attrInts("strides")
	if !ok {
		strides = slices.Repeat([]int64{1}, spatial)
	}
	if len(strides) != spatial {
		return nil, nil, nil, nil, im.errorf("strides=%v does not have one entry per spatial dimension (%d)", strides, spatial)
	}
	pads = make([]int64, 2*spatial)
	switch ap := im.attrString("auto_pad", "NOTSET"); ap {
	case "NOTSET":
		if given, ok := im.attrInts("pads"); ok {
			if len(given) != 2*spatial {
				return nil, nil, nil, nil, im.errorf("pads=%v does not have a begin and an end per spatial dimension (%d)", given, spatial)
			}
			pads = given
		}
	case "VALID":
	case "SAME_UPPER", "SAME_LOWER":
		for i := range spatial {
			size, stride := shape[2+i], strides[i]
			out := (size + stride - 1) / stride
			total := max((out-1)*stride+(kernel[i]-1)*dil[i]+1-size, 0)
			small, big := total/2, total-total/2
			if ap == "SAME_UPPER" {
				pads[i], pads[spatial+i] = small, big
			} else {
				pads[i], pads[spatial+i] = big, small
			}
		}
	default:
		return nil, nil, nil, nil, im.errorf("auto_pad=%s is not supported (NOTSET, VALID, SAME_UPPER or SAME_LOWER)", ap)
	}
	if spatial == 1 {
		kernel, dil = []int64{1, kernel[0]}, []int64{1, dil[0]}
	}
	return kernel, strides, pads, dil, nil
}

// oneStride is the one stride nn takes for a window (window's kernel and
// dilations, 2-D) of strides over the spatial axes of shape padded by pads
// (ONNX's order, all the padding the node applies), and per 2-D axis the
// step of the outputs ONNX's strides keep (keepEvery). The window slides by
// the greatest common divisor g of the strides of the axes along which it
// slides: along an axis of stride s every (s/g)-th output is ONNX's (a
// Conv2D of strides (2, 1) computes at stride 1 and keeps every other row;
// a circuit drops the others' adders). An axis along which the window
// fits once whatever the stride (Keras's Conv1D through tf2onnx: a [1, k]
// kernel of strides [1, s] on [N, C, 1, L]) slides by none.
func (im *importer) oneStride(shape, kernel, dil, strides, pads []int64) (int64, [2]int64, error) {
	spatial := len(strides)
	g, slides := int64(0), [2]bool{}
	for i, st := range strides {
		a := i + 2 - spatial // the 2-D axis of spatial axis i
		if slides[a] = shape[2+i]+pads[i]+pads[spatial+i]-(kernel[a]-1)*dil[a]-1 >= slices.Min(strides); slides[a] {
			g = int64(gcd(uint64(g), uint64(st))) // strides are positive (attrRules)
		}
	}
	steps := [2]int64{1, 1}
	if g == 0 {
		return strides[0], steps, nil
	}
	for i, st := range strides {
		if a := i + 2 - spatial; slides[a] {
			steps[a] = st / g
		}
	}
	return g, steps, nil
}

// keepEvery redefines the node's output, a 2-D window's [N, C, H, W]
// computed at oneStride's g, as ONNX's strides give it: every steps[a]-th
// cell along H (a = 0) and W (a = 1), by pickAlong.
func (im *importer) keepEvery(steps [2]int64) error {
	if steps == [2]int64{1, 1} {
		return nil
	}
	v := im.vals[im.node.GetOutput()[0]]
	x, err := im.use(v)
	if err != nil {
		return err
	}
	s := v.shape
	for a, step := range steps {
		src := make([]int64, (s[2+a]+step-1)/step)
		for i := range src {
			src[i] = int64(i) * step
		}
		if x, s, err = im.pickAlong(x, s, 2+a, src); err != nil {
			return err
		}
	}
	return im.define(&value{shape: s, ssa: x})
}

// dilated is a dense weight [O, C, kh, kw] with its taps spread by the
// dilations dil: [O, C, (kh-1)·dh+1, (kw-1)·dw+1], zeros between the taps
// (which add no term to a sum, and no adder to a circuit), and its shape.
func dilated(w []float64, shape, dil []int64) ([]float64, []int64) {
	o, c, kh, kw := shape[0], shape[1], shape[2], shape[3]
	eh, ew := (kh-1)*dil[0]+1, (kw-1)*dil[1]+1
	out := make([]float64, o*c*eh*ew)
	for p := range o * c {
		for i := range kh {
			for j := range kw {
				out[(p*eh+i*dil[0])*ew+j*dil[1]] = w[(p*kh+i)*kw+j]
			}
		}
	}
	return out, []int64{o, c, eh, ew}
}

// padded is a window node's input [N, C, L] or [N, C, H, W] as the 2-D
// window nodes' [N, C, H, W] (lift's [N, C, 1, L] for 1-D) with the
// padding pads (ONNX's order) and the node's padding attribute: the same
// padding on every side of a 2-D input is the attribute (for a pool, at
// most half the kernel, nn's rule, PyTorch's); any other is
// written into the input by nn.concat along W, then H (padAxis), with
// zeros (fill 0: convolutions, average pools) or copies of the edge
// values (fill -inf: a max pool), and the attribute is 0.
func (im *importer) padded(in *ir.Value, shape, pads []int64, fill float64, kernel []int64, pool bool) (*ir.Value, []int64, int64, error) {
	spatial := len(shape) - 2
	if spatial == 2 && !slices.ContainsFunc(pads, func(p int64) bool { return p != pads[0] }) && (!pool || 2*pads[0] <= min(kernel[0], kernel[1])) {
		return in, shape, pads[0], nil
	}
	x, s4 := in, shape
	if spatial == 1 {
		var err error
		if x, s4, err = im.lift(in, shape); err != nil {
			return nil, nil, 0, err
		}
		pads = []int64{0, pads[0], 0, pads[1]}
	}
	edges := math.IsInf(fill, -1)
	var zero *value                    // one constant 0 for every run of zeros
	for _, axis := range []int{3, 2} { // W, then H
		begin, end := pads[axis-2], pads[axis]
		if begin == 0 && end == 0 {
			continue
		}
		if edges && (max(begin, end) >= kernel[axis-2] || s4[axis] == 0) {
			return nil, nil, 0, im.errorf("padding %d, %d of a max pool must be less than its kernel %d, on an axis that has values", begin, end, kernel[axis-2])
		}
		var err error
		if x, s4, err = im.padAxis(x, s4, axis, begin, end, edges, &zero); err != nil {
			return nil, nil, 0, err
		}
	}
	return x, s4, 0, nil
}

// lift is a 1-D window's input [N, C, L] as [N, C, 1, L], the 2-D window
// nodes' input with a unit axis, and its shape.
func (im *importer) lift(in *ir.Value, shape []int64) (*ir.Value, []int64, error) {
	s4 := []int64{shape[0], shape[1], 1, shape[2]}
	x, err := im.reshape(in, s4)
	return x, s4, err
}

// padAxis pads x (shape s, rank 4) along axis (2 or 3) with begin and end
// cells by nn.concat: zeros (broadcasts of *zero, made on first use), or
// copies of the end values (edges; each an
// nn.linear of the axis, moved last by nn.permute for H, by a one-hot row,
// exact). With fewer copies a side than the kernel's cells, every max
// pool window that holds a copy holds the end value it copies, so the
// maxima are those over the values alone, as ONNX's padding of a max
// pool, which it ignores.
func (im *importer) padAxis(x *ir.Value, s []int64, axis int, begin, end int64, edges bool, zero **value) (*ir.Value, []int64, error) {
	n := s[axis]
	swap := ir.Attrs{intsAttr("perm", []int64{0, 1, 3, 2})}
	zeros := map[int64]*ir.Value{} // equal runs of zeros are one value
	cells := func(at, count int64) (*ir.Value, error) {
		part := slices.Clone(s)
		part[axis] = count
		if !edges {
			if z, ok := zeros[count]; ok {
				return z, nil
			}
			if *zero == nil {
				*zero = im.scalar(im.node.GetOutput()[0]+"_pad", 0)
			}
			z, err := im.broadcast(*zero, part)
			zeros[count] = z
			return z, err
		}
		v, last := x, slices.Clone(s)
		var err error
		if axis == 2 {
			last[2], last[3] = s[3], s[2]
			if v, err = im.emit(nn.OpPermute, []*ir.Value{x}, last, swap); err != nil {
				return nil, err
			}
		}
		w := make([]float64, n)
		w[at] = 1
		name := im.addParams("", "", w, []int64{1, n}, []float64{0}, []int64{1})
		one := slices.Clone(last)
		one[3] = 1
		e, err := im.emit(nn.OpLinear, []*ir.Value{v}, one, ir.Attrs{{Name: "params", Value: &ir.StringAttr{Value: name}}})
		if err != nil {
			return nil, err
		}
		if axis == 2 {
			one[2], one[3] = 1, one[2]
			if e, err = im.emit(nn.OpPermute, []*ir.Value{e}, one, swap); err != nil {
				return nil, err
			}
		}
		return im.broadcast(&value{shape: one, ssa: e}, part)
	}
	parts := []*ir.Value{x}
	if begin > 0 {
		b, err := cells(0, begin)
		if err != nil {
			return nil, nil, err
		}
		parts = append([]*ir.Value{b}, parts...)
	}
	if end > 0 {
		e, err := cells(n-1, end)
		if err != nil {
			return nil, nil, err
		}
		parts = append(parts, e)
	}
	out := slices.Clone(s)
	out[axis] += begin + end
	y, err := im.emit(nn.OpConcat, parts, out, ir.Attrs{intAttr("axis", int64(axis))})
	return y, out, err
}

// defineWindow makes a window node's result y ([N, C, H, W]) the node's
// output, reshaped to [N, C, W] for a 1-D window (lift's unit axis gone).
func (im *importer) defineWindow(y *ir.Value, spatial int) error {
	if spatial == 1 {
		s := y.Type.(*ir.TensorType).Shape
		var err error
		if y, err = im.reshape(y, []int64{s[0], s[1], s[3]}); err != nil {
			return err
		}
	}
	return im.defineSSA(y)
}

// windowInput is a window node's input with the padding of a Pad node it
// reads folded in (extra, ONNX's order of the spatial pads, nil without
// one); fills are the pad values the node accepts.
func (im *importer) windowInput(fills ...float64) (*ir.Value, []int64, []int64, error) {
	x := im.args[0]
	var extra []int64
	if x.pad != nil {
		if !slices.Contains(fills, x.pad.fill) {
			return nil, nil, nil, im.errorf("the pad value %v of Pad '%s' cannot be folded into this node", x.pad.fill, x.name)
		}
		extra = x.pad.sides
		x = x.pad.in
	}
	in, err := im.use(x)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(x.shape) != 3 && len(x.shape) != 4 {
		return nil, nil, nil, im.errorf("input must have rank 3 ([N, C, L]) or 4 ([N, C, H, W]), but has shape %s", shapeText(x.shape))
	}
	return in, x.shape, extra, nil
}

// addPads is a + b entry by entry (b nil: a).
func addPads(a, b []int64) []int64 {
	out := slices.Clone(a)
	for i := range b {
		out[i] += b[i]
	}
	return out
}

// conv: Conv, grouped (depthwise: group = C) as well. A grouped weight
// [O, C/g, k...] is written dense, [O, C, k...], zero outside each output
// channel's group, so that nn.conv2d and everything after it see one
// convolution: the zeros add no term to a sum (and no adder to a circuit),
// though the float evaluator multiplies them (C/g times the work).
func (im *importer) conv() error {
	g := im.attrInt("group", 1)
	in, shape, extra, err := im.windowInput(0)
	if err != nil {
		return err
	}
	w := im.consts[1]
	if len(w.shape) != len(shape) {
		return im.errorf("weight of shape %s does not fit an input of shape %s", shapeText(w.shape), shapeText(shape))
	}
	if g < 1 || shape[1]%g != 0 || w.shape[0]%g != 0 {
		return im.errorf("group=%d does not divide the %d input and %d output channels", g, shape[1], w.shape[0])
	}
	if w.shape[1]*g != shape[1] {
		return im.errorf("weight of shape %s does not fit an input of shape %s (group=%d)", shapeText(w.shape), shapeText(shape), g)
	}
	spatial := len(shape) - 2
	kernel, strides, pads, dil, err := im.window(w.shape[2:], shape)
	if err != nil {
		return err
	}
	stride, steps, err := im.oneStride(shape, kernel, dil, strides, addPads(pads, extra))
	if err != nil {
		return err
	}
	wShape := w.shape
	if spatial == 1 { // [O, C, k] is the [O, C, 1, k] of lift's unit axis
		wShape = []int64{w.shape[0], w.shape[1], 1, w.shape[2]}
	}
	if !slices.Equal(kernel, wShape[2:]) {
		return im.errorf("kernel_shape %v does not match the weight's shape %s", im.attr("kernel_shape").GetInts(), shapeText(w.shape))
	}
	// A dilated kernel is the dense one of its extent, zero between the
	// taps (dilated, below), which must fit the padded input (checked
	// below, before the weight is written).
	dilate := slices.ContainsFunc(dil, func(d int64) bool { return d != 1 })
	if dilate {
		kernel = []int64{(kernel[0]-1)*dil[0] + 1, (kernel[1]-1)*dil[1] + 1}
	}
	outC := w.shape[0]
	bias := make([]float64, outC)
	if b := im.constArg(2); b != nil {
		if int64(b.len()) != outC {
			return im.errorf("bias of shape %s does not match %d output channels", shapeText(b.shape), outC)
		}
		bias = floatsOf(b)
	}
	in, shape, pad, err := im.padded(in, shape, addPads(pads, extra), 0, kernel, false)
	if err != nil {
		return err
	}
	h, wd := shape[2]+2*pad-kernel[0], shape[3]+2*pad-kernel[1]
	if h < 0 || wd < 0 {
		return im.errorf("kernel %v does not fit the padded input %s", kernel, shapeText(shape))
	}
	weights := floatsOf(w)
	if g > 1 {
		wShape = slices.Clone(wShape)
		wShape[1] *= g
		if err := im.checkSize(wShape); err != nil {
			return im.errorf("the dense weight of group=%d: %v", g, err)
		}
		weights = ungroup(weights, w.shape[0], w.shape[1], g, tileview.Count(w.shape[2:]))
	}
	if dilate {
		if err := im.checkSize([]int64{wShape[0], wShape[1], kernel[0], kernel[1]}); err != nil {
			return im.errorf("the dilated weight: %v", err)
		}
		weights, wShape = dilated(weights, wShape, dil)
	}
	if err := im.emitConv(in, shape, weights, wShape, stride, pad, bias, spatial); err != nil {
		return err
	}
	return im.keepEvery(steps)
}

// emitConv writes nn.conv2d of in ([N, C, H, W], padded by pad) by the
// dense weight [O, C, kh, kw] and the bias, the node's output (reshaped
// back for a 1-D window). A quantized weight (the node's weight input a
// quantizer of a constant) is written as its integer codes times one
// scale per output channel, multiplied after the convolution (the bias
// added after it), so that the codes stay visible to nn-absorb-quant.
func (im *importer) emitConv(in *ir.Value, shape []int64, weights []float64, wShape []int64, stride, pad int64, bias []float64, spatial int) error {
	wv, bv := im.args[1], im.arg(2)
	outC, kernel := wShape[0], wShape[2:]
	h, wd := shape[2]+2*pad-kernel[0], shape[3]+2*pad-kernel[1]
	var scales []float64
	if wv.folded != nil {
		weights, scales = factorRows(weights, outC)
	}
	convBias := bias
	if scales != nil {
		convBias = make([]float64, outC)
	}
	name := im.addParams(wv.name, nameOf(bv), weights, wShape, convBias, []int64{outC})
	attrs := ir.Attrs{intsAttr("kernel", kernel), {Name: "params", Value: &ir.StringAttr{Value: name}}, intAttr("stride", stride)}
	if pad != 0 {
		attrs = append(attrs, intAttr("padding", pad))
	}
	y, err := im.emit(nn.OpConv2d, []*ir.Value{in}, []int64{shape[0], outC, h/stride + 1, wd/stride + 1}, attrs)
	if err != nil || scales == nil {
		if err == nil {
			err = im.defineWindow(y, spatial)
		}
		return err
	}
	v := &value{shape: y.Type.(*ir.TensorType).Shape, ssa: y}
	perChannel := []int64{1, outC, 1, 1}
	if v, err = im.binaryValue(nn.OpMul, v, im.constValue(name+".weight_scale", perChannel, scales)); err != nil {
		return err
	}
	if bv != nil {
		if v, err = im.binaryValue(nn.OpAdd, v, im.constValue(name+".bias_add", perChannel, bias)); err != nil {
			return err
		}
	}
	return im.defineWindow(v.ssa, spatial)
}

// convTranspose: ConvTranspose (a decoder's upsampling convolution) of
// [N, C, H, W] or [N, C, L] by the weight [C, M, k...] (group 1,
// dilations 1): the input with stride - 1 zeros between its cells and
// k - 1 - pad (+ output_padding at the end) around them, each axis one
// nn.linear by a 0/1 matrix (pickAlong; no adder in a circuit), convolved
// by the kernel flipped and transposed, [M, C, k...], at stride 1.
func (im *importer) convTranspose() error {
	x, w := im.args[0], im.consts[1]
	if x.pad != nil {
		return im.errorf("the output of Pad '%s' cannot be folded into a ConvTranspose", x.name)
	}
	shape := x.shape
	r := len(shape)
	if r != 3 && r != 4 || len(w.shape) != r || w.shape[0] != shape[1] {
		return im.errorf("weight of shape %s does not fit an input of shape %s (a ConvTranspose's weight is [C, M, k...])", shapeText(w.shape), shapeText(shape))
	}
	g := im.attrInt("group", 1)
	if shape[1]%g != 0 {
		return im.errorf("group=%d does not divide the %d input channels", g, shape[1])
	}
	spatial := r - 2
	kernel, strides, pads, dil, err := im.window(w.shape[2:], shape)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(dil, func(d int64) bool { return d != 1 }) {
		return im.errorf("dilations=%v is not supported (only 1)", im.attr("dilations").GetInts())
	}
	if !slices.Equal(kernel[2-spatial:], w.shape[2:]) {
		return im.errorf("kernel_shape %v does not match the weight's shape %s", im.attr("kernel_shape").GetInts(), shapeText(w.shape))
	}
	outPad, ok := im.attrInts("output_padding")
	if !ok {
		outPad = make([]int64, spatial)
	}
	if len(outPad) != spatial {
		return im.errorf("output_padding=%v does not have one entry per spatial dimension (%d)", outPad, spatial)
	}
	if pads, err = im.transposedPads(shape, kernel[2-spatial:], strides, pads, outPad); err != nil {
		return err
	}
	in, err := im.use(x)
	if err != nil {
		return err
	}
	s4 := shape
	if spatial == 1 {
		if in, s4, err = im.lift(in, shape); err != nil {
			return err
		}
		pads, outPad, strides = []int64{0, pads[0], 0, pads[1]}, []int64{0, outPad[0]}, []int64{1, strides[0]}
	}
	for _, axis := range []int{3, 2} { // each axis by its own stride: the convolution after is at stride 1
		a := axis - 2
		n, k, stride := s4[axis], kernel[a], strides[a]
		before, after := k-1-pads[a], k-1-pads[2+a]+outPad[a]
		if before < 0 || after < 0 || outPad[a] >= stride || n == 0 {
			return im.errorf("pads=%v and output_padding=%v are not supported for kernel %v and stride %d (each pad at most kernel - 1, output_padding below the stride, a non-empty input)", im.attr("pads").GetInts(), outPad, kernel[2-spatial:], stride)
		}
		src := make([]int64, (n-1)*stride+1+before+after)
		for t := range src {
			src[t] = -1
			if u := int64(t) - before; u >= 0 && u%stride == 0 && u/stride < n {
				src[t] = u / stride
			}
		}
		if err := im.checkSize([]int64{int64(len(src)), n}); err != nil {
			return im.errorf("%v", err)
		}
		if in, s4, err = im.pickAlong(in, s4, axis, src); err != nil {
			return err
		}
	}
	c, m, kh, kw := w.shape[0], w.shape[1]*g, kernel[0], kernel[1]
	ws := floatsOf(w)
	if g > 1 {
		if err := im.checkSize([]int64{c, m, kh, kw}); err != nil {
			return im.errorf("the dense weight of group=%d: %v", g, err)
		}
		ws = ungroupTransposed(ws, c, w.shape[1], g, kh*kw)
	}
	flipped := make([]float64, m*c*kh*kw)
	for ci := range c {
		for mi := range m {
			for i := range kh {
				for j := range kw {
					flipped[((mi*c+ci)*kh+kh-1-i)*kw+kw-1-j] = ws[((ci*m+mi)*kh+i)*kw+j]
				}
			}
		}
	}
	bias := make([]float64, m)
	if b := im.constArg(2); b != nil {
		if int64(b.len()) != m {
			return im.errorf("bias of shape %s does not match %d output channels", shapeText(b.shape), m)
		}
		bias = floatsOf(b)
	}
	return im.emitConv(in, s4, flipped, []int64{m, c, kh, kw}, 1, 0, bias, spatial)
}

// transposedPads are a ConvTranspose's pads (ONNX's order) when its
// output_shape (the spatial sizes, or the whole shape) or auto_pad
// SAME_UPPER/SAME_LOWER (output = input·stride) sets them, as ONNX
// defines it: total = stride·(in − 1) + output_padding + kernel − output,
// SAME_UPPER's begin total/2, otherwise total − total/2 at the begin;
// else pads. A negative total is an error: ONNX's reference divides it
// rounding down, ONNX Runtime toward zero.
func (im *importer) transposedPads(shape, kernel, strides, pads, outPad []int64) ([]int64, error) {
	spatial := len(kernel)
	ap := im.attrString("auto_pad", "NOTSET")
	out, given := im.attrInts("output_shape")
	switch {
	case given && len(out) == len(shape):
		out = out[2:]
	case given && len(out) != spatial:
		return nil, im.errorf("output_shape=%v has neither one entry per spatial dimension (%d) nor one per dimension", out, spatial)
	case !given && (ap == "SAME_UPPER" || ap == "SAME_LOWER"):
		out = make([]int64, spatial)
		for d := range out {
			out[d] = shape[2+d] * strides[d]
		}
	case !given:
		return pads, nil
	}
	pads = make([]int64, 2*spatial)
	for d, o := range out {
		total := strides[d]*(shape[2+d]-1) + outPad[d] + kernel[d] - o
		if o < 1 || total < 0 {
			return nil, im.errorf("output_shape=%v is not supported for an input of shape %s (each size from 1 to the size without padding, %d; ONNX's reference and ONNX Runtime split a larger one differently)", out, shapeText(shape), o+total)
		}
		if ap == "SAME_UPPER" {
			pads[d], pads[spatial+d] = total/2, total-total/2
		} else {
			pads[d], pads[spatial+d] = total-total/2, total/2
		}
	}
	return pads, nil
}

// ungroupTransposed writes the weights [C, M/g, k] of a transposed
// convolution of g groups as the dense [C, M, k]: input channel c feeds
// the output channels of its group, c / (C/g), and zeros elsewhere.
func ungroupTransposed(w []float64, inC, groupM, g, k int64) []float64 {
	dense := make([]float64, inC*groupM*g*k)
	for c := range inC {
		first := c / (inC / g) * groupM // the group's first output channel
		copy(dense[(c*groupM*g+first)*k:][:groupM*k], w[c*groupM*k:][:groupM*k])
	}
	return dense
}

// ungroup writes the weights [O, C/g, k] of a convolution of g groups as
// the dense [O, C, k]: output channel o reads the input channels of its
// group, o / (O/g), and zeros elsewhere.
func ungroup(w []float64, outC, groupC, g, k int64) []float64 {
	dense := make([]float64, outC*groupC*g*k)
	for o := range outC {
		first := o / (outC / g) * groupC // the group's first input channel
		for c := range groupC {
			copy(dense[(o*groupC*g+first+c)*k:][:k], w[(o*groupC+c)*k:][:k])
		}
	}
	return dense
}

// pool: MaxPool and AveragePool. AveragePool divides by the window's size
// at borders too (count_include_pad=1, as nn.avg_pool2d); a zero Pad before
// it folds in (its zeros count, as count_include_pad's). MaxPool ignores
// padded cells, so only a Pad of -inf folds into it.
func poolOp(kind string) func(*importer) error {
	return func(im *importer) error {
		if so := im.attrInt("storage_order", 0); so != 0 {
			return im.errorf("storage_order=%d is not supported", so)
		}
		fill := 0.0
		if kind == nn.OpMaxPool2d {
			fill = math.Inf(-1)
		}
		in, shape, extra, err := im.windowInput(fill)
		if err != nil {
			return err
		}
		spatial := len(shape) - 2
		kernel, strides, pads, dil, err := im.window(nil, shape)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(dil, func(d int64) bool { return d != 1 }) {
			return im.errorf("dilations=%v is not supported for a pool (only 1)", im.attr("dilations").GetInts())
		}
		// The cells an average counts, per spatial axis, in the padded
		// input's coordinates: the input with a Pad node's zeros, and the
		// node's own pads unless count_include_pad=0. ceil_mode=1 adds
		// cells at the end for the last, partial window (it must start
		// inside the input or its left padding, as PyTorch's), which a max
		// pool ignores (edge copies) and an average does not count.
		include := im.attrInt("count_include_pad", 0) == 1
		ceil := im.attrInt("ceil_mode", 0) == 1
		counted := make([][2]int64, spatial)
		divide := false
		for d := range spatial {
			a := d + 2 - spatial // the 2-D axis of spatial axis d
			n := shape[2+d]
			if extra != nil {
				n += extra[d] + extra[spatial+d]
			}
			b, e, k, stride := pads[d], pads[spatial+d], kernel[a], strides[d]
			counted[d] = [2]int64{b, b + n}
			if include {
				counted[d] = [2]int64{0, b + n + e}
			}
			divide = divide || kind == nn.OpAvgPool2d && !include && b+e > 0
			if total := b + n + e; ceil && total >= k {
				out := (total-k+stride-1)/stride + 1
				if (out-1)*stride >= n+b {
					out--
				}
				if more := (out-1)*stride + k - total; more > 0 {
					pads = slices.Clone(pads)
					pads[spatial+d] += more
					divide = divide || kind == nn.OpAvgPool2d
				}
			}
		}
		stride, steps, err := im.oneStride(shape, kernel, dil, strides, addPads(pads, extra))
		if err != nil {
			return err
		}
		in, shape, pad, err := im.padded(in, shape, addPads(pads, extra), fill, kernel, true)
		if err != nil {
			return err
		}
		attrs := ir.Attrs{intsAttr("kernel", kernel), intAttr("stride", stride)}
		if pad != 0 {
			attrs = append(attrs, intAttr("padding", pad))
		}
		y, err := im.emit(kind, []*ir.Value{in}, nil, attrs)
		if err != nil {
			return err
		}
		if divide {
			if y, err = im.countCells(y, kernel, stride, counted); err != nil {
				return err
			}
		}
		if err := im.defineWindow(y, spatial); err != nil {
			return err
		}
		return im.keepEvery(steps)
	}
}

// countCells makes y, an nn.avg_pool2d's result [N, C, oh, ow] (an
// average over the kernel's kH·kW cells), ONNX's AveragePool whose divisor
// is the cells of each window in counted (per spatial axis, a range of the
// padded input's coordinates: the input, or the input and its pads; never
// ceil_mode's extra cells): y times kH·kW/counted cells per output
// position, an nn.mul by a constant (exact for kernels whose ratios are
// dyadic, as 2x2 and 3x3 ones are).
func (im *importer) countCells(y *ir.Value, kernel []int64, stride int64, counted [][2]int64) (*ir.Value, error) {
	out := y.Type.(*ir.TensorType).Shape
	spatial := len(counted)
	var inside [2][]int64 // per 2-D axis (a 1-D window's H is its unit axis)
	for a := range 2 {
		inside[a] = make([]int64, out[2+a])
		for i := range inside[a] {
			inside[a][i] = 1
		}
	}
	for d, r := range counted {
		a := d + 2 - spatial
		for i := range inside[a] {
			lo, hi := max(int64(i)*stride, r[0]), min(int64(i)*stride+kernel[a], r[1])
			inside[a][i] = max(hi-lo, 0)
		}
	}
	factor := make([]float64, out[2]*out[3])
	cells := float64(kernel[0] * kernel[1])
	scaled := false
	for i, h := range inside[0] {
		for j, w := range inside[1] {
			if h*w == 0 {
				return nil, im.errorf("output (%d, %d) of the pool covers padding only: its average divides by 0", i, j)
			}
			factor[i*int(out[3])+j] = cells / float64(h*w)
			scaled = scaled || h*w != kernel[0]*kernel[1]
		}
	}
	if !scaled {
		return y, nil
	}
	v, err := im.binaryValue(nn.OpMul, &value{shape: out, ssa: y}, im.constValue(im.node.GetOutput()[0]+"_count", []int64{1, 1, out[2], out[3]}, factor))
	if err != nil {
		return nil, err
	}
	return v.ssa, nil
}

// globalAveragePool: GlobalAveragePool (and PyTorch's AdaptiveAvgPool2d(1))
// of [N, C, H, W] is nn.avg_pool2d with an H×W kernel, one mean of the
// H·W values; of [N, C, L] the same on lift's [N, C, 1, L], reshaped to
// [N, C, 1].
func (im *importer) globalAveragePool() error {
	x := im.args[0]
	in, err := im.use(x)
	if err != nil {
		return err
	}
	shape := x.shape
	switch len(shape) {
	case 3:
		if in, shape, err = im.lift(in, shape); err != nil {
			return err
		}
	case 4:
	default:
		return im.errorf("input must have rank 3 ([N, C, L]) or 4 ([N, C, H, W]), but has shape %s", shapeText(x.shape))
	}
	y, err := im.emit(nn.OpAvgPool2d, []*ir.Value{in}, nil, ir.Attrs{intsAttr("kernel", shape[2:]), intAttr("stride", 1)})
	if err != nil {
		return err
	}
	out := slices.Clone(x.shape)
	for i := 2; i < len(out); i++ {
		out[i] = 1
	}
	if y, err = im.reshape(y, out); err != nil {
		return err
	}
	return im.defineSSA(y)
}

// pad: a constant Pad of the spatial dimensions of an [N, C, H, W] or
// [N, C, L] value, with 0 or -inf, any number of cells on each side
// (Keras's ZeroPadding2D((0, 1), (0, 1)) before a stride-2 convolution),
// waiting for the window node that reads it.
func (im *importer) pad() error {
	if mode := im.attrString("mode", "constant"); mode != "constant" {
		return im.errorf("mode=%s is not supported (only constant)", mode)
	}
	x := im.args[0]
	pads, fill, err := im.padsAndFill()
	if err != nil {
		return err
	}
	r := len(x.shape)
	if r != 3 && r != 4 || len(pads) != 2*r {
		return im.errorf("only the padding of [N, C, L] and [N, C, H, W] values is supported (shape %s, pads %v)", shapeText(x.shape), pads)
	}
	for i, q := range pads {
		if i%r < 2 && q != 0 || q < 0 {
			return im.errorf("pads=%v is not supported (only non-negative padding of the spatial dimensions)", pads)
		}
		if q > math.MaxInt32 {
			return im.errorf("pads=%v: every entry must lie in [0, %d]", pads, math.MaxInt32) // as the attribute's (attrRules)
		}
	}
	sides := append(slices.Clone(pads[2:r]), pads[r+2:]...)
	if !slices.ContainsFunc(sides, func(p int64) bool { return p != 0 }) {
		return im.alias(x)
	}
	shape := slices.Clone(x.shape)
	for i := 2; i < r; i++ {
		shape[i] += pads[i] + pads[r+i]
	}
	if x.pad != nil {
		// A Pad of a Pad with the same value is one Pad.
		if x.pad.fill != fill && !(math.IsNaN(fill) && math.IsNaN(x.pad.fill)) {
			return im.errorf("a Pad with %v of a Pad with %v is not supported", fill, x.pad.fill)
		}
		return im.define(&value{shape: shape, pad: &padding{in: x.pad.in, sides: addPads(x.pad.sides, sides), fill: fill}})
	}
	return im.define(&value{shape: shape, pad: &padding{in: x, sides: sides, fill: fill}})
}

// padsAndFill reads a Pad node's pads and pad value: the attributes pads
// and value before opset 11, the inputs pads and constant_value from it.
func (im *importer) padsAndFill() ([]int64, float64, error) {
	if im.opset < 11 {
		pads, ok := im.attrInts("pads")
		if !ok {
			return nil, 0, im.errorf("the attribute 'pads' is missing")
		}
		return pads, im.attrFloat("value", 0), nil
	}
	pads, err := im.consts[1].int64s()
	if err != nil {
		return nil, 0, im.errorf("pads: %v", err)
	}
	fill := 0.0
	if v := im.constArg(2); v != nil {
		if v.len() != 1 {
			return nil, 0, im.errorf("constant_value must hold one value")
		}
		fill = v.float(0)
	}
	if im.arg(3) != nil {
		return nil, 0, im.errorf("the axes input is not supported")
	}
	return pads, fill, nil
}

// Normalizations and reductions.

// batchNorm: BatchNormalization in inference (training_mode=0, one output)
// over the channel axis 1: (x − mean)·a + B with a = scale/√(var + ε)
// computed in float64 at import time (ε the attribute's float32 value).
// Folded into the nn.linear or nn.conv2d that computes x when it is that
// node's only reader (foldBatchNorm); otherwise nn.sub, nn.mul and nn.add
// of constants broadcast to x, the payload entries NAME.mean, NAME.a and
// NAME.beta (NAME the node's). momentum only matters in training.
func (im *importer) batchNorm() error {
	if t := im.attrInt("training_mode", 0); t != 0 {
		return im.errorf("training_mode=%d is not supported (inference only)", t)
	}
	if im.opset < 7 && im.attrInt("is_test", 0) == 0 {
		return im.errorf("training mode (is_test=0, the default before opset 7) is not supported")
	}
	if sp := im.attrInt("spatial", 1); sp != 1 {
		return im.errorf("spatial=%d is not supported (only 1: one mean and variance per channel)", sp)
	}
	x := im.args[0]
	if len(x.shape) < 2 {
		return im.errorf("input of shape %s has no channel axis 1", shapeText(x.shape))
	}
	ch := x.shape[1]
	var ps [4][]float64
	for i, what := range []string{"scale", "B", "input_mean", "input_var"} {
		c := im.consts[i+1]
		if int64(c.len()) != ch || len(c.shape) != 1 {
			return im.errorf("%s of shape %s is not one value per channel (%d)", what, shapeText(c.shape), ch)
		}
		ps[i] = floatsOf(c)
	}
	gamma, beta, mean, variance := ps[0], ps[1], ps[2], ps[3]
	eps := float64(float32(1e-5))
	if a := im.attr("epsilon"); a != nil {
		eps = float64(a.GetF())
	}
	a := make([]float64, ch)
	for i := range a {
		a[i] = gamma[i] / math.Sqrt(variance[i]+eps)
		if !isFinite(a[i]) {
			return im.errorf("channel %d: scale/sqrt(var + epsilon) = %v/sqrt(%v + %v) is not finite", i, gamma[i], variance[i], eps)
		}
	}
	if im.foldBatchNorm(x, a, mean, beta) {
		return im.alias(x)
	}
	shape := make([]int64, len(x.shape))
	for i := range shape {
		shape[i] = 1
	}
	shape[1] = ch
	name := im.freshPrefix(keyOf(im.nodeName()))
	v := x
	for _, step := range []struct {
		kind, key string
		data      []float64
	}{{nn.OpSub, ".mean", mean}, {nn.OpMul, ".a", a}, {nn.OpAdd, ".beta", beta}} {
		var err error
		if v, err = im.binaryValue(step.kind, v, im.constValue(name+step.key, shape, step.data)); err != nil {
			return err
		}
	}
	return im.define(v)
}

// foldBatchNorm folds the batch norm y = (x − mean)·a + beta into the
// nn.linear (of a rank-2 result, whose axis 1 is its outputs) or the
// nn.conv2d that computes x, directly or through a reshape that keeps
// axes 0 and 1 (a 1-D window's; PyTorch 0.3's Unsqueeze around a
// BatchNorm1d), when the BatchNormalization is the only reader of x: in
// float64, w' = w·a and b' = (b − mean)·a + beta per output channel, new
// payload entries under the node's key (an initializer may back other
// nodes). It reports whether it folded.
func (im *importer) foldBatchNorm(x *value, a, mean, beta []float64) bool {
	if x.ssa == nil || x.ssa.Def == nil || im.uses[x.name] != 1 {
		return false
	}
	for _, v := range im.vals {
		if v != x && v.ssa == x.ssa {
			return false // an Identity's alias of x
		}
	}
	def, inner := x.ssa.Def, (*ir.Value)(nil)
	if def.Name == nn.OpReshape && len(def.Operands) == 1 {
		inner = def.Operands[0]
		is := inner.Type.(*ir.TensorType).Shape
		conv := inner.Def != nil && inner.Def.Name == nn.OpConv2d
		linear := inner.Def != nil && inner.Def.Name == nn.OpLinear && len(is) == 2
		if !conv && !linear || len(x.shape) < 2 || !slices.Equal(is[:2], x.shape[:2]) {
			return false
		}
		def = inner.Def
	}
	switch {
	case def.Name == nn.OpLinear && (len(x.shape) == 2 || inner != nil), def.Name == nn.OpConv2d:
	default:
		return false
	}
	if im.readers(x.ssa) != 0 || inner != nil && im.readers(inner) != 1 {
		return false
	}
	key, _ := def.StringAttr("params")
	w, b := im.payload.Arrays[key+".weight"], im.payload.Arrays[key+".bias"]
	out := len(a)
	if w == nil || b == nil || len(b.Floats) != out || out == 0 || len(w.Floats)%out != 0 {
		return false
	}
	per := len(w.Floats) / out
	nw, nb := make([]float64, len(w.Floats)), make([]float64, out)
	for o := range out {
		for k := range per {
			nw[o*per+k] = w.Floats[o*per+k] * a[o]
		}
		nb[o] = (b.Floats[o]-mean[o])*a[o] + beta[o]
	}
	if slices.ContainsFunc(nw, func(f float64) bool { return !isFinite(f) }) || slices.ContainsFunc(nb, func(f float64) bool { return !isFinite(f) }) {
		return false
	}
	im.payload.Arrays[key+".weight"] = &npy.Array{DType: npy.Float64, Shape: w.Shape, Floats: nw}
	im.payload.Arrays[key+".bias"] = &npy.Array{DType: npy.Float64, Shape: b.Shape, Floats: nb}
	return true
}

// readers counts the nodes built so far that read v.
func (im *importer) readers(v *ir.Value) int {
	n := 0
	for _, op := range im.b.Block.Ops {
		for _, o := range op.Operands {
			if o == v {
				n++
			}
		}
	}
	return n
}

// softmax: Softmax along axis (opset 13 on). Before opset 13 the axis is
// 1 by default and the softmax is over the input flattened to 2-D at the
// axis (each row the dimensions from the axis on): a softmax along axis
// when the dimensions after it are all 1, else a reshape to 2-D, the
// softmax along its axis 1 and a reshape back.
func (im *importer) softmax() error {
	x := im.args[0]
	def := int64(-1)
	if im.opset < 13 {
		def = 1
	}
	axis, err := im.axisOf("axis", im.attrInt("axis", def), len(x.shape))
	if err != nil {
		return err
	}
	in, err := im.use(x)
	if err != nil {
		return err
	}
	if im.opset >= 13 || numel(x.shape[axis+1:]) == 1 {
		return im.emitOut(nn.OpSoftmax, []*ir.Value{in}, nil, ir.Attrs{intAttr("axis", int64(axis))})
	}
	flat, err := im.reshape(in, []int64{numel(x.shape[:axis]), numel(x.shape[axis:])})
	if err != nil {
		return err
	}
	y, err := im.emit(nn.OpSoftmax, []*ir.Value{flat}, nil, ir.Attrs{intAttr("axis", 1)})
	if err != nil {
		return err
	}
	if y, err = im.reshape(y, x.shape); err != nil {
		return err
	}
	return im.defineSSA(y)
}

// layerNorm: LayerNormalization (opset 17) is nn.layer_norm, then nn.mul
// by the scale and nn.add of the bias, each broadcast.
func (im *importer) layerNorm() error {
	x, scale, bias := im.args[0], im.args[1], im.arg(2)
	a := im.attrInt("axis", -1)
	axis, err := im.axisOf("axis", a, len(x.shape))
	if err != nil {
		return err
	}
	eps := im.attrFloat("epsilon", 1e-5)
	in, err := im.use(x)
	if err != nil {
		return err
	}
	y, err := im.emit(nn.OpLayerNorm, []*ir.Value{in}, nil, ir.Attrs{intAttr("axis", int64(axis)),
		{Name: "epsilon", Value: &ir.FloatAttr{Value: eps, Type: f64}}})
	if err != nil {
		return err
	}
	v, err := im.binaryValue(nn.OpMul, &value{shape: x.shape, ssa: y}, scale)
	if err == nil && bias != nil {
		v, err = im.binaryValue(nn.OpAdd, v, bias)
	}
	if err != nil {
		return err
	}
	return im.define(v)
}

// reduce: ReduceMean and ReduceSum over a set of axes, one nn.reduce_*
// per axis (from the last), then a reshape that keeps the reduced
// dimensions (keepdims=1).
func reduceOp(kind string) func(*importer) error {
	return func(im *importer) error {
		x := im.args[0]
		keep := im.attrInt("keepdims", 1)
		noop := im.attrInt("noop_with_empty_axes", 0)
		since := int64(13) // ReduceSum's axes are an input from opset 13
		if kind == nn.OpReduceMean {
			since = 18 // ReduceMean's from opset 18
		}
		axes, _, err := im.axesOf(since)
		if err != nil {
			return err
		}
		rank := len(x.shape)
		reduced := make([]bool, rank)
		if len(axes) == 0 {
			if noop != 0 {
				return im.alias(x)
			}
			for i := range reduced {
				reduced[i] = true
			}
		}
		for _, a := range axes {
			ax, err := im.axisOf("axis", a, rank)
			if err != nil {
				return err
			}
			if reduced[ax] {
				return im.errorf("axis %d is repeated", a)
			}
			reduced[ax] = true
		}
		v, err := im.use(x)
		if err != nil {
			return err
		}
		var kept []int64
		for ax := rank - 1; ax >= 0; ax-- {
			if reduced[ax] {
				if v, err = im.emit(kind, []*ir.Value{v}, nil, ir.Attrs{intAttr("axis", int64(ax))}); err != nil {
					return err
				}
			}
		}
		for ax := range rank {
			switch {
			case !reduced[ax]:
				kept = append(kept, x.shape[ax])
			case keep != 0:
				kept = append(kept, 1)
			}
		}
		if kept == nil {
			kept = []int64{}
		}
		if v, err = im.reshape(v, kept); err != nil {
			return err
		}
		return im.defineSSA(v)
	}
}

// Shapes.

func (im *importer) transpose() error {
	x := im.args[0]
	rank := len(x.shape)
	perm, ok := im.attrInts("perm")
	if !ok {
		for i := rank - 1; i >= 0; i-- {
			perm = append(perm, int64(i))
		}
	}
	if len(perm) != rank {
		return im.errorf("perm %v does not permute %d dimensions", perm, rank)
	}
	seen := make([]bool, rank)
	shape := make([]int64, rank)
	for i, p := range perm {
		if p < 0 || p >= int64(rank) || seen[p] {
			return im.errorf("perm %v is not a permutation of %d dimensions", perm, rank)
		}
		seen[p] = true
		shape[i] = x.shape[p]
	}
	if x.c != nil {
		return im.defineConst(permuteConst(x.c, perm, shape))
	}
	in, err := im.use(x)
	if err != nil {
		return err
	}
	return im.emitOut(nn.OpPermute, []*ir.Value{in}, nil, ir.Attrs{intsAttr("perm", perm)})
}

// reshapeTo defines the output as x of another shape (a constant stays
// one).
func (im *importer) reshapeTo(x *value, shape []int64) error {
	if numel(shape) != numel(x.shape) {
		return im.errorf("cannot reshape %s to %s", shapeText(x.shape), shapeText(shape))
	}
	v, err := im.reshaped(x, shape)
	if err != nil {
		return err
	}
	return im.define(v)
}

// reshaped is x as the same elements in shape, under x's name (a constant
// stays one).
func (im *importer) reshaped(x *value, shape []int64) (*value, error) {
	if x.c != nil {
		c := *x.c
		c.shape = shape
		return &value{name: x.name, shape: shape, c: &c}, nil
	}
	in, err := im.use(x)
	if err != nil {
		return nil, err
	}
	y, err := im.reshape(in, shape)
	return &value{name: x.name, shape: shape, ssa: y}, err
}

func (im *importer) reshapeNode() error {
	x := im.args[0]
	target, err := im.consts[1].int64s()
	if err != nil {
		return im.errorf("shape: %v", err)
	}
	allowZero := im.attrInt("allowzero", 0)
	shape := make([]int64, len(target))
	infer := -1
	known := int64(1)
	for i, d := range target {
		switch {
		case d == 0 && allowZero == 0:
			if i >= len(x.shape) {
				return im.errorf("shape %v copies dimension %d of an input of rank %d", target, i, len(x.shape))
			}
			shape[i] = x.shape[i]
		case d == -1 && infer < 0:
			infer = i
			continue
		case d < 0:
			return im.errorf("shape %v is not supported", target)
		default:
			shape[i] = d
		}
		if err := im.checkSize(shape[:i+1]); err != nil {
			return im.errorf("%v", err)
		}
		known *= shape[i]
	}
	if infer >= 0 {
		if known == 0 || numel(x.shape)%known != 0 {
			return im.errorf("cannot reshape %s to %v", shapeText(x.shape), target)
		}
		shape[infer] = numel(x.shape) / known
	}
	return im.reshapeTo(x, shape)
}

func (im *importer) flattenNode() error {
	x := im.args[0]
	a := im.attrInt("axis", 1)
	rank := len(x.shape)
	if a < -int64(rank) || a > int64(rank) {
		return im.errorf("axis %d is out of range for rank %d", a, rank)
	}
	if a < 0 {
		a += int64(rank)
	}
	return im.reshapeTo(x, []int64{numel(x.shape[:a]), numel(x.shape[a:])})
}

// movedToInput checks the form of an operand that ONNX turned from the
// attribute name into the node's input i at opset since: the attribute
// before that opset, the input from it.
func (im *importer) movedToInput(name string, i int, since int64) error {
	ins := im.node.GetInput()
	given := i < len(ins) && ins[i] != ""
	switch {
	case im.opset < since && given:
		return im.errorf("%s is an attribute before opset %d, not input #%d (opset %d)", name, since, i, im.opset)
	case im.opset >= since && im.attr(name) != nil:
		return im.errorf("%s is input #%d from opset %d, not an attribute (opset %d)", name, i, since, im.opset)
	}
	return nil
}

// axesOf reads the axes of Squeeze, Unsqueeze, ReduceSum and ReduceMean:
// the attribute before opset since, the constant input 1 from it; and
// whether the node gives them.
func (im *importer) axesOf(since int64) ([]int64, bool, error) {
	if im.opset < since {
		axes, ok := im.attrInts("axes")
		return axes, ok, nil
	}
	c := im.constArg(1)
	if c == nil {
		return nil, false, nil
	}
	axes, err := c.int64s()
	if err != nil {
		return nil, false, im.errorf("axes: %v", err)
	}
	return axes, true, nil
}

func (im *importer) squeeze() error {
	x := im.args[0]
	axes, _, err := im.axesOf(13)
	if err != nil {
		return err
	}
	drop := make([]bool, len(x.shape))
	for _, a := range axes {
		ax, err := im.axisOf("axis", a, len(x.shape))
		if err != nil {
			return err
		}
		if x.shape[ax] != 1 {
			return im.errorf("dimension %d of %s is not 1", ax, shapeText(x.shape))
		}
		drop[ax] = true
	}
	shape := []int64{}
	for i, d := range x.shape {
		if !(drop[i] || len(axes) == 0 && d == 1) {
			shape = append(shape, d)
		}
	}
	return im.reshapeTo(x, shape)
}

func (im *importer) unsqueeze() error {
	x := im.args[0]
	axes, ok, err := im.axesOf(13)
	if err != nil {
		return err
	}
	if !ok {
		return im.errorf("the axes are missing")
	}
	rank := len(x.shape) + len(axes)
	ins := make([]bool, rank)
	for _, a := range axes {
		ax, err := im.axisOf("axis", a, rank)
		if err != nil {
			return err
		}
		if ins[ax] {
			return im.errorf("axis %d is repeated", a)
		}
		ins[ax] = true
	}
	shape := make([]int64, 0, rank)
	j := 0
	for i := range rank {
		if ins[i] {
			shape = append(shape, 1)
		} else {
			shape = append(shape, x.shape[j])
			j++
		}
	}
	return im.reshapeTo(x, shape)
}

func (im *importer) concat() error {
	vs := im.args
	allConst := true
	for _, v := range vs {
		allConst = allConst && v.c != nil
	}
	a := im.attrInt("axis", 0)
	rank := len(vs[0].shape)
	axis, err := im.axisOf("axis", a, rank)
	if err != nil {
		return err
	}
	shape := slices.Clone(vs[0].shape)
	for _, v := range vs[1:] {
		if len(v.shape) != rank {
			return im.errorf("operands of ranks %d and %d", rank, len(v.shape))
		}
		for d := range rank {
			if d != axis && v.shape[d] != shape[d] {
				return im.errorf("shapes %s and %s do not concatenate along axis %d", shapeText(vs[0].shape), shapeText(v.shape), axis)
			}
		}
		shape[axis] += v.shape[axis]
	}
	if allConst {
		return im.defineConst(concatConst(vs, axis, shape))
	}
	if len(vs) == 1 {
		return im.alias(vs[0])
	}
	var ins []*ir.Value
	for _, v := range vs {
		x, err := im.use(v)
		if err != nil {
			return err
		}
		ins = append(ins, x)
	}
	return im.emitOut(nn.OpConcat, ins, nil, ir.Attrs{intAttr("axis", int64(axis))})
}

// QONNX's quantizers.

// qonnxDomains are the domains of QONNX's operators (any version of them).
var qonnxDomains = map[string]bool{"finn.custom_op.general": true, "qonnx.custom_op.general": true, "onnx.brevitas": true}

// qonnxOperators are the supported operators of qonnxDomains (IntQuant is
// QONNX's newer name of Quant); every other operator of those domains is
// an error.
var qonnxOperators = map[string]operator{
	"Quant":        quantOperator,
	"IntQuant":     quantOperator,
	"BipolarQuant": {min: 2, max: 2, in: []input{scaleInput}, run: (*importer).bipolarQuant},
	"FloatQuant": {attrs: attrs{"rounding_mode": kindString, "has_inf": kindInt, "has_nan": kindInt, "has_subnormal": kindInt, "saturation": kindInt},
		min: 6, max: 6, in: []input{scaleInput,
			{at: 2, what: "exponent bit width", is: constValue, need: true}, {at: 3, what: "mantissa bit width", is: constValue, need: true},
			{at: 4, what: "exponent bias", is: constValue, need: true}, {at: 5, what: "max_val", is: constValue, need: true}},
		run: (*importer).floatQuant},
	"MultiThreshold": {attrs: attrs{"out_dtype": kindString, "out_scale": kindFloat, "out_bias": kindFloat, "data_layout": kindString},
		min: 2, max: 2, in: []input{{at: 1, what: "thresholds", is: constValue, need: true}}, run: (*importer).multiThreshold},
	"Trunc": {attrs: quantAttrs, min: 5, max: 6, in: []input{scaleInput, zeroPointInput, {at: 3, what: "input bit width", is: constValue, need: true},
		{at: 4, what: "output scale", is: constValue, need: true, arity: 6},
		{at: 4, what: "output bit width", is: constValue, need: true, arity: 5},
		{at: 5, what: "output bit width", is: constValue, need: true, arity: 6}}, run: (*importer).trunc},
}

// The signatures QONNX's quantizers share: Quant's (signed and narrow
// required as QONNX's), its attributes, and its scale and zero point.
var (
	quantAttrs    = attrs{"signed": kindInt, "narrow": kindInt, "rounding_mode": kindString}
	quantOperator = operator{attrs: quantAttrs, needAttrs: []string{"signed", "narrow"}, min: 4, max: 4, in: []input{scaleInput, zeroPointInput,
		{at: 3, what: "bit width", is: constValue, need: true}}, run: (*importer).quant}
	scaleInput     = input{at: 1, what: "scale", is: constValue, need: true}
	zeroPointInput = input{at: 2, what: "zero point", is: constValue, need: true}
)

// QONNXOperators lists the supported QONNX operators, sorted.
func QONNXOperators() []string { return sortedKeys(qonnxOperators) }

// QONNXDomains lists the QONNX domains the importer reads, sorted.
func QONNXDomains() []string { return sortedKeys(qonnxDomains) }

func sortedKeys[V any](m map[string]V) []string {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// isRoundingMode: s names a QONNX rounding mode, in any case
// (resolve_rounding_mode upper-cases it; HALF_EVEN is ROUND).
func isRoundingMode(s string) bool {
	return slices.Contains(nn.RoundingModes, strings.ToUpper(s)) || strings.ToUpper(s) == "HALF_EVEN"
}

// rounding is the node's rounding mode as nn spells it.
func (im *importer) rounding(def string) string {
	r := strings.ToUpper(im.attrString("rounding_mode", def))
	if r == "HALF_EVEN" {
		return "ROUND"
	}
	return r
}

func boolAttr(name string, v int64) ir.NamedAttr {
	return ir.NamedAttr{Name: name, Value: &ir.BoolAttr{Value: v != 0}}
}

// quantParam is a quantizer's input i (what: "scale", "zero point"...): a
// constant, one value (of any shape) or an array that NumPy-broadcasts to
// the input's shape without enlarging it (one per channel), as the
// evaluator reads payload entries (backend/nneval), each value passing check
// (nn.CheckScale, nn.CheckZeroPoint: the evaluator's rules).
func (im *importer) quantParam(i int, what string, x []int64, check func(float64) error) (*constant, error) {
	c := im.consts[i]
	switch {
	case c.len() == 0:
		return nil, im.errorf("the %s holds no values", what)
	case c.len() > 1 && !tileview.Fits(c.shape, x):
		return nil, im.errorf("the %s of shape %s does not broadcast to the input's shape %s", what, shapeText(c.shape), shapeText(x))
	}
	for k := range c.len() {
		if err := check(c.float(k)); err != nil {
			return nil, im.errorf("the %s, element %d: %v", what, k, err)
		}
	}
	return c, nil
}

// bitWidth is a quantizer's input i, a bit width: a constant holding one
// integer in [1, nn.MaxQuantBits].
func (im *importer) bitWidth(i int, what string) (int64, error) {
	c := im.consts[i]
	if c.len() != 1 {
		return 0, im.errorf("the %s must be one value, but has shape %s", what, shapeText(c.shape))
	}
	b := c.float(0)
	if b != math.Trunc(b) {
		return 0, im.errorf("the %s %v is not an integer", what, b)
	}
	if b < 1 || b > nn.MaxQuantBits {
		return 0, im.errorf("the %s %v must lie in [1, %d]", what, b, nn.MaxQuantBits)
	}
	return int64(b), nil
}

// quantizer emits the node's quantizer kind on its input 0 with the
// payload entries PREFIX.suffix (PREFIX the node's name made a fresh key)
// and attrs; the constant input of a weight becomes an nn.const, not
// folded, so that its codes and scales stay visible.
func (im *importer) quantizer(kind string, entries map[string]*constant, attrs ir.Attrs) error {
	x := im.args[0]
	in, err := im.use(x)
	if err != nil {
		return err
	}
	name := im.freshPrefix(keyOf(im.nodeName()))
	for _, s := range paramSuffixes {
		if c, ok := entries[s]; ok {
			im.addEntry(name+s, c.shape, floatsOf(c))
		}
	}
	attrs = append(attrs, ir.NamedAttr{Name: "params", Value: &ir.StringAttr{Value: name}})
	y, err := im.emit(kind, []*ir.Value{in}, x.shape, attrs)
	if err != nil {
		return err
	}
	v := &value{shape: x.shape, ssa: y}
	if x.c != nil {
		v.folded = foldQuantizer(y.Def, floatsOf(x.c), x.shape, entries)
	}
	return im.define(v)
}

// foldQuantizer is a quantizer node's values on a constant input, by the
// evaluator's rules (nn.QuantSpec.QuantValue, TruncValue, BipolarValue,
// nn.FloatQuantSpec.FloatQuantValue),
// each parameter NumPy-broadcast to the input's shape.
func foldQuantizer(op *ir.Operation, x []float64, shape []int64, entries map[string]*constant) *constant {
	at := func(suffix string) []float64 {
		out := make([]float64, len(x))
		c := entries[suffix]
		if c == nil {
			return out
		}
		if c.len() == 1 {
			for i := range out {
				out[i] = c.float(0)
			}
			return out
		}
		for i, j := range broadcastIndex(c.shape, shape) {
			out[i] = c.float(int(j))
		}
		return out
	}
	scale, zp, outScale, maxVal := at(".scale"), at(".zero_point"), at(".output_scale"), at(".max_val")
	spec, _ := nn.QuantSpecOf(op)
	fspec, _ := nn.FloatQuantSpecOf(op)
	out := make([]float64, len(x))
	for i, v := range x {
		switch op.Name {
		case nn.OpFloatQuant:
			out[i] = fspec.FloatQuantValue(v, scale[i], maxVal[i])
		case nn.OpBipolarQuant:
			out[i] = nn.BipolarValue(v, scale[i])
		case nn.OpTrunc:
			out[i] = spec.TruncValue(v, scale[i], zp[i], outScale[i])
		default:
			out[i] = spec.QuantValue(v, scale[i], zp[i])
		}
	}
	return &constant{shape: shape, floats: out}
}

// scaleAndZeroPoint are the inputs x, scale and zero point of Quant and
// Trunc.
func (im *importer) scaleAndZeroPoint() (x *value, scale, zp *constant, err error) {
	x = im.args[0]
	if scale, err = im.quantParam(1, "scale", x.shape, nn.CheckScale); err != nil {
		return nil, nil, nil, err
	}
	zp, err = im.quantParam(2, "zero point", x.shape, nn.CheckZeroPoint)
	return x, scale, zp, err
}

// quant: QONNX's Quant (x, scale, zeropt, bitwidth; signed and narrow
// required as QONNX's, rounding_mode ROUND by default) is nn.quant.
func (im *importer) quant() error {
	_, scale, zp, err := im.scaleAndZeroPoint()
	if err != nil {
		return err
	}
	bits, err := im.bitWidth(3, "bit width")
	if err != nil {
		return err
	}
	return im.quantizer(nn.OpQuant, map[string]*constant{".scale": scale, ".zero_point": zp}, ir.Attrs{
		intAttr(nn.BitsAttr, bits), boolAttr(nn.SignedAttr, im.attrInt("signed", 1)), boolAttr(nn.NarrowAttr, im.attrInt("narrow", 0)),
		{Name: nn.RoundingAttr, Value: &ir.StringAttr{Value: im.rounding("ROUND")}}})
}

// bipolarQuant: QONNX's BipolarQuant (x, scale) is nn.bipolar_quant.
func (im *importer) bipolarQuant() error {
	x := im.args[0]
	scale, err := im.quantParam(1, "scale", x.shape, nn.CheckScale)
	if err != nil {
		return err
	}
	return im.quantizer(nn.OpBipolarQuant, map[string]*constant{".scale": scale}, nil)
}

// floatQuant: QONNX's FloatQuant (x, scale, exponent_bitwidth,
// mantissa_bitwidth, exponent_bias, max_val; rounding_mode ROUND by
// default) is nn.float_quant, its format's three integers attributes (one
// value each), scale and max_val payload entries. has_inf, has_nan and
// has_subnormal inform backends only (QONNX's execution ignores them);
// saturation=0, whose overflows become infinities or NaN, is an error.
func (im *importer) floatQuant() error {
	x := im.args[0]
	if im.attrInt("saturation", 1) == 0 {
		return im.errorf("saturation=0 (overflows become infinities or NaN) is not supported: only saturating FloatQuant")
	}
	scale, err := im.quantParam(1, "scale", x.shape, nn.CheckScale)
	if err != nil {
		return err
	}
	maxVal, err := im.quantParam(5, "max_val", x.shape, nn.CheckMaxVal)
	if err != nil {
		return err
	}
	attrs := ir.Attrs{}
	for i, f := range nn.FloatFormatFields { // inputs 2, 3, 4
		c := im.consts[2+i]
		if c.len() != 1 {
			return im.errorf("the %s must be one value, but has shape %s", f.What, shapeText(c.shape))
		}
		v := c.float(0)
		if v != math.Trunc(v) || v < float64(f.Lo) || v > float64(f.Hi) {
			return im.errorf("the %s %v must be an integer in [%d, %d]", f.What, v, f.Lo, f.Hi)
		}
		attrs = append(attrs, intAttr(f.Name, int64(v)))
	}
	attrs = append(attrs, ir.NamedAttr{Name: nn.RoundingAttr, Value: &ir.StringAttr{Value: im.rounding("ROUND")}})
	return im.quantizer(nn.OpFloatQuant, map[string]*constant{".scale": scale, ".max_val": maxVal}, attrs)
}

// multiThreshold: QONNX's MultiThreshold (FINN's streamlined activations)
// is nn.multithreshold, its thresholds [C, T] the payload entry
// params.thresholds. The channel axis is QONNX's: 1 for [N, C] and NCHW
// [N, C, H, W], 3 for NHWC, the last for other ranks (which QONNX reshapes
// to [-1, C]). out_dtype only types the output in QONNX: its values are
// out_scale·count + out_bias.
func (im *importer) multiThreshold() error {
	x, t := im.args[0], im.consts[1]
	r := len(x.shape)
	layout := im.attrString("data_layout", "NCHW")
	if layout != "NCHW" && layout != "NHWC" {
		return im.errorf("data_layout=%s is not supported (NCHW or NHWC)", layout)
	}
	if r == 0 {
		return im.errorf("the input has no channel axis (rank 0)")
	}
	axis := 1
	switch {
	case r == 4 && layout == "NHWC":
		axis = 3
	case r != 2 && r != 4:
		axis = r - 1
	}
	if len(t.shape) != 2 || t.shape[0] != 1 && t.shape[0] != x.shape[axis] {
		return im.errorf("the thresholds of shape %s must be [C, T] with C = 1 or the input's %d channels (axis %d of %s)", shapeText(t.shape), x.shape[axis], axis, shapeText(x.shape))
	}
	for k := range t.len() {
		if err := nn.CheckThreshold(t.float(k)); err != nil {
			return im.errorf("the thresholds, element %d: %v", k, err)
		}
	}
	attrs := ir.Attrs{intAttr("axis", int64(axis))}
	for _, a := range []struct {
		name string
		def  float64
	}{{nn.OutScaleAttr, 1}, {nn.OutBiasAttr, 0}} {
		v := im.attrFloat(a.name, a.def)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return im.errorf("%s=%v must be finite", a.name, v)
		}
		attrs = append(attrs, ir.NamedAttr{Name: a.name, Value: &ir.FloatAttr{Value: v, Type: f64}})
	}
	in, err := im.use(x)
	if err != nil {
		return err
	}
	name := im.freshPrefix(keyOf(im.nodeName()))
	im.addEntry(name+".thresholds", t.shape, floatsOf(t))
	attrs = append(attrs, ir.NamedAttr{Name: "params", Value: &ir.StringAttr{Value: name}})
	y, err := im.emit(nn.OpMultiThreshold, []*ir.Value{in}, x.shape, attrs)
	if err != nil {
		return err
	}
	return im.defineSSA(y)
}

// trunc: QONNX's Trunc is nn.trunc: version 1 with five inputs (x, scale,
// zeropt, input_bit_width, output_bit_width), version 2 with six (x,
// scale, zeropt, input_bit_width, output_scale, output_bit_width); signed
// 1, narrow 0 and rounding_mode FLOOR by default.
func (im *importer) trunc() error {
	x, scale, zp, err := im.scaleAndZeroPoint()
	if err != nil {
		return err
	}
	inBits, err := im.bitWidth(3, "input bit width")
	if err != nil {
		return err
	}
	entries := map[string]*constant{".scale": scale, ".zero_point": zp}
	version, outAt := int64(1), 4
	if len(im.node.GetInput()) == 6 {
		version, outAt = 2, 5
		if entries[".output_scale"], err = im.quantParam(4, "output scale", x.shape, nn.CheckScale); err != nil {
			return err
		}
	}
	outBits, err := im.bitWidth(outAt, "output bit width")
	if err != nil {
		return err
	}
	if outBits > inBits {
		return im.errorf("the output bit width %d exceeds the input bit width %d", outBits, inBits)
	}
	return im.quantizer(nn.OpTrunc, entries, ir.Attrs{
		intAttr(nn.InBitsAttr, inBits), intAttr(nn.OutBitsAttr, outBits),
		boolAttr(nn.SignedAttr, im.attrInt("signed", 1)), boolAttr(nn.NarrowAttr, im.attrInt("narrow", 0)),
		{Name: nn.RoundingAttr, Value: &ir.StringAttr{Value: im.rounding("FLOOR")}}, intAttr(nn.VersionAttr, version)})
}
