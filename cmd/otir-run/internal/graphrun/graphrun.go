// Package graphrun is otir-run's command-line driver for the nn graph
// evaluator: it reads a file holding nn graphs, the payload (.npz) and one
// .npy input per graph argument, evaluates a graph with
// github.com/otir-dev/otir/backend/nneval and writes its outputs (and, on
// request, every node's value). It sits at the command layer because it
// needs the parser.
package graphrun

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/cmd/internal/frontdoor"
	"github.com/otir-dev/otir/cmd/otir-run/internal/kernelrun"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/internal/outfile"
	"github.com/otir-dev/otir/internal/satint"
	"github.com/otir-dev/otir/ir"
)

// FileRun is one `otir-run` invocation on a graph:
//
//	otir-run graph.mlir --params p.npz --input x.npy [--input ...] --output y.npy [--entry @name] [--all-values DIR] [-j N]
type FileRun struct {
	// Path is the file holding the graph.
	Path string
	// Entry names the graph ("@name" or "name"; "" for the file's only graph).
	Entry string
	// Params is the payload .npz ("": none).
	Params string
	// Inputs are .npy files, one per graph argument, in order.
	Inputs []string
	// Outputs are .npy files ("-": stdout as text), one per graph output;
	// none prints every output to stdout.
	Outputs []string
	// AllValues, if set, receives every node's value as DIR/<ssa-name>.npy.
	AllValues string
	// MaxInputBytes bounds the size of the graph's file (0: readlimit.Default).
	MaxInputBytes int64
	// MaxWork bounds the multiply-accumulates of the whole batch's
	// evaluations together (0: nneval.DefaultMaxWork).
	MaxWork int64
	// Workers bounds the goroutines that evaluate a batch's samples (0:
	// GOMAXPROCS; fewer when their memory would not fit the budget).
	Workers int
}

// ErrNoGraph is returned, unreported, when the file parses but holds no nn
// graph (otir-run then says what it makes of the flags).
var ErrNoGraph = errors.New("the file holds no nn graph")

// RunFile evaluates the graph as the otir-run command does. Each input is
// one sample of its argument's shape, or all are batches [N, ...shape] of
// the same N (N = 0 included); a batch's samples are evaluated in
// parallel (Workers) and every output and --all-values value is written
// stacked, [N, ...shape], in sample order. Nothing is written unless every
// sample evaluates. Diagnostics are rendered to stderr with their source
// lines and kernelrun.ErrReported returned (exit 1); a wrong number of
// --input or --output files is a *kernelrun.ArgError (a usage error,
// exit 2).
func RunFile(fr FileRun, stdout, stderr io.Writer) error {
	l, err := load(fr, stderr)
	if err != nil {
		return err
	}
	name := l.name
	results := l.g.Body(0).Terminator().Operands
	if len(fr.Outputs) != 0 && len(fr.Outputs) != len(results) {
		return &kernelrun.ArgError{Err: fmt.Errorf("graph @%s has %s, but %d --output files were given (one per output, in order)",
			name, diag.Plural(len(results), "output"), len(fr.Outputs))}
	}
	values := graphValues(l.g)
	if err := fr.checkOutputs(values); err != nil {
		return err
	}
	b, err := l.splitInputs()
	if err != nil {
		return err
	}
	// The values written: the outputs, or with --all-values every value.
	index := map[*ir.Value]int{}
	for i, v := range values {
		index[v] = i
	}
	var kept []int
	if fr.AllValues != "" {
		for i := range values {
			kept = append(kept, i)
		}
	} else {
		for _, v := range results {
			if !slices.Contains(kept, index[v]) {
				kept = append(kept, index[v])
			}
		}
	}
	st := stacks{batched: b.batched, n: b.n, of: map[int]*tensor.Tensor{}}
	if b.n > 0 {
		first, err := nneval.Eval(l.g, b.sample(0), l.payload, l.options())
		if err != nil {
			return l.reportEval(b.sampleErr(0, err))
		}
		var keptBytes int64
		for _, i := range kept {
			keptBytes = satint.Add(keptBytes, satint.Mul(int64(len(first.Values[i].Tensor.Data))*8, int64(b.n)))
		}
		workers, err := l.workers(b.n, costOf(first), keptBytes, fr.Workers)
		if err != nil {
			return err
		}
		st.alloc(values, kept)
		st.put(0, first)
		err = parallel(1, b.n, workers, func(_, lo, hi int) error {
			for s := lo; s < hi; s++ {
				r, err := nneval.Eval(l.g, b.sample(s), l.payload, l.options())
				if err != nil {
					return b.sampleErr(s, err)
				}
				st.put(s, r)
			}
			return nil
		})
		if err != nil {
			return l.reportEval(err)
		}
	} else {
		st.alloc(values, kept)
	}
	if fr.AllValues != "" {
		if err := os.MkdirAll(fr.AllValues, 0o755); err != nil {
			return l.report(diag.AboutFile(fr.AllValues, err))
		}
		for i, v := range values {
			path := fr.valuePath(v, i)
			if err := tensor.WriteTensorFile(path, st.of[i]); err != nil {
				return l.report(aboutPath(path, err))
			}
		}
	}
	var text []int // the outputs printed, by their result index
	for i, v := range results {
		out := "-"
		if len(fr.Outputs) > 0 {
			out = fr.Outputs[i]
		}
		if out == "-" {
			text = append(text, i)
			continue
		}
		if err := tensor.WriteTensorFile(out, st.of[index[v]]); err != nil {
			return l.report(aboutPath(out, err))
		}
	}
	return st.print(stdout, results, text, index)
}

// graphValues are a graph's values in the order of nneval.Result.Values:
// its arguments, then each node's result in text order.
func graphValues(g *ir.Operation) []*ir.Value {
	body := g.Body(0)
	values := append([]*ir.Value{}, body.Args...)
	for _, op := range body.Ops {
		if len(op.Results) == 1 {
			values = append(values, op.Results[0])
		}
	}
	return values
}

// stacks are the values a run writes, each the samples' values stacked
// along a leading batch axis ([N, ...shape]; the value itself when the run
// is one sample, not a batch), by their index in graphValues.
type stacks struct {
	batched bool
	n       int
	of      map[int]*tensor.Tensor
}

// alloc makes the stacks of the kept values, from their types.
func (st *stacks) alloc(values []*ir.Value, kept []int) {
	for _, i := range kept {
		shape := values[i].Type.(*ir.TensorType).Shape
		if st.batched {
			shape = append([]int64{int64(st.n)}, shape...)
		}
		st.of[i] = tensor.New(shape)
	}
}

// put copies sample s's values into the stacks (samples write disjoint
// parts, so concurrently).
func (st *stacks) put(s int, r *nneval.Result) {
	for i, t := range st.of {
		size := len(r.Values[i].Tensor.Data)
		copy(t.Data[s*size:(s+1)*size], r.Values[i].Tensor.Data)
	}
}

// print writes the outputs text (by their result index) to stdout, as
// "%y = VALUE : TYPE" lines; a batch's sample s as "%y[s] = ...", sample
// after sample, each sample's outputs in order.
func (st *stacks) print(stdout io.Writer, results []*ir.Value, text []int, index map[*ir.Value]int) error {
	if len(text) == 0 {
		return nil
	}
	w := bufio.NewWriter(stdout)
	line := func(label string, t *tensor.Tensor, v *ir.Value) {
		fmt.Fprintf(w, "%%%s = %s : %s\n", label, Text(t), v.Type)
	}
	if !st.batched {
		for _, i := range text {
			v := results[i]
			line(nneval.Name(v, index[v]), st.of[index[v]], v)
		}
		return w.Flush()
	}
	for s := range st.n {
		for _, i := range text {
			v := results[i]
			t := st.of[index[v]]
			shape := t.Shape[1:]
			size := int(tensor.NumElements(shape))
			line(fmt.Sprintf("%s[%d]", nneval.Name(v, index[v]), s), &tensor.Tensor{Shape: shape, Data: t.Data[s*size : (s+1)*size]}, v)
		}
	}
	return w.Flush()
}

// valuePath is the file of --all-values that receives the i-th value v.
func (fr FileRun) valuePath(v *ir.Value, i int) string {
	return filepath.Join(fr.AllValues, nneval.Name(v, i)+".npy")
}

// checkOutputs refuses (an *kernelrun.ArgError) to write an output or a
// value over an input file or another output, before anything is written.
func (fr FileRun) checkOutputs(values []*ir.Value) error {
	var files outfile.Files
	files.Input("GRAPH", fr.Path)
	files.Input("--params", fr.Params)
	for i, in := range fr.Inputs {
		files.Input(nth("--input", i, len(fr.Inputs)), in)
	}
	type output struct{ what, path string }
	var outputs []output
	for i, out := range fr.Outputs {
		outputs = append(outputs, output{nth("--output", i, len(fr.Outputs)), out})
	}
	for i, v := range values {
		if fr.AllValues != "" {
			outputs = append(outputs, output{"--all-values " + fr.AllValues + " (%" + nneval.Name(v, i) + ")", fr.valuePath(v, i)})
		}
	}
	for _, out := range outputs {
		if err := files.Output(out.what, out.path); err != nil {
			return &kernelrun.ArgError{Err: err}
		}
	}
	return nil
}

// nth names the i-th of n files given with flag: "--input #2" (the flag
// alone when it is given once).
func nth(flag string, i, n int) string {
	if n == 1 {
		return flag
	}
	return fmt.Sprintf("%s #%d", flag, i+1)
}

// loaded is a graph file read for a run: the graph, its payload and inputs,
// and the reporting of diagnostics against the file's text.
type loaded struct {
	fr      FileRun
	g       *ir.Operation
	name    string
	payload tensor.Payload
	inputs  []*tensor.Tensor
	// report renders a diagnostic (or list) to stderr and returns
	// kernelrun.ErrReported; other errors it returns as they are.
	report func(error) error
}

// options are the evaluator's options of one sample: the whole budget of
// work (workers checks the batch's against it before the samples run).
func (l *loaded) options() nneval.Options {
	return nneval.Options{MaxWork: l.maxWork()}
}

func (l *loaded) maxWork() int64 {
	if l.fr.MaxWork > 0 {
		return l.fr.MaxWork
	}
	return nneval.DefaultMaxWork
}

// load reads the file through the front door (parsed and verified: the
// evaluator trusts the shapes the verifier checked), finds the graph and reads the payload and one
// input per graph argument (ErrNoGraph when the file holds no graph).
func load(fr FileRun, stderr io.Writer) (*loaded, error) {
	sm := diag.NewSourceMgr()
	report := func(err error) error {
		var ae *kernelrun.ArgError
		if errors.As(err, &ae) || !frontdoor.Render(stderr, sm, err) {
			return err
		}
		return kernelrun.ErrReported
	}
	m, err := frontdoor.ReadIR(sm, fr.Path, frontdoor.Options{MaxBytes: fr.MaxInputBytes})
	if err != nil {
		return nil, report(err)
	}
	if len(nn.Graphs(m)) == 0 {
		return nil, ErrNoGraph
	}
	g, err := nneval.FindGraph(m, fr.Entry)
	if err != nil {
		return nil, report(diag.AboutFile(fr.Path, err))
	}
	name, _ := g.StringAttr("sym_name")
	body := g.Body(0)
	if len(fr.Inputs) != len(body.Args) {
		return nil, &kernelrun.ArgError{Err: fmt.Errorf("graph @%s takes %s, but %d --input files were given (one per argument, in order)",
			name, diag.Plural(len(body.Args), "input"), len(fr.Inputs))}
	}
	p := tensor.Payload{}
	if fr.Params != "" {
		if p, err = tensor.ReadPayloadFile(fr.Params); err != nil {
			return nil, report(diag.AboutFile(fr.Params, err))
		}
	}
	var ins []*tensor.Tensor
	for _, path := range fr.Inputs {
		t, err := tensor.ReadTensorFile(path)
		if err != nil {
			return nil, report(diag.AboutFile(path, err))
		}
		ins = append(ins, t)
	}
	return &loaded{fr: fr, g: g, name: name, payload: p, inputs: ins, report: report}, nil
}

// reportEval reports an evaluation error, noting a missing --params.
func (l *loaded) reportEval(err error) error {
	if l.fr.Params == "" {
		var d *diag.Diagnostic
		if errors.As(err, &d) && strings.Contains(d.Msg, "the payload has no entry") && !strings.Contains(d.Msg, "--params") {
			d.Msg += " (no --params file was given)"
		}
	}
	return l.report(err)
}

func aboutPath(path string, err error) *diag.Diagnostic {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		path = pe.Path
	}
	return diag.AboutFile(path, err)
}

// Text prints a tensor as nested lists, row-major: [[1, 2], [3, 4]], a
// scalar as its value. Values are the shortest decimal that reads back
// exactly.
func Text(t *tensor.Tensor) string {
	var sb strings.Builder
	var rec func(dim int, off int64)
	rec = func(dim int, off int64) {
		if dim == len(t.Shape) {
			sb.WriteString(number(t.Data[off]))
			return
		}
		sb.WriteByte('[')
		inner := tensor.NumElements(t.Shape[dim+1:])
		for i := range t.Shape[dim] {
			if i > 0 {
				sb.WriteString(", ")
			}
			rec(dim+1, off+i*inner)
		}
		sb.WriteByte(']')
	}
	rec(0, 0)
	return sb.String()
}

func number(v float64) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
