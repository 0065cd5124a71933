package daisopt

import (
	"strconv"
	"strings"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
)

// CSE runs dais-cse on one program: in one forward walk with a hash table,
// an op identical to an earlier one (same op, same operands, same
// attributes other than the latency and cost annotations, same result type)
// is removed and its uses read the earlier op. The operands of an op that
// commutes (alir's opcode table: add and bit_binary with shift 0, mul) are
// compared as an unordered pair. Identical inputs and constants merge too. CSE
// returns the number of ops removed.
func CSE(prog *ir.Operation) (int, error) {
	v, err := load(prog)
	if err != nil {
		return 0, err
	}
	return v.cse(), nil
}

// cseKey identifies an op up to equivalence; operands are representative
// slots.
type cseKey struct {
	name    string
	a, b, c int32
	attrs   string
	typ     string
}

func (v *view) cse() int {
	n := len(v.p.Ops)
	rep := make([]int32, n)
	cur := make([]*ir.Value, n)
	seen := make(map[cseKey]int32, n)
	ops := make([]*ir.Operation, 0, len(v.body.Ops))
	removed := 0
	var sb strings.Builder
	slot := 0
	for _, op := range v.body.Ops {
		if !isSlot(op) {
			ops = append(ops, op)
			continue
		}
		i := slot
		slot++
		ids, k := args(v.p.Ops[i])
		for j := range ids[:k] {
			ids[j] = rep[ids[j]]
		}
		// Unused entries of ids are 0; ops of one name have one arity.
		key := cseKey{name: op.Name, a: ids[0], b: ids[1], c: ids[2], typ: op.Results[0].Type.String()}
		if v.p.Ops[i].Commutes(alir.ALIR) && key.a > key.b {
			key.a, key.b = key.b, key.a
		}
		sb.Reset()
		for _, at := range op.Attrs {
			if !isAnnotation(at.Name) {
				sb.WriteString(at.Name)
				sb.WriteByte('=')
				sb.WriteString(attrString(at.Value))
				sb.WriteByte(';')
			}
		}
		key.attrs = sb.String()
		if prev, ok := seen[key]; ok {
			rep[i] = prev
			cur[i] = cur[prev]
			removed++
			continue
		}
		seen[key] = int32(i)
		rep[i] = int32(i)
		for j, s := range ids[:k] {
			op.Operands[j] = cur[s]
		}
		cur[i] = op.Results[0]
		ops = append(ops, op)
	}
	v.remapOutput(cur)
	v.setOps(ops)
	return removed
}

// attrString prints an attribute value for a key; integers skip the
// general printer, which is slower.
func attrString(a ir.Attr) string {
	if ia, ok := a.(*ir.IntAttr); ok {
		if x, ok := ia.Int64(); ok {
			return strconv.FormatInt(x, 10)
		}
	}
	if s, ok := a.(interface{ String() string }); ok {
		return s.String()
	}
	return "?"
}
