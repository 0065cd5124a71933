package graphrun

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/internal/satint"
	"github.com/otir-dev/otir/ir"
)

// batch is a run's inputs cut into samples by tensor.Batch: every input of
// its argument's shape (one sample, batched false), or every input a batch
// [N, ...shape] of the same N.
type batch struct {
	n       int
	batched bool
	// args[i][s] is argument i of sample s.
	args [][]*tensor.Tensor
}

// sample is the inputs of sample s.
func (b *batch) sample(s int) []*tensor.Tensor {
	ins := make([]*tensor.Tensor, len(b.args))
	for i := range b.args {
		ins[i] = b.args[i][s]
	}
	return ins
}

// splitInputs cuts the inputs into samples. An input of neither its
// argument's shape nor [N, ...shape], or inputs that disagree on N, are
// errors about the input file. A graph without arguments is one sample.
func (l *loaded) splitInputs() (*batch, error) {
	body := l.g.Body(0)
	b := &batch{n: 1, args: make([][]*tensor.Tensor, len(body.Args))}
	describe := func(i int) string {
		if !b.batched {
			return fmt.Sprintf("input #%d (%%%s) is one sample of the argument's shape", i, nneval.Name(body.Args[i], i))
		}
		return fmt.Sprintf("input #%d (%%%s) is a batch of %d", i, nneval.Name(body.Args[i], i), b.n)
	}
	for i, a := range body.Args {
		samples, batched, err := tensor.Batch(l.inputs[i], a.Type.(*ir.TensorType).Shape)
		if err != nil {
			return nil, l.report(diag.AboutFile(l.fr.Inputs[i], fmt.Errorf("input #%d (%%%s): %v", i, nneval.Name(a, i), err)))
		}
		if i > 0 && (batched != b.batched || len(samples) != b.n) {
			first := describe(0)
			b.batched, b.n = batched, len(samples)
			return nil, l.report(diag.AboutFile(l.fr.Inputs[i], fmt.Errorf("%s, but %s: all inputs must be batches of the same N, or all single samples", describe(i), first)))
		}
		b.args[i], b.batched, b.n = samples, batched, len(samples)
	}
	return b, nil
}

// chunkSize is the number of consecutive samples a worker evaluates at a
// time. Chunks are fixed by the sample count alone, so what is computed
// per chunk (quant-error's statistics) does not depend on the workers.
const chunkSize = 16

// numChunks is the number of chunks of samples [from, n).
func numChunks(from, n int) int { return (n - from + chunkSize - 1) / chunkSize }

// parallel calls do(c, lo, hi) for the chunks c = 0, 1, ... of the samples
// [from, n), [lo, hi) each, on at most workers goroutines. Once a chunk
// fails no new chunk starts; the error returned is that of the first
// failing chunk in sample order (every earlier chunk has run), so it does
// not depend on the scheduling either.
func parallel(from, n, workers int, do func(c, lo, hi int) error) error {
	chunks := numChunks(from, n)
	errs := make([]error, chunks)
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range min(workers, chunks) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				lo := from + c*chunkSize
				if errs[c] = do(c, lo, min(lo+chunkSize, n)); errs[c] != nil {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// cost is what evaluating one sample took (its Results together, as
// quant-error evaluates each sample twice).
type cost struct{ work, bytes int64 }

func costOf(rs ...*nneval.Result) cost {
	var c cost
	for _, r := range rs {
		c.work = satint.Add(c.work, r.Work)
		c.bytes = satint.Add(c.bytes, r.Bytes)
	}
	return c
}

// workers checks that a batch of n samples, each costing per, fits the
// evaluator's budgets together (a batch is one evaluation for them, see
// docs/nn.md): n times the work within the budget (FileRun.MaxWork), and the
// memory held at once (the inputs, the payload, kept bytes for the whole
// batch, and each worker's sample) within nneval.DefaultMaxBytes. It
// returns how many workers fit, at most want (0: GOMAXPROCS).
func (l *loaded) workers(n int, per cost, kept int64, want int) (int, error) {
	if want <= 0 {
		want = runtime.GOMAXPROCS(0)
	}
	name := l.name
	if work := satint.Mul(per.work, int64(n)); work > l.maxWork() {
		return 0, l.report(diag.OpErrorf(l.g, "graph @%s: a batch of %d samples takes %d multiply-accumulates (%d a sample), more than the evaluator's budget of %d; run it in smaller batches (or raise --max-work)", name, n, work, per.work, l.maxWork()))
	}
	var shared int64 // the inputs and the payload, held once
	for _, t := range l.inputs {
		shared = satint.Add(shared, int64(len(t.Data))*8)
	}
	for _, t := range l.payload {
		if t != nil {
			shared = satint.Add(shared, int64(len(t.Data))*8)
		}
	}
	fixed := satint.Add(shared, kept)
	if fixed+per.bytes > nneval.DefaultMaxBytes {
		return 0, l.report(diag.OpErrorf(l.g, "graph @%s: a batch of %d samples holds %d bytes (its inputs, payload and results) and %d more while a sample is evaluated, more than the evaluator's memory budget of %d bytes; run it in smaller batches", name, n, fixed, per.bytes, int64(nneval.DefaultMaxBytes)))
	}
	if per.bytes > 0 {
		want = int(min(int64(want), (nneval.DefaultMaxBytes-fixed)/per.bytes))
	}
	return max(want, 1), nil
}

// sampleErr names the sample of a batch in an evaluation error. Sample 0
// is evaluated first, alone, so an error of the graph or payload, the same
// for every sample, is reported there, without a sample number; a later
// sample's error depends on its values.
func (b *batch) sampleErr(s int, err error) error {
	if d, ok := err.(*diag.Diagnostic); ok && s > 0 {
		d.Msg = fmt.Sprintf("%s (sample #%d of the batch)", d.Msg, s)
	}
	return err
}
