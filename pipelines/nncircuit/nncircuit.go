// Package nncircuit is the nn-to-circuit pipeline: a quantized nn graph,
// or a float graph with QONNX quantizers, through nn-absorb-quant,
// nn-quantize, nn-to-otir, promote-types, lower-tiles, dais-optimize and
// dais-rescale to one combinational dais.program per graph
// (docs/nn-to-circuit.md). It holds no lowering of its own: each step is a
// pass of a lower layer, and the pipeline passes its options on to them.
package nncircuit

import (
	"strings"

	"github.com/otir-dev/otir/lower/nn/kernels"
	"github.com/otir-dev/otir/lower/nn/qonnx"
	"github.com/otir-dev/otir/lower/nn/quantize"
	"github.com/otir-dev/otir/lower/tiles"
	"github.com/otir-dev/otir/passes"

	// The passes nn-to-circuit runs with their defaults (found by name
	// when it expands).
	_ "github.com/otir-dev/otir/lower/daisopt"
	_ "github.com/otir-dev/otir/passes/promote"
)

// CircuitOptions are nn-to-circuit's options: the options structs of the
// steps it passes options on to, each declared as its own (passes.Decl.Step):
// the payload, which nn-absorb-quant, nn-quantize and nn-to-otir share,
// and every other option of nn-absorb-quant, nn-quantize and lower-tiles
// (an option two of them declare, softmax-bits, sets both). Only two have
// their own defaults: max-adder-depth -1, each constant-matrix product its
// minimal adder tree, since a network's depth is the sum of its layers';
// and warn-dead true, so that a circuit with a constant output or an
// unused input says so, at the nn node where the signal died
// (lower/tiles/deadsignal.go).
type CircuitOptions struct {
	Absorb   qonnx.PassOptions
	Quantize quantize.Options
	ToOtir   kernels.Options
	Tiles    tiles.PassOptions
}

// Declare declares the options.
func (o *CircuitOptions) Declare(d *passes.Decl) {
	o.ToOtir.Declare(d) // params, the steps' one payload
	d.Step("nn-absorb-quant", &o.Absorb)
	d.Step("nn-quantize", &o.Quantize)
	d.Step("lower-tiles", &o.Tiles)
	o.Tiles.MaxAdderDepth = -1
	o.Tiles.WarnDead = true // a circuit that lost a signal says where
}

// steps are the passes nn-to-circuit stands for, in order, with the options
// structs it passes on (nil: the pass's defaults).
func (o *CircuitOptions) steps() []circuitStep {
	return []circuitStep{
		{"nn-absorb-quant", &o.Absorb}, {"nn-quantize", &o.Quantize}, {"nn-to-otir", &o.ToOtir},
		{"promote-types", nil}, {"lower-tiles", &o.Tiles}, {"dais-optimize", nil}, {"dais-rescale", nil},
	}
}

type circuitStep struct {
	name string
	opts passes.Options
}

func init() {
	var names []string
	for _, s := range (&CircuitOptions{}).steps() {
		names = append(names, s.name)
	}
	passes.RegisterPipeline(passes.Info{
		Name:    "nn-to-circuit",
		Summary: "pipeline: lower every quantized nn.graph, or float graph with QONNX quantizers, to a dais.program (" + strings.Join(names, ", ") + ")",
	}, expandCircuit)
}

// expandCircuit is nn-to-circuit's expansion: its steps, each with its
// options struct.
func expandCircuit(o *CircuitOptions) (passes.Pipeline, error) {
	var pl passes.Pipeline
	for _, s := range o.steps() {
		var spec passes.PassSpec
		var err error
		if s.opts == nil {
			spec, err = passes.Spec(s.name, nil)
		} else {
			spec, err = passes.SpecOf(s.name, s.opts)
		}
		if err != nil {
			return nil, err
		}
		pl = append(pl, spec)
	}
	return pl, nil
}
