package dais

import (
	"errors"
	"fmt"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// Dense is a dais.program's operations held compactly: the ALIR program
// they denote (one alir.Op per slot op, struct of fixed-size fields, no
// ir.Operation, attribute map or interned type per op) and where each op
// comes from. lower-tiles emits it, the dais passes read and write it, the
// verifier checks it and --emit writes it; the textual ops are a view of
// it, made only to print the module (Materialize).
//
// A dais.program is in one of two forms: ops (its block holds the ops, as
// parsed from text or built by FromALIR) or dense (its block is empty and
// the program carries a Dense, see SetDense). Load gives the dense form of
// either.
type Dense struct {
	// P is the program (Dialect ALIR). Its operations are the slot ops in
	// order, its tables the dais.table ops, its outputs dais.output's.
	P *alir.Program
	// Locs are the distinct source locations of the ops. OpLoc gives, per
	// op of P, an index into Locs or -1 (the program's own location);
	// nil means every op is at the program's location. TableLoc does the
	// same for the tables, and OutLoc for dais.output.
	Locs     []ir.Location
	OpLoc    []int32
	TableLoc []int32
	OutLoc   int32
	// verified is P as the verifier last proved it valid and portable
	// (verified.go), or nil.
	verified *verified
}

// denseAttr carries a program's Dense on the dais.program op (attribute
// denseAttrName). It exists only while the program is dense; Materialize
// removes it, so it is never printed.
type denseAttr struct {
	ir.UnitAttr
	d *Dense
}

func (a *denseAttr) String() string { return "<dense dais program>" }

const denseAttrName = "dais.dense"

// DenseOf returns the Dense of a program in dense form, or nil.
func DenseOf(prog *ir.Operation) *Dense {
	if a, ok := prog.Attr(denseAttrName).(*denseAttr); ok {
		return a.d
	}
	return nil
}

// SetDense puts prog in dense form holding d: its block is emptied (the ops
// it held are detached) and d is attached to it.
func SetDense(prog *ir.Operation, d *Dense) {
	if len(prog.Regions) == 0 {
		prog.NewRegion()
	}
	if b := prog.Body(0); b != nil {
		for _, op := range b.Ops {
			op.Block = nil
		}
		b.Ops = nil
	} else {
		prog.Regions[0].Blocks = []*ir.Block{{Parent: prog.Regions[0]}}
	}
	prog.SetAttr(denseAttrName, &denseAttr{d: d})
}

// Load returns the dense form of a dais.program: its Dense when it has one,
// else its ops converted by ToALIR (which checks them; a problem is a
// diagnostic at the offending op), with their locations. Load does not put
// prog in dense form; SetDense does.
func Load(prog *ir.Operation) (*Dense, error) {
	if d := DenseOf(prog); d != nil {
		return d, nil
	}
	p, err := ToALIR(prog)
	if err != nil {
		return nil, err
	}
	d := &Dense{P: p, OutLoc: -1}
	locIdx := map[ir.Location]int32{}
	idx := func(l ir.Location) int32 {
		if l == prog.Loc {
			return -1
		}
		k, ok := locIdx[l]
		if !ok {
			k = int32(len(d.Locs))
			d.Locs = append(d.Locs, l)
			locIdx[l] = k
		}
		return k
	}
	d.OpLoc = make([]int32, 0, len(p.Ops))
	for _, op := range prog.Body(0).Ops {
		switch op.Name {
		case OpTable:
			d.TableLoc = append(d.TableLoc, idx(op.Loc))
		case OpOutput:
			d.OutLoc = idx(op.Loc)
		default:
			d.OpLoc = append(d.OpLoc, idx(op.Loc))
		}
	}
	return d, nil
}

// Loc returns the location of op i (the program's when unknown).
func (d *Dense) Loc(prog *ir.Operation, i int) ir.Location {
	if i < len(d.OpLoc) && d.OpLoc[i] >= 0 {
		return d.Locs[d.OpLoc[i]]
	}
	return prog.Loc
}

// LocIndex returns op i's entry of OpLoc (-1 when unknown).
func (d *Dense) LocIndex(i int) int32 {
	if i < len(d.OpLoc) {
		return d.OpLoc[i]
	}
	return -1
}

func (d *Dense) at(prog *ir.Operation, k int32) ir.Location {
	if k >= 0 && int(k) < len(d.Locs) {
		return d.Locs[k]
	}
	return prog.Loc
}

// ProgramOf returns the ALIR program of a dais.program, checked: the dense
// form's own program (shared: do not modify it), or ToALIR's conversion of
// the ops.
func ProgramOf(prog *ir.Operation) (*alir.Program, error) {
	if d := DenseOf(prog); d != nil {
		if err := d.P.Validate(); err != nil {
			return nil, d.ErrorAt(prog, err)
		}
		return d.P, nil
	}
	return ToALIR(prog)
}

// ErrorAt locates an error of alir.Program.Validate (or of another
// function that validates d.P) at its op.
func (d *Dense) ErrorAt(prog *ir.Operation, err error) *diag.Diagnostic {
	var oe *alir.OpError
	if errors.As(err, &oe) && oe.Index >= 0 && oe.Index < len(d.P.Ops) {
		return diag.Errorf(d.Loc(prog, oe.Index), "'%s' op %v", byOpcode[d.P.Ops[oe.Index].Opcode].nameOr(), oe.Err)
	}
	return diag.OpErrorf(prog, "%v", err)
}

func (s *slotOp) nameOr() string {
	if s == nil {
		return "dais.?"
	}
	return s.name
}

// Materialize puts a dense program back in ops form: the textual view of
// its Dense, the ops FromALIR would make, at their locations. A program in
// ops form is left alone.
func Materialize(prog *ir.Operation) error {
	d := DenseOf(prog)
	if d == nil {
		return nil
	}
	prog.Attrs.Delete(denseAttrName)
	return buildOps(prog, d)
}

// MaterializeAll materializes every dais.program of m (before printing it).
func MaterializeAll(m *ir.Module) error {
	for _, p := range Programs(m) {
		if err := Materialize(p); err != nil {
			return err
		}
	}
	return nil
}

// buildOps fills prog's block with the ops of d.
func buildOps(prog *ir.Operation, d *Dense) error {
	p := d.P
	var b *ir.Builder
	if body := prog.Body(0); body != nil {
		body.Ops = nil
		b = ir.NewBuilder(body)
	} else {
		b = ir.NewBuilder(prog.NewRegion())
	}
	for i, t := range p.Tables {
		b.Loc = prog.Loc
		if i < len(d.TableLoc) {
			b.Loc = d.at(prog, d.TableLoc[i])
		}
		b.Create(OpTable, nil, nil, tableAttrs(t))
	}
	vals := make([]*ir.Value, len(p.Ops))
	// One allocation for all the ops' operand lists.
	nOperands := 0
	for _, op := range p.Ops {
		nOperands += 3 + len(op.Terms)
	}
	pool := make([]*ir.Value, 0, nOperands)
	for i, op := range p.Ops {
		sd := byOpcode[op.Opcode]
		if sd == nil {
			return fmt.Errorf("op %d: opcode %d has no dais operation", i, op.Opcode)
		}
		start := len(pool)
		switch alir.ALIR.Info(op.Opcode).Operands {
		case alir.Unary:
			pool = append(pool, vals[op.ID0])
		case alir.Binary:
			pool = append(pool, vals[op.ID0], vals[op.ID1])
		case alir.MuxOperands: // the condition first
			pool = append(pool, vals[op.DataLow()], vals[op.ID0], vals[op.ID1])
		case alir.TermOperands:
			for _, t := range op.Terms {
				pool = append(pool, vals[t.ID])
			}
		}
		operands := pool[start:len(pool):len(pool)]
		if len(operands) == 0 {
			operands = nil
		}
		at := make(ir.Attrs, 0, 4)
		if op.Opcode == alir.OpSum {
			setSumAttrs(op, &at)
		} else if err := sd.set(op, &at); err != nil {
			return fmt.Errorf("op %d: %v", i, err)
		}
		if op.Latency != 0 {
			at.Set("latency", f64(op.Latency))
		}
		if op.Cost != 0 {
			at.Set("cost", f64(op.Cost))
		}
		b.Loc = d.Loc(prog, i)
		vals[i] = b.Create(sd.name, operands, []ir.Type{Fixed(op.QInt)}, at).Results[0]
	}
	var used []*ir.Value
	outs := make([]int64, len(p.Outputs))
	shifts := make([]int64, len(p.Outputs))
	negs := make([]int64, len(p.Outputs))
	for j, o := range p.Outputs {
		outs[j] = -1
		if o.Index >= 0 {
			outs[j] = int64(len(used))
			used = append(used, vals[o.Index])
		}
		shifts[j] = int64(o.Shift)
		if o.Neg {
			negs[j] = 1
		}
	}
	b.Loc = d.at(prog, d.OutLoc)
	b.Create(OpOutput, used, nil, outputAttrs(outs, shifts, negs))
	return nil
}

// setSumAttrs sets a dais.sum's shifts and negs.
func setSumAttrs(op alir.Op, at *ir.Attrs) {
	shifts := make([]int64, len(op.Terms))
	negs := make([]int64, len(op.Terms))
	for k, t := range op.Terms {
		shifts[k] = int64(t.Shift)
		if t.Neg {
			negs[k] = 1
		}
	}
	at.Set("shifts", &ir.DenseI64Attr{Values: shifts})
	at.Set("negs", &ir.DenseI64Attr{Values: negs})
}

// NewOp returns the alir.Op of the dais op name reading the slots ids (in
// the op's operand order: a mux's condition first) with the attributes
// attrs and result interval q: what ToALIR makes of such an op. It lets a
// builder of dense programs (lower-tiles) speak in dais terms.
func NewOp(name string, ids []int32, attrs ir.Attrs, q alir.QInterval) (alir.Op, error) {
	d := byName[name]
	if d == nil {
		return alir.Op{}, fmt.Errorf("'%s' is not a slot operation", name)
	}
	a := alir.Op{ID0: -1, ID1: -1, Opcode: d.code, QInt: q}
	switch alir.ALIR.Info(d.code).Operands {
	case alir.Unary:
		a.ID0 = ids[0]
	case alir.Binary:
		a.ID0, a.ID1 = ids[0], ids[1]
	case alir.MuxOperands:
		a.ID0, a.ID1, a.Data = ids[1], ids[2], alir.PackData(ids[0], 0)
	}
	if len(attrs) == 0 && d.attrs == nil {
		return a, nil
	}
	if d.code == alir.OpAdd || d.code == alir.OpSub {
		// getShift without an ir.Operation (the most common case).
		if len(attrs) == 1 && attrs[0].Name == "shift" {
			if v, ok := attrs[0].Value.(*ir.IntAttr); ok {
				if k, ok := v.Int64(); ok && k == int64(int32(k)) {
					a.Data = k
					return a, nil
				}
			}
		}
	}
	return newOpSlow(d, name, ids, attrs, a)
}

// newOpSlow is NewOp's general case, reading attrs by the op's record. It
// is apart so that only this case allocates: get, called indirectly, takes
// the address of the op it fills, which would move NewOp's op to the heap
// on every call (so it is not inlined).
//
//go:noinline
func newOpSlow(d *slotOp, name string, ids []int32, attrs ir.Attrs, a alir.Op) (alir.Op, error) {
	tmp := ir.Operation{Name: name, Attrs: attrs}
	// A copy: ids stays on the caller's stack (get is called indirectly).
	return a, d.get(&tmp, &a, append([]int32(nil), ids...))
}
