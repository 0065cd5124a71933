package exec

import (
	"fmt"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
)

// pickLookup is a table lookup: the result for x is the table's entry
// x - min, min the least value of x's type (the table has one entry per
// value of the type, in ascending order).
func pickLookup(op *ir.Operation, in []ir.Type, _ ir.Type) (scalarFn, error) {
	table, min := otir.LookupEntries(op)
	if table == nil {
		return nil, fmt.Errorf("has no table of integers")
	}
	if _, ok := in[0].(*ir.IntType); !ok {
		return nil, fmt.Errorf("the input must have integer elements, not %s", in[0])
	}
	entries := make([]num, len(table))
	for i, v := range table {
		entries[i] = bigNum(v)
	}
	lo := bigNum(min)
	return func(a []num) (num, error) {
		j := subInt(a[0], lo)
		if j.k != kInt || j.i < 0 || j.i >= int64(len(entries)) {
			return num{}, fmt.Errorf("lookup index %s is outside the table of %d entries", j, len(entries))
		}
		return entries[j.i], nil
	}, nil
}
