package tiles

import (
	bin "encoding/binary"
	"math"
	"math/big"
	"math/bits"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/internal/intrange"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// Table lookups: each element becomes one dais.lookup (ALIR opcode 8), and
// the table it reads is added to the program once.
//
// ALIR indexes a table by x - R(min_x/step_x), from the interval of the
// lookup's operand x, not from x's OTIR type: the lowering gives a slot the
// interval its values can take, which may be narrower than the type's. The
// program's table is therefore the slice of the OTIR table over x's
// interval (entry j for the value min_x + j), so that index 0 is min_x's
// entry. The lookup's interval is the slice's range; a slice of one value
// is a constant and needs no lookup.

// lookupTable is an otir.lookup's table: its entries for the input type's
// values in ascending order, the least of which is min, and the program
// tables of its slices made so far, by operand interval.
type lookupTable struct {
	entries []*big.Int
	min     *big.Int
	slices  map[[2]int64]tableSlice
}

// tableSlice is the program table of a lookup over one operand interval:
// table (its index in the program; -1 when the slice holds the one value
// lo), and the range lo..hi of its entries.
type tableSlice struct {
	table  int32
	lo, hi *big.Int
}

// lookupElem lowers otir.lookup on one element.
func lookupElem(l *lowerer, op *ir.Operation, a []num, _ []intT, rt intT) (num, error) {
	t := l.lookups[op]
	if t == nil {
		entries, min := otir.LookupEntries(op)
		if entries == nil {
			return num{}, l.errf("internal error: no table")
		}
		t = &lookupTable{entries: entries, min: min, slices: map[[2]int64]tableSlice{}}
		if l.lookups == nil {
			l.lookups = map[*ir.Operation]*lookupTable{}
		}
		l.lookups[op] = t
	}
	x := a[0]
	if err := l.needExact(x); err != nil {
		return num{}, err
	}
	if x.c != nil {
		e, err := l.entry(t, x.c)
		if err != nil {
			return num{}, err
		}
		return constNum(e), nil
	}
	s, err := l.data(x)
	if err != nil {
		return num{}, err
	}
	sl, err := l.slice(t, l.ops[s.id].QInt)
	if err != nil {
		return num{}, err
	}
	if sl.table < 0 {
		return constNum(sl.lo), nil
	}
	return l.value(dais.OpLookup, []*slot{s}, ir.Attrs{{Name: "table", Value: ir.I64(int64(sl.table))}}, sl.lo, sl.hi, rt)
}

// slice returns the program table of t's entries over the operand interval
// q (an integer interval within the input type), adding it to the program
// the first time.
func (l *lowerer) slice(t *lookupTable, q alir.QInterval) (tableSlice, error) {
	if q.Step != 1 || q.Min != math.Trunc(q.Min) || q.Max != math.Trunc(q.Max) {
		return tableSlice{}, l.errf("internal error: lookup operand of interval %v is not an integer interval", q)
	}
	key := [2]int64{int64(q.Min), int64(q.Max)}
	if sl, ok := t.slices[key]; ok {
		return sl, nil
	}
	first, last := big.NewInt(key[0]), big.NewInt(key[1])
	lo, err := l.entry(t, first)
	if err != nil {
		return tableSlice{}, err
	}
	if _, err := l.entry(t, last); err != nil {
		return tableSlice{}, err
	}
	base := sub(first, t.min).Int64()
	entries := t.entries[base : base+key[1]-key[0]+1]
	hi := lo
	values := make([]int32, len(entries))
	for i, v := range entries {
		if !v.IsInt64() || v.Int64() != int64(int32(v.Int64())) {
			return tableSlice{}, l.cannot("table entry %v does not fit ALIR's 32-bit tables", v)
		}
		values[i] = int32(v.Int64())
		lo, hi = intrange.Min(lo, v), intrange.Max(hi, v)
	}
	sl := tableSlice{table: -1, lo: lo, hi: hi}
	if lo.Cmp(hi) != 0 {
		out, err := dais.IntInterval(lo, hi)
		if err != nil {
			return tableSlice{}, l.errf("internal error: %v", err)
		}
		// inp_width is alkaid's: ceil(log2(entries)), the index's width.
		sl.table = l.table(alir.Table{Values: values, OutQInt: out, InpWidth: bits.Len(uint(len(values) - 1))})
	}
	t.slices[key] = sl
	return sl, nil
}

// entry is the table's entry for the value v of the input type.
func (l *lowerer) entry(t *lookupTable, v *big.Int) (*big.Int, error) {
	j := sub(v, t.min)
	if j.Sign() < 0 || j.Cmp(big.NewInt(int64(len(t.entries)))) >= 0 {
		return nil, l.errf("internal error: lookup index %v is outside the table of %d entries", j, len(t.entries))
	}
	return t.entries[j.Int64()], nil
}

// table returns the index of a program table with t's values and spec,
// adding it unless an identical one is there.
func (l *lowerer) table(t alir.Table) int32 {
	key := make([]byte, 0, 4*len(t.Values)+8)
	key = bin.LittleEndian.AppendUint32(key, uint32(t.InpWidth))
	for _, v := range t.Values {
		key = bin.LittleEndian.AppendUint32(key, uint32(v))
	}
	if i, ok := l.tableIndex[string(key)]; ok {
		return i
	}
	if l.tableIndex == nil {
		l.tableIndex = map[string]int32{}
	}
	i := int32(len(l.tables))
	l.tables = append(l.tables, t)
	l.tableLoc = append(l.tableLoc, l.locIndex())
	l.tableIndex[string(key)] = i
	return i
}
