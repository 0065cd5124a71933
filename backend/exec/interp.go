package exec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/internal/satint"
	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
)

// machine runs one kernel over its grid: the abstract machine's state shared
// by all workgroups (the #global memory) and the run's bookkeeping.
type machine struct {
	kernel  *ir.Operation
	prog    *program
	grid    []int64
	params  []Param
	globals []*memory // by argument position; nil for scalar arguments
	scalars []*Buffer // by argument position; nil for #global arguments
	opts    Options
	steps   int64
	slots   []slot // the running workgroup's; reused by the next
	// wgTiles are the instructions holding a #workgroup tile of the
	// running workgroup (instr.wg).
	wgTiles []*instr
}

// workgroup is one workgroup's logical thread: its coordinates, its SSA
// values (in the slots the compiled program numbered) and its asynchronous
// copies not yet waited on.
type workgroup struct {
	m       *machine
	pid     []int64
	linear  int
	slots   []slot
	pending []*dmaCopy
	// cur is the instruction running (its handler's operands are its slots).
	cur *instr
	// outSlots, when a handler sets it, holds the handler's results (the
	// values an scf region yielded), which step binds without boxing.
	outSlots []slot
	// nums holds the operands of a scalar element-wise op.
	nums [maxScalarArgs]num
	// freeSets are element sets of completed copies, for new copies (at
	// most maxFreeSets).
	freeSets []bitset
	// one holds the result of a handler of one result (workgroup.result).
	one [1]rvalue
}

const maxFreeSets = 8

// result returns v as the results of a handler of one result, without
// allocating: step binds them before the next handler runs.
func (w *workgroup) result(v rvalue) []rvalue {
	w.one[0] = v
	return w.one[:]
}

// handler executes one kind of operation and returns its results.
type handler func(w *workgroup, op *ir.Operation) ([]rvalue, error)

// opErr makes an error diagnostic at op, naming it MLIR-style.
func opErr(op *ir.Operation, format string, args ...any) *diag.Diagnostic {
	return diag.OpErrorf(op, format, args...)
}

// runWorkgroup runs the kernel body for one workgroup.
func (m *machine) runWorkgroup(linear int) error {
	if m.slots == nil {
		m.slots = make([]slot, m.prog.nslots)
	}
	clear(m.slots)
	w := &workgroup{m: m, linear: linear, slots: m.slots}
	w.pid = tileview.Coord(int64(linear), m.grid)
	body := m.kernel.Body(0)
	args := make([]slot, len(body.Args))
	for i := range args {
		if g := m.globals[i]; g != nil {
			args[i].set(&view{mem: g, shape: g.buf.Shape})
		} else {
			args[i].set(m.scalars[i])
		}
	}
	_, err := w.runBlock(&m.prog.blocks[0], args)
	if err == nil {
		err = w.checkUnwaited()
	}
	m.releaseWorkgroup()
	if err != nil {
		return w.inWorkgroup(err)
	}
	return nil
}

// releaseWorkgroup gives the #workgroup tiles of the workgroup that has
// ended back (spare.go): no value of it is used again.
func (m *machine) releaseWorkgroup() {
	for _, in := range m.wgTiles {
		giveInts(in.wg.Ints)
		in.wg = nil
	}
	m.wgTiles = m.wgTiles[:0]
}

// inWorkgroup adds a note telling which workgroup failed (for grids > 1).
func (w *workgroup) inWorkgroup(err error) error {
	d, ok := err.(*diag.Diagnostic)
	if !ok || tileview.Len(w.m.grid) == 1 {
		return err
	}
	parts := make([]string, len(w.pid))
	for i, p := range w.pid {
		parts[i] = fmt.Sprint(p)
	}
	return d.Note(w.m.kernel.Loc, "in workgroup program_id = (%s) of kernel @%s", strings.Join(parts, ", "), ir.KernelName(w.m.kernel))
}

// checkUnwaited reports copies into #global memory whose token nobody waited
// on: their effect on the kernel's result is undefined. Unwaited copies into
// #workgroup memory are unobservable once the workgroup ends, so they are
// dropped.
func (w *workgroup) checkUnwaited() error {
	for _, c := range w.pending {
		if c.dst.mem.space == ir.Global {
			return opErr(c.op, "copies into %s but its token is never waited on, so the copy never completes", c.dst.mem.desc)
		}
	}
	return nil
}

// runBlock binds the block's arguments, runs its operations in order and
// returns its terminator (scf.yield or otir.return; nil if it has none), whose
// operands are set: their values are in the slots of its args.
func (w *workgroup) runBlock(blk *block, args []slot) (*instr, error) {
	if blk == nil {
		return nil, nil
	}
	if len(args) != len(blk.args) {
		loc := ir.Location{}
		if p := blk.b.ParentOp(); p != nil {
			loc = p.Loc
		}
		return nil, diag.Errorf(loc, "a region of %d arguments is entered with %d values", len(blk.args), len(args))
	}
	for i, s := range blk.args {
		w.slots[s] = args[i]
	}
	code := w.m.prog.code[blk.start:blk.end]
	for i := range code {
		in := &code[i]
		if in.sem.ends {
			for j := range in.args {
				if _, err := w.operandSlot(in, j); err != nil {
					return nil, err
				}
			}
			return in, nil
		}
		if err := w.step(in); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// step executes one instruction and binds its results after checking each
// against its declared type.
func (w *workgroup) step(in *instr) error {
	op, sem := in.op, in.sem
	if err := w.tickN(op, in.cost); err != nil {
		return err
	}
	if in.scalar != nil {
		if done, err := w.scalarElementwise(in); done {
			return err
		}
	}
	w.cur = in
	var res []rvalue
	var err error
	switch {
	case sem.run != nil:
		res, err = sem.run(w, op)
	case sem.elem != nil:
		res, err = execElementwise(w, op, sem.elem)
	case sem.unsupported != "":
		return opErr(op, "is not supported by the executor: %s", sem.unsupported)
	case !in.known:
		return opErr(op, "is not an operation the executor can run")
	default:
		return opErr(op, "cannot run here")
	}
	out := w.outSlots
	w.outSlots = nil
	if err != nil {
		return err
	}
	if out != nil {
		if len(out) != len(op.Results) {
			return opErr(op, "produced %d results but declares %d", len(out), len(op.Results))
		}
		for i := range out {
			if err := out[i].conforms(op.Results[i].Type); err != nil {
				return opErr(op, "result #%d %v", i, err)
			}
			w.slots[in.res[i]] = out[i]
		}
		return nil
	}
	if len(res) != len(op.Results) {
		return opErr(op, "produced %d results but declares %d", len(res), len(op.Results))
	}
	for i, r := range res {
		if err := conforms(r, op.Results[i].Type); err != nil {
			return opErr(op, "result #%d %v", i, err)
		}
		w.slots[in.res[i]].set(r)
	}
	return nil
}

// tick counts one step (a loop iteration) against Options.MaxSteps.
func (w *workgroup) tick(op *ir.Operation) error { return w.tickN(op, 1) }

// tickN counts n steps against Options.MaxSteps, before the work is done.
func (w *workgroup) tickN(op *ir.Operation, n int64) error {
	w.m.steps = satint.Add(w.m.steps, n)
	if max := w.m.opts.MaxSteps; max > 0 && w.m.steps > max {
		return opErr(op, "the run exceeds its limit of %d steps (raise it with --max-steps)", max)
	}
	return nil
}

// conforms checks a runtime value against a declared type: kind, memory
// space, element type and shape.
func conforms(v rvalue, t ir.Type) error {
	switch x := v.(type) {
	case *Buffer:
		if ir.IsScalar(t) {
			if len(x.Shape) != 0 || x.Elem != t {
				return fmt.Errorf("is a %s tile of %s, but its type is %s", shapeString(x.Shape), x.Elem, t)
			}
			return nil
		}
		tt, ok := t.(*ir.TileType)
		if !ok || tt.Space != ir.Private {
			return fmt.Errorf("is a value, but its type %s is not a scalar or #private tile", t)
		}
		if x.Elem != tt.Elem || !slices.Equal(x.Shape, tt.Shape) {
			return fmt.Errorf("is a %s tile of %s, but its type is %s", shapeString(x.Shape), x.Elem, t)
		}
	case *view:
		tt, ok := t.(*ir.TileType)
		if !ok || tt.Space != x.mem.space {
			return fmt.Errorf("is a %s tile, but its type is %s", x.mem.space, t)
		}
		if x.mem.buf.Elem != tt.Elem || !slices.Equal(x.shape, tt.Shape) {
			return fmt.Errorf("is a %s tile of %s, but its type is %s", shapeString(x.shape), x.mem.buf.Elem, t)
		}
	case *token:
		if t != ir.Token() {
			return fmt.Errorf("is a token, but its type is %s", t)
		}
	}
	return nil
}

// instrOf returns the instruction of op: the one running (a handler reads
// the operands of its own operation only, before it runs any region).
func (w *workgroup) instrOf(op *ir.Operation) *instr {
	if w.cur == nil || w.cur.op != op {
		panic("exec: a handler ran outside its instruction")
	}
	return w.cur
}

// operandSlot returns the slot of operand i of an instruction, which must
// hold a value.
func (w *workgroup) operandSlot(in *instr, i int) (*slot, error) {
	op := in.op
	if i >= len(op.Operands) {
		return nil, opErr(op, "needs at least %d operands, has %d", i+1, len(op.Operands))
	}
	s := &w.slots[in.args[i]]
	if s.v == nil && s.t == nil {
		return nil, opErr(op, "operand #%d (%s) has no value here", i, valueName(op.Operands[i]))
	}
	return s, nil
}

// operand returns the runtime value of operand i.
func (w *workgroup) operand(op *ir.Operation, i int) (rvalue, error) {
	s, err := w.operandSlot(w.instrOf(op), i)
	if err != nil {
		return nil, err
	}
	return s.value(), nil
}

// valueOperand returns operand i, which must be a scalar or #private tile.
func (w *workgroup) valueOperand(op *ir.Operation, i int) (*Buffer, error) {
	v, err := w.operand(op, i)
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case *Buffer:
		return x, nil
	case *view:
		return nil, opErr(op, "operand #%d is a %s tile; it needs a scalar or #private tile (load it first)", i, x.mem.space)
	}
	return nil, opErr(op, "operand #%d is a token; it needs a scalar or #private tile", i)
}

// viewOperand returns operand i, which must be a #global or #workgroup tile.
func (w *workgroup) viewOperand(op *ir.Operation, i int) (*view, error) {
	v, err := w.operand(op, i)
	if err != nil {
		return nil, err
	}
	if x, ok := v.(*view); ok {
		return x, nil
	}
	return nil, opErr(op, "operand #%d must be a #global or #workgroup tile", i)
}

// intOperand returns operand i as an int64; it must be an integer or index
// scalar whose value fits.
func (w *workgroup) intOperand(op *ir.Operation, i int) (int64, error) {
	s, err := w.operandSlot(w.instrOf(op), i)
	if err != nil {
		return 0, err
	}
	if s.t != nil { // a scalar, unboxed
		if isFloatType(s.t) {
			return 0, opErr(op, "operand #%d must be an integer or index scalar", i)
		}
		if s.n.k != kInt {
			return 0, opErr(op, "operand #%d (%s) is out of range", i, s.n)
		}
		return s.n.i, nil
	}
	b, err := w.valueOperand(op, i)
	if err != nil {
		return 0, err
	}
	if len(b.Shape) != 0 || b.IsFloat() {
		return 0, opErr(op, "operand #%d must be an integer or index scalar", i)
	}
	n := b.num(0)
	if n.k != kInt {
		return 0, opErr(op, "operand #%d (%s) is out of range", i, n)
	}
	return n.i, nil
}

// valueName is a value's source name for diagnostics ("%c16", else "%?").
func valueName(v *ir.Value) string {
	if v != nil && v.Name != "" {
		return "%" + v.Name
	}
	return "a value"
}

// resultTile splits a result type into shape and element type and checks it
// is a scalar or #private tile.
func resultValueType(op *ir.Operation) ([]int64, ir.Type, error) {
	if len(op.Results) != 1 {
		return nil, nil, opErr(op, "must have exactly one result")
	}
	t := op.Results[0].Type
	if ir.IsScalar(t) {
		return nil, t, nil
	}
	if tt, ok := t.(*ir.TileType); ok && tt.Space == ir.Private {
		return tt.Shape, tt.Elem, nil
	}
	return nil, nil, opErr(op, "result type %s must be a scalar or #private tile", t)
}
