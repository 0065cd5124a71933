package daisopt

import (
	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
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
	for _, o := range v.p.Outputs {
		if o.Index >= 0 {
			live[o.Index] = true
		}
	}
	alir.MarkLive(alir.ALIR, v.p.Ops, live)
	// Renumber the tables the live lookups read, in table order.
	used := make([]bool, len(v.p.Tables))
	for i, op := range v.p.Ops {
		if live[i] && op.Opcode == alir.OpLookup {
			used[op.DataLow()] = true
		}
	}
	renum := make([]int64, len(used))
	next := int64(0)
	removed := 0
	var tables []alir.Table
	var tableLoc []int32
	for t, u := range used {
		renum[t] = next
		if u {
			next++
			tables = append(tables, v.p.Tables[t])
			if t < len(v.d.TableLoc) {
				tableLoc = append(tableLoc, v.d.TableLoc[t])
			}
		} else {
			removed++
		}
	}
	for i := range v.p.Ops {
		if !live[i] {
			removed++
		}
	}
	if removed == 0 {
		return 0 // no need to copy the program
	}
	r := v.rebuild()
	for i, op := range v.p.Ops {
		if !live[i] {
			continue
		}
		if op.Opcode == alir.OpLookup {
			op.Data = renum[op.DataLow()]
		}
		r.keep(i, op)
	}
	r.finish()
	r.v.p.Tables = tables
	r.v.d.TableLoc = tableLoc
	return removed
}
