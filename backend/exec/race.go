package exec

import (
	"fmt"
	"math/rand/v2"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
)

// checkRaces reruns the grid in reversed and shuffled workgroup orders and
// compares the final #global contents with the row-major run (first): an
// element that some non-atomic write (store or DMA copy) wrote and whose
// final value differs between orders is a race. It records the races in res
// and returns a diagnostic at the write of the first one.
func checkRaces(k *ir.Operation, args []*Buffer, opts Options, first *machine, res *Result) error {
	n := tileview.Len(first.grid)
	seed := opts.Seed
	if seed == 0 {
		seed = 1
	}
	reversed := rowMajor(n)
	for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
		reversed[i], reversed[j] = reversed[j], reversed[i]
	}
	shuffled := rowMajor(n)
	rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)).Shuffle(n, func(i, j int) {
		shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
	})
	names := []string{"row-major", "reversed", fmt.Sprintf("shuffled (seed %d)", seed)}
	machines := []*machine{first}
	for i, order := range [][]int{reversed, shuffled} {
		m, err := newMachine(k, first.prog, args, opts)
		if err != nil {
			return err
		}
		m.track()
		if err := m.run(order); err != nil {
			if d, ok := err.(*diag.Diagnostic); ok {
				return d.Note(k.Loc, "in the run of the workgroups in %s order (race checking); the row-major run succeeded", names[i+1])
			}
			return err
		}
		machines = append(machines, m)
	}
	var first1 *diag.Diagnostic
	for p, g := range first.globals {
		if g == nil {
			continue
		}
		for e, size := 0, g.buf.Len(); e < size; e++ {
			nonAtomic, differs := false, false
			for _, m := range machines {
				mem := m.globals[p]
				if mem.lastStore != nil && mem.lastStore[e] != nil {
					nonAtomic = true
				}
				if !sameNum(mem.buf.num(e), g.buf.num(e)) {
					differs = true
				}
			}
			if !nonAtomic || !differs {
				continue
			}
			r := Race{Param: p, Coord: tileview.Coord(int64(e), g.buf.Shape)}
			for i, m := range machines {
				r.Orders = append(r.Orders, names[i])
				r.Values = append(r.Values, m.globals[p].buf.num(e).String())
			}
			res.Races = append(res.Races, r)
			if first1 == nil {
				first1 = raceDiag(k, machines, names, p, e, r)
			}
		}
	}
	if first1 != nil && len(res.Races) > 1 {
		first1.Msg += fmt.Sprintf(" (%d racy elements in all)", len(res.Races))
	}
	if first1 == nil {
		return nil
	}
	return first1
}

// raceDiag reports one racy element at its last non-atomic write, with a
// note at the last write in each order.
func raceDiag(k *ir.Operation, machines []*machine, names []string, p, e int, r Race) *diag.Diagnostic {
	loc := k.Loc
	for _, m := range machines {
		if op := m.globals[p].lastStore[e]; op != nil {
			loc = op.Loc
			break
		}
	}
	vals := ""
	for i := range r.Values {
		if i > 0 {
			vals += ", "
		}
		vals += fmt.Sprintf("%s in %s order", r.Values[i], r.Orders[i])
	}
	d := diag.Errorf(loc, "race: the final value of %s%s depends on the order in which workgroups run: %s",
		machines[0].globals[p].desc, coordString(r.Coord), vals)
	for i, m := range machines {
		mem := m.globals[p]
		if op := mem.lastStore[e]; op != nil {
			pid := tileview.Coord(int64(mem.lastWG[e]), m.grid)
			d.Note(op.Loc, "written last here by workgroup %s in %s order", coordString(pid), names[i])
		}
	}
	return d
}

// track enables recording of the last non-atomic write to each #global
// element.
func (m *machine) track() {
	for _, g := range m.globals {
		if g != nil {
			g.lastStore = make([]*ir.Operation, g.buf.Len())
			g.lastWG = make([]int, g.buf.Len())
		}
	}
}
