package tiles

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// This file finds the signals that die during the lowering, for the
// warnings of Options.Warn: outputs the lowering computes as constants and
// inputs no output depends on. The lowering knows exactly which values are
// constant (num.c), so the place where a signal died is known too. Each
// constant an op computes (element-wise ops element by element, matmul
// from the terms of each sum, reduce from all its operands) is tagged with
// the first tag among the constants it was computed from (a dead signal
// went in), or else, when one of those values varies, with the op itself
// (the signal dies here: relu's max with 0, a zero weight); a constant
// computed from untagged constants only stays untagged. Ops that move
// values keep the nums, and so their tags. A tag is a fresh *big.Int of the
// constant's value, a key of lowerer.deadAt. The tagged op's location is
// its source: for nn-to-circuit, the nn node it was lowered from.

// tagDead returns the constant r, computed by op from args, tagged with
// the op where its signal died, if it was ever a signal.
func (l *lowerer) tagDead(r num, op *ir.Operation, args []num) num {
	if _, tagged := l.deadAt[r.c]; tagged {
		return r
	}
	at := l.died(args, op)
	if at == nil {
		return r
	}
	c := new(big.Int).Set(r.c)
	l.deadAt[c] = at
	return num{c: c}
}

// died returns the first tag of a constant among args (a dead signal went
// in), else op when an element of args varies (the signal dies here), else
// nil (constants in, a constant out).
func (l *lowerer) died(args []num, op *ir.Operation) *ir.Operation {
	varied := false
	for _, a := range args {
		if a.c == nil {
			varied = true
		} else if at := l.deadAt[a.c]; at != nil {
			return at
		}
	}
	if varied {
		for _, a := range args {
			l.kill(a, op)
		}
		return op
	}
	return nil
}

// kill records op as where the varying value n went into a constant.
func (l *lowerer) kill(n num, op *ir.Operation) {
	for _, s := range []*slot{n.s, n.m} {
		if s != nil && l.killed[s.id] == nil {
			l.killed[s.id] = op
		}
	}
}

// tagResults tags the constant elements of a computing op's results, each
// by all the operands' elements (a matmul's by its own sum: tagMatmul).
func (l *lowerer) tagResults(op *ir.Operation) {
	var args []num
	for _, v := range op.Operands {
		args = append(args, elemsOf(l.env[v])...)
	}
	for _, r := range op.Results {
		switch x := l.env[r].(type) {
		case num:
			if x.c != nil {
				l.env[r] = l.tagDead(x, op, args)
			}
		case *tile:
			for i, e := range x.elems {
				if e.c != nil {
					x.elems[i] = l.tagDead(e, op, args)
				}
			}
		}
	}
}

// tagMatmul tags the constant elements of D = A·B + C: D[m, n] reads the
// products A[m, k]·B[k, n] and C[m, n]. A product with a constant zero
// factor reads only that factor (its other factor, varying, dies here:
// a zero weight); the others read both.
func (l *lowerer) tagMatmul(op *ir.Operation) {
	a, b := elemsOf(l.env[op.Operands[0]]), elemsOf(l.env[op.Operands[1]])
	c := elemsOf(l.env[op.Operands[2]])
	d, ok := l.env[op.Results[0]].(*tile)
	if !ok || len(d.shape) != 2 || len(a) == 0 || len(a)*len(b) == 0 {
		return
	}
	M, N := int(d.shape[0]), int(d.shape[1])
	K := len(a) / M
	if M*K != len(a) || K*N != len(b) {
		return
	}
	isZero := func(x num) bool { return x.c != nil && x.c.Sign() == 0 }
	for k := range K { // a row of zero weights: A's column k dies here
		if !slices.ContainsFunc(b[k*N:(k+1)*N], func(w num) bool { return !isZero(w) }) {
			for m := range M {
				l.kill(a[m*K+k], op)
			}
		}
	}
	var args []num
	for m := range M {
		for n := range N {
			e := d.elems[m*N+n]
			if e.c == nil {
				continue
			}
			args = args[:0]
			killed := false
			for k := range K {
				x, w := a[m*K+k], b[k*N+n]
				switch {
				case isZero(x):
					args = append(args, x)
					killed = killed || w.c == nil
				case isZero(w):
					args = append(args, w)
					killed = killed || x.c == nil
				default:
					args = append(args, x, w)
				}
			}
			if len(c) == M*N {
				args = append(args, c[m*N+n])
			}
			if l.died(args, op) == nil && killed {
				args = append(args, num{}) // a varying value died here
			}
			d.elems[m*N+n] = l.tagDead(e, op, args)
		}
	}
}

// elemsOf returns the elements of a lowered scalar or tile (none of other
// values).
func elemsOf(x any) []num {
	switch v := x.(type) {
	case num:
		return []num{v}
	case *tile:
		return v.elems
	}
	return nil
}

// warnDead reports the constant outputs and unused inputs of the program
// through Options.Warn: the outputs at the operation where their signal
// died, one warning per source location in the order of the outputs (at
// the kernel the outputs written with a constant that never was a signal),
// the inputs at the kernel.
func (l *lowerer) warnDead(outs []*slot, live []bool) {
	if l.opts.Warn == nil {
		return
	}
	// The places the outputs died, in the order of the outputs: one
	// warning per source location (an nn node lowers to several ops).
	type place struct {
		loc  ir.Location
		dead bool // a signal died there; else written as a constant
	}
	var order []place
	consts := map[place][]string{}
	j := 0
	for _, a := range l.args {
		if a.mem == nil || !a.written {
			continue
		}
		for i := range a.mem.cells {
			if s := outs[j]; s == nil || l.ops[s.id].Opcode == alir.OpConst {
				p := place{l.kernel.Loc, false}
				if at := l.outDead[j]; at != nil {
					p = place{at.Loc, true}
				}
				if _, seen := consts[p]; !seen {
					order = append(order, p)
				}
				consts[p] = append(consts[p], fmt.Sprintf("%s[%d]", a.name, i))
			}
			j++
		}
	}
	unused := map[place][]string{}
	var uorder []place
	var dies func(id int32) *ir.Operation
	for _, a := range l.args {
		if a.written && len(a.inputs) == 0 {
			continue // an output
		}
		used := make([]bool, a.nElems)
		slots := make([][]int32, a.nElems)
		for k, id := range a.inputs {
			e := a.inputElems[k]
			used[e] = used[e] || live[id]
			slots[e] = append(slots[e], id)
		}
		for i, u := range used {
			if u {
				continue
			}
			if dies == nil {
				dies = l.deathFinder()
			}
			p := place{l.kernel.Loc, false}
			for _, id := range slots[i] {
				if at := dies(id); at != nil {
					p = place{at.Loc, true}
					break
				}
			}
			if _, seen := unused[p]; !seen {
				uorder = append(uorder, p)
			}
			unused[p] = append(unused[p], fmt.Sprintf("%s[%d]", a.name, i))
		}
	}
	for _, p := range order {
		names := consts[p]
		where := "written as a constant, never computed from the inputs"
		if p.dead {
			where = "the signal stops depending on the inputs here"
		}
		l.opts.Warn(&diag.Diagnostic{Severity: diag.Warning, Loc: p.loc, Msg: fmt.Sprintf(
			"%d of the circuit's %d outputs %s constant (%s): %s", len(names), j, isAre(len(names)), list(names), where)})
	}
	for _, p := range uorder {
		names := unused[p]
		where := "no operation reads " + itThem(len(names))
		if p.dead {
			where = "the signal stops here"
		}
		l.opts.Warn(&diag.Diagnostic{Severity: diag.Warning, Loc: p.loc, Msg: fmt.Sprintf(
			"%d of the circuit's inputs %s unused (%s): no output depends on %s; %s", len(names), isAre(len(names)), list(names), itThem(len(names)), where)})
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

// deathFinder returns a function giving, for a slot, the first op (in slot
// order) where it or a value computed from it went into a constant
// (lowerer.killed), nil when there is none.
func (l *lowerer) deathFinder() func(int32) *ir.Operation {
	users := make([][]int32, len(l.ops))
	for i, op := range l.ops {
		op.ForOperands(alir.ALIR, func(x int32) { users[x] = append(users[x], int32(i)) })
	}
	return func(id int32) *ir.Operation {
		seen := map[int32]bool{id: true}
		queue := []int32{id}
		var first int32 = -1
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			if l.killed[s] != nil && (first < 0 || s < first) {
				first = s
			}
			for _, u := range users[s] {
				if !seen[u] {
					seen[u] = true
					queue = append(queue, u)
				}
			}
		}
		if first < 0 {
			return nil
		}
		return l.killed[first]
	}
}
