package dais

import (
	"math"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
)

// Annotate sets every slot op's `latency` and `cost` attributes by da4ml's
// cost model (ERRATA, "Cost model"): an adder (dais.add, dais.sub,
// dais.const_add) whose result is n bits wide costs ceil(n/adder_size) and
// takes ceil(n/carry_size) steps (1 and 1 when a size is below 1), a
// dais.sum of N terms costs as N-1 adders and takes the steps of one; other
// operations are free and take no time (alir's opcode table says which
// ops are adders). An op's latency is the latest of
// its operands' plus its own steps. The sizes are the program's carry_size
// and adder_size attributes; this is the model alir.Program.Info estimates.
func Annotate(prog *ir.Operation) error {
	carry, err := int32Attr(prog, "carry_size")
	if err != nil {
		return err
	}
	adder, err := int32Attr(prog, "adder_size")
	if err != nil {
		return err
	}
	per := func(n int, size int32) float64 {
		if size < 1 {
			return 1
		}
		return math.Ceil(float64(n) / float64(size))
	}
	if d := DenseOf(prog); d != nil {
		AnnotateProgram(d.P, carry, adder)
		return nil
	}
	body := prog.Body(0)
	if body == nil {
		return nil
	}
	at := make(map[*ir.Value]float64, len(body.Ops))
	for _, op := range body.Ops {
		if !IsSlotOp(op.Name) || len(op.Results) != 1 {
			continue
		}
		t := 0.0
		for _, v := range op.Operands {
			t = math.Max(t, at[v])
		}
		cost := 0.0
		if alir.ALIR.Info(byName[op.Name].code).Adder {
			ft, _ := op.Results[0].Type.(*FixedType)
			n := 0
			if ft != nil {
				n = Width(ft)
			}
			k := max(1, len(op.Operands)-1) // a sum of N terms: N-1 adders, one step
			cost = float64(k) * per(n, adder)
			t += per(n, carry)
		}
		at[op.Results[0]] = t
		setOrDelete(op, "latency", t)
		setOrDelete(op, "cost", cost)
	}
	return nil
}

// setOrDelete sets a float attribute, or removes it when zero (ALIR's
// default), which keeps the text short.
func setOrDelete(op *ir.Operation, name string, v float64) {
	if v == 0 {
		op.Attrs.Delete(name)
		return
	}
	op.SetAttr(name, f64(v))
}

// AnnotateProgram sets the Latency and Cost of every op of p as Annotate
// does, with the given carry and adder sizes (a dense program's Annotate).
func AnnotateProgram(p *alir.Program, carry, adder int32) {
	per := func(n int, size int32) float64 {
		if size < 1 {
			return 1
		}
		return math.Ceil(float64(n) / float64(size))
	}
	at := make([]float64, len(p.Ops))
	for i := range p.Ops {
		op := &p.Ops[i]
		e := alir.ALIR.Info(op.Opcode)
		t := 0.0
		nOperands := 0
		switch e.Operands {
		case alir.Unary:
			t, nOperands = at[op.ID0], 1
		case alir.Binary:
			t, nOperands = math.Max(at[op.ID0], at[op.ID1]), 2
		case alir.MuxOperands:
			t, nOperands = math.Max(at[op.DataLow()], math.Max(at[op.ID0], at[op.ID1])), 3
		case alir.TermOperands:
			for _, x := range op.Terms {
				t = math.Max(t, at[x.ID])
			}
			nOperands = len(op.Terms)
		}
		cost := 0.0
		if e.Adder {
			n := 0
			if k, err := op.QInt.KIF(); err == nil {
				n = k.Width()
			}
			k := max(1, nOperands-1)
			cost = float64(k) * per(n, adder)
			t += per(n, carry)
		}
		at[i] = t
		op.Latency, op.Cost = t, cost
	}
}
