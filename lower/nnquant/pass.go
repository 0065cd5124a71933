// Package nnquant is the nn-quantize pass: it gives a float nn graph
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
// within nnqonnx.SoftmaxBound(K, N) of the exact softmax of its quantized
// operand z; against the float softmax the error adds at most
// (max Δz − min Δz)/4 ≤ max |Δz|/2, Δz the operand's quantization error.
package nnquant

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/nnqonnx"
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
	// nnqonnx.DefaultSoftmaxBits).
	SoftmaxBits int
}

func init() {
	passes.Register(passes.Info{
		Name:    "nn-quantize",
		Summary: "give nn graphs quantized types: kept when written, from a quant.json, or from calibration (layer_norm is decomposed first; softmax becomes lookup tables of softmax-bits bits)",
		Options: []passes.Option{
			{Name: "quant", Help: "a quant.json: each tensor by SSA name (%x, %1) with kif [k, i, f], or null with mode exact (otir-opt --quant FILE sets it)"},
			{Name: "params", Help: "the payload .npz, for calibration (otir-opt --params FILE sets it)"},
			{Name: "calibration", Help: "comma-separated .npy files, one per graph argument (a sample, or a batch with one more leading dimension): the float evaluator's range of each tensor chooses its integer bits"},
			{Name: "input-bits", Help: "calibration: the width of the graph arguments", Default: "8", Kind: passes.IntOption},
			{Name: "act-bits", Help: "calibration: the width of the results of every node but the function kinds", Default: "8", Kind: passes.IntOption},
			{Name: "func-bits", Help: "calibration: the width of the results of the function kinds (exp, tanh, sigmoid, inv, ...: lookup tables)", Default: "8", Kind: passes.IntOption},
			{Name: "weight-bits", Help: "round the weights of nn.linear and nn.conv2d to signed formats of this width (weight_type), the finest that holds the largest weight; 0: the weights stay exact (at most 24 bits each); auto: 8 when calibration types the graph, exact otherwise (a quant.json's, or written types: alkaid's payloads)", Default: "auto"},
			{Name: "bias-bits", Help: "with weight-bits: the width of the bias formats (bias_type), never finer than the accumulator's scale; 0: twice weight-bits", Default: "0", Kind: passes.IntOption},
			{Name: "overflow", Help: "how a node's result that leaves its type's range is quantized: saturate (clamped by an nn.requantize: comparisons and muxes in the circuit) or wrap (the type's own floor and wrap, as ALIR and alkaid); auto: saturate for calibrated tensors, wrap for a quant.json's (alkaid's meaning)", Default: "auto", Values: []string{"auto", "saturate", "wrap"}},
			{Name: "round", Help: "how a node's result is rounded to its type: floor (the type's own rule, hls4ml's AP_TRN) or nearest (an nn.requantize with rounding ROUND: ties to even, QONNX's and NumPy's)", Default: "floor", Values: []string{"floor", "nearest"}},
			{Name: "headroom-bits", Help: "calibration: integer bits added above the range seen, for every tensor it types (the arguments too), in [0, 16]", Default: "1", Kind: passes.IntOption},
			nnqonnx.SoftmaxBitsOption,
		},
		New: func(o map[string]string) (passes.Pass, error) {
			opts := Options{Quant: o["quant"], Params: o["params"]}
			if o["calibration"] != "" {
				opts.Calibration = strings.Split(o["calibration"], ",")
			}
			for _, w := range []struct {
				name string
				to   *int
			}{{"input-bits", &opts.InputBits}, {"act-bits", &opts.ActBits}, {"func-bits", &opts.FuncBits}} {
				v, err := strconv.Atoi(o[w.name])
				if err != nil || v < 2 || v > 32 {
					return nil, fmt.Errorf("%s must be an integer in [2, 32], got '%s'", w.name, o[w.name])
				}
				*w.to = v
			}
			opts.Overflow, opts.Round = o["overflow"], o["round"]
			h, err := strconv.Atoi(o["headroom-bits"])
			if err != nil || h < 0 || h > 16 {
				return nil, fmt.Errorf("headroom-bits must be an integer in [0, 16], got '%s'", o["headroom-bits"])
			}
			opts.HeadroomBits = h
			for _, w := range []struct {
				name string
				to   *int
			}{{"weight-bits", &opts.WeightBits}, {"bias-bits", &opts.BiasBits}} {
				if w.name == "weight-bits" && o[w.name] == "auto" {
					opts.WeightBits = AutoWeightBits
					continue
				}
				v, err := strconv.Atoi(o[w.name])
				if err != nil || v != 0 && (v < 2 || v > 53) {
					return nil, fmt.Errorf("%s must be 0 or an integer in [2, 53]%s, got '%s'", w.name, map[bool]string{true: " or auto"}[w.name == "weight-bits"], o[w.name])
				}
				*w.to = v
			}
			opts.SoftmaxBits, _ = strconv.Atoi(o["softmax-bits"]) // CheckSoftmaxBits checked it
			return passes.PassFunc(func(m *ir.Module) error { return Quantize(m, opts) }), nil
		},
	})
}

// DefaultWeightBits is weight-bits=auto's width for a graph that
// calibration types; AutoWeightBits is Options.WeightBits for auto.
const DefaultWeightBits, AutoWeightBits = 8, -1

// Quantize gives every nn graph of m quantized types by opts.
func Quantize(m *ir.Module, opts Options) error {
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
	if err := lowerSoftmaxes(g, names, types, cmp.Or(opts.SoftmaxBits, nnqonnx.DefaultSoftmaxBits)); err != nil {
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
