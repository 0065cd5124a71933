package kernels

import (
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/nn/qonnx"
	"github.com/otir-dev/otir/passes"
)

// Options are nn-to-otir's options.
type Options struct {
	// Params is the payload .npz ("": the run's, otir-opt --params).
	Params string
}

// Declare declares the options.
func (o *Options) Declare(d *passes.Decl) {
	qonnx.DeclareParams(d, &o.Params, "the payload: an .npz of the graph's parameters")
}

func init() {
	passes.Register(passes.Info{
		Name:    "nn-to-otir",
		Summary: "lower every quantized nn.graph to an otir.kernel of integer tiles (linear and conv2d become constant-matrix products)",
	}, func(o *Options, ctx *passes.Context) (passes.Pass, error) {
		return passes.PassFunc(func(m *ir.Module) error {
			p, err := qonnx.ReadParams(ctx, o.Params)
			if err != nil {
				return err
			}
			return Lower(m, p)
		}), nil
	})
}
