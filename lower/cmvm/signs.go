package cmvm

import (
	"math"
)

// Sign folding. An output that reads its node negated is free in ALIR
// (out_negs), but not where the output's value is used further (a lowering
// that joins it with other terms, or a consumer without a negation flag):
// there it costs a negation, one more adder on the output's path. foldSigns
// removes such negations where the graph allows: every op may compute its
// value or its negation, since
//
//	-(a + (b << s)) = (-a) - (b << s),  -(a - b) = b - a,
//
// so flipping the sign an op stores changes its consumers (an add becomes a
// sub, or operands swap) and the outputs reading it, never the adder count
// or any depth. An op v = A ± (B << s) can store σ_v·v from σ_A·A and σ_B·B
// exactly when σ_v = σ_A (any shift), or s = 0 and the B operand enters with
// a plus (then the operands swap: σ_v·v = B' - A'). Inputs keep their sign.
//
// The sign choice is a small constraint problem; foldSigns solves it
// greedily: for each output still read negated it tries to flip the node,
// and where the node's op can no longer be written, its A operand or (for
// a zero shift) its B operand, recursively, with every op reading a flipped
// node kept representable. A set of flips is kept when it removes more
// negated outputs than it adds. Passes repeat until no flip helps.

// Negations returns the number of outputs that read an adder negated: with
// ALIR's out_negs they are free, but a consumer that adds the output to
// other values, or cannot negate, needs one negation each. foldSigns
// minimises them.
func (g *Graph) Negations() int {
	n := 0
	for _, o := range g.Outputs {
		if o.Neg && o.Node >= len(g.Inputs) {
			n++
		}
	}
	return n
}

// Bounds on one flip attempt: recursion depth and nodes visited.
const (
	maxSignDepth = 64
	maxSignSteps = 4096
)

// foldSigns flips the signs ops store to remove negated outputs (see above)
// and recomputes the flipped ops' intervals, costs and latencies.
func (g *Graph) foldSigns() {
	nIn := len(g.Inputs)
	nNodes := nIn + len(g.Ops)
	if g.Negations() == 0 {
		return
	}
	// gain[v]: negated minus plain outputs reading node v.
	gain := make([]int, nNodes)
	for _, o := range g.Outputs {
		if o.Node >= nIn {
			if o.Neg {
				gain[o.Node]++
			} else {
				gain[o.Node]--
			}
		}
	}
	fixed := make([]bool, nNodes)
	for j := range nIn {
		fixed[j] = true
	}
	for k, op := range g.Ops {
		if op.Interval.Lo == math.MinInt64 {
			fixed[nIn+k] = true
		}
	}
	users := make([][]int32, nNodes)
	for k, op := range g.Ops {
		users[op.A] = append(users[op.A], int32(nIn+k))
		if op.B != op.A {
			users[op.B] = append(users[op.B], int32(nIn+k))
		}
	}
	flip := make([]bool, nNodes)
	ok := func(v int) bool {
		op := &g.Ops[v-nIn]
		if flip[v] == flip[op.A] {
			return true
		}
		return op.Shift == 0 && (flip[v] != flip[op.B]) == op.Sub
	}
	usersOK := func(v int) bool {
		for _, u := range users[v] {
			if !ok(int(u)) {
				return false
			}
		}
		return true
	}
	// try flips v and, where v's op needs it, its operands (recursively),
	// keeping every op that reads a flipped node representable. On failure
	// it undoes its own flips.
	var undo []int
	touched := make([]int32, nNodes) // attempt stamp: a node flips once per attempt
	stamp := int32(0)
	steps := 0
	var try func(v, depth int) bool
	try = func(v, depth int) bool {
		if fixed[v] || touched[v] == stamp || depth > maxSignDepth || steps > maxSignSteps {
			return false
		}
		steps++
		touched[v] = stamp
		flip[v] = !flip[v]
		undo = append(undo, v)
		mark := len(undo)
		if ok(v) && usersOK(v) {
			return true
		}
		op := g.Ops[v-nIn]
		for _, w := range []int{op.A, op.B} {
			if w == op.B && op.Shift != 0 {
				break
			}
			if try(w, depth+1) && ok(v) && usersOK(v) {
				return true
			}
			for len(undo) > mark {
				u := undo[len(undo)-1]
				flip[u] = !flip[u]
				touched[u] = 0
				undo = undo[:len(undo)-1]
			}
		}
		flip[v] = !flip[v]
		touched[v] = 0
		undo = undo[:mark-1]
		return false
	}
	delta := func() int { // negated outputs removed by the pending flips
		d := 0
		for _, v := range undo {
			if flip[v] {
				d += gain[v]
			} else {
				d -= gain[v]
			}
		}
		return d
	}
	for pass := 0; pass < 4; pass++ {
		changed := false
		for _, o := range g.Outputs {
			v := o.Node
			if v < nIn || o.Neg == flip[v] {
				continue // an input, or already read plain
			}
			stamp++
			steps = 0
			undo = undo[:0]
			if try(v, 0) && delta() > 0 {
				changed = true
				continue
			}
			for _, u := range undo {
				flip[u] = !flip[u]
			}
		}
		if !changed {
			break
		}
	}
	// Rewrite the ops and outputs.
	changed := false
	for v := nIn; v < nNodes; v++ {
		op := &g.Ops[v-nIn]
		if flip[v] == flip[op.A] {
			if flip[v] != flip[op.B] {
				op.Sub = !op.Sub
				changed = true
			}
		} else {
			op.A, op.B, op.Sub = op.B, op.A, true
			changed = true
		}
		if flip[v] {
			op.Interval.Lo, op.Interval.Hi = -op.Interval.Hi, -op.Interval.Lo
			changed = true
		}
	}
	for i := range g.Outputs {
		if o := &g.Outputs[i]; o.Node >= 0 && flip[o.Node] {
			o.Neg = !o.Neg
		}
	}
	if changed {
		g.recost()
	}
}

// recost recomputes every op's cost and latency from its interval.
func (g *Graph) recost() {
	nIn := len(g.Inputs)
	lat := func(id int) int {
		if id < nIn {
			return 0
		}
		return g.Ops[id-nIn].Latency
	}
	for k := range g.Ops {
		op := &g.Ops[k]
		c, l := g.Model.Adder(op.Interval.Width())
		op.Cost = c
		op.Latency = max(lat(op.A), lat(op.B)) + l
	}
}
