package daisopt

import (
	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// DCE runs dais-dce on one program: it removes every slot op that no output
// depends on (one backward walk marks the slots the outputs read, then
// everything they read), then every lookup table no remaining lookup reads,
// renumbering the `table` attributes of the lookups. The program's inputs
// stay (an unused input keeps its place in inp_shifts). A removed lookup
// whose index would have been out of range no longer fails at run time.
// DCE returns the number of ops (slots and tables) removed.
func DCE(prog *ir.Operation) (int, error) {
	v, err := load(prog)
	if err != nil {
		return 0, err
	}
	return v.dce(), nil
}

func (v *view) dce() int {
	live := make([]bool, len(v.p.Ops))
	for _, s := range v.outSlot {
		if s >= 0 {
			live[s] = true
		}
	}
	for i := len(v.p.Ops) - 1; i >= 0; i-- {
		if live[i] {
			ids, k := args(v.p.Ops[i])
			for _, a := range ids[:k] {
				live[a] = true
			}
		}
	}
	// Renumber the tables the live lookups read, in table order.
	used := make([]bool, len(v.p.Tables))
	for i, op := range v.p.Ops {
		if live[i] && op.Opcode == alir.OpLookup {
			used[op.DataLow()] = true
		}
	}
	renum := make([]int64, len(used))
	next := int64(0)
	for t, u := range used {
		renum[t] = next
		if u {
			next++
		}
	}
	ops := make([]*ir.Operation, 0, len(v.body.Ops))
	removed, slot, table := 0, 0, 0
	for _, op := range v.body.Ops {
		switch {
		case op.Name == dais.OpTable:
			keep := used[table]
			table++
			if !keep {
				removed++
				continue
			}
		case isSlot(op):
			i := slot
			slot++
			if !live[i] {
				removed++
				continue
			}
			if a := v.p.Ops[i]; a.Opcode == alir.OpLookup && renum[a.DataLow()] != int64(a.DataLow()) {
				op.SetAttr("table", ir.I64(renum[a.DataLow()]))
			}
		}
		ops = append(ops, op)
	}
	v.setOps(ops)
	return removed
}
