package tiles

import (
	"fmt"
	"strings"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// This file finds the signals that die during the lowering, for the
// warnings of Options.Warn: outputs the lowering computes as constants
// and inputs no output depends on. The lowering knows exactly which
// values are constant (num.c) and the bounds of the others, so the first
// operation whose result has a constant element that a varying operand
// element fed (an element-wise op), or whose results are all constant
// while an operand varies (any other op), is where a signal died. Its
// location is the source of that operation: for nn-to-circuit, the nn
// node it was lowered from.

// noteDeath records op as the place a signal died (the first one is kept).
func (l *lowerer) noteDeath(op *ir.Operation) {
	if l.opts.Warn != nil && l.died == nil {
		l.died = op
	}
}

// varies reports whether any element of a lowered value is not constant.
func varies(x any) bool {
	switch v := x.(type) {
	case num:
		return v.c == nil
	case *tile:
		for _, e := range v.elems {
			if e.c == nil {
				return true
			}
		}
	}
	return false
}

// constantResults reports whether op has results and every element of
// every one is a constant.
func (l *lowerer) constantResults(op *ir.Operation) bool {
	if len(op.Results) == 0 {
		return false
	}
	for _, r := range op.Results {
		switch v := l.env[r].(type) {
		case num, *tile:
			if varies(v) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// checkDeath notes op when its results are all constant though an operand
// varies (element-wise ops check each element as they go).
func (l *lowerer) checkDeath(op *ir.Operation) {
	if l.opts.Warn == nil || l.died != nil || !l.constantResults(op) {
		return
	}
	for _, v := range op.Operands {
		if varies(l.env[v]) {
			l.noteDeath(op)
			return
		}
	}
}

// warnDead reports the constant outputs and unused inputs of the program
// through Options.Warn: the outputs at the operation where the first
// signal died (the kernel when none did: an output written with a
// constant), the inputs at the kernel.
func (l *lowerer) warnDead(outs []*slot, live []bool) {
	if l.opts.Warn == nil {
		return
	}
	var consts, unused []string
	j := 0
	for _, a := range l.args {
		if a.mem == nil || !a.written {
			continue
		}
		for i := range a.mem.cells {
			if s := outs[j]; s == nil || l.ops[s.id].Opcode == alir.OpConst {
				consts = append(consts, fmt.Sprintf("%s[%d]", a.name, i))
			}
			j++
		}
	}
	for _, a := range l.args {
		if a.written && len(a.inputs) == 0 {
			continue // an output
		}
		used := make([]bool, a.nElems)
		for k, id := range a.inputs {
			used[a.inputElems[k]] = used[a.inputElems[k]] || live[id]
		}
		for i, u := range used {
			if !u {
				unused = append(unused, fmt.Sprintf("%s[%d]", a.name, i))
			}
		}
	}
	if len(consts) > 0 {
		at, where := l.kernel.Loc, "an output is written with a constant"
		if l.died != nil {
			at, where = l.died.Loc, "the signal stops depending on the inputs here"
		}
		l.opts.Warn(&diag.Diagnostic{Severity: diag.Warning, Loc: at, Msg: fmt.Sprintf(
			"%d of the circuit's %d outputs %s constant (%s): %s", len(consts), j, isAre(len(consts)), list(consts), where)})
	}
	if len(unused) > 0 {
		l.opts.Warn(&diag.Diagnostic{Severity: diag.Warning, Loc: l.kernel.Loc, Msg: fmt.Sprintf(
			"%d of the circuit's inputs %s unused (%s): no output depends on %s", len(unused), isAre(len(unused)), list(unused), itThem(len(unused)))})
	}
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func itThem(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// list joins the first few names, saying how many more there are.
func list(names []string) string {
	const most = 4
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:most], ", ") + fmt.Sprintf(", and %d more", len(names)-most)
}
