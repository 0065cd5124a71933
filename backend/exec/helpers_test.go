package exec

import (
	"math/big"
	"strings"
	"testing"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/scf"
	"github.com/otir-dev/otir/ir"
)

// kb builds a one-kernel module with ir.Builder for tests. Each operation
// gets the location test.otir:LINE:1 of the current line (see at), so tests
// can check where errors point.
type kb struct {
	t    testing.TB
	m    *ir.Module
	k    *ir.Operation
	b    *ir.Builder
	args []*ir.Value
	line int
}

// ty parses a type.
func ty(t testing.TB, s string) ir.Type {
	t.Helper()
	typ, err := ir.ParseType(s)
	if err != nil {
		t.Fatalf("type %q: %v", s, err)
	}
	return typ
}

// newKB starts kernel @k with arguments "name: type" and a grid.
func newKB(t testing.TB, grid []int64, args ...string) *kb {
	t.Helper()
	m := ir.NewModule(ir.Location{File: "test.otir", Line: 1, Col: 1})
	mb := ir.NewBuilder(m.Body())
	mb.Loc = ir.Location{File: "test.otir", Line: 2, Col: 1}
	var types []ir.Type
	var names []string
	for _, a := range args {
		name, typ, _ := strings.Cut(a, ":")
		names = append(names, strings.TrimSpace(name))
		types = append(types, ty(t, strings.TrimSpace(typ)))
	}
	k, body := otir.Kernel(mb, "k", types, grid)
	for i, a := range body.Args {
		a.Name = names[i]
	}
	b := ir.NewBuilder(body)
	x := &kb{t: t, m: m, k: k, b: b, args: body.Args, line: 3}
	x.at(3)
	return x
}

// at sets the line of the next operations.
func (x *kb) at(line int) *kb {
	x.line = line
	x.b.Loc = ir.Location{File: "test.otir", Line: line, Col: 1}
	return x
}

// next moves to the next line.
func (x *kb) next() { x.at(x.line + 1) }

func (x *kb) arg(name string) *ir.Value {
	for _, a := range x.args {
		if a.Name == name {
			return a
		}
	}
	x.t.Fatalf("no argument %s", name)
	return nil
}

// op creates an operation with one result of type res ("" for none).
func (x *kb) op(name string, res string, attrs ir.Attrs, operands ...*ir.Value) *ir.Value {
	x.t.Helper()
	var rts []ir.Type
	if res != "" {
		rts = []ir.Type{ty(x.t, res)}
	}
	o := x.b.Create(name, operands, rts, attrs)
	x.next()
	if res == "" {
		return nil
	}
	return o.Results[0]
}

func (x *kb) c(v int64, typ string) *ir.Value {
	r := otir.ConstInt(x.b, v, ty(x.t, typ))
	x.next()
	return r
}

func (x *kb) cf(v float64, typ string) *ir.Value {
	r := otir.ConstFloat(x.b, v, ty(x.t, typ).(*ir.FloatType))
	x.next()
	return r
}

func (x *kb) pid(axis int64) *ir.Value {
	r := otir.ProgramID(x.b, axis)
	x.next()
	return r
}

// slice builds extract_slice: offsets are *ir.Value (dynamic) or int (static).
func (x *kb) slice(src *ir.Value, res string, offsets []any, sizes, strides []int64) *ir.Value {
	static, dyn := sliceOffsets(offsets)
	return x.op(otir.OpExtractSlice, res, otir.SliceAttrs(static, sizes, strides), append([]*ir.Value{src}, dyn...)...)
}

// insert builds insert_slice of src into dst.
func (x *kb) insert(src, dst *ir.Value, res string, offsets []any, sizes, strides []int64) *ir.Value {
	static, dyn := sliceOffsets(offsets)
	return x.op(otir.OpInsertSlice, res, otir.SliceAttrs(static, sizes, strides), append([]*ir.Value{src, dst}, dyn...)...)
}

func sliceOffsets(offsets []any) ([]int64, []*ir.Value) {
	var static []int64
	var dyn []*ir.Value
	for _, o := range offsets {
		switch v := o.(type) {
		case *ir.Value:
			static = append(static, otir.DynamicOffset)
			dyn = append(dyn, v)
		case int:
			static = append(static, int64(v))
		}
	}
	return static, dyn
}

func (x *kb) alloc(typ string) *ir.Value { return x.op(otir.OpAlloc, typ, nil) }
func (x *kb) load(v *ir.Value, typ string) *ir.Value {
	return x.op(otir.OpLoad, typ, nil, v)
}
func (x *kb) store(v, p *ir.Value) { x.op(otir.OpStore, "", nil, v, p) }
func (x *kb) dma(src, dst *ir.Value, mask ...*ir.Value) *ir.Value {
	return x.op(otir.OpDMA, "!otir.token", nil, append([]*ir.Value{src, dst}, mask...)...)
}
func (x *kb) wait(ts ...*ir.Value) { x.op(otir.OpWait, "", nil, ts...) }

// forLoop builds scf.for; body receives a builder for the body, the
// induction variable and the iteration arguments, and returns the yielded
// values. It returns the loop's results.
func (x *kb) forLoop(lb, ub, step *ir.Value, inits []*ir.Value, body func(iv *ir.Value, iters []*ir.Value) []*ir.Value) []*ir.Value {
	op, blk := scf.For(x.b, lb, ub, step, inits...)
	x.next()
	outer := x.b
	x.b = ir.NewBuilder(blk)
	x.b.Loc = outer.Loc
	ys := body(blk.Args[0], blk.Args[1:])
	scf.Yield(x.b, ys...)
	x.next()
	x.b = outer
	x.at(x.line)
	return op.Results
}

// ifOp builds scf.if with result types; each branch returns its yields.
func (x *kb) ifOp(cond *ir.Value, results []string, then, els func() []*ir.Value) []*ir.Value {
	var rts []ir.Type
	for _, r := range results {
		rts = append(rts, ty(x.t, r))
	}
	op, tb, eb := scf.If(x.b, cond, rts, els != nil)
	x.next()
	outer := x.b
	for _, br := range []struct {
		b  *ir.Block
		fn func() []*ir.Value
	}{{tb, then}, {eb, els}} {
		if br.b == nil {
			continue
		}
		x.b = ir.NewBuilder(br.b)
		x.b.Loc = outer.Loc
		ys := br.fn()
		scf.Yield(x.b, ys...)
		x.next()
	}
	x.b = outer
	x.at(x.line)
	return op.Results
}

// done ends the kernel with otir.return and returns the module.
func (x *kb) done() *ir.Module {
	otir.Return(x.b)
	return x.m
}

// ints makes an integer buffer of a type like "4x8xi8" or "i32".
func ints(t testing.TB, shapeElem string, vals ...int64) *Buffer {
	t.Helper()
	shape, elem := splitShape(t, shapeElem)
	b, err := FromInts(elem, shape, vals...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// bigs makes an integer buffer from decimal strings.
func bigs(t testing.TB, shapeElem string, vals ...string) *Buffer {
	t.Helper()
	shape, elem := splitShape(t, shapeElem)
	b := NewBuffer(elem, shape...)
	for i, s := range vals {
		v, ok := new(big.Int).SetString(s, 10)
		if !ok {
			t.Fatalf("bad integer %q", s)
		}
		if err := b.SetInt(i, v); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// floats makes a float buffer.
func floats(t testing.TB, shapeElem string, vals ...float64) *Buffer {
	t.Helper()
	shape, elem := splitShape(t, shapeElem)
	b, err := FromFloats(elem.(*ir.FloatType), shape, vals...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func splitShape(t testing.TB, s string) ([]int64, ir.Type) {
	t.Helper()
	parts := strings.Split(s, "x")
	elem := ty(t, parts[len(parts)-1])
	var shape []int64
	for _, p := range parts[:len(parts)-1] {
		var d int64
		for _, c := range p {
			d = d*10 + int64(c-'0')
		}
		shape = append(shape, d)
	}
	return shape, elem
}

// run executes the module's kernel and fails the test on error.
func run(t testing.TB, m *ir.Module, opts Options, args ...*Buffer) *Result {
	t.Helper()
	res, err := Run(m, "k", args, opts)
	if err != nil {
		t.Fatalf("run: %v", renderErr(err))
	}
	return res
}

// runErr executes the module's kernel and returns its error diagnostic.
func runErr(t testing.TB, m *ir.Module, opts Options, args ...*Buffer) *diag.Diagnostic {
	t.Helper()
	_, err := Run(m, "k", args, opts)
	if err == nil {
		t.Fatalf("run succeeded, want an error")
	}
	d, ok := err.(*diag.Diagnostic)
	if !ok {
		t.Fatalf("error %T %v is not a *diag.Diagnostic", err, err)
	}
	return d
}

// renderErr prints a diagnostic with its notes.
func renderErr(err error) string {
	d, ok := err.(*diag.Diagnostic)
	if !ok {
		return err.Error()
	}
	var sb strings.Builder
	diag.NewSourceMgr().Render(&sb, d)
	return sb.String()
}

// wantInts checks an integer buffer's values.
func wantInts(t testing.TB, what string, b *Buffer, want ...int64) {
	t.Helper()
	got, err := b.Int64s()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if len(got) != len(want) {
		t.Fatalf("%s: got %d elements %v, want %v", what, len(got), got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: element %d = %d, want %d (got %v)", what, i, got[i], want[i], got)
		}
	}
}
