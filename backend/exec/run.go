package exec

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes/verify"
)

// Options configures a run.
type Options struct {
	// CheckRaces runs the grid in three workgroup orders (row-major, reversed,
	// and a shuffle seeded by Seed) and reports the #global elements written
	// by non-atomic writes (stores, DMA copies) whose final value depends on
	// the order. Elements written only by atomics are not reported.
	CheckRaces bool
	// Seed seeds the shuffled order of CheckRaces (0 means 1).
	Seed uint64
	// MaxSteps bounds the work of a run, so that a run with a huge trip
	// count stops with an error (0: no bound; otir-run's default is
	// DefaultMaxSteps). Each operation executed counts one step plus one per
	// element of its tile results (a matmul also one per multiply-add), each
	// loop iteration one.
	MaxSteps int64
	// MaxElements bounds the elements of every tile the kernel declares,
	// and of all of them together, checked before anything is allocated
	// (0: DefaultMaxElements; negative: no bound). An element of an integer
	// wider than 64 bits counts once per 64 bits.
	MaxElements int64
	// SkipVerify skips verify.Verify, for callers that have just run it.
	SkipVerify bool
}

// Param describes one kernel argument.
type Param struct {
	// Name is the argument's source name (Value.Name), else "argN".
	Name string
	Type ir.Type
	// Global reports a #global tile: memory the caller provides.
	Global bool
	// Written reports that the kernel may write the argument: some store,
	// atomic or DMA copy writes to a view of it (a static property).
	Written bool
}

// Result is the outcome of a run.
type Result struct {
	Kernel string
	Params []Param
	// Args holds the final contents of each #global argument and, for the
	// other arguments, the value passed in, by position.
	Args []*Buffer
	// Steps counts the operations and loop iterations executed (first run).
	Steps int64
	// Races lists order-dependent #global elements found by CheckRaces.
	Races []Race
}

// Race is one #global element whose final value depends on the order in
// which workgroups run.
type Race struct {
	Param int     // argument position
	Coord []int64 // element coordinates
	// Values is the element's final value in each order of Orders.
	Orders, Values []string
}

// Output returns the final contents of the named argument, or nil.
func (r *Result) Output(name string) *Buffer {
	for i, p := range r.Params {
		if p.Name == name {
			return r.Args[i]
		}
	}
	return nil
}

// Run executes kernel (its symbol name; "" selects a module's only kernel)
// over its whole grid, with one argument per kernel parameter in order: a
// Buffer of the tile's shape and element type for a #global or #private
// tile, a rank-0 Buffer for a scalar. The caller's buffers are not modified:
// the final #global contents are in the Result. Errors are diagnostics (a
// diag.List from the verifier, else a *diag.Diagnostic). When CheckRaces
// finds a race, Run returns both the row-major Result (with its Races) and
// the race's diagnostic.
func Run(m *ir.Module, kernel string, args []*Buffer, opts Options) (res *Result, err error) {
	if m == nil || m.Op == nil || m.Body() == nil {
		return nil, fmt.Errorf("exec: no module")
	}
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, &diag.Diagnostic{Severity: diag.Error, Loc: m.Op.Loc, Msg: fmt.Sprintf("internal error in the reference executor: %v", r)}
		}
	}()
	if !opts.SkipVerify {
		if l := verify.Verify(m); l.HasErrors() {
			return nil, l
		}
	}
	k, err := FindKernel(m, kernel)
	if err != nil {
		return nil, err
	}
	if err := CheckSizes(k, opts); err != nil {
		return nil, err
	}
	prog := compile(k)
	defer prog.release()
	mach, err := newMachine(k, prog, args, opts)
	if err != nil {
		return nil, err
	}
	n := tileview.Len(mach.grid)
	if opts.CheckRaces {
		mach.track()
	}
	if err := mach.run(rowMajor(n)); err != nil {
		return nil, err
	}
	res = mach.result()
	if !opts.CheckRaces || n < 2 {
		return res, nil
	}
	return res, checkRaces(k, args, opts, mach, res)
}

// FindKernel returns the named kernel ("" selects the only one).
func FindKernel(m *ir.Module, name string) (*ir.Operation, error) {
	ks := otir.Kernels(m)
	var names []string
	for _, k := range ks {
		if name == "" && len(ks) == 1 || ir.KernelName(k) == name {
			if k.Body(0) == nil {
				return nil, diag.Errorf(k.Loc, "kernel @%s has no body", ir.KernelName(k))
			}
			return k, nil
		}
		names = append(names, "@"+ir.KernelName(k))
	}
	if len(ks) == 0 {
		return nil, diag.Errorf(m.Op.Loc, "the module has no kernel")
	}
	if name == "" {
		return nil, diag.Errorf(m.Op.Loc, "the module has %d kernels (%s); name one", len(ks), strings.Join(names, ", "))
	}
	return nil, diag.Errorf(m.Op.Loc, "no kernel @%s in the module (it has %s)", name, strings.Join(names, ", "))
}

// Params describes a kernel's arguments.
func Params(k *ir.Operation) []Param {
	body := k.Body(0)
	if body == nil {
		return nil
	}
	written := Written(k)
	ps := make([]Param, len(body.Args))
	for i, a := range body.Args {
		ps[i] = Param{Name: a.Name, Type: a.Type, Written: written[i]}
		if ps[i].Name == "" {
			ps[i].Name = fmt.Sprintf("arg%d", i)
		}
		if tt, ok := a.Type.(*ir.TileType); ok && tt.Space == ir.Global {
			ps[i].Global = true
		}
	}
	return ps
}

// newMachine checks the arguments against the kernel's parameters and the
// grid, and sets up the #global memory (copies of the caller's buffers), to
// run prog, the compiled kernel (one program serves the runs of CheckRaces).
func newMachine(k *ir.Operation, prog *program, args []*Buffer, opts Options) (*machine, error) {
	params := Params(k)
	if len(args) != len(params) {
		return nil, diag.Errorf(k.Loc, "kernel @%s takes %d arguments, %d given", ir.KernelName(k), len(params), len(args))
	}
	grid := ir.KernelGrid(k)
	total := int64(1)
	for _, d := range grid {
		if d < 1 || d > 1<<24 {
			return nil, diag.Errorf(k.Loc, "kernel @%s has an invalid grid %s", ir.KernelName(k), gridString(grid))
		}
		total *= d
		if total > 1<<24 {
			return nil, diag.Errorf(k.Loc, "kernel @%s has a grid of more than 2^24 workgroups", ir.KernelName(k))
		}
	}
	if len(grid) == 0 || len(grid) > 3 {
		return nil, diag.Errorf(k.Loc, "kernel @%s has a grid of rank %d (1 to 3)", ir.KernelName(k), len(grid))
	}
	m := &machine{kernel: k, prog: prog, grid: grid, params: params, opts: opts,
		globals: make([]*memory, len(params)), scalars: make([]*Buffer, len(params))}
	body := k.Body(0)
	for i, p := range params {
		a := args[i]
		where := body.Args[i].Loc
		if a == nil {
			return nil, diag.Errorf(where, "argument %%%s (#%d) is missing", p.Name, i)
		}
		if err := a.Validate(); err != nil {
			return nil, diag.Errorf(where, "argument %%%s: %v", p.Name, err)
		}
		switch t := p.Type.(type) {
		case *ir.TileType:
			if t.Space == ir.Workgroup {
				return nil, diag.Errorf(where, "argument %%%s: a kernel cannot take a #workgroup tile", p.Name)
			}
			if a.Elem != t.Elem || !slices.Equal(a.Shape, t.Shape) {
				return nil, diag.Errorf(where, "argument %%%s of type %s is given a %s buffer of %s", p.Name, t, shapeString(a.Shape), a.Elem)
			}
			if t.Space == ir.Global {
				m.globals[i] = newMemory(a.Clone(), ir.Global, "%"+p.Name, where)
			} else {
				m.scalars[i] = a
			}
		default:
			if !ir.IsScalar(t) {
				return nil, diag.Errorf(where, "argument %%%s: a kernel cannot take a %s", p.Name, t)
			}
			if a.Elem != t || len(a.Shape) != 0 {
				return nil, diag.Errorf(where, "argument %%%s of type %s is given a %s buffer of %s", p.Name, t, shapeString(a.Shape), a.Elem)
			}
			m.scalars[i] = a
		}
	}
	return m, nil
}

func rowMajor(n int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	return order
}

// run executes the workgroups in the given order (linear row-major ids).
func (m *machine) run(order []int) error {
	for _, wg := range order {
		if err := m.runWorkgroup(wg); err != nil {
			return err
		}
	}
	return nil
}

// result collects the final state.
func (m *machine) result() *Result {
	r := &Result{Kernel: ir.KernelName(m.kernel), Params: m.params, Args: make([]*Buffer, len(m.params)), Steps: m.steps}
	for i := range m.params {
		if g := m.globals[i]; g != nil {
			r.Args[i] = g.buf
		} else {
			r.Args[i] = m.scalars[i]
		}
	}
	return r
}

// WriteOutcome writes a run's outcome as text: its error, or its steps,
// races and final arguments. Two builds of the executor that give the same
// text on the same kernels behave the same (the digest tests compare
// them with cmp: docs/executor.md).
func WriteOutcome(w io.Writer, res *Result, err error) {
	if err != nil {
		fmt.Fprintf(w, "error %v\n", err)
		return
	}
	fmt.Fprintf(w, "steps %d races %v\n", res.Steps, res.Races)
	for _, a := range res.Args {
		fmt.Fprintf(w, "  %s\n", a)
	}
}
