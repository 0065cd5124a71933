package graphrun

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/tensor"
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

func (s *errorStats) add(q, f *tensor.Tensor) {
	for i, v := range q.Data {
		d := math.Abs(v - f.Data[i])
		if d > s.max || math.IsNaN(d) {
			s.max = d
		}
		s.sum += d
		s.n++
	}
}

// merge adds the statistics of o (later samples) to s.
func (s *errorStats) merge(o *errorStats) {
	if o.max > s.max || math.IsNaN(o.max) {
		s.max = o.max
	}
	s.sum += o.sum
	s.n += o.n
}

// addStats adds one sample's errors, its quantized values q against its
// float reading f, to the statistics of every value.
func addStats(stats []errorStats, q, f *nneval.Result) {
	for i := range stats {
		stats[i].add(q.Values[i].Tensor, f.Values[i].Tensor)
	}
}

// evalBoth evaluates sample s bit-exactly and as the float reading.
func (r QuantErrorRun) evalBoth(l *loaded, b *batch, s int) (q, f *nneval.Result, err error) {
	ins := b.sample(s)
	if q, err = nneval.Eval(l.g, ins, l.payload, l.options()); err != nil {
		return nil, nil, b.sampleErr(s, err)
	}
	opts := l.options()
	opts.Float = true
	if f, err = nneval.Eval(l.g, ins, l.payload, opts); err != nil {
		return nil, nil, b.sampleErr(s, err)
	}
	return q, f, nil
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
	b, err := l.splitInputs()
	if err != nil {
		return err
	}
	if b.n == 0 {
		a := l.g.Body(0).Args[0]
		_, err := tensor.SplitBatch(l.inputs[0], a.Type.(*ir.TensorType).Shape) // its error
		return l.report(diag.AboutFile(r.Inputs[0], fmt.Errorf("input #0 (%%%s): %v", nneval.Name(a, 0), err)))
	}
	// Sample 0 first, alone: its cost bounds the batch's.
	q, f, err := r.evalBoth(l, b, 0)
	if err != nil {
		return l.reportEval(err)
	}
	values := q.Values
	newStats := func() []errorStats { return make([]errorStats, len(values)) }
	first := newStats()
	addStats(first, q, f)
	workers, err := l.workers(b.n, costOf(q, f), 0, r.Workers)
	if err != nil {
		return err
	}
	// The other samples by chunks, each chunk's statistics apart, then
	// summed in chunk order: the same figures on any number of workers.
	chunks := make([][]errorStats, numChunks(1, b.n))
	err = parallel(1, b.n, workers, func(c, lo, hi int) error {
		st := newStats()
		for s := lo; s < hi; s++ {
			q, f, err := r.evalBoth(l, b, s)
			if err != nil {
				return err
			}
			addStats(st, q, f)
		}
		chunks[c] = st
		return nil
	})
	if err != nil {
		return l.reportEval(err)
	}
	stats := first
	for _, st := range chunks {
		for i := range stats {
			stats[i].merge(&st[i])
		}
	}
	samples := b.n
	body := l.g.Body(0)
	index := map[*ir.Value]int{}
	for i, v := range values {
		index[v.Value] = i
	}
	fmt.Fprintf(stdout, "@%s on %s: the quantized graph against its float reading (quantized types read as f64)\n", l.name, diag.Plural(samples, "sample"))
	for _, v := range body.Terminator().Operands {
		i := index[v]
		fmt.Fprintf(stdout, "output %%%s: %s\n", nneval.Name(v, i), &stats[i])
	}
	if r.PerTensor {
		for i, v := range values {
			fmt.Fprintf(stdout, "tensor %%%s (%s): %s\n", nneval.Name(v.Value, i), v.Value.Type, &stats[i])
		}
	}
	return nil
}
