package graphrun

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/ir"
)

// QuantErrorRun is one `otir-run quant-error` invocation:
//
//	otir-run quant-error GRAPH-Q.mlir --params p.npz --input x.npy [--input ...] [--per-tensor] [--entry @name]
//
// It evaluates a quantized graph both ways on the same samples: bit-exactly
// (floor, wrap, tables) and as its float reading (the same graph with its
// quantized types read as f64, nothing quantized), and prints the maximum
// and mean absolute difference of each output (and, with PerTensor, of
// every tensor). Each --input is a sample of its argument's shape or a
// batch of them along a leading dimension.
type QuantErrorRun struct {
	FileRun
	PerTensor bool
}

// errorStats accumulates |quantized − float| over a tensor's elements.
type errorStats struct {
	max, sum float64
	n        int64
}

func (s *errorStats) add(q, f *nneval.Tensor) {
	for i, v := range q.Data {
		d := math.Abs(v - f.Data[i])
		if d > s.max || math.IsNaN(d) {
			s.max = d
		}
		s.sum += d
		s.n++
	}
}

func (s *errorStats) String() string {
	mean := math.NaN()
	if s.n > 0 {
		mean = s.sum / float64(s.n)
	}
	return fmt.Sprintf("max abs error %s, mean abs error %s (%s)", short(s.max), short(mean), diag.Plural(int(s.n), "value"))
}

// short prints v with 6 significant digits.
func short(v float64) string {
	if math.IsNaN(v) {
		return "nan"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// QuantError runs the comparison and prints it to stdout.
func QuantError(r QuantErrorRun, stdout, stderr io.Writer) error {
	l, err := load(r.FileRun, stderr)
	if err != nil {
		return err // ErrNoGraph included: the command reports it
	}
	if !nn.IsQuantized(l.g) {
		return l.report(diag.AboutFile(r.Path, fmt.Errorf("graph @%s is not quantized (no !quant.uniform tensor): its float reading is itself; quantize it with otir-opt --nn-quantize", l.name)))
	}
	body := l.g.Body(0)
	batches := make([][]*nneval.Tensor, len(body.Args))
	samples := -1
	for i, a := range body.Args {
		b, err := nneval.SplitBatch(l.inputs[i], a.Type.(*ir.TensorType).Shape)
		if err != nil {
			return l.report(diag.AboutFile(r.Inputs[i], fmt.Errorf("input #%d: %v", i, err)))
		}
		if samples >= 0 && len(b) != samples {
			return l.report(diag.AboutFile(r.Inputs[i], fmt.Errorf("input #%d holds %d samples, but input #0 holds %d", i, len(b), samples)))
		}
		batches[i], samples = b, len(b)
	}
	if samples < 0 {
		samples = 1 // a graph without inputs: its one evaluation
	}
	var stats []*errorStats
	var values []nneval.Value
	for s := range samples {
		ins := make([]*nneval.Tensor, len(batches))
		for i := range batches {
			ins[i] = batches[i][s]
		}
		q, err := nneval.Eval(l.g, ins, l.payload, nneval.Options{})
		if err != nil {
			return l.reportEval(err)
		}
		f, err := nneval.Eval(l.g, ins, l.payload, nneval.Options{Float: true})
		if err != nil {
			return l.reportEval(err)
		}
		if stats == nil {
			values = q.Values
			stats = make([]*errorStats, len(q.Values))
			for i := range stats {
				stats[i] = &errorStats{}
			}
		}
		for i := range q.Values {
			stats[i].add(q.Values[i].Tensor, f.Values[i].Tensor)
		}
	}
	index := map[*ir.Value]int{}
	for i, v := range values {
		index[v.Value] = i
	}
	fmt.Fprintf(stdout, "@%s on %s: the quantized graph against its float reading (quantized types read as f64)\n", l.name, diag.Plural(samples, "sample"))
	for _, v := range body.Terminator().Operands {
		i := index[v]
		fmt.Fprintf(stdout, "output %%%s: %s\n", nneval.Name(v, i), stats[i])
	}
	if r.PerTensor {
		for i, v := range values {
			fmt.Fprintf(stdout, "tensor %%%s (%s): %s\n", nneval.Name(v.Value, i), v.Value.Type, stats[i])
		}
	}
	return nil
}
