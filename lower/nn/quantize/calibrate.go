package quantize

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/ir"
)

// valueRange is the range of a tensor's values over the samples.
type valueRange struct{ min, max float64 }

// calibrate types the untyped values of g from the range the float
// evaluator sees on the calibration samples.
func calibrate(g *ir.Operation, gname string, names map[string]*ir.Value, untyped []*ir.Value, types map[*ir.Value]assignment, opts Options) error {
	body := g.Body(0)
	if len(opts.Calibration) != len(body.Args) {
		return fmt.Errorf("graph @%s takes %d inputs, but calibration= names %d .npy files (one per argument, comma-separated)", gname, len(body.Args), len(opts.Calibration))
	}
	p, err := opts.Payloads.Read(opts.Params)
	if err != nil {
		return err
	}
	batches := make([][]*tensor.Tensor, len(body.Args))
	samples := -1
	for i, a := range body.Args {
		t, err := tensor.ReadTensorFile(opts.Calibration[i])
		if err != nil {
			return fmt.Errorf("reading the calibration input %s: %v", opts.Calibration[i], err)
		}
		if batches[i], err = tensor.SplitBatch(t, a.Type.(*ir.TensorType).Shape); err != nil {
			return fmt.Errorf("calibration input %s for %s: %v", opts.Calibration[i], nameOf(names, a), err)
		}
		if samples >= 0 && len(batches[i]) != samples {
			return fmt.Errorf("calibration input %s holds %d samples, but %s holds %d", opts.Calibration[i], len(batches[i]), opts.Calibration[0], samples)
		}
		samples = len(batches[i])
	}
	if samples < 0 {
		samples = 1 // a graph without inputs: its one evaluation
	}
	ranges := map[*ir.Value]*valueRange{}
	for s := range samples {
		ins := make([]*tensor.Tensor, len(batches))
		for i := range batches {
			ins[i] = batches[i][s]
		}
		res, err := nneval.Eval(g, ins, p, nneval.Options{Float: true})
		if err != nil {
			var d *diag.Diagnostic
			if errors.As(err, &d) && opts.Payloads.File(opts.Params) == "" && strings.Contains(d.Msg, "the payload has no entry") {
				d.Msg += " (calibration: no params= or --params was given)"
			}
			return err
		}
		for _, v := range res.Values {
			r := ranges[v.Value]
			if r == nil {
				r = &valueRange{min: math.Inf(1), max: math.Inf(-1)}
				ranges[v.Value] = r
			}
			for _, x := range v.Tensor.Data {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					return fmt.Errorf("calibration: %s takes the value %v on sample %d: no fixed-point type holds it", nameOf(names, v.Value), x, s)
				}
				r.min, r.max = min(r.min, x), max(r.max, x)
			}
		}
	}
	for _, v := range untyped {
		if v.Def != nil && keepsOperandType[v.Def.Name] {
			if t, ok := types[v.Def.Operands[0]]; ok {
				types[v] = t
				continue
			}
		}
		width, headroom := opts.ActBits, opts.HeadroomBits
		switch {
		case v.Def == nil:
			width = opts.InputBits
		case nn.QuantRoleOf(v.Def.Name) == nn.QuantFunction:
			width = opts.FuncBits
		}
		r := ranges[v]
		if r == nil {
			r = &valueRange{} // no element: any type
		}
		t, err := typeOfRange(*r, width, headroom)
		if err != nil {
			return fmt.Errorf("calibration: %s (range [%v, %v]): %v", nameOf(names, v), r.min, r.max, err)
		}
		types[v] = assignment{elem: t, from: "calibration"}
	}
	return nil
}

// typeOfRange is the type of the given width for values in r: signed (k =
// 1) when r holds a negative value; i the fewest integer bits with
// max < 2^i and min ≥ −2^i, plus headroom; f = width − k − i.
func typeOfRange(r valueRange, width, headroom int) (*quant.UniformType, error) {
	k := 0
	if r.min < 0 {
		k = 1
	}
	i := math.MinInt
	if r.max > 0 {
		_, e := math.Frexp(r.max) // max < 2^e
		i = e
	}
	if r.min < 0 {
		fr, e := math.Frexp(-r.min) // -min ≤ 2^e, = 2^(e-1) when fr = 0.5
		if fr == 0.5 {
			e--
		}
		i = max(i, e)
	}
	if i == math.MinInt {
		i = 0 // only zeros
	}
	i += headroom
	if width-k < 1 {
		return nil, fmt.Errorf("a signed type needs at least 2 bits, got %d", width)
	}
	return quant.FromKIF(k, i, width-k-i)
}
