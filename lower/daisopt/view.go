package daisopt

import (
	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// view is a dais.program seen as an ALIR program: slot i of p is ops[i], the
// i-th slot op of the block. The passes analyse p (compact, with operand
// slots as integers) and rewrite the ir ops.
type view struct {
	prog *ir.Operation
	body *ir.Block
	p    *alir.Program
	eval *alir.Evaluator // p's operations, by the reference semantics
	ops  []*ir.Operation // slot ops, in block order
	kif  []alir.KIF      // fixed-point type of every slot
	out  *ir.Operation   // the dais.output terminator
	// outSlot maps each operand of out to its slot (-1 when the operand is
	// not a slot of this program; ToALIR accepts such an operand when no
	// output refers to it).
	outSlot []int32
}

// load checks a dais.program (dais.ToALIR, which reports a problem as a
// diagnostic at the offending op) and returns its view.
func load(prog *ir.Operation) (*view, error) {
	if err := dais.Materialize(prog); err != nil {
		return nil, err
	}
	p, err := dais.ToALIR(prog)
	if err != nil {
		return nil, err
	}
	for _, op := range prog.Body(0).Ops {
		if op.Name == dais.OpSum {
			return nil, diag.OpErrorf(op, "is made by dais-fuse-sums, the last pass before --emit=alir-v4-*: the other dais passes do not take it")
		}
	}
	eval, err := alir.NewEvaluator(p)
	if err != nil {
		return nil, err
	}
	v := &view{prog: prog, body: prog.Body(0), p: p, eval: eval, kif: make([]alir.KIF, len(p.Ops))}
	v.ops = make([]*ir.Operation, 0, len(p.Ops))
	for _, op := range v.body.Ops {
		switch op.Name {
		case dais.OpTable:
		case dais.OpOutput:
			v.out = op
		default:
			v.ops = append(v.ops, op)
		}
	}
	for i, o := range p.Ops {
		v.kif[i], _ = o.QInt.KIF() // valid: ToALIR validated p
	}
	v.outSlot = make([]int32, len(v.out.Operands))
	want := make(map[*ir.Value][]int, len(v.out.Operands))
	for k, val := range v.out.Operands {
		v.outSlot[k] = -1
		want[val] = append(want[val], k)
	}
	for i, op := range v.ops {
		for _, k := range want[op.Results[0]] {
			v.outSlot[k] = int32(i)
		}
	}
	return v, nil
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
	for _, s := range v.outSlot {
		if s >= 0 {
			n[s]++
		}
	}
	return n
}

// setOps replaces the block's operations, detaching the ones left out.
func (v *view) setOps(ops []*ir.Operation) {
	for _, op := range v.body.Ops {
		op.Block = nil
	}
	for _, op := range ops {
		op.Block = v.body
	}
	v.body.Ops = ops
}

// remapOutput points the output's operands at cur[slot].
func (v *view) remapOutput(cur []*ir.Value) {
	for k, s := range v.outSlot {
		if s >= 0 {
			v.out.Operands[k] = cur[s]
		}
	}
}

// isSlot reports whether a block op is a slot op (not a table or the output).
func isSlot(op *ir.Operation) bool { return op.Name != dais.OpTable && op.Name != dais.OpOutput }

// isAnnotation reports whether an attribute is one of the estimates of an
// op's latency and cost, which never affect its value.
func isAnnotation(name string) bool { return name == "latency" || name == "cost" }

// newSlotOp builds the dais op computing a, one of the ops the passes create
// (const, neg, quantize, add, sub), reading the given values (in args
// order), of result type t, at loc; it carries no annotation.
func newSlotOp(a alir.Op, operands []*ir.Value, t ir.Type, loc ir.Location) *ir.Operation {
	at := ir.Attrs{}
	name := dais.OpQuantize
	// A rewrite's builder, not a fact: the dais names and attributes of
	// the five ops the passes create (lower/dais's table has no builder).
	switch a.Opcode {
	case alir.OpNeg:
		name = dais.OpNeg
	case alir.OpAdd, alir.OpSub:
		name = dais.OpAdd
		if a.Opcode == alir.OpSub {
			name = dais.OpSub
		}
		at.Set("shift", ir.I64(int64(a.DataLow())))
	case alir.OpConst:
		name = dais.OpConst
		at.Set("value", ir.I64(a.Data))
	}
	return ir.NewOp(name, loc, operands, []ir.Type{t}, at)
}
