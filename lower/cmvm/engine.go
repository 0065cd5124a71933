package cmvm

import (
	"fmt"
	"math/rand/v2"
	"sync"
)

// node is a value the engine can reuse: an input (a = b = -1) or an adder
// a ± (b << shift).
type node struct {
	coef  []int64 // integer coefficients over the problem's inputs
	iv    Interval
	width int
	depth int
	lat   int
	cost  int
	a, b  int32
	shift int32
	sub   bool
}

// term is one signed, shifted node in an output's remaining sum:
// sign · node << shift.
type term struct {
	node  int32
	shift int32
	sign  int8
	// id identifies the term while it is in a row; the pair table keys its
	// occurrence lists and conflict by it.
	id int32
}

// freshTerm is a term created by the current extraction, in row row.
type freshTerm struct {
	row int32
	term
}

// engine holds the state of one attempt: the nodes built so far, the rows
// being reduced and the live patterns over them. An attempt may reduce
// several sets of rows in turn (the stages of a decomposition); nodes and
// the patterns already built carry over.
type engine struct {
	inputs []Interval
	model  CostModel
	rows   []row
	rng    *rand.Rand // nil: deterministic tie-breaks
	// shallow breaks spanning-tree ties towards the shallower tree.
	shallow bool
	// maxHops limits the height of the spanning trees (spanRows); 0: none.
	maxHops int
	// msd writes coefficients in the signed-digit forms msdRows picks
	// instead of CSD.
	msd bool
	// objective selects how CSE values patterns (choose); bonus is the
	// occurrence bonus chooseLUTs credits (occurrenceBonus, or drawn by a
	// randomised attempt).
	objective Objective
	bonus     int

	recounts int // full counts of the rows after the first (statistics)

	bounded bool
	bound   int    // maximal depth when bounded
	full    uint64 // 2^bound

	*workspace
}

// maxBound is the largest depth bound tracked exactly (loads are sums of
// 2^depth in a uint64); larger requests are clamped to it.
const maxBound = 60

// workspace holds the buffers the attempts of one Solve reuse.
type workspace struct {
	nodes   []node
	made    map[uint64]int32 // pattern key -> node computing it
	slab    []int64          // backing store of node coefficient vectors
	pairs   *pairTable
	occBuf  []occurrence
	occCopy []occurrence
	doomed  []int32
	fresh   []freshTerm
}

func newWorkspace() *workspace {
	return &workspace{pairs: &pairTable{freeOcc: -1}, made: map[uint64]int32{}}
}

// workspaces recycles workspaces across Solve calls: a lowering pass solves
// many matrices, and regrowing the buffers each time dominated small solves.
var workspaces = sync.Pool{New: func() any { return newWorkspace() }}

// maxPooledOccurrences keeps workspaces of huge problems out of the pool.
const maxPooledOccurrences = 1 << 20

func getWorkspace() *workspace { return workspaces.Get().(*workspace) }

func putWorkspace(w *workspace) {
	if cap(w.pairs.pool) <= maxPooledOccurrences {
		workspaces.Put(w)
	}
}

// coefs returns a vector of n coefficients carved from the slab, not
// zeroed: the caller sets every one. Vectors of earlier attempts are
// overwritten: only the current attempt's nodes may be alive.
func (w *workspace) coefs(n int) []int64 {
	if len(w.slab)+n > cap(w.slab) {
		w.slab = make([]int64, 0, max(4096, 2*cap(w.slab), n))
	}
	w.slab = w.slab[:len(w.slab)+n]
	return w.slab[len(w.slab)-n:]
}

// newEngine starts an attempt over the given inputs. bound >= 0 limits the
// adder depth of every output; a negative bound means unconstrained.
func newEngine(ws *workspace, inputs []Interval, model CostModel, bound int, rng *rand.Rand) *engine {
	ws.nodes, ws.slab = ws.nodes[:0], ws.slab[:0]
	clear(ws.made)
	e := &engine{inputs: inputs, model: model, rng: rng, workspace: ws}
	if bound >= 0 {
		e.bounded, e.bound = true, min(bound, maxBound)
		e.full = 1 << uint(e.bound)
	}
	for j, iv := range inputs {
		c := e.coefs(len(inputs))
		clear(c)
		c[j] = 1
		e.nodes = append(e.nodes, node{coef: c, iv: iv, width: iv.Width(), a: -1, b: -1})
	}
	return e
}

// makeNode returns the node computing pattern k = a ± (b << d), creating it
// unless the same pattern was built before. Its coefficients, exact
// interval, depth, cost and latency are computed here; an intermediate that
// does not fit in int64 is an error.
func (e *engine) makeNode(k uint64) (int32, error) {
	if id, ok := e.made[k]; ok {
		return id, nil
	}
	if len(e.nodes) >= maxNodes {
		return 0, fmt.Errorf("cmvm: more than %d nodes", maxNodes)
	}
	a, b, d, neg := splitKey(k)
	coef := e.coefs(len(e.inputs))
	na, nb := &e.nodes[a], &e.nodes[b]
	for j := range coef {
		v, ok := addShifted(na.coef[j], nb.coef[j], int(d), neg)
		if !ok {
			return 0, fmt.Errorf("%w: coefficient of input %d in an intermediate sum", ErrOverflow, j)
		}
		coef[j] = v
	}
	iv, err := exactInterval(coef, e.inputs)
	if err != nil {
		return 0, err
	}
	n := node{coef: coef, iv: iv, width: iv.Width(), depth: max(na.depth, nb.depth) + 1,
		a: a, b: b, shift: d, sub: neg}
	var lat int
	n.cost, lat = e.model.Adder(n.width)
	n.lat = max(na.lat, nb.lat) + lat
	id := int32(len(e.nodes))
	e.nodes = append(e.nodes, n)
	e.made[k] = id
	return id, nil
}

// Depth bookkeeping. A row whose terms have depths d_i can be summed within
// depth D exactly when its load, sum 2^d_i, is at most 2^D (a Huffman tree on
// the depths reaches ceil(log2(load))). Replacing two terms of depths d1 <=
// d2 by their sum, of depth d2 + 1, raises the load by 2^d2 - 2^d1: the
// pair's threshold. Under a bound, a pair is usable only while its
// threshold fits the row's slack 2^D - load; loads never fall, so a pair
// that stops fitting never fits again.

// weight returns 2^depth of a term, its share of a row's load.
func (e *engine) weight(t term) uint64 { return 1 << uint(e.nodes[t.node].depth) }

// slack returns how much a row's load may still grow within the bound.
func (e *engine) slack(r *row) uint64 { return e.full - r.load }

// threshold returns how much combining t and u raises a row's load.
func (e *engine) threshold(t, u term) uint64 {
	wt, wu := e.weight(t), e.weight(u)
	return max(wt, wu) - min(wt, wu)
}

// counted reports whether the pair (t, u) of a row with the given slack is a
// usable pattern occurrence (always, without a depth bound).
func (e *engine) counted(t, u term, slack uint64) bool {
	return !e.bounded || e.threshold(t, u) <= slack
}
