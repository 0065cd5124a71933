package optmain

import (
	"github.com/urfave/cli/v2"

	"github.com/otir-dev/otir/passes"
)

// quantFlag is --quant FILE: the quantization (a quant.json) of nn graphs,
// for every pass of the pipeline with a 'quant' option left empty
// (nn-quantize, nn-to-circuit).
var quantFlag = &cli.StringFlag{Name: "quant", Usage: "the quantization `FILE` (a quant.json) of nn graphs, for every pass of the pipeline with a 'quant' option that is not given (nn-quantize, nn-to-circuit)", Category: catPipeline}

// pipelineWithFiles is the pipeline of the command line with --quant
// applied.
func pipelineWithFiles(c *cli.Context, rec *passRecorder) (passes.Pipeline, error) {
	pl, err := pipeline(c, rec)
	if err != nil || !c.IsSet(quantFlag.Name) {
		return pl, err
	}
	for _, s := range pl {
		if s.Info.Option(quantFlag.Name) != nil && s.Options[quantFlag.Name] == "" {
			s.Options[quantFlag.Name] = c.String(quantFlag.Name)
		}
	}
	return pl, nil
}
