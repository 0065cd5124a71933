// Package quantize is the nn-quantize pass: it gives a float nn graph
// quantized types (docs/nn.md "Quantized graphs"), from three sources in
// order:
//
//  1. types already written: a graph that is already quantized (a tensor of
//     it has a quantized type) keeps every type, its f64 tensors being
//     exact; a quant.json may only repeat them;
//  2. a quant.json file (option quant=PATH, otir-opt --quant PATH), in the
//     form of ../shared/conformance/alir/alkaid-mlp/quant.json: each tensor
//     by its SSA name (%x, %1) with kif = [k, i, f] (alkaid's convention:
//     k = 1 signed, i integer bits, f fractional bits), or kif null with
//     mode "exact" for an exact f64 tensor;
//  3. calibration (option calibration=x.npy with params=p.npz): the float
//     evaluator runs on the samples, and each tensor still untyped gets the
//     width of its kind (input-bits for arguments, func-bits for the results
//     of function kinds, act-bits for the others), signed when a negative
//     value was seen, i the integer bits of the largest magnitude seen and
//     f = width - k - i. Shape kinds (reshape, permute, broadcast_to, ...)
//     keep their operand's type.
//
// Option weight-bits=N (with params=) then gives each nn.linear and
// nn.conv2d a weight_type and a bias_type (bias-bits, default 2N): the
// payload's parameters are rounded to them (params.go). Without it the
// parameters are used exactly.
//
// A quantized graph may not hold nn.layer_norm and nn.softmax: before
// typing, layer_norm is decomposed into primitive nodes; after it, softmax
// becomes the lookup-table softmax of softmax-bits bits (decompose.go),
// within qonnx.SoftmaxBound(K, N) of the exact softmax of its quantized
// operand z; against the float softmax the error adds at most
// (max Δz − min Δz)/4 ≤ max |Δz|/2, Δz the operand's quantization error.
package quantize

import (
	"cmp"
	"fmt"
	"strconv"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/nn/qonnx"
	"github.com/otir-dev/otir/passes"
)

// Options of nn-quantize.
type Options struct {
	// Quant is the quant.json file ("": none).
	Quant string
	// Params is the payload .npz, for calibration.
	Params string
	// Calibration lists one .npy per graph argument: a sample of the
	// argument's shape, or a batch of them (one more leading dimension).
	Calibration []string
	// InputBits, ActBits and FuncBits are the widths calibration gives
	// arguments, function results and every other node.
	InputBits, ActBits, FuncBits int
	// WeightBits is the width of the weight types nn-quantize writes (0:
	// none, the parameters stay exact; AutoWeightBits: DefaultWeightBits
	// for a graph calibration types, exact otherwise); BiasBits that of
	// the bias types.
	WeightBits, BiasBits int
	// Overflow is "saturate", "wrap", or "auto" or "" (saturate for
	// calibrated tensors, wrap for a quant.json's); Round is "floor" (or
	// "") or "nearest" (half to even). Saturation and rounding to nearest
	// are nn.requantize nodes (saturate.go).
	Overflow, Round string
	// HeadroomBits is the integer bits calibration adds above the range
	// it saw, for every tensor it types (the arguments too).
	HeadroomBits int
	// SoftmaxBits is the fraction bits of a softmax's probabilities (0:
	// qonnx.DefaultSoftmaxBits).
	SoftmaxBits int
	// Payloads reads Params (nil: Quantize reads it on its own); the
	// passes of one run share one (passes.Context).
	Payloads *tensor.Payloads
}

// DefaultQuant is the quant.json of every nn-quantize of a run whose quant
// option names none: what a driver provides in the passes' context
// (otir-opt --quant FILE).
type DefaultQuant string

// Declare declares nn-quantize's options.
func (o *Options) Declare(d *passes.Decl) {
	d.File(&o.Quant, "quant", "a quant.json: each tensor by SSA name (%x, %1) with kif [k, i, f], or null with mode exact (default: otir-opt --quant FILE)")
	qonnx.DeclareParams(d, &o.Params, "the payload .npz, for calibration")
	d.List(&o.Calibration, "calibration", "comma-separated .npy files, one per graph argument (a sample, or a batch with one more leading dimension): the float evaluator's range of each tensor chooses its integer bits")
	d.Int(&o.InputBits, "input-bits", 8, "calibration: the width of the graph arguments").Range(2, 32)
	d.Int(&o.ActBits, "act-bits", 8, "calibration: the width of the results of every node but the function kinds").Range(2, 32)
	d.Int(&o.FuncBits, "func-bits", 8, "calibration: the width of the results of the function kinds (exp, tanh, sigmoid, inv, ...: lookup tables)").Range(2, 32)
	d.Int(&o.WeightBits, "weight-bits", AutoWeightBits, "round the weights of nn.linear and nn.conv2d to signed formats of this width (weight_type), the finest that holds the largest weight; 0: the weights stay exact (at most 24 bits each); auto: 8 when calibration types the graph, exact otherwise (a quant.json's, or written types: alkaid's payloads)").
		Range(2, 53).Or("0", 0).Or("auto", AutoWeightBits)
	d.Int(&o.BiasBits, "bias-bits", 0, "with weight-bits: the width of the bias formats (bias_type), never finer than the accumulator's scale; 0: twice weight-bits").
		Range(2, 53).Or("0", 0)
	d.Enum(&o.Overflow, "overflow", "auto", []string{"auto", "saturate", "wrap"}, "how a node's result that leaves its type's range is quantized: saturate (clamped by an nn.requantize: comparisons and muxes in the circuit) or wrap (the type's own floor and wrap, as ALIR and alkaid); auto: saturate for calibrated tensors, wrap for a quant.json's (alkaid's meaning)")
	d.Enum(&o.Round, "round", "floor", []string{"floor", "nearest"}, "how a node's result is rounded to its type: floor (the type's own rule, hls4ml's AP_TRN) or nearest (an nn.requantize with rounding ROUND: ties to even, QONNX's and NumPy's)")
	d.Int(&o.HeadroomBits, "headroom-bits", 1, "calibration: integer bits added above the range seen, for every tensor it types (the arguments too)").Range(0, 16)
	qonnx.DeclareSoftmaxBits(d, &o.SoftmaxBits)
}

func init() {
	passes.Register(passes.Info{
		Name:    "nn-quantize",
		Summary: "give nn graphs quantized types: kept when written, from a quant.json, or from calibration (layer_norm is decomposed first; softmax becomes lookup tables of softmax-bits bits)",
	}, func(o *Options, ctx *passes.Context) (passes.Pass, error) {
		opts := *o
		if opts.Quant == "" {
			opts.Quant = string(passes.Use(ctx, func() DefaultQuant { return "" }))
		}
		opts.Payloads = passes.Use(ctx, tensor.NewPayloads)
		return passes.PassFunc(func(m *ir.Module) error { return Quantize(m, opts) }), nil
	})
}

// DefaultWeightBits is weight-bits=auto's width for a graph that
// calibration types; AutoWeightBits is Options.WeightBits for auto.
const DefaultWeightBits, AutoWeightBits = 8, -1

// Quantize gives every nn graph of m quantized types by opts.
func Quantize(m *ir.Module, opts Options) error {
	if opts.Payloads == nil {
		opts.Payloads = tensor.NewPayloads()
	}
	var spec *quantSpec
	if opts.Quant != "" {
		var err error
		if spec, err = readQuantSpec(opts.Quant); err != nil {
			return err
		}
	}
	for _, g := range nn.Graphs(m) {
		if err := quantizeGraph(g, spec, opts); err != nil {
			return err
		}
	}
	return nil
}

// assignment is what a tensor gets: a quantized element type, or exact
// (f64).
type assignment struct {
	elem  ir.Type
	from  string // where it comes from, for messages
	exact bool
}

func quantizeGraph(g *ir.Operation, spec *quantSpec, opts Options) error {
	gname, _ := g.StringAttr("sym_name")
	if nn.IsQuantized(g) {
		// Every type is written: f64 tensors are exact. A quant.json may
		// only repeat them.
		if spec != nil {
			if err := spec.checkWritten(g, gname); err != nil {
				return err
			}
		}
		return typeParams(g, opts)
	}
	names := valueNames(g)
	if err := decompose(g, names); err != nil {
		return err
	}
	body := g.Body(0)
	types := map[*ir.Value]assignment{}
	var order []*ir.Value
	order = append(order, body.Args...)
	for _, op := range body.Ops {
		order = append(order, op.Results...)
	}
	if spec != nil {
		if err := spec.assign(gname, names, types); err != nil {
			return err
		}
	}
	var untyped []*ir.Value
	for _, v := range order {
		if _, ok := types[v]; !ok && !typedBySoftmaxBits(v) {
			untyped = append(untyped, v)
		}
	}
	if len(untyped) > 0 {
		if len(opts.Calibration) == 0 {
			return fmt.Errorf("graph @%s: %s has no quantized type: give it in a quant.json (quant=, --quant), or give calibration= (and params=) to choose types from the range the float evaluator sees",
				gname, nameOf(names, untyped[0]))
		}
		if err := calibrate(g, gname, names, untyped, types, opts); err != nil {
			return err
		}
	}
	if err := lowerSoftmaxes(g, names, types, cmp.Or(opts.SoftmaxBits, qonnx.DefaultSoftmaxBits)); err != nil {
		return err
	}
	if err := explicitQuantizers(g, names, types, opts); err != nil {
		return err
	}
	retype(g, types)
	if opts.WeightBits == AutoWeightBits && len(untyped) > 0 {
		opts.WeightBits = DefaultWeightBits // calibration typed the graph
	}
	return typeParams(g, opts)
}

// retype writes the assignments: each value's tensor type with its new
// element type, and the graph's function_type.
func retype(g *ir.Operation, types map[*ir.Value]assignment) {
	body := g.Body(0)
	for v, a := range types {
		tt := v.Type.(*ir.TensorType)
		elem := a.elem
		if a.exact {
			elem = ir.Float(ir.F64)
		}
		v.Type = ir.Tensor(tt.Shape, elem)
	}
	fn := &ir.FunctionType{}
	for _, a := range body.Args {
		fn.Inputs = append(fn.Inputs, a.Type)
	}
	if ret := body.Terminator(); ret != nil {
		for _, v := range ret.Operands {
			fn.Results = append(fn.Results, v.Type)
		}
	}
	g.SetAttr("function_type", fn)
}

// valueNames names the graph's values as a quant.json does: "%x" by its
// source name, and as printed ("%arg0", "%0", "%1", ... in node order); a
// source name wins over a printed one.
func valueNames(g *ir.Operation) map[string]*ir.Value {
	names := map[string]*ir.Value{}
	body := g.Body(0)
	for i, a := range body.Args {
		names["%arg"+strconv.Itoa(i)] = a
	}
	n := 0
	for _, op := range body.Ops {
		if len(op.Results) == 0 {
			continue
		}
		names["%"+strconv.Itoa(n)] = op.Results[0]
		n++
	}
	for _, a := range body.Args {
		if a.Name != "" {
			names["%"+a.Name] = a
		}
	}
	for _, op := range body.Ops {
		for _, r := range op.Results {
			if r.Name != "" {
				names["%"+r.Name] = r
			}
		}
	}
	return names
}

// nameOf is the name of v for messages: its source name, or the first of
// its names.
func nameOf(names map[string]*ir.Value, v *ir.Value) string {
	if v.Name != "" {
		return "%" + v.Name
	}
	best := ""
	for k, w := range names {
		if w == v && (best == "" || k < best) {
			best = k
		}
	}
	if best == "" {
		return "a value"
	}
	return best
}
