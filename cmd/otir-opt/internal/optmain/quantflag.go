package optmain

import (
	"github.com/urfave/cli/v2"

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

// fileFlags name files for the passes: each sets the option of its name.
var fileFlags = []*cli.StringFlag{quantFlag, paramsFlag}

// pipelineWithFiles is the pipeline of the command line with --quant and
// --params applied.
func pipelineWithFiles(c *cli.Context, rec *passRecorder) (passes.Pipeline, error) {
	pl, err := pipeline(c, rec)
	if err != nil {
		return pl, err
	}
	for _, f := range fileFlags {
		if !c.IsSet(f.Name) {
			continue
		}
		for _, s := range pl {
			if s.Info.Option(f.Name) != nil && s.Options[f.Name] == "" {
				s.Options[f.Name] = c.String(f.Name)
			}
		}
	}
	return pl, nil
}
