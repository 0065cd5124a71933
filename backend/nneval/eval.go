// Package nneval evaluates nn graphs (dialect/nn) in float64 by the nn
// graph semantics (../shared/spec/nn-graph-semantics.md and
// nn-graph-ops.md), following PyTorch where TorchLean and PyTorch differ
// (docs/nn.md): each node in SSA order applies its kind's function to its
// operands' values; const, linear and conv2d read their parameters from a
// payload (a .npz file's arrays, by key); random nodes are deterministic
// from their seed and node index (TorchLean's SplitMix64 generator).
//
// The meaning of every node kind is one entry of the table in
// semantics.go, the only file of the package that names operations;
// TestSemanticsComplete checks that every nn operation has one. Tensors are
// flat row-major float64 slices with their shapes. f32 graphs are
// evaluated in float64 too.
//
// A quantized graph (one with !quant.uniform tensors) is evaluated bit for
// bit as a circuit computes it (quantized.go): exact dyadic values, floor
// and wrap at each quantized result, lookup tables for the function kinds
// over the same functions as the float evaluator's (UnaryFunc).
package nneval

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/internal/satint"
	"github.com/otir-dev/otir/ir"
)

// Options bounds an evaluation.
type Options struct {
	// Float evaluates a quantized graph in float64 as if its quantized
	// types were f64: nothing is quantized (the float reading that
	// quantization error is measured against).
	Float bool

	// MaxElements is the most elements one value may hold (0:
	// DefaultMaxElements).
	MaxElements int64
	// MaxTotalElements is the most elements all values together may hold
	// (every value is kept in the Result; 0: DefaultMaxTotalElements).
	MaxTotalElements int64
	// MaxWork is the most multiply-accumulates the nodes that do more than
	// a few operations per result element may do together (nn.linear,
	// nn.matmul, nn.conv2d; the pools' window reads; 0: DefaultMaxWork).
	MaxWork int64
	// MaxBytes is the most memory the evaluation may hold (0:
	// DefaultMaxBytes): the inputs and the payload it is given, every
	// value it keeps (8 bytes an element; 16 in a quantized graph, the
	// exact value and its float64 reading) and an upper bound of each
	// node's temporaries (none in a float graph; node.nodeBytes). It is
	// checked at each node before the node allocates anything.
	MaxBytes int64
}

// Defaults of Options: a value of 2^28 elements is 2 GiB, all values
// 4 GiB, and the memory budget 2 GiB, well below a development machine's
// (docs/nn.md). 2^32 multiply-accumulates take about 40 s of CPU at the
// evaluator's 9 ns each (a convolution, measured on a shared 2-core
// machine). ResNet-50 at batch 1 (4.1e9 multiply-accumulates, about 25 M
// elements of activations) fits both.
const (
	DefaultMaxElements      = 1 << 28
	DefaultMaxTotalElements = 1 << 29
	DefaultMaxWork          = 1 << 32
	DefaultMaxBytes         = tensor.MaxBytes
)

// tensorBytes is the memory of n float64 (or int64) elements.
func tensorBytes(n int64) int64 { return satint.Mul(n, 8) }

// nodeBytes is what evaluating node n takes, at most: what it keeps (its
// result; in a quantized graph also the exact value) and its temporaries.
// A float node allocates its result only. A quantized node may also hold
// its unrounded result and its float64 indices (2 result sizes), its
// operands aligned to one scale, their element indices and the gathered
// mantissas, which may grow to twice their size (4 operand sizes), and the
// exact values of its payload entries.
func (n *node) nodeBytes(quantized bool) (keep, temp int64) {
	out := tensorBytes(tensor.NumElements(n.out.Shape))
	if !quantized {
		return out, 0
	}
	var ins int64
	for _, t := range n.ins {
		ins = satint.Add(ins, tensorBytes(int64(len(t.Data))))
	}
	temp = satint.Add(satint.Mul(out, 2), satint.Mul(ins, 4))
	if key, ok := n.op.StringAttr("params"); ok {
		for _, k := range []string{key, key + ".weight", key + ".bias"} {
			if t := n.payload[k]; t != nil {
				temp = satint.Add(temp, tensorBytes(int64(len(t.Data))))
			}
		}
	}
	return satint.Mul(out, 2), temp
}

// Value is one node's value: the SSA value (a graph argument or an op's
// result) and its tensor.
type Value struct {
	Value  *ir.Value
	Tensor *tensor.Tensor
}

// Result is an evaluation: the graph's outputs, and every node's value in
// node order (graph arguments first, then the nodes in text order). For a
// quantized graph, Exact holds every node's exact value, in the order of
// Values (whose tensors are those values as float64).
type Result struct {
	Outputs []*tensor.Tensor
	Values  []Value
	Exact   []*Exact
	// Work and Bytes are what the evaluation took of Options' budgets:
	// multiply-accumulates (MaxWork) and memory held at its end (MaxBytes).
	// A graph's shapes are static, so every sample of a batch takes the
	// same; otir-run bounds a batch by them.
	Work, Bytes int64
}

// Name is the name of a node's value for files and messages: its source
// name ("x" for %x, "3" for %3), or "argN"/"nodeN" when it has none.
func Name(v *ir.Value, index int) string {
	if v.Name != "" {
		return v.Name
	}
	if v.Def == nil {
		return fmt.Sprintf("arg%d", v.Index)
	}
	return fmt.Sprintf("node%d", index)
}

// Eval evaluates graph g (an nn.graph, verified) on one tensor per graph
// argument, in order. A quantized graph (nn.IsQuantized) is evaluated
// bit-exactly by its quantized types (quantized.go), unless opts.Float. Errors are diagnostics at the node (or graph
// argument) concerned: an input or payload entry of the wrong shape, a
// missing payload entry, a value too large.
func Eval(g *ir.Operation, inputs []*tensor.Tensor, p tensor.Payload, opts Options) (*Result, error) {
	if opts.MaxElements <= 0 {
		opts.MaxElements = DefaultMaxElements
	}
	if opts.MaxTotalElements <= 0 {
		opts.MaxTotalElements = DefaultMaxTotalElements
	}
	if opts.MaxWork <= 0 {
		opts.MaxWork = DefaultMaxWork
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	var total, work, held int64
	name, _ := g.StringAttr("sym_name")
	if len(g.Regions) != 1 || len(g.Regions[0].Blocks) != 1 {
		return nil, diag.OpErrorf(g, "is not a graph with one body")
	}
	body := g.Body(0)
	if len(inputs) != len(body.Args) {
		return nil, diag.OpErrorf(g, "graph @%s takes %s, but %d were given", name, diag.Plural(len(body.Args), "input"), len(inputs))
	}
	vals := map[*ir.Value]*tensor.Tensor{}
	res := &Result{}
	var exact *exactState
	if nn.IsQuantized(g) && !opts.Float {
		exact = &exactState{values: map[*ir.Value]*Exact{}}
	}
	for i, a := range body.Args {
		t, ok := a.Type.(*ir.TensorType)
		in := inputs[i]
		if !ok || in == nil {
			return nil, diag.Errorf(a.Loc, "graph @%s: input #%d is missing", name, i)
		}
		if !slices.Equal(in.Shape, t.Shape) || int64(len(in.Data)) != tensor.NumElements(in.Shape) {
			return nil, diag.Errorf(a.Loc, "graph @%s: input #%d (%%%s) has shape %s, but the argument's type is '%s'", name, i, Name(a, i), tensor.ShapeText(in.Shape), t)
		}
		total = satint.Add(total, tensor.NumElements(in.Shape))
		held = satint.Add(held, tensorBytes(int64(len(in.Data))))
		if exact != nil {
			held = satint.Add(held, tensorBytes(int64(len(in.Data)))) // its exact value
		}
		vals[a] = in
		res.Values = append(res.Values, Value{a, in})
	}
	for _, t := range p {
		if t != nil {
			held = satint.Add(held, tensorBytes(int64(len(t.Data))))
		}
	}
	if held > opts.MaxBytes {
		return nil, diag.OpErrorf(g, "graph @%s: the inputs and the payload take %d bytes, more than the memory budget of %d bytes", name, held, opts.MaxBytes)
	}
	if exact != nil {
		if err := exact.quantizeArgs(name, body.Args, vals, res); err != nil {
			return nil, err
		}
	}
	index := len(body.Args)
	for _, op := range body.Ops {
		s, ok := semOf(op.Name)
		switch {
		case !ok:
			return nil, diag.OpErrorf(op, "is not an operation the nn evaluator can run")
		case s.unsupported != "":
			return nil, diag.OpErrorf(op, "is not supported by the nn evaluator: %s", s.unsupported)
		case s.ends:
			for _, v := range op.Operands {
				res.Outputs = append(res.Outputs, vals[v])
			}
			res.Work, res.Bytes = work, held
			return res, nil
		}
		n := &node{op: op, index: index, payload: p, max: opts.MaxElements}
		for _, v := range op.Operands {
			t, ok := vals[v]
			if !ok {
				return nil, diag.OpErrorf(op, "uses a value that is not defined before it")
			}
			n.ins = append(n.ins, t)
		}
		if exact != nil {
			s.eval = exact.node(n)
		}
		if len(op.Results) != 1 {
			return nil, diag.OpErrorf(op, "must have exactly one result")
		}
		rt, ok := op.Results[0].Type.(*ir.TensorType)
		if !ok {
			return nil, diag.OpErrorf(op, "result must be a tensor")
		}
		n.out = rt
		n.name = Name(op.Results[0], index)
		if tensor.NumElements(rt.Shape) > opts.MaxElements {
			return nil, diag.OpErrorf(op, "%%%s: result '%s' has more than %d elements", n.name, rt, opts.MaxElements)
		}
		if total = satint.Add(total, tensor.NumElements(rt.Shape)); total > opts.MaxTotalElements {
			return nil, diag.OpErrorf(op, "%%%s: the graph's values up to this node hold more than %d elements together", n.name, opts.MaxTotalElements)
		}
		keep, temp := n.nodeBytes(exact != nil)
		if need := satint.Add(held, satint.Add(keep, temp)); need > opts.MaxBytes {
			return nil, diag.OpErrorf(op, "%%%s: evaluating it takes %d bytes (result '%s'), %d with the graph's values up to it, more than the memory budget of %d bytes", n.name, satint.Add(keep, temp), rt, need, opts.MaxBytes)
		}
		held = satint.Add(held, keep)
		if s.work != nil {
			if work = satint.Add(work, s.work(n)); work > opts.MaxWork {
				return nil, diag.OpErrorf(op, "%%%s: the graph's nodes up to this one take more than %d multiply-accumulates", n.name, opts.MaxWork)
			}
		}
		t, err := s.eval(n)
		if err != nil {
			var d *diag.Diagnostic
			if errors.As(err, &d) {
				return nil, d
			}
			return nil, diag.OpErrorf(op, "%%%s: %v", n.name, err)
		}
		if !slices.Equal(t.Shape, rt.Shape) {
			// A bug of an entry, not of the input.
			return nil, diag.OpErrorf(op, "%%%s: evaluated to shape %s, but its type is '%s'", n.name, tensor.ShapeText(t.Shape), rt)
		}
		vals[op.Results[0]] = t
		res.Values = append(res.Values, Value{op.Results[0], t})
		if exact != nil {
			exact.record(op.Results[0], n, res)
		}
		index++
	}
	return nil, diag.OpErrorf(g, "graph @%s has no terminator", name)
}

// node is what an entry of the table reads: the operation, its operands'
// values, its declared result type, its node index (the random nodes'
// counter) and the payload.
type node struct {
	op      *ir.Operation
	name    string
	ins     []*tensor.Tensor
	out     *ir.TensorType
	index   int
	payload tensor.Payload
	max     int64
	// exact is the node's state in a quantized graph (nil otherwise).
	exact *exactNode
}

// innerWork is the work of nn.linear and nn.matmul: the first operand's
// last dimension per result element.
func (n *node) innerWork() int64 {
	w := tensor.NumElements(n.out.Shape)
	if in := n.ins[0].Shape; len(in) > 0 {
		w = satint.Mul(w, in[len(in)-1])
	}
	return w
}

// windowWork is a window node's work: kernel cells (times in-channels
// for a convolution) per result element.
func (n *node) windowWork(channels bool) int64 {
	w := tensor.NumElements(n.out.Shape)
	for _, k := range n.intList("kernel") {
		w = satint.Mul(w, k)
	}
	if in := n.ins[0].Shape; channels && len(in) >= 3 {
		w = satint.Mul(w, in[len(in)-3])
	}
	return w
}

// convWork is nn.conv2d's work: per output cell, the kernel's cells for
// each input channel whose weight block is not all zeros, and one (a look
// at its window's non-finite cells) for each that is (zeroBlocks); the
// dense count when the weight cannot be read (the evaluation reports it).
func (n *node) convWork() int64 {
	wd := n.window()
	outC, w, _, err := n.convParams(wd)
	if err != nil {
		return n.windowWork(true)
	}
	k, per := wd.kh*wd.kw, int64(0)
	for _, z := range zeroBlocks(w.Data, outC*wd.c, k) {
		if z {
			per++
		} else {
			per += k
		}
	}
	return satint.Mul(satint.Mul(wd.batch, satint.Mul(wd.oh, wd.ow)), per)
}

// result is a zero tensor of the node's declared shape.
func (n *node) result() *tensor.Tensor { return tensor.New(n.out.Shape) }

// param reads the payload entry key, which must hold want's shape (nil:
// any shape holding numel values).
func (n *node) param(key string, want []int64, numel int64) (*tensor.Tensor, error) {
	t, ok := n.payload[key]
	if !ok || t == nil {
		return nil, fmt.Errorf("the payload has no entry '%s'", key)
	}
	if want != nil && !slices.Equal(t.Shape, want) {
		return nil, fmt.Errorf("payload entry '%s' has shape %s, but the node needs %s", key, tensor.ShapeText(t.Shape), tensor.ShapeText(want))
	}
	if want == nil && int64(len(t.Data)) != numel {
		return nil, fmt.Errorf("payload entry '%s' has %d elements (shape %s), but the node's type '%s' holds %d", key, len(t.Data), tensor.ShapeText(t.Shape), n.out, numel)
	}
	return t, nil
}

// params is the node's params attribute (verified present).
func (n *node) params() string {
	s, _ := n.op.StringAttr("params")
	return s
}

// intAttr reads an integer attribute (def when absent).
func (n *node) intAttr(name string, def int64) int64 {
	a, ok := n.op.Attr(name).(*ir.IntAttr)
	if !ok || a == nil || a.Value == nil {
		return def
	}
	return a.Value.Int64()
}

// uintAttr reads an integer attribute in [0, 2^64) (the seed).
func (n *node) uintAttr(name string) uint64 {
	a, ok := n.op.Attr(name).(*ir.IntAttr)
	if !ok || a == nil || a.Value == nil {
		return 0
	}
	return a.Value.Uint64()
}

// intList reads an array attribute of integers.
func (n *node) intList(name string) []int64 {
	arr, ok := n.op.Attr(name).(*ir.ArrayAttr)
	if !ok || arr == nil {
		return nil
	}
	out := make([]int64, len(arr.Elems))
	for i, e := range arr.Elems {
		if ia, ok := e.(*ir.IntAttr); ok && ia != nil && ia.Value != nil {
			out[i] = ia.Value.Int64()
		}
	}
	return out
}

// floatAttr reads a float attribute (def when absent).
func (n *node) floatAttr(name string, def float64) float64 {
	a, ok := n.op.Attr(name).(*ir.FloatAttr)
	if !ok || a == nil {
		return def
	}
	return a.Value
}

// FindGraph returns the module's graph named name ("@name" or "name"), or
// its only graph when name is empty.
func FindGraph(m *ir.Module, name string) (*ir.Operation, error) {
	name = strings.TrimPrefix(name, "@")
	gs := nn.Graphs(m)
	var names []string
	for _, g := range gs {
		s, _ := g.StringAttr("sym_name")
		if s == name || name == "" && len(gs) == 1 {
			return g, nil
		}
		names = append(names, "@"+s)
	}
	switch {
	case len(gs) == 0:
		return nil, errors.New("the file holds no nn graph")
	case name == "":
		return nil, fmt.Errorf("the file holds %d graphs (%s): choose one with --entry", len(gs), strings.Join(names, ", "))
	}
	return nil, fmt.Errorf("the file has no graph @%s (it has %s)", name, strings.Join(names, ", "))
}
