package optmain

import (
	"github.com/urfave/cli/v2"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/lower/nn/quantize"
	"github.com/otir-dev/otir/passes"
)

// quantFlag is --quant FILE: the quantization (a quant.json) of nn graphs,
// for every pass of the pipeline with a 'quant' option left empty
// (nn-quantize, nn-to-circuit).
var quantFlag = &cli.StringFlag{Name: "quant", Usage: "the quantization `FILE` (a quant.json) of nn graphs, for every pass of the pipeline with a 'quant' option that is not given (nn-quantize, nn-to-circuit)", Category: catPipeline}

// paramsFlag is --params FILE: the payload (.npz) of nn graphs, for every
// pass of the pipeline with a 'params' option left empty (nn-quantize,
// nn-to-otir, nn-to-circuit).
var paramsFlag = &cli.StringFlag{Name: "params", Usage: "the payload `FILE` (.npz) of nn graphs, for every pass of the pipeline with a 'params' option that is not given (nn-quantize, nn-to-otir, nn-to-circuit)", Category: catPipeline}

// passContext is the context of the passes of a run (passes.Context): the
// payload of --params, read once, when a pass first needs it, for every
// pass whose params option names none; and --quant, the quant.json of
// every nn-quantize whose quant option names none.
func passContext(c *cli.Context) *passes.Context {
	ctx := passes.NewContext()
	passes.Provide(ctx, &tensor.Payloads{Default: c.String(paramsFlag.Name)})
	passes.Provide(ctx, quantize.DefaultQuant(c.String(quantFlag.Name)))
	return ctx
}
