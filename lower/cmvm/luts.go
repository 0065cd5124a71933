package cmvm

import "github.com/otir-dev/otir/backend/alir"

// The LUT objective. Adders are a poor proxy for area: on an FPGA an adder
// costs about one LUT a bit of its carry chain, and CSE's patterns differ
// widely in what they save. Options.Objective = LUTs makes Solve minimise
// an estimate of the LUTs synth_xilinx spends (alir.AdderLUTs summed over the
// graph) instead of the adder count: patterns are chosen by the LUTs they
// save (chooseLUTs), attempts are ranked by their LUTs (better), and more
// randomised attempts are made (autoRestarts), since LUTs vary more between
// attempts than adders do (docs/cmvm.md "LUT objective").

// Objective selects what Solve minimises.
type Objective uint8

const (
	// Adders minimises the adders (otir-run info's count), then depth,
	// then cost: the default.
	Adders Objective = iota
	// LUTs minimises the estimated LUTs (Graph.LUTs), then adders, then
	// depth.
	LUTs
)

// LUTs returns g's estimated LUTs: alir.AdderLUTs of every op, and the width of
// every output read negated (a negation is an adder unless folded away).
// Values are placed in Eval's units (2^Unit()): a node of interval step
// 2^Exp starts Exp - Unit() bits up, its lower bits being wires.
func (g *Graph) LUTs() int {
	unit := g.Unit()
	span := func(id int) (lsb, width int) {
		var iv Interval
		if id < len(g.Inputs) {
			iv = g.Inputs[id]
		} else {
			iv = g.Ops[id-len(g.Inputs)].Interval
		}
		return iv.Exp - unit, iv.Width()
	}
	n := 0
	for k, op := range g.Ops {
		la, wa := span(op.A)
		lb, wb := span(op.B)
		lr, wr := span(len(g.Inputs) + k)
		n += alir.PlacedAdderLUTs(la, wa, lb+op.Shift, wb, lr, wr)
	}
	for _, o := range g.Outputs {
		if o.Neg && o.Node >= 0 {
			_, w := span(o.Node)
			n += w
		}
	}
	return n
}

// occurrenceBonus is the LUTs an extracted occurrence is credited beyond
// the bits it removes from its row: the carry cell and the sign extension
// of the adder the row no longer needs. On random int8 matrices of 8x8 to
// 32x32 the deterministic attempts with bonuses 0..8 differ by under 1 %;
// 2 was best on 16x16.
const occurrenceBonus = 2

// maxOccurrenceBonus bounds the bonus randomised attempts draw.
const maxOccurrenceBonus = 8

// patternLUTs values extracting pattern a ± (b << d) at n occurrences in
// LUTs saved: each occurrence replaces two terms of wa and wb bits in its
// row by one of about max(wa, wb + d) + 1 bits, and the node itself costs
// alir.AdderLUTs. A pattern of distant terms (large d) saves adders but hardly
// any LUTs: its node is as wide as the two terms together.
func patternLUTs(n int32, wa, wb, d, bonus int) float64 {
	wn := max(wa, wb+d) + 1
	return float64(n)*float64(wa+wb-wn+bonus) - float64(alir.AdderLUTs(wn, wa, wb, d))
}

// chooseLUTs is choose under the LUT objective: the live pattern saving
// the most LUTs (patternLUTs), ties going to the fewest conflicts (with the
// randomised attempts' noise). Buckets are scanned from the most frequent
// down while a pattern of that count could still beat the best.
func (e *engine) chooseLUTs() (int32, bool) {
	t := e.pairs
	maxW := 0
	for i := range e.nodes {
		maxW = max(maxW, e.nodes[i].width)
	}
	bonus := e.bonus
	perOccurrence := float64(maxW - 1 + bonus) // bounds wa + wb - wn + bonus
	var (
		best      int32 = -1
		bestValue float64
		bestScore float64
	)
	for c := t.top; c >= 2; c-- {
		bucket := t.buckets[c]
		if len(bucket) == 0 && best < 0 {
			t.top = c - 1
			continue
		}
		if best >= 0 && bestValue >= float64(c)*perOccurrence {
			break // no pattern left can save more
		}
		for x, i := range bucket {
			n := e.bucketEffective(c, x, i)
			if n < 2 {
				continue
			}
			a, b, d, _ := splitKey(t.keys[i])
			v := patternLUTs(n, e.nodes[a].width, e.nodes[b].width, int(d), bonus)
			if best >= 0 && v < bestValue {
				continue
			}
			s := -float64(e.bucketConflicts(c, x, i))
			if e.rng != nil {
				s += e.rng.Float64() * jitter
			}
			if best < 0 || v > bestValue || s > bestScore {
				best, bestValue, bestScore = i, v, s
			}
		}
	}
	return best, best >= 0
}
