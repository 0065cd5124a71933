package nnkernels

import (
	"fmt"
	"strconv"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"
	"github.com/otir-dev/otir/passes/verify"

	// The passes nn-to-circuit runs (found by name when it is built).
	_ "github.com/otir-dev/otir/lower/daisopt"
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
		Summary: "lower every quantized nn.graph to a dais.program: " + circuitSteps,
		Options: []passes.Option{
			paramsOption,
			{Name: "quant", Help: "the quantization (a quant.json; otir-opt --quant FILE sets it), for nn-quantize"},
			{Name: "max-adder-depth", Help: "lower-tiles' adder depth bound of each constant-matrix product: -1 (the default) the minimal adder tree, since a network's depth is the sum of its layers'; 0 unconstrained; N at most N adders", Default: "-1", Kind: passes.IntOption},
			{Name: "carry-size", Help: "lower-tiles' cost model: carry chain length", Default: "-1", Kind: passes.IntOption},
			{Name: "adder-size", Help: "lower-tiles' cost model: adder size", Default: "-1", Kind: passes.IntOption},
		},
		New: newCircuit,
	})
}

// circuitSteps are the passes nn-to-circuit runs, in order (nn-quantize
// only when it is registered and a quantization is given).
const circuitSteps = "nn-quantize, nn-to-otir, promote-types, lower-tiles, dais-optimize, dais-rescale"

// newCircuit builds nn-to-circuit: a pass manager of its steps.
func newCircuit(o map[string]string) (passes.Pass, error) {
	if d, err := strconv.Atoi(o["max-adder-depth"]); err != nil || d < -1 {
		return nil, fmt.Errorf("max-adder-depth must be 0, -1 or a positive integer, got '%s'", o["max-adder-depth"])
	}
	steps := []struct {
		name string
		opts map[string]string
	}{
		{"nn-quantize", map[string]string{"quant": o["quant"], "params": o["params"]}},
		{"nn-to-otir", map[string]string{"params": o["params"]}},
		{"promote-types", nil},
		{"lower-tiles", map[string]string{"max-adder-depth": o["max-adder-depth"], "carry-size": o["carry-size"], "adder-size": o["adder-size"]}},
		{"dais-optimize", nil},
		{"dais-rescale", nil},
	}
	var pl passes.Pipeline
	for _, s := range steps {
		info := passes.Lookup(s.name)
		if info == nil {
			if s.name == "nn-quantize" {
				continue // types already written: nothing to quantize
			}
			return nil, fmt.Errorf("needs the pass '%s', which is not linked into this binary", s.name)
		}
		spec := passes.PassSpec{Info: info, Options: map[string]string{}}
		for _, opt := range info.Options {
			spec.Options[opt.Name] = opt.Default
		}
		for k, v := range s.opts {
			if info.Option(k) != nil {
				spec.Options[k] = v
			}
		}
		pl = append(pl, spec)
	}
	pm, err := passes.NewManager(pl)
	if err != nil {
		return nil, err
	}
	pm.Verify = verify.Verify // each step's output is checked, as in a pipeline
	return passes.PassFunc(func(m *ir.Module) error {
		if ds := pm.Run(m); ds.HasErrors() {
			return ds
		}
		return nil
	}), nil
}
