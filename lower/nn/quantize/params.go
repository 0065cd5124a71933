package quantize

import (
	"fmt"
	"math"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/ir"
)

// Parameter types (docs/nn.md "Parameter types"): with weight-bits=N,
// every nn.linear and nn.conv2d of a quantized graph without a weight_type
// gets one: the signed N-bit format whose integer part just holds the
// largest weight after rounding (the finest scale at which no weight
// saturates), and likewise a bias_type of bias-bits bits (default
// 2·weight-bits), whose scale is never finer than the accumulator's (the
// input's scale times the weight's), so the bias adds no bits to it.
// Written parameter types are kept.

// typeParams writes the parameter types of g's nodes by opts.
func typeParams(g *ir.Operation, opts Options) error {
	if opts.WeightBits == AutoWeightBits {
		opts.WeightBits = 0 // not calibrated: alkaid's payloads are exact
	}
	if opts.BiasBits != 0 && opts.WeightBits == 0 {
		return fmt.Errorf("bias-bits needs weight-bits")
	}
	if opts.BiasBits == 0 {
		opts.BiasBits = min(2*opts.WeightBits, 53)
	}
	var p tensor.Payload
	for _, op := range g.Body(0).Ops {
		if !nn.TakesParamTypes(op) || opts.WeightBits == 0 && nn.ParamType(op, nn.WeightTypeAttr) != nil {
			continue
		}
		if p == nil {
			if opts.WeightBits == 0 && opts.Payloads.File(opts.Params) == "" {
				return nil // nothing to check: nn-to-otir reads the payload
			}
			var err error
			if p, err = opts.Payloads.Read(opts.Params); err != nil {
				return err
			}
		}
		prefix, _ := op.StringAttr("params")
		if opts.WeightBits == 0 {
			if err := checkExactWeights(op, p, prefix+".weight"); err != nil {
				return err
			}
			continue
		}
		wt := nn.ParamType(op, nn.WeightTypeAttr)
		if wt == nil {
			w, err := paramEntry(op, p, prefix+".weight")
			if err != nil {
				return err
			}
			wt = fitType(w.Data, opts.WeightBits, quant.MaxFrac)
			op.SetAttr(nn.WeightTypeAttr, &ir.TypeAttr{Type: wt})
		}
		if nn.ParamType(op, nn.BiasTypeAttr) == nil {
			b, err := paramEntry(op, p, prefix+".bias")
			if err != nil {
				return err
			}
			limit := quant.MaxFrac
			if x := quant.ElementOf(op.Operands[0].Type); x != nil {
				limit = min(limit, max(x.Frac+wt.Frac, -quant.MaxFrac))
			}
			op.SetAttr(nn.BiasTypeAttr, &ir.TypeAttr{Type: fitType(b.Data, opts.BiasBits, limit)})
		}
	}
	return nil
}

// paramEntry is payload entry key of op, finite.
func paramEntry(op *ir.Operation, p tensor.Payload, key string) (*tensor.Tensor, error) {
	t, ok := p[key]
	if !ok || t == nil {
		return nil, diag.OpErrorf(op, "the payload has no entry '%s': weight-bits needs the parameters (params=, --params FILE.npz)", key)
	}
	for i, v := range t.Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, diag.OpErrorf(op, "payload entry '%s' holds %v at flat index %d: parameters must be finite", key, v, i)
		}
	}
	return t, nil
}

// fitType is the signed bits-wide type of the finest scale, at most
// 2^-maxFrac, at which every value rounds (to nearest, ties to even) into
// the storage without saturating.
func fitType(data []float64, bits, maxFrac int) *quant.UniformType {
	m := 0.0
	for _, v := range data {
		m = max(m, math.Abs(v))
	}
	f := maxFrac
	if m > 0 {
		_, e := math.Frexp(m) // m < 2^e
		f = min(f, bits-e)    // one more than m·2^f < 2^(bits-1) allows: rounding may carry
	}
	for ; f > -quant.MaxFrac; f-- {
		t := quant.Uniform(bits, true, f)
		if fits(data, t) {
			return t
		}
	}
	return quant.Uniform(bits, true, -quant.MaxFrac)
}

// fits reports whether every value rounds into t without saturating.
func fits(data []float64, t *quant.UniformType) bool {
	lo, hi := float64(t.QMin()), float64(t.QMax())
	for _, v := range data {
		r := math.RoundToEven(math.Ldexp(v, t.Frac))
		if r < lo || r > hi {
			return false
		}
	}
	return true
}

// MaxExactWeightBits bounds the width of weights kept exact (weight-bits=0,
// or auto on a graph not calibrated): float32 weights of trained networks
// need 30 to 50 bits at one scale, which would make every product of the
// circuit that wide.
const MaxExactWeightBits = 24

// checkExactWeights refuses the weights key of op, kept exact, when they
// need more than MaxExactWeightBits bits at one scale.
func checkExactWeights(op *ir.Operation, p tensor.Payload, key string) error {
	w, ok := p[key]
	if !ok || w == nil {
		return nil // nn-to-otir says the entry is missing
	}
	if n := quant.ExactWidth(w.Data); n > MaxExactWeightBits {
		return diag.OpErrorf(op, "the weights '%s' need %d bits at one scale to stay exact (more than %d): give nn-quantize (or nn-to-circuit) weight-bits=N to round them, e.g. weight-bits=8", key, n, MaxExactWeightBits)
	}
	return nil
}
