package tiles

import (
	"fmt"
	"math/big"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
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
	l := &lowerer{opts: opts, kernel: k, cur: k, consts: map[string]*slot{}, locOf: map[*ir.Operation]int32{}, bools: map[boolKey]*slot{}, ints: map[int64]*big.Int{}}
	l.keyFn = func(id int32) alir.OpKey { return alir.KeyOf(&l.ops[id]) }
	if opts.Warn != nil {
		l.deadAt = map[*big.Int]*ir.Operation{}
		l.killed = map[int32]*ir.Operation{}
	}
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
	prog.NewRegion()
	l.prog = prog
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
			return nil, l.overMaxOps("its grid has", int64(l.opts.MaxOps), "workgroups", 1)
		}
	}
	l.progress = Progress{Kernel: ir.KernelName(k), Workgroups: total}
	for wg := 0; wg < total; wg++ {
		l.progress.Workgroup = wg
		l.report()
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
			if l.deadAt != nil {
				l.outDead = append(l.outDead, l.deadAt[n.c])
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

// finish numbers the inputs, drops the slots no output depends on, sets
// the program's outputs and its input and output attributes, annotates the
// ops (dais.AnnotateProgram) and puts the program in dense form. The
// kernel's frac_bits (otir.FracBits) become the input shifts of its
// arguments' elements (input q = wrap(floor(x*2^F))) and the output shifts
// -F (output x = q*2^-F), so the program reads and writes the reals.
func (l *lowerer) finish(outs []*slot) {
	base := 0
	var inArgs, outArgs []ir.Attr
	var inShifts, outShifts []int32
	for i, a := range l.args {
		frac := int32(otir.FracBits(l.kernel, i))
		if a.written {
			outArgs = append(outArgs, &ir.StringAttr{Value: a.name})
			for range outputCells(a) {
				outShifts = append(outShifts, -frac)
			}
		}
		if len(a.inputs) == 0 {
			continue
		}
		for j, id := range a.inputs {
			l.ops[id].ID0 = int32(base + a.inputElems[j])
		}
		inArgs = append(inArgs, &ir.StringAttr{Value: a.name})
		base += a.nElems
		for range a.nElems {
			inShifts = append(inShifts, frac)
		}
	}

	// Keep the slots the outputs depend on, renumbered in order.
	live := make([]bool, len(l.ops))
	for _, s := range outs {
		if s != nil {
			live[s.id] = true
		}
	}
	alir.MarkLive(alir.ALIR, l.ops, live)
	l.warnDead(outs, live)
	renum := make([]int32, len(l.ops))
	kept := 0
	for i, op := range l.ops {
		if !live[i] {
			continue
		}
		renum[i] = int32(kept)
		l.ops[kept] = op.MapOperands(alir.ALIR, func(x int32) int32 { return renum[x] })
		l.opLoc[kept] = l.opLoc[i]
		kept++
	}
	ops := l.ops[:kept:kept]
	if kept < len(l.ops)/2 { // give the dropped slots' memory back
		ops = append([]alir.Op(nil), ops...)
	}
	p := &alir.Program{Dialect: alir.ALIR, InShifts: inShifts, Ops: ops,
		CarrySize: int32(l.opts.CarrySize), AdderSize: int32(l.opts.AdderSize)}
	if p.InShifts == nil {
		p.InShifts = []int32{}
	}
	tables, tableLoc := l.liveTables(ops)
	p.Tables = tables
	p.Outputs = make([]alir.Output, len(outs))
	for j, s := range outs {
		p.Outputs[j] = alir.Output{Index: -1, Shift: outShifts[j]}
		if s != nil {
			p.Outputs[j].Index = renum[s.id]
		}
	}
	shifts := make([]int64, len(inShifts))
	for i, s := range inShifts {
		shifts[i] = int64(s)
	}
	l.prog.SetAttr("inp_shifts", &ir.DenseI64Attr{Values: shifts})
	l.prog.SetAttr("input_args", &ir.ArrayAttr{Elems: inArgs})
	l.prog.SetAttr("output_args", &ir.ArrayAttr{Elems: outArgs})
	dais.AnnotateProgram(p, p.CarrySize, p.AdderSize)
	locs := l.locs
	outLoc := int32(len(locs))
	locs = append(locs, l.kernel.Loc)
	dais.SetDense(l.prog, &dais.Dense{P: p, Locs: locs, OpLoc: l.opLoc[:kept:kept], TableLoc: tableLoc, OutLoc: outLoc})
}

// liveTables returns the tables the lookups among ops read, in the order of
// l.tables, with their locations, and renumbers the lookups' table
// indices to match.
func (l *lowerer) liveTables(ops []alir.Op) ([]alir.Table, []int32) {
	if len(l.tables) == 0 {
		return nil, nil
	}
	live := make([]bool, len(l.tables))
	for i := range ops {
		if ops[i].Opcode == alir.OpLookup {
			live[ops[i].Data] = true
		}
	}
	renum := make([]int64, len(l.tables))
	var tables []alir.Table
	var locs []int32
	for i, t := range l.tables {
		if live[i] {
			renum[i] = int64(len(tables))
			tables = append(tables, t)
			locs = append(locs, l.tableLoc[i])
		}
	}
	for i := range ops {
		if ops[i].Opcode == alir.OpLookup {
			ops[i].Data = renum[ops[i].Data]
		}
	}
	return tables, locs
}

// outputCells are the cells of a written argument that outputs() reads.
func outputCells(a *argInfo) []cell {
	if a.mem == nil {
		return nil
	}
	return a.mem.cells
}

// debugPanics lets tests see the panics of the lowering.
var debugPanics = false
