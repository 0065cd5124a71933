package daisopt

import (
	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// view is a dais.program seen as an ALIR program: its dense form
// (dais.Load: the program's own when it is dense, else its ops converted).
// The passes analyse p (compact, with operand slots as integers) and write
// the program they make back as the dense form (rebuild, commit); they
// never make ir ops.
type view struct {
	prog *ir.Operation
	d    *dais.Dense
	p    *alir.Program
	eval *alir.Evaluator // p's operations, by the reference semantics
	kif  []alir.KIF      // fixed-point type of every slot
}

// load checks a dais.program (dais.Load and alir.Program.Validate; a
// problem is a diagnostic at the offending op) and returns its view.
func load(prog *ir.Operation) (*view, error) {
	d, err := dais.Load(prog) // converted from ops: the pass owns d
	if err != nil {
		return nil, err
	}
	p := d.P
	eval, err := alir.NewEvaluator(p) // validates p: one analysis for both
	if err != nil {
		return nil, d.ErrorAt(prog, err)
	}
	for i, op := range p.Ops {
		if op.Opcode == alir.OpSum {
			return nil, diag.Errorf(d.Loc(prog, i), "'%s' op is made by dais-fuse-sums, the last pass before --emit=alir-v4-*: the other dais passes do not take it", dais.OpSum)
		}
	}
	// The evaluator's types: dais-narrow changes one only with its op,
	// and evaluates nothing after.
	return &view{prog: prog, d: d, p: p, eval: eval, kif: eval.KIFs()}, nil
}

// commit makes the program dense, holding v.p (changed in place).
func (v *view) commit() {
	dais.SetDense(v.prog, v.d)
}

// rebuild makes a new program from v.p: a pass keeps, replaces, drops or
// adds ops in order, naming operands by their slots in v.p (or by the ids
// add returns), and finish renumbers them.
type rebuild struct {
	v   *view
	ops []alir.Op
	loc []int32
	// ext maps a slot of v.p (0..n-1) or an added op (n, n+1, ...) to its
	// index in ops.
	ext []int32
}

func (v *view) rebuild() *rebuild {
	n := len(v.p.Ops)
	r := &rebuild{v: v, ops: make([]alir.Op, 0, n), loc: make([]int32, 0, n), ext: make([]int32, n, n+n/4)}
	for i := range r.ext {
		r.ext[i] = -1
	}
	return r
}

func (r *rebuild) resolve(x int32) int32 { return r.ext[x] }

// keep makes op (reading slots or added ids) the op of slot i, at i's
// location.
func (r *rebuild) keep(i int, op alir.Op) {
	r.ext[i] = int32(len(r.ops))
	r.ops = append(r.ops, op.MapOperands(alir.ALIR, r.resolve))
	r.loc = append(r.loc, r.v.d.LocIndex(i))
}

// alias makes slot i stand for to (an earlier slot or added id).
func (r *rebuild) alias(i int, to int32) { r.ext[i] = r.ext[to] }

// add appends a new op at slot at's location and returns its id.
func (r *rebuild) add(op alir.Op, at int) int32 {
	r.ext = append(r.ext, int32(len(r.ops)))
	r.ops = append(r.ops, op.MapOperands(alir.ALIR, r.resolve))
	r.loc = append(r.loc, r.v.d.LocIndex(at))
	return int32(len(r.ext) - 1)
}

// finish replaces v.p's ops by the rebuilt ones (outputs renumbered) and
// commits the program.
func (r *rebuild) finish() {
	p := *r.v.p
	p.Ops = r.ops
	p.Outputs = make([]alir.Output, len(r.v.p.Outputs))
	for k, o := range r.v.p.Outputs {
		if o.Index >= 0 {
			o.Index = r.ext[o.Index]
		}
		p.Outputs[k] = o
	}
	d := *r.v.d
	d.P, d.OpLoc = &p, r.loc
	r.v.p, r.v.d = &p, &d
	r.v.commit()
}

// args returns the slots op reads, in the order of its ir operands (a mux
// reads its condition first), by alir's opcode table.
func args(op alir.Op) (ids [3]int32, n int) {
	switch alir.ALIR.Info(op.Opcode).Operands {
	case alir.NoOperands, alir.InputIndex:
		return ids, 0
	case alir.Binary:
		return [3]int32{op.ID0, op.ID1}, 2
	case alir.MuxOperands:
		return [3]int32{op.DataLow(), op.ID0, op.ID1}, 3
	}
	return [3]int32{op.ID0}, 1
}

// withArgs returns op reading the given slots (in args order) instead.
func withArgs(op alir.Op, ids [3]int32) alir.Op {
	switch alir.ALIR.Info(op.Opcode).Operands {
	case alir.NoOperands, alir.InputIndex:
	case alir.Binary:
		op.ID0, op.ID1 = ids[0], ids[1]
	case alir.MuxOperands:
		op.Data = alir.PackData(ids[0], op.DataHigh())
		op.ID0, op.ID1 = ids[1], ids[2]
	default:
		op.ID0 = ids[0]
	}
	return op
}

// uses counts the uses of every slot by slot ops and outputs.
func (v *view) uses() []int32 {
	n := make([]int32, len(v.p.Ops))
	for _, op := range v.p.Ops {
		ids, k := args(op)
		for _, a := range ids[:k] {
			n[a]++
		}
	}
	for _, o := range v.p.Outputs {
		if o.Index >= 0 {
			n[o.Index]++
		}
	}
	return n
}

// isAnnotation reports whether an attribute is one of the estimates of an
// op's latency and cost, which never affect its value.
func isAnnotation(name string) bool { return name == "latency" || name == "cost" }
