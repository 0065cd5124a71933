package cmvm

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// DepthMinimal, as Options.MaxDepth, bounds the adder depth to the minimal
// adder tree depth of the problem (see MinimalDepth).
const DepthMinimal = -1

// Options tune Solve. The zero value asks for unconstrained depth,
// automatic restarts and a unit cost per adder.
type Options struct {
	// MaxDepth bounds the number of adders on any path from an input to an
	// output: 0 means unconstrained, DepthMinimal means MinimalDepth(p)
	// (plus DepthSlack). A bound below MinimalDepth is an error; bounds
	// above 60 count as 60.
	MaxDepth int
	// DepthSlack, with MaxDepth = DepthMinimal, lets every path take that
	// many levels more than the minimal adder tree (a network gives each
	// layer the same slack: its depth is the sum of theirs).
	DepthSlack int
	// Restarts is the number of randomised attempts made after the
	// deterministic ones; the cheapest graph found is kept. 0 picks a number
	// from the problem's size (AutoRestarts); a negative value means none.
	Restarts int
	// Seed makes the randomised attempts reproducible.
	Seed uint64
	// NoDecompose disables the spanning-tree decompositions: only the plain
	// CSE on M is tried.
	NoDecompose bool
	// AdderSize and CarrySize configure the cost model (CostModel).
	AdderSize, CarrySize int
	// Objective is what Solve minimises: Adders (the zero value) or LUTs.
	Objective Objective
}

// MinimalDepth returns the depth of the plain CSD implementation with
// balanced adder trees: the maximum over outputs of ceil(log2(w)), w the
// number of CSD digits of the output's coefficients (inputs of interval
// [0, 0] excluded), or 0 when no output has two digits. No adder graph can
// be shallower for an output of w digits without a cheaper digit
// representation, and CSD has the fewest digits. DepthMinimal bounds Solve to
// this depth: CSE may then share only the subexpressions that keep every
// output within it.
func MinimalDepth(p Problem) (int, error) {
	n, err := normalize(p)
	if err != nil {
		return 0, err
	}
	return minimalDepth(n), nil
}

func minimalDepth(n *normalized) int {
	d := 0
	for _, r := range n.rows {
		d = max(d, ceilLog2(rowWeight(r)))
	}
	return d
}

// ceilLog2 returns ceil(log2(v)) for v >= 1, and 0 for v <= 1.
func ceilLog2(v int) int {
	d := 0
	for 1<<uint(d) < v {
		d++
	}
	return d
}

// Automatic restarts: a problem whose plain CSD rows hold P digit pairs gets
// effortBudget / P attempts in all (at least the deterministic ones, at
// most maxAutoRestarts more). With 8-bit entries, an 8x8 matrix gets a few
// restarts and a 16x16 one none, keeping both well inside the 15 ms a
// matrix that docs/cmvm.md measures against.
const (
	effortBudget    = 16000
	maxAutoRestarts = 8
)

// AutoRestarts returns the number of randomised attempts Solve makes for p
// when Options.Restarts is 0.
func AutoRestarts(p Problem, opt Options) (int, error) {
	n, err := normalize(p)
	if err != nil {
		return 0, err
	}
	return autoRestarts(n, len(plans(opt, n)), opt.Objective), nil
}

func autoRestarts(n *normalized, deterministic int, obj Objective) int {
	pairs := 1 + digitPairs(n)
	if obj == LUTs {
		return min(max(lutEffortBudget/pairs-deterministic, 0), maxLUTRestarts)
	}
	return min(max(effortBudget/pairs-deterministic, 0), maxAutoRestarts)
}

// Automatic restarts under the LUT objective: LUTs vary by a few per cent
// between attempts where adders hardly do, so more are made. A 16x16 int8
// matrix (about 22,000 digit pairs) gets the most, maxLUTRestarts (about
// 0.3 CPU-s in all; on alkaid's 16x16 matrix 8 restarts reach 4,033 LUTs,
// 64 reach 4,002), a 32x32 one about 13, a 64x64 one none.
const (
	lutEffortBudget = 1 << 21
	maxLUTRestarts  = 64
)

// strategies returns the deterministic attempts for the options: both
// decompositions without a depth bound; under a bound with slack above the
// minimal adder tree, both and the plain CSE (plans limits the trees'
// height); at the minimal depth, or without decomposition, the plain CSE
// only (a decomposition lengthens the paths: y_i = D_i ± y_parent chains
// outputs). Each decomposition needs at most
// maxTreeSize rows (columns). The spanning trees break ties towards the
// shallower tree (shorter chains); problems of at most bothTiesPairs digit
// pairs also try the trees with ties broken by index, the attempts being
// ranked with depth in the balance (better).
func strategies(opt Options, n *normalized) []strategy {
	var sts []strategy
	if !opt.NoDecompose && (opt.MaxDepth == 0 || slackOf(opt, n) > 0) {
		if n.nOut <= maxTreeSize {
			sts = append(sts, rowTreeShallow)
		}
		if n.nIn <= maxTreeSize {
			sts = append(sts, colTreeShallow)
		}
		switch pairs := digitPairs(n); {
		case pairs <= bothTiesPairs:
			for _, st := range sts {
				sts = append(sts, st-rowTreeShallow+rowTree)
			}
		case pairs > singleAttemptPairs && len(sts) > 1:
			// One attempt: the tree over the longer side (more rows or
			// columns to find similar ones among) measured as good as the
			// best of both there.
			if n.nIn > n.nOut {
				sts = sts[1:]
			} else {
				sts = sts[:1]
			}
		default:
			for i, st := range sts {
				sts[i] = st - rowTreeShallow + rowTree
			}
		}
	}
	switch {
	case len(sts) == 0 || digitPairs(n) > plainPairs && n.nOut < 4*n.nIn && opt.MaxDepth == 0:
		sts = append(sts[:0], plainRows)
	case opt.MaxDepth != 0:
		// Under a bound with slack, the plain CSE stays a candidate: a
		// decomposition within the bound is not always cheaper.
		sts = append(sts, plainRows)
	}
	return sts
}

// slackOf returns how many levels a bound leaves above the minimal adder
// tree (0 without a bound).
func slackOf(opt Options, n *normalized) int {
	switch {
	case opt.MaxDepth == DepthMinimal:
		return max(min(opt.DepthSlack, maxBound-minimalDepth(n)), 0)
	case opt.MaxDepth > 0:
		return max(min(opt.MaxDepth, maxBound)-minimalDepth(n), 0)
	}
	return 0
}

// plan is one deterministic attempt: a strategy and, for a decomposition
// under a depth bound, the most differences a spanning-tree path may sum
// (spanRows' maxHops; 0: no limit).
type plan struct {
	st      strategy
	maxHops int
	msd     bool // coefficients in msdRows' forms, not CSD
}

// plans returns the deterministic attempts: each strategy once, and under
// a bound with slack s each decomposition once per height limit 2, 4, ...,
// up to 2^s differences a path (summing them adds about log2 of that many
// levels to a difference's depth) and once unlimited; the attempts that
// miss the bound fail and are dropped.
func plans(opt Options, n *normalized) []plan {
	var ps []plan
	s := slackOf(opt, n)
	for _, st := range strategies(opt, n) {
		if st == plainRows || s == 0 {
			ps = append(ps, plan{st: st})
			continue
		}
		for h := 2; h <= 1<<min(s, maxHopsLog); h *= 2 {
			ps = append(ps, plan{st: st, maxHops: h})
		}
		ps = append(ps, plan{st: st})
	}
	if digitPairs(n) <= msdPairs {
		for _, p := range ps {
			p.msd = true
			ps = append(ps, p)
		}
	}
	return ps
}

// msdPairs is the largest problem (in digit pairs) whose attempts are made
// twice, in CSD and in msdRows' forms: the jet tagger's 64x32 int8 layer
// has about 280,000 pairs, a block of a 128x128 int8 matrix 2 million,
// which keeps its time (docs/cmvm.md).
const msdPairs = 1 << 20

// maxHopsLog bounds the height limits plans tries (2 .. 2^maxHopsLog).
const maxHopsLog = 4

// bothTiesPairs is the largest problem (in digit pairs) whose spanning
// trees are tried with both tie-breaks: a 16x16 matrix of 8-bit entries
// has about 22,000 pairs, a 32x32 one 150,000.
const bothTiesPairs = 1 << 16

// singleAttemptPairs is the largest problem (in digit pairs) that gets
// both decompositions; larger ones (a block of a 128x128 int8 matrix has
// 2 million pairs) only try the tree over the longer side, at half the
// time (docs/cmvm.md).
const singleAttemptPairs = 1 << 20

// plainPairs is the largest problem (in digit pairs) that always tries the
// decompositions; larger ones with fewer than four times as many outputs
// as inputs (128x128 int8, the blocks of 256x256) make one attempt, the
// plain CSE, which measured better there (128x128: 17,370 adders at depth
// 10 against 17,540 at depth 21 for the row tree: docs/cmvm.md). Taller
// ones, like the transpose of a 1024x64 matrix, keep the row tree.
const plainPairs = 1 << 21

// digitPairs returns the number of digit pairs of n's CSD rows.
func digitPairs(n *normalized) int {
	pairs := 0
	for _, r := range n.rows {
		w := rowWeight(r)
		pairs += w * (w - 1) / 2
	}
	return pairs
}

// maxTreeSize bounds the rows (columns) a spanning tree is built over: its
// distance matrix is quadratic in them.
const maxTreeSize = 1024

// Solve lowers p into an adder graph. It makes one deterministic attempt
// per strategy, then Options.Restarts randomised ones (alternating the
// strategies, with random tie-breaks in CSE and in the spanning trees), and
// returns the graph with the fewest adders (then the lowest depth, then the
// lowest cost).
func Solve(p Problem, opt Options) (*Graph, error) {
	n, err := normalize(p)
	if err != nil {
		return nil, err
	}
	bound := -1 // unconstrained
	switch md := minimalDepth(n); {
	case opt.DepthSlack < 0:
		return nil, fmt.Errorf("cmvm: DepthSlack %d is negative", opt.DepthSlack)
	case opt.Objective > LUTs:
		return nil, fmt.Errorf("cmvm: unknown Objective %d", opt.Objective)
	case opt.MaxDepth == DepthMinimal:
		bound = min(md+opt.DepthSlack, maxBound)
	case opt.MaxDepth < 0:
		return nil, fmt.Errorf("cmvm: MaxDepth %d is neither 0, DepthMinimal nor positive", opt.MaxDepth)
	case opt.MaxDepth > 0:
		if opt.MaxDepth < md {
			return nil, &BelowMinimalDepthError{Bound: opt.MaxDepth, Minimal: md}
		}
		bound = min(opt.MaxDepth, maxBound)
	}
	model := CostModel{AdderSize: opt.AdderSize, CarrySize: opt.CarrySize}
	if nt := transposeFor(n, opt, bound); nt != nil {
		if gt, err := solveSplit(nt, opt, model, -1); err == nil {
			if g, err := transposeGraph(gt, n.inputs, model); err == nil {
				return g, nil
			}
		}
		// The transposed problem overflowed: solve as given.
	}
	return solveSplit(n, opt, model, bound)
}

// solveSplit solves n in input blocks when it is too large, else whole.
func solveSplit(n *normalized, opt Options, model CostModel, bound int) (*Graph, error) {
	if k := numBlocks(n); k > 1 {
		if g, err := solveBlocks(n, opt, model, bound, k); err == nil {
			return g, nil
		}
		// Blocks that cannot meet the bound (or overflow): solve whole.
	}
	return solveNormalized(n, opt, model, bound)
}

// solveNormalized makes the attempts of Solve on one (block of a) problem.
func solveNormalized(n *normalized, opt Options, model CostModel, bound int) (*Graph, error) {
	ws := getWorkspace()
	defer putWorkspace(ws)
	return solveIn(ws, n, opt, model, bound)
}

// solveIn is solveNormalized in workspace ws.
func solveIn(ws *workspace, n *normalized, opt Options, model CostModel, bound int) (*Graph, error) {
	sts := plans(opt, n)
	restarts := opt.Restarts
	if restarts == 0 {
		restarts = autoRestarts(n, len(sts), opt.Objective)
	}
	restarts = max(restarts, 0)

	// best meets the bound counting the negations of bare outputs; loose
	// meets it counting adders only (the fallback when nothing meets it).
	var best, loose *Graph
	var bestStats, looseStats candidate
	for a := range len(sts) + restarts {
		var rng *rand.Rand
		if a >= len(sts) {
			rng = rand.New(rand.NewPCG(opt.Seed, uint64(a)))
		}
		g, err := attempt(ws, n, model, bound, sts[a%len(sts)], rng, opt.Objective)
		if err == nil && bound >= 0 && g.Stats().Depth > bound {
			err = errOverBound
		}
		if err != nil {
			// A decomposition can fail where the plain CSE does not (its
			// differences may overflow); the fallback below decides.
			continue
		}
		c := candidateOf(g, opt.Objective)
		if loose == nil || better(c, looseStats, bound < 0) {
			loose, looseStats = g, c
		}
		if bound >= 0 && bareDepth(g, n.bare) > bound {
			continue
		}
		if best == nil || better(c, bestStats, bound < 0) {
			best, bestStats = g, c
		}
	}
	if loose != nil && loose != best && bound-1 >= minimalDepth(n) {
		// A graph that reads a bare output negated at the bound was
		// better, or no other graph met the bound: one level less for the
		// adders leaves room for the negations, and may cost less.
		m := *n
		m.bare = nil
		if g, err := solveIn(ws, &m, opt, model, bound-1); err == nil && bareDepth(g, n.bare) <= bound {
			if best == nil || better(candidateOf(g, opt.Objective), bestStats, false) {
				return g, nil
			}
		}
	}
	switch {
	case best != nil:
		return best, nil
	case loose != nil:
		// At the minimal depth a bare output may need its negation's
		// level above the bound (docs/cmvm.md "Depth bound").
		return loose, nil
	}
	return attempt(ws, n, model, bound, plan{st: plainRows}, nil, opt.Objective)
}

// bareDepth returns the depth of g's outputs as otir-run info counts them
// once lower-tiles has written them: a bare output read negated, unshifted,
// of a node at depth d is at d + 1 (a negation is an adder,
// docs/alir.md#what-info-counts); read negated with a shift s it is
// 0 - v·2^s, a sub with a constant operand: a constant add, no level.
func bareDepth(g *Graph, bare []bool) int {
	d := g.Stats().Depth
	for i, o := range g.Outputs {
		if i >= len(bare) || !bare[i] || !o.Neg || o.Node < 0 || o.Shift != 0 {
			continue
		}
		nd := 0 // an input's
		if id := o.Node - len(g.Inputs); id >= 0 {
			nd = g.Ops[id].Depth
		}
		d = max(d, nd+1)
	}
	return d
}

// candidate is an attempt's graph as better ranks it: its Stats, and its
// estimated LUTs under the LUT objective (0 otherwise).
type candidate struct {
	Stats
	luts int
}

// candidateOf returns g as better ranks it under objective obj.
func candidateOf(g *Graph, obj Objective) candidate {
	c := candidate{Stats: g.Stats()}
	if obj == LUTs {
		c.luts = g.LUTs()
	}
	return c
}

// better orders candidate graphs: fewer adders and negated outputs, then
// lower depth, then lower cost. Without a depth bound (free) depth enters
// the balance: a level of depth weighs depthWeight adders, so an attempt
// with a few more adders but a much shorter critical path wins. Under the
// LUT objective fewer estimated LUTs come first.
func better(s, t candidate, free bool) bool {
	if s.luts != t.luts {
		return s.luts < t.luts
	}
	a, b := 2*(s.Adders+s.Negations), 2*(t.Adders+t.Negations)
	if free {
		a += depthWeight2 * s.Depth
		b += depthWeight2 * t.Depth
	}
	if a != b {
		return a < b
	}
	if s.Adders+s.Negations != t.Adders+t.Negations {
		return s.Adders+s.Negations < t.Adders+t.Negations
	}
	if s.Depth != t.Depth {
		return s.Depth < t.Depth
	}
	return s.Cost < t.Cost
}

// depthWeight2 is twice the adders a level of depth weighs in better:
// 1.5 adders a level took the 16x16 Table 2 set from 330.2 adders at depth
// 13.3 (adders only) to 330.6 at depth 12.8 (docs/cmvm.md).
const depthWeight2 = 3

// BelowMinimalDepthError is Solve's answer to a positive MaxDepth below the
// problem's minimal adder tree, which no graph can meet.
type BelowMinimalDepthError struct{ Bound, Minimal int }

func (e *BelowMinimalDepthError) Error() string {
	return fmt.Sprintf("cmvm: MaxDepth %d is below the minimal adder tree depth %d", e.Bound, e.Minimal)
}

// errOverBound rejects an attempt whose graph is deeper than the bound.
var errOverBound = errors.New("cmvm: attempt deeper than the bound")

// strategy selects how an attempt shapes the problem before CSE.
type strategy int

const (
	plainRows      strategy = iota // CSE on M directly
	rowTree                        // rows as differences along a spanning tree
	colTree                        // columns as differences along a spanning tree
	rowTreeShallow                 // rowTree, spanning-tree ties to the shallower tree
	colTreeShallow                 // colTree, likewise
)

// attempt runs one CSE pass per stage of the strategy and builds the graph.
// bound < 0 means unconstrained depth.
func attempt(ws *workspace, n *normalized, model CostModel, bound int, pl plan, rng *rand.Rand, obj Objective) (*Graph, error) {
	e := newEngine(ws, n.inputs, model, bound, rng)
	e.objective = obj
	e.bonus = occurrenceBonus
	if rng != nil && obj == LUTs {
		// Randomised attempts under LUTs also draw the bonus: the estimate
		// is rough, and a portfolio of valuations finds smaller graphs
		// than noise in the tie-breaks alone.
		e.bonus = rng.IntN(maxOccurrenceBonus + 1)
	}
	st := pl.st
	e.shallow = st == rowTreeShallow || st == colTreeShallow
	e.maxHops = pl.maxHops
	e.msd = pl.msd
	var refs []ref
	var err error
	switch st {
	case plainRows:
		refs, err = e.solveRows(e.rowsOf(n.rows))
	case rowTree, rowTreeShallow:
		refs, err = e.solveRowTree(n.rows)
	case colTree, colTreeShallow:
		refs, err = e.solveColTree(n.rows)
	}
	if err != nil {
		return nil, err
	}
	if debugRecounts {
		println("recounts", e.recounts, "nodes", len(e.nodes), "pool", cap(e.pairs.pool), "slots", cap(e.pairs.keys))
	}
	return e.graph(refs), nil
}

var debugRecounts = false
