package nnkernels

import (
	"fmt"
	"strconv"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"

	// The passes nn-to-circuit stands for (found by name when it expands).
	_ "github.com/otir-dev/otir/lower/daisopt"
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
		Summary: "pipeline: lower every quantized nn.graph to a dais.program (" + circuitSteps + ")",
		Options: []passes.Option{
			paramsOption,
			{Name: "quant", Help: "the quantization (a quant.json; otir-opt --quant FILE sets it), for nn-quantize"},
			{Name: "calibration", Help: "for nn-quantize: comma-separated .npy files, one per graph argument, whose float ranges choose the types of a float graph (8 bits)"},
			{Name: "weight-bits", Help: "for nn-quantize: round the weights of nn.linear and nn.conv2d to signed formats of this width; 0: exact", Default: "0", Kind: passes.IntOption},
			{Name: "bias-bits", Help: "for nn-quantize: the width of the bias formats; 0: twice weight-bits", Default: "0", Kind: passes.IntOption},
			{Name: "max-adder-depth", Help: "lower-tiles' adder depth bound of each constant-matrix product: -1 (the default) the minimal adder tree, since a network's depth is the sum of its layers'; 0 unconstrained; N at most N adders", Default: "-1", Kind: passes.IntOption},
			{Name: "carry-size", Help: "lower-tiles' cost model: carry chain length", Default: "-1", Kind: passes.IntOption},
			{Name: "adder-size", Help: "lower-tiles' cost model: adder size", Default: "-1", Kind: passes.IntOption},
		},
		Expand: expandCircuit,
	})
}

// circuitSteps are the passes nn-to-circuit stands for, in order.
const circuitSteps = "nn-quantize, nn-to-otir, promote-types, lower-tiles, dais-optimize, dais-rescale"

// expandCircuit is nn-to-circuit's expansion: its steps with the options
// they share with it.
func expandCircuit(o map[string]string) (passes.Pipeline, error) {
	if d, err := strconv.Atoi(o["max-adder-depth"]); err != nil || d < -1 {
		return nil, fmt.Errorf("max-adder-depth must be 0, -1 or a positive integer, got '%s'", o["max-adder-depth"])
	}
	steps := []struct {
		name string
		opts map[string]string
	}{
		{"nn-quantize", map[string]string{"quant": o["quant"], "params": o["params"], "calibration": o["calibration"],
			"weight-bits": o["weight-bits"], "bias-bits": o["bias-bits"]}},
		{"nn-to-otir", map[string]string{"params": o["params"]}},
		{"promote-types", nil},
		{"lower-tiles", map[string]string{"max-adder-depth": o["max-adder-depth"], "carry-size": o["carry-size"], "adder-size": o["adder-size"]}},
		{"dais-optimize", nil},
		{"dais-rescale", nil},
	}
	pl := make(passes.Pipeline, 0, len(steps))
	for _, st := range steps {
		spec, err := passes.Spec(st.name, st.opts)
		if err != nil {
			return nil, err
		}
		pl = append(pl, spec)
	}
	return pl, nil
}
