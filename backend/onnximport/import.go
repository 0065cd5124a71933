// Package onnximport turns an ONNX model (as torch.onnx.export writes it,
// opsets 6 to 17, and QONNX's quantized models: the quantizers of the
// domains qonnxDomains, the channels-last nodes of ChannelsLastDomain)
// into an nn graph (dialect/nn) and its
// payload, the parameters by key as an .npz archive (docs/nn.md, the
// design's section 4).
//
// The file is decoded by the generated protobuf binding
// (internal/onnxpb); every shape must be static. Initializers and Constant
// nodes are constants: those that computations read become nn.const nodes
// with a payload entry, those that give shapes, axes, exponents and
// paddings are read at import time, and nodes whose inputs are all
// constants (the shape arithmetic of F.pad's export) are folded. ONNX
// operators without a node kind of their own are decomposed into node kinds
// (ops.go): Gemm into nn.linear or nn.matmul and nn.add, Div into nn.mul by
// nn.inv (or by the reciprocal of a constant power of two, which is exact),
// Pow by the constant 2 into nn.mul, broadcasting into nn.broadcast_to, Pad
// into the padding of the convolution or pooling that reads it,
// BatchNormalization into the weights of the nn.linear or nn.conv2d before
// it (or nn.sub, nn.mul and nn.add), LeakyRelu, HardSigmoid, HardSwish and
// Clip into nn.mul, nn.add, nn.max and nn.min, 1-D windows into 2-D ones
// on a unit axis. docs/nn.md's operator table lists every operator.
//
// Bad input is an error, never a panic: an operator or attribute value the
// nn dialect cannot express names the node and the operator ("node 'Conv_3'
// (Conv): group=2 is not supported"); sizes are checked before anything is
// allocated for them (Options).
package onnximport

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/internal/onnxpb"
	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes/dce"
	"github.com/otir-dev/otir/passes/verify"
)

// Options bounds an import.
type Options struct {
	// MaxElements is the most elements one tensor (a constant or a value
	// of the graph) may hold (0: DefaultMaxElements).
	MaxElements int64
	// MaxTotalElements is the most elements all constants together may
	// hold (0: DefaultMaxTotalElements).
	MaxTotalElements int64
	// GraphName is the nn.graph's symbol (empty: the ONNX graph's name if
	// it is a valid identifier, else "main").
	GraphName string
}

// Default bounds of Options.
const (
	DefaultMaxElements      = 1 << 28
	DefaultMaxTotalElements = 1 << 28
)

// Result is an imported model: a module holding one nn.graph, and its
// payload (float64 arrays by key, in the order the graph first uses them).
type Result struct {
	Module  *ir.Module
	Payload *npy.NPZ
}

// Supported opsets of the default ("ai.onnx") domain.
const (
	minOpset = 6
	maxOpset = 17
)

// Import decodes an ONNX model and translates it. path names the model in
// the module's locations only.
func Import(data []byte, path string, opts Options) (*Result, error) {
	if opts.MaxElements <= 0 {
		opts.MaxElements = DefaultMaxElements
	}
	if opts.MaxTotalElements <= 0 {
		opts.MaxTotalElements = DefaultMaxTotalElements
	}
	var m onnxpb.ModelProto
	if err := proto.Unmarshal(data, &m); err != nil {
		// The decoder's own message is not stable (google.golang.org/protobuf
		// varies its spacing on purpose), so it is not repeated.
		return nil, errors.New("not an ONNX model: the file is not a protobuf ModelProto (truncated, or another format)")
	}
	g := m.GetGraph()
	if g == nil || m.IrVersion == nil {
		return nil, errors.New("not an ONNX model: no graph or IR version")
	}
	opset := int64(-1)
	for _, o := range m.GetOpsetImport() {
		switch o.GetDomain() {
		case "", "ai.onnx":
			opset = o.GetVersion()
		}
	}
	if opset < minOpset || opset > maxOpset {
		if opset < 0 {
			return nil, fmt.Errorf("the model imports no opset of the default domain (opsets %d to %d are supported)", minOpset, maxOpset)
		}
		return nil, fmt.Errorf("opset %d is not supported (opsets %d to %d are)", opset, minOpset, maxOpset)
	}
	im := &importer{opts: opts, opset: opset, vals: map[string]*value{}, memo: map[memoKey]*ir.Value{}, payload: &npy.NPZ{Arrays: map[string]*npy.Array{}},
		loc: ir.Location{File: path}}
	return im.graph(g)
}

// importer is the state of one import.
type importer struct {
	opts    Options
	opset   int64
	loc     ir.Location
	b       *ir.Builder
	vals    map[string]*value
	payload *npy.NPZ
	// total counts the constants' elements (Options.MaxTotalElements).
	total int64
	// node is the ONNX node being translated (for messages).
	node *onnxpb.NodeProto
	// args and consts are the node's inputs and the values of its constant
	// ones, as checkSignature read them.
	args   []*value
	consts []*constant
	// next is the node after node (nil for the last); a translation that
	// computes it too (MatMul and the Add of its bias) sets fusedNext.
	next      *onnxpb.NodeProto
	fusedNext bool
	// uses counts the reads of each value name (node inputs and graph
	// outputs).
	uses map[string]int
	// memo holds the reshapes and broadcasts made, so that a value is
	// reshaped or broadcast to a shape once.
	memo map[memoKey]*ir.Value
	// permutes are the nn.permute results of channels-last nodes, by
	// result, so that the inverse permute of one is its operand.
	permutes map[*ir.Value]permute
}

// memoKey is a reshape or broadcast of a value to a shape.
type memoKey struct {
	kind  string
	of    *ir.Value
	shape string
}

// A value is an ONNX value: its static shape and what it is, a value of the
// graph (ssa), a constant (c; ssa once a node reads it), or the output of a
// Pad node waiting for the window node that reads it (pad).
type value struct {
	name  string
	shape []int64
	ssa   *ir.Value
	c     *constant
	pad   *padding
	// folded is, for a QONNX quantizer of a constant, its values as the
	// evaluator computes them (dialect/nn's shared rules): what a Conv,
	// which reads payload weights, takes as its weight or bias.
	folded *constant
}

// padding is a Pad node's output: its input, the padding of its spatial
// dimensions (ONNX's order: the begins, then the ends) and the fill value
// (0 or -inf).
type padding struct {
	in    *value
	sides []int64
	fill  float64
}

// A constant is a tensor known at import time, integer or float.
type constant struct {
	shape  []int64
	isInt  bool
	ints   []int64
	floats []float64
}

func (c *constant) len() int {
	if c.isInt {
		return len(c.ints)
	}
	return len(c.floats)
}

// float is element i as a float64.
func (c *constant) float(i int) float64 {
	if c.isInt {
		return float64(c.ints[i])
	}
	return c.floats[i]
}

// int64s are the constant's values as integers (an error for a float
// constant with a non-integer value).
func (c *constant) int64s() ([]int64, error) {
	if c.isInt {
		return c.ints, nil
	}
	out := make([]int64, len(c.floats))
	for i, f := range c.floats {
		if f != math.Trunc(f) || math.Abs(f) > 1<<62 {
			return nil, fmt.Errorf("value %v is not an integer", f)
		}
		out[i] = int64(f)
	}
	return out, nil
}

// nodeError is an error about the node being translated.
func (im *importer) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: %s", im.nodeLabel(), fmt.Sprintf(format, args...))
}

// nodeName is the current node's name, or its first output's when it has
// none (the payload prefix of its parameters).
func (im *importer) nodeName() string {
	if n := im.node.GetName(); n != "" {
		return n
	}
	return first(im.node.GetOutput())
}

// nodeLabel names the current node: node 'NAME' (OpType), or node #i when
// it has no name.
func (im *importer) nodeLabel() string {
	n := im.node
	if n.GetName() != "" {
		return fmt.Sprintf("node '%s' (%s)", n.GetName(), n.GetOpType())
	}
	return fmt.Sprintf("node with output '%s' (%s)", first(n.GetOutput()), n.GetOpType())
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// graph translates the ONNX graph.
func (im *importer) graph(g *onnxpb.GraphProto) (*Result, error) {
	inits := map[string]bool{}
	for _, t := range g.GetInitializer() {
		c, err := im.tensor(t)
		if err != nil {
			return nil, fmt.Errorf("initializer '%s': %v", t.GetName(), err)
		}
		if t.GetName() == "" {
			return nil, errors.New("an initializer has no name")
		}
		inits[t.GetName()] = true
		im.vals[t.GetName()] = &value{name: t.GetName(), shape: c.shape, c: c}
	}
	if len(g.GetSparseInitializer()) > 0 {
		return nil, errors.New("sparse initializers are not supported")
	}
	var argNames []string
	var argTypes []ir.Type
	for _, in := range g.GetInput() {
		if inits[in.GetName()] {
			continue
		}
		shape, err := im.valueShape(in, false)
		if err != nil {
			return nil, fmt.Errorf("graph input '%s': %v", in.GetName(), err)
		}
		argNames = append(argNames, in.GetName())
		argTypes = append(argTypes, ir.Tensor(shape, f64))
	}
	if len(g.GetOutput()) == 0 {
		return nil, errors.New("the graph has no outputs")
	}
	var outShapes [][]int64
	for _, out := range g.GetOutput() {
		shape, err := im.valueShape(out, true)
		if err != nil {
			return nil, fmt.Errorf("graph output '%s': %v", out.GetName(), err)
		}
		outShapes = append(outShapes, shape)
	}
	mod := ir.NewModule(im.loc)
	mb := ir.NewBuilder(mod.Body())
	mb.Loc = im.loc
	name := im.opts.GraphName
	if name == "" {
		name = "main"
		if isIdentifier(g.GetName()) {
			name = g.GetName()
		}
	}
	gop, body := nn.Graph(mb, name, argTypes, nil)
	im.b = ir.NewBuilder(body)
	im.b.Loc = im.loc
	for i, a := range body.Args {
		if _, dup := im.vals[argNames[i]]; dup {
			return nil, fmt.Errorf("graph input '%s' is defined twice", argNames[i])
		}
		im.vals[argNames[i]] = &value{name: argNames[i], shape: argTypes[i].(*ir.TensorType).Shape, ssa: a}
	}
	im.uses = map[string]int{}
	for _, n := range g.GetNode() {
		for _, in := range n.GetInput() {
			im.uses[in]++
		}
	}
	for _, out := range g.GetOutput() {
		im.uses[out.GetName()]++
	}
	nodes := g.GetNode()
	for i := 0; i < len(nodes); i++ {
		im.node, im.next = nodes[i], nil
		if i+1 < len(nodes) {
			im.next = nodes[i+1]
		}
		if err := im.translate(nodes[i]); err != nil {
			return nil, err
		}
		if im.fusedNext {
			im.fusedNext = false
			i++
		}
	}
	im.node = nil
	var outs []*ir.Value
	var outTypes []ir.Type
	for i, out := range g.GetOutput() {
		v, ok := im.vals[out.GetName()]
		if !ok {
			return nil, fmt.Errorf("graph output '%s' is not computed by any node", out.GetName())
		}
		ssa, err := im.use(v)
		if err != nil {
			return nil, fmt.Errorf("graph output '%s': %v", out.GetName(), err)
		}
		if want := outShapes[i]; !matchShape(want, v.shape) {
			return nil, fmt.Errorf("graph output '%s' is declared of shape %s, but its node computes %s", out.GetName(), shapeText(want), shapeText(v.shape))
		}
		outs = append(outs, ssa)
		outTypes = append(outTypes, ssa.Type)
	}
	nn.Return(im.b, outs...)
	gop.SetAttr("function_type", &ir.FunctionType{Inputs: argTypes, Results: outTypes})
	// Nodes the translation left unread (a reshape a later reshape went
	// around, an Unsqueeze's before a Squeeze) go, and the payload entries
	// no node reads with them.
	dce.Run(mod)
	im.prunePayload(body)
	if ds := verify.Verify(mod); len(ds) > 0 {
		return nil, fmt.Errorf("the imported graph does not verify (a bug of the importer): %v", ds[0])
	}
	return &Result{Module: mod, Payload: im.payload}, nil
}

// prunePayload drops the payload entries that no node of body reads.
func (im *importer) prunePayload(body *ir.Block) {
	read := map[string]bool{}
	for _, op := range body.Ops {
		if name, ok := op.StringAttr("params"); ok {
			read[name] = true
			for _, s := range paramSuffixes {
				read[name+s] = true
			}
		}
	}
	kept := im.payload.Names[:0]
	for _, k := range im.payload.Names {
		if read[k] {
			kept = append(kept, k)
		} else {
			delete(im.payload.Arrays, k)
		}
	}
	im.payload.Names = kept
}

// f64 is the element type of imported graphs: float32 models too are
// imported in float64 (the evaluator computes in float64 anyway).
var f64 = ir.Float(ir.F64)

// valueShape is the static shape of a graph input or output, which must be
// a float32 or float64 tensor. An output's dimensions may be unknown (-1:
// the exporter could not infer them; the importer computes them), or its
// shape absent (nil).
func (im *importer) valueShape(v *onnxpb.ValueInfoProto, output bool) ([]int64, error) {
	tt := v.GetType().GetTensorType()
	if tt == nil {
		return nil, errors.New("is not a tensor")
	}
	switch onnxpb.TensorProto_DataType(tt.GetElemType()) {
	case onnxpb.TensorProto_FLOAT, onnxpb.TensorProto_DOUBLE:
	default:
		return nil, fmt.Errorf("element type %s is not supported (float or double)", onnxpb.TensorProto_DataType(tt.GetElemType()))
	}
	if tt.GetShape() == nil {
		if output {
			return nil, nil
		}
		return nil, errors.New("has no shape (shapes must be static)")
	}
	shape := []int64{}
	for i, d := range tt.GetShape().GetDim() {
		if output && !hasDimValue(d) {
			shape = append(shape, -1)
			continue
		}
		if d.GetDimParam() != "" || !hasDimValue(d) {
			p := d.GetDimParam()
			if p == "" {
				p = "?"
			}
			return nil, fmt.Errorf("dimension %d is dynamic ('%s'); shapes must be static (export with a fixed batch size)", i, p)
		}
		if d.GetDimValue() < 0 {
			return nil, fmt.Errorf("dimension %d is negative (%d)", i, d.GetDimValue())
		}
		shape = append(shape, d.GetDimValue())
	}
	if output {
		return shape, nil
	}
	if err := im.checkSize(shape); err != nil {
		return nil, err
	}
	return shape, nil
}

// matchShape: a declared output shape (nil: unknown; -1: an unknown
// dimension) matches a computed one.
func matchShape(declared, computed []int64) bool {
	if declared == nil {
		return true
	}
	if len(declared) != len(computed) {
		return false
	}
	for i, d := range declared {
		if d >= 0 && d != computed[i] {
			return false
		}
	}
	return true
}

func hasDimValue(d *onnxpb.TensorShapeProto_Dimension) bool {
	_, ok := d.GetValue().(*onnxpb.TensorShapeProto_Dimension_DimValue)
	return ok
}

// maxDim is the largest tensor dimension the IR's parser reads back
// (ir/tensor.go): a larger one would print as a graph that does not parse.
const maxDim = 1 << 31

// checkSize checks that a shape holds at most Options.MaxElements elements,
// and that it prints as a type the parser reads back: each dimension at
// most maxDim, and the product of the non-zero dimensions bounded too (a
// zero-size [0, 2^62, 2^62] holds no elements but is no valid type).
func (im *importer) checkSize(shape []int64) error {
	n := int64(1)
	for _, d := range shape {
		if d < 0 {
			return fmt.Errorf("shape %s has a negative dimension", shapeText(shape))
		}
		if d == 0 {
			continue
		}
		if n > im.opts.MaxElements/d {
			return fmt.Errorf("shape %s holds more than %d elements", shapeText(shape), im.opts.MaxElements)
		}
		if d > maxDim { // only with a MaxElements above it
			return fmt.Errorf("shape %s has a dimension larger than %d", shapeText(shape), int64(maxDim))
		}
		n *= d
	}
	return nil
}

// tensor decodes a TensorProto, checking its declared size against the
// bounds and its data before allocating.
func (im *importer) tensor(t *onnxpb.TensorProto) (*constant, error) {
	if t.GetDataLocation() == onnxpb.TensorProto_EXTERNAL || len(t.GetExternalData()) > 0 {
		return nil, errors.New("external data is not supported")
	}
	if t.GetSegment() != nil {
		return nil, errors.New("segmented tensors are not supported")
	}
	shape := append([]int64{}, t.GetDims()...)
	if err := im.checkSize(shape); err != nil {
		return nil, err
	}
	n := numel(shape)
	if im.total+n > im.opts.MaxTotalElements {
		return nil, fmt.Errorf("the constants hold more than %d elements together", im.opts.MaxTotalElements)
	}
	im.total += n
	raw := t.GetRawData()
	useRaw := t.RawData != nil
	c := &constant{shape: shape}
	count := func(have, size int) error {
		if useRaw {
			have = len(raw) / size
			if len(raw)%size != 0 || int64(have) != n {
				return fmt.Errorf("raw data of %d bytes does not hold the %d elements of shape %s", len(raw), n, shapeText(shape))
			}
			return nil
		}
		if int64(have) != n {
			return fmt.Errorf("%d values do not fill shape %s (%d elements)", have, shapeText(shape), n)
		}
		return nil
	}
	le := func(i, size int) uint64 {
		var u uint64
		for k := size - 1; k >= 0; k-- {
			u = u<<8 | uint64(raw[i*size+k])
		}
		return u
	}
	dt := onnxpb.TensorProto_DataType(t.GetDataType())
	switch dt {
	case onnxpb.TensorProto_DOUBLE:
		if err := count(len(t.GetDoubleData()), 8); err != nil {
			return nil, err
		}
		c.floats = make([]float64, n)
		for i := range c.floats {
			if useRaw {
				c.floats[i] = math.Float64frombits(le(i, 8))
			} else {
				c.floats[i] = t.GetDoubleData()[i]
			}
		}
	case onnxpb.TensorProto_FLOAT:
		if err := count(len(t.GetFloatData()), 4); err != nil {
			return nil, err
		}
		c.floats = make([]float64, n)
		for i := range c.floats {
			if useRaw {
				c.floats[i] = float64(math.Float32frombits(uint32(le(i, 4))))
			} else {
				c.floats[i] = float64(t.GetFloatData()[i])
			}
		}
	case onnxpb.TensorProto_FLOAT16:
		if err := count(len(t.GetInt32Data()), 2); err != nil {
			return nil, err
		}
		c.floats = make([]float64, n)
		for i := range c.floats {
			if useRaw {
				c.floats[i] = npy.Float16FromBits(uint16(le(i, 2)))
			} else {
				c.floats[i] = npy.Float16FromBits(uint16(t.GetInt32Data()[i]))
			}
		}
	case onnxpb.TensorProto_INT64:
		if err := count(len(t.GetInt64Data()), 8); err != nil {
			return nil, err
		}
		c.isInt, c.ints = true, make([]int64, n)
		for i := range c.ints {
			if useRaw {
				c.ints[i] = int64(le(i, 8))
			} else {
				c.ints[i] = t.GetInt64Data()[i]
			}
		}
	case onnxpb.TensorProto_INT32, onnxpb.TensorProto_INT16, onnxpb.TensorProto_INT8,
		onnxpb.TensorProto_UINT16, onnxpb.TensorProto_UINT8, onnxpb.TensorProto_BOOL:
		size := map[onnxpb.TensorProto_DataType]int{onnxpb.TensorProto_INT32: 4, onnxpb.TensorProto_INT16: 2,
			onnxpb.TensorProto_INT8: 1, onnxpb.TensorProto_UINT16: 2, onnxpb.TensorProto_UINT8: 1, onnxpb.TensorProto_BOOL: 1}[dt]
		if err := count(len(t.GetInt32Data()), size); err != nil {
			return nil, err
		}
		signed := dt == onnxpb.TensorProto_INT32 || dt == onnxpb.TensorProto_INT16 || dt == onnxpb.TensorProto_INT8
		c.isInt, c.ints = true, make([]int64, n)
		for i := range c.ints {
			if !useRaw {
				c.ints[i] = int64(t.GetInt32Data()[i])
				continue
			}
			u := le(i, size)
			if signed {
				shift := 64 - 8*size
				c.ints[i] = int64(u<<shift) >> shift
			} else {
				c.ints[i] = int64(u)
			}
		}
	default:
		return nil, fmt.Errorf("data type %s is not supported", dt)
	}
	return c, nil
}

// use is the SSA value of v for a node to read: a constant becomes an
// nn.const with a payload entry the first time. Its errors name the node
// being translated, if any.
func (im *importer) use(v *value) (*ir.Value, error) {
	x, err := im.ssaOf(v)
	if err != nil && im.node != nil {
		err = im.errorf("%v", err)
	}
	return x, err
}

func (im *importer) ssaOf(v *value) (*ir.Value, error) {
	switch {
	case v.ssa != nil:
		return v.ssa, nil
	case v.pad != nil:
		return nil, fmt.Errorf("the output of Pad '%s' is read by a node it cannot be folded into (only Conv, AveragePool and, when the pad value is -inf, MaxPool read padded values)", v.name)
	case v.c != nil:
		key := im.addPayload(v.name, v.c.shape, floatsOf(v.c))
		ssa, err := nn.Node(im.b, opConst, nil, ir.Tensor(v.c.shape, f64), ir.Attrs{{Name: "params", Value: &ir.StringAttr{Value: key}}})
		if err != nil {
			return nil, err
		}
		v.ssa = ssa
		return ssa, nil
	}
	return nil, fmt.Errorf("value '%s' has no definition", v.name)
}

func floatsOf(c *constant) []float64 {
	if !c.isInt {
		return c.floats
	}
	out := make([]float64, len(c.ints))
	for i, x := range c.ints {
		out[i] = float64(x)
	}
	return out
}

// addPayload adds a float64 array under a key derived from name (made
// unique) and returns the key.
func (im *importer) addPayload(name string, shape []int64, data []float64) string {
	key := im.freshPrefix(keyOf(name))
	im.addEntry(key, shape, data)
	return key
}

// paramSuffixes are the suffixes of the payload entries a node's params
// attribute names: nn.linear's and nn.conv2d's .weight and .bias, the QONNX
// quantizers' .scale, .zero_point, .output_scale, .max_val and
// .thresholds (dialect/nn/qonnx.go).
var paramSuffixes = []string{".weight", ".bias", ".scale", ".zero_point", ".output_scale", ".max_val", ".thresholds"}

// takenAsPrefix: key.weight, key.scale or another entry of paramSuffixes is
// in the payload (a const named like a node's parameters would not clash,
// but stays readable apart).
func (im *importer) takenAsPrefix(key string) bool {
	for _, s := range paramSuffixes {
		if _, ok := im.payload.Arrays[key+s]; ok {
			return true
		}
	}
	return false
}

// freshPrefix is base, or base_1, base_2...: a prefix that no payload
// entry uses, as a key or with a suffix of paramSuffixes.
func (im *importer) freshPrefix(base string) string {
	name := base
	for i := 1; ; i++ {
		if _, c := im.payload.Arrays[name]; !c && !im.takenAsPrefix(name) {
			return name
		}
		name = fmt.Sprintf("%s_%d", base, i)
	}
}

// addEntry adds a float64 array under exactly key (a fresh prefix and one
// of its suffixes).
func (im *importer) addEntry(key string, shape []int64, data []float64) {
	dims := make([]int, len(shape))
	for i, d := range shape {
		dims[i] = int(d)
	}
	im.payload.Names = append(im.payload.Names, key)
	im.payload.Arrays[key] = &npy.Array{DType: npy.Float64, Shape: dims, Floats: data}
}

// addParams adds NAME.weight and NAME.bias for nn.linear or nn.conv2d and
// returns NAME: the prefix of the weight's or else the bias's ONNX name
// when it is a PyTorch state_dict name (fc1.weight, fc1.bias), else the
// node's name.
func (im *importer) addParams(weightName, biasName string, w []float64, wShape []int64, b []float64, bShape []int64) string {
	base, ok := strings.CutSuffix(weightName, ".weight")
	if !ok || base == "" {
		base, ok = strings.CutSuffix(biasName, ".bias")
	}
	if !ok || base == "" {
		base = im.node.GetName()
	}
	name := im.freshPrefix(keyOf(base))
	im.addEntry(name+".weight", wShape, w)
	im.addEntry(name+".bias", bShape, b)
	return name
}

// keyOf is a payload key made of an ONNX name: its letters, digits, '_'
// and '.', each other character (the '/' and ':' of torch's value names)
// an '_', leading '_' and '.' dropped ("/norm/Constant_1_output_0" is
// "norm_Constant_1_output_0", "fc1.weight" stays); "const" when nothing is
// left.
func keyOf(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	k := strings.TrimLeft(string(b), "_.")
	if k == "" {
		return "const"
	}
	return k
}

// numel is the number of elements of a shape (checked by checkSize).
func numel(shape []int64) int64 { return tileview.Count(shape) }

func shapeText(s []int64) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = fmt.Sprint(d)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// isIdentifier: s is a bare MLIR symbol name ([A-Za-z_][A-Za-z0-9_$.]*).
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '$' || r == '.'):
		default:
			return false
		}
	}
	return true
}
