package tiles

import (
	"fmt"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// LowerKernel lowers one verified otir.kernel into a detached dais.program
// of the same name. Its inputs are the elements of the arguments whose
// initial contents the kernel observes (read, or left in place in a written
// argument), in argument order, row-major; its outputs the final elements of
// the #global arguments it writes, in argument order, row-major. Errors are
// *diag.Diagnostic at the operation that cannot be lowered.
func LowerKernel(k *ir.Operation, opts Options) (prog *ir.Operation, err error) {
	if opts.MaxOps <= 0 {
		opts.MaxOps = DefaultMaxOps
	}
	body := k.Body(0)
	if body == nil {
		return nil, diag.OpErrorf(k, "has no body")
	}
	l := &lowerer{opts: opts, kernel: k, cur: k, consts: map[string]*slot{}, memo: map[string]*slot{}, bools: map[boolKey]*slot{}}
	defer func() {
		if debugPanics {
			return
		}
		if r := recover(); r != nil {
			prog, err = nil, diag.OpErrorf(l.cur, "internal error in lower-tiles: %v", r)
		}
	}()
	attrs := ir.Attrs{}
	attrs.Set("sym_name", &ir.StringAttr{Value: ir.KernelName(k)})
	attrs.Set("carry_size", ir.I64(int64(opts.CarrySize)))
	attrs.Set("adder_size", ir.I64(int64(opts.AdderSize)))
	prog = ir.NewOp(dais.OpProgram, k.Loc, nil, nil, attrs)
	l.prog = prog
	l.b = ir.NewBuilder(prog.NewRegion())
	if err := l.checkSizes(k); err != nil {
		return nil, err
	}
	if err := l.bindArgs(body); err != nil {
		return nil, err
	}
	l.grid = ir.KernelGrid(k)
	total := 1
	for _, d := range l.grid {
		if d < 1 || d > 1<<24 {
			return nil, l.errf("has an invalid grid %v", l.grid)
		}
		total *= int(d)
		if total > l.opts.MaxOps {
			return nil, l.errf("cannot be lowered: its grid has more than max-ops=%d workgroups", l.opts.MaxOps)
		}
	}
	for wg := 0; wg < total; wg++ {
		if err := l.workgroup(body, wg); err != nil {
			return nil, err
		}
	}
	l.cur = k
	outs, err := l.outputs()
	if err != nil {
		return nil, err
	}
	l.finish(outs)
	if err := dais.Annotate(prog); err != nil {
		return nil, diag.Errorf(k.Loc, "internal error: %v", err)
	}
	return prog, nil
}

// bindArgs describes the kernel's arguments: #global tiles get a memory of
// initial cells, integer scalars become inputs when used.
func (l *lowerer) bindArgs(body *ir.Block) error {
	for i, a := range body.Args {
		info := &argInfo{val: a, name: a.Name, nElems: 1}
		if info.name == "" {
			info.name = fmt.Sprintf("arg%d", i)
		}
		switch t := a.Type.(type) {
		case *ir.TileType:
			info.nElems = int(t.NumElements())
			info.mem = &memory{cells: make([]cell, info.nElems), shape: t.Shape, elem: t.Elem, space: ir.Global, arg: i, def: a.Loc, name: "%" + info.name}
			for j := range info.mem.cells {
				info.mem.cells[j].state = cellInitial
			}
		}
		l.args = append(l.args, info)
	}
	return nil
}

// workgroup lowers the kernel body for linear workgroup id wg (row-major).
func (l *lowerer) workgroup(body *ir.Block, wg int) error {
	l.pid = tileview.Coord(int64(wg), l.grid)
	l.env = make(map[*ir.Value]any, 2*len(body.Ops))
	for i, a := range body.Args {
		info := l.args[i]
		switch t := a.Type.(type) {
		case *ir.TileType:
			if t.Space != ir.Global {
				l.cur = l.kernel
				return l.errf("argument #%d must be a #global tile", i)
			}
			l.env[a] = identityView(info.mem)
		default:
			l.env[a] = info // an input when first used
		}
	}
	l.pending = nil
	if _, err := l.block(body); err != nil {
		return err
	}
	for _, c := range l.pending {
		if c.dst.mem.space == ir.Global {
			l.cur = c.op
			return l.errf("copies into %s but its token is never waited on, so the copy never completes", c.dst.mem.name)
		}
	}
	return nil
}

// outputs reads the final elements of every written #global argument.
func (l *lowerer) outputs() ([]*slot, error) {
	var outs []*slot
	for _, a := range l.args {
		if a.mem == nil || !a.written {
			continue
		}
		for i := range a.mem.cells {
			n, err := l.read(a.mem, i, false)
			if err == nil {
				err = l.needExact(n)
			}
			if err != nil {
				return nil, err
			}
			if n.c != nil && n.c.Sign() == 0 {
				outs = append(outs, nil) // a constant zero output
				continue
			}
			s, err := l.data(n)
			if err != nil {
				return nil, err
			}
			outs = append(outs, s)
		}
	}
	return outs, nil
}

// finish numbers the inputs, drops the slots no output depends on, and
// appends dais.output and the program's input and output attributes.
func (l *lowerer) finish(outs []*slot) {
	body := l.prog.Body(0)
	live := map[*ir.Value]bool{}
	for _, s := range outs {
		if s != nil {
			live[s.v] = true
		}
	}
	for i := len(body.Ops) - 1; i >= 0; i-- {
		op := body.Ops[i]
		if !live[op.Results[0]] {
			body.Ops[i] = nil
			continue
		}
		for _, v := range op.Operands {
			live[v] = true
		}
	}
	kept := body.Ops[:0]
	for _, op := range body.Ops {
		if op != nil {
			kept = append(kept, op)
		}
	}
	body.Ops = kept

	var inArgs, outArgs []ir.Attr
	base := 0
	for _, a := range l.args {
		if a.written {
			outArgs = append(outArgs, &ir.StringAttr{Value: a.name})
		}
		if len(a.inputs) == 0 {
			continue
		}
		for j, op := range a.inputs {
			op.SetAttr("index", ir.I64(int64(base+a.inputElems[j])))
		}
		inArgs = append(inArgs, &ir.StringAttr{Value: a.name})
		base += a.nElems
	}
	l.prog.SetAttr("inp_shifts", &ir.DenseI64Attr{Values: make([]int64, base)})
	l.prog.SetAttr("input_args", &ir.ArrayAttr{Elems: inArgs})
	l.prog.SetAttr("output_args", &ir.ArrayAttr{Elems: outArgs})

	var used []*ir.Value
	idx := make([]int64, len(outs))
	for j, s := range outs {
		idx[j] = -1
		if s != nil {
			idx[j] = int64(len(used))
			used = append(used, s.v)
		}
	}
	zeros := make([]int64, len(outs))
	at := ir.Attrs{}
	at.Set("outputs", &ir.DenseI64Attr{Values: idx})
	at.Set("shifts", &ir.DenseI64Attr{Values: zeros})
	at.Set("negs", &ir.DenseI64Attr{Values: zeros})
	l.b.Loc = l.kernel.Loc
	l.b.Create(dais.OpOutput, used, nil, at)
}

// debugPanics lets tests see the panics of the lowering.
var debugPanics = false
