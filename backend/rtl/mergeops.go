package rtl

import (
	"fmt"
	"slices"

	"github.com/otir-dev/otir/backend/alir"
)

// mergeEqualOps returns p with every op that repeats an earlier one (the
// same opcode, data, interval and latency on the same operands, operands
// merged first) read through the earlier one: its readers and outputs take
// the earlier op instead, and it stays in place unread, so op indices and
// net names are unchanged. yosys's opt_merge does this to a combinational
// design by itself, but in a pipeline the two copies may be placed at
// different stages, where neither they nor their registers merge. p itself
// is returned when no op repeats.
func mergeEqualOps(p *alir.Program) *alir.Program {
	type opKey struct {
		code      alir.Opcode
		id0, id1  int32
		data      int64
		q         alir.QInterval
		latency   float64
		termsText string // a sum's terms
	}
	canon := make([]int32, len(p.Ops))
	first := make(map[opKey]int32, len(p.Ops))
	resolve := func(id int32) int32 {
		if id >= 0 && int(id) < len(canon) {
			return canon[id]
		}
		return id
	}
	var ops []alir.Op // nil until an op repeats
	var terms []byte
	for i, op := range p.Ops {
		canon[i] = int32(i)
		m := op.MapOperands(p.Dialect, resolve)
		k := opKey{code: m.Opcode, id0: m.ID0, id1: m.ID1, data: m.Data, q: m.QInt, latency: m.Latency}
		if m.Terms != nil {
			terms = terms[:0]
			for _, t := range m.Terms {
				terms = fmt.Appendf(terms, "%d:%d:%t,", t.ID, t.Shift, t.Neg)
			}
			k.termsText = string(terms)
		}
		j, seen := first[k]
		if !seen {
			first[k] = int32(i)
		} else {
			canon[i] = j
		}
		if ops == nil && (seen || m.ID0 != op.ID0 || m.ID1 != op.ID1 || m.Data != op.Data || !slices.Equal(m.Terms, op.Terms)) {
			ops = append(make([]alir.Op, 0, len(p.Ops)), p.Ops[:i]...)
		}
		if ops != nil {
			ops = append(ops, m)
		}
	}
	if ops == nil {
		return p
	}
	q := *p
	q.Ops = ops
	q.Outputs = make([]alir.Output, len(p.Outputs))
	for k, o := range p.Outputs {
		o.Index = resolve(o.Index)
		q.Outputs[k] = o
	}
	return &q
}
