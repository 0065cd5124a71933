package nnkernels

import (
	"strings"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"

	// The passes nn-to-circuit stands for (found by name when it expands).
	_ "github.com/otir-dev/otir/lower/daisopt"
	_ "github.com/otir-dev/otir/lower/nnqonnx"
	_ "github.com/otir-dev/otir/lower/nnquant"
	_ "github.com/otir-dev/otir/lower/tiles"
	_ "github.com/otir-dev/otir/passes/promote"
)

// paramsOption names the payload file; otir-opt's --params FILE fills it.
var paramsOption = passes.Option{Name: "params", Help: "the payload: an .npz of the graph's parameters (otir-opt --params FILE sets it)"}

func init() {
	passes.Register(passes.Info{
		Name:    "nn-to-otir",
		Summary: "lower every quantized nn.graph to an otir.kernel of integer tiles (linear and conv2d become constant-matrix products)",
		Options: []passes.Option{paramsOption},
		New: func(o map[string]string) (passes.Pass, error) {
			return passes.PassFunc(func(m *ir.Module) error {
				p, err := nneval.ReadPayloadOption(o["params"])
				if err != nil {
					return err
				}
				return Lower(m, p)
			}), nil
		},
	})
	passes.Register(passes.Info{
		Name:    "nn-to-circuit",
		Summary: "pipeline: lower every quantized nn.graph, or float graph with QONNX quantizers, to a dais.program (" + strings.Join(circuitSteps, ", ") + ")",
		Options: circuitOptions(),
		Expand:  expandCircuit,
	})
}

// circuitSteps are the passes nn-to-circuit stands for, in order.
var circuitSteps = []string{"nn-absorb-quant", "nn-quantize", "nn-to-otir", "promote-types", "lower-tiles", "dais-optimize", "dais-rescale"}

// circuitOptions are nn-to-circuit's options: the payload, which
// nn-absorb-quant, nn-quantize and nn-to-otir share, and every other option
// of nn-absorb-quant, nn-quantize and lower-tiles, which it passes on to
// them (an option two of them declare, softmax-bits, to both). Only two have
// their own defaults: max-adder-depth -1, each
// constant-matrix product its minimal adder tree, since a network's depth is
// the sum of its layers'; and warn-dead true, so that a circuit with a
// constant output or an unused input says so, at the nn node where the
// signal died (lower/tiles/deadsignal.go). (lower/nnqonnx, lower/nnquant and lower/tiles, imported above,
// register their passes before this package's init runs.)
func circuitOptions() []passes.Option {
	opts := []passes.Option{paramsOption}
	steps := map[string][]string{} // the steps of each option (softmax-bits: two)
	for _, step := range []string{"nn-absorb-quant", "nn-quantize", "lower-tiles"} {
		for _, o := range passes.Lookup(step).Options {
			if o.Name == paramsOption.Name {
				continue // one payload for every step
			}
			if len(steps[o.Name]) == 0 {
				switch o.Name {
				case "max-adder-depth":
					o.Default = "-1"
				case "warn-dead":
					o.Default = "true" // a circuit that lost a signal says where
				}
				opts = append(opts, o)
			}
			steps[o.Name] = append(steps[o.Name], step)
		}
	}
	for i := range opts[1:] {
		o := &opts[i+1]
		o.Help = strings.Join(steps[o.Name], ", ") + ": " + o.Help
	}
	return opts
}

// expandCircuit is nn-to-circuit's expansion: its steps, each given the
// options of nn-to-circuit that it declares.
func expandCircuit(o map[string]string) (passes.Pipeline, error) {
	pl := make(passes.Pipeline, 0, len(circuitSteps))
	for _, name := range circuitSteps {
		given := map[string]string{}
		for _, opt := range passes.Lookup(name).Options {
			if v, ok := o[opt.Name]; ok {
				given[opt.Name] = v
			}
		}
		spec, err := passes.Spec(name, given)
		if err != nil {
			return nil, err
		}
		pl = append(pl, spec)
	}
	return pl, nil
}
