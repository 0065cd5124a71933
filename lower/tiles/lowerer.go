package tiles

import (
	"fmt"
	"math/big"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/cmvm"
)

// Options configure the lowering.
type Options struct {
	// MaxOps bounds the number of dais operations of a program, and the
	// number of OTIR operations and loop iterations the lowering executes
	// while unrolling; beyond it the lowering stops with a diagnostic.
	MaxOps int
	// CarrySize and AdderSize are the cost model's parameters (ERRATA: an
	// n-bit adder takes ceil(n/carry_size) steps and costs
	// ceil(n/adder_size); -1 makes both 1 per adder).
	CarrySize, AdderSize int
	// MaxAdderDepth bounds the adder depth of each constant-matrix product
	// (lower/cmvm): 0 leaves it unconstrained, cmvm.DepthMinimal (-1) bounds it
	// to the minimal adder tree, a positive value to that many adders.
	MaxAdderDepth int
	// AdderDepthSlack: with MaxAdderDepth -1, the levels each product may
	// take above its minimal adder tree (cmvm.Options.DepthSlack).
	AdderDepthSlack int
	// Objective is what each constant-matrix product minimises
	// (cmvm.Options.Objective): adders, or estimated LUTs.
	Objective cmvm.Objective
	// Warn, when not nil, receives a warning for the outputs the program
	// computes as constants and one for the inputs no output depends on
	// (deadsignal.go).
	Warn func(*diag.Diagnostic)
	// Progress, when not nil, is called at coarse points of the lowering
	// (see Progress); nil turns progress reporting off.
	Progress func(Progress)
}

// DefaultMaxOps is the default of Options.MaxOps.
const DefaultMaxOps = 1000000

// lowerer is the state of the lowering of one kernel.
type lowerer struct {
	opts   Options
	kernel *ir.Operation
	prog   *ir.Operation
	// ops are the program's slots, emitted straight into its dense form
	// (dais.Dense): an alir.Op per slot, and where each comes from
	// (an index into locs).
	ops   []alir.Op
	opLoc []int32
	locs  []ir.Location
	locOf map[*ir.Operation]int32
	nOps  int
	steps int
	// progress is reported through opts.Progress (progress.go).
	progress Progress
	// solved holds the constant-matrix problems solved so far, by
	// problemKey (cmvm.go).
	solved map[string]*cmvm.Graph
	// cur is the op being lowered: diagnostics are located there.
	cur *ir.Operation
	// deadAt maps a constant that a varying value became to the op where
	// that happened (deadsignal.go); nil without Options.Warn. outDead is
	// that op for each output (nil: not a constant, or never a signal).
	deadAt  map[*big.Int]*ir.Operation
	outDead []*ir.Operation
	// killed maps a slot to the first op where its value went in and a
	// constant came out (or a zero weight met it): where an input that
	// reaches no output may have died (deadsignal.go).
	killed map[int32]*ir.Operation

	consts map[string]*slot
	// memo finds an op by its name, operands, attributes and type (keyFn
	// gives those of an emitted op); slots are the slots of the ops, by id;
	// slotBlock is where newSlot takes the next one.
	memo      alir.OpKeySet
	keyFn     func(id int32) alir.OpKey
	slots     []*slot
	slotBlock []slot
	bools     map[boolKey]*slot
	// ints are the shared small integers of the bounds (small.go).
	ints map[int64]*big.Int
	args []*argInfo
	// frames are the memory overlays of the enclosing data-dependent
	// branches (innermost last); writes go to the innermost.
	frames  []*overlay
	pending []*dmaCopy
	// nElems counts the tile elements created (limits.go).
	nElems int64
	// pendingCells indexes the cells of pending copies (pending.go).
	pendingCells map[*dmaCopy]*pendingCells

	grid []int64
	pid  []int64
	env  map[*ir.Value]any

	// tables are the program's lookup tables (lookup.go), where each comes
	// from, and the index of each by content; lookups caches the tables of
	// the otir.lookup ops lowered so far.
	tables     []alir.Table
	tableLoc   []int32
	tableIndex map[string]int32
	lookups    map[*ir.Operation]*lookupTable
	// sumScratch is sum's working list of addends, reused.
	sumScratch []num
}

type boolKey struct {
	m   *slot
	inv bool
}

// argInfo is one kernel argument.
type argInfo struct {
	val  *ir.Value
	name string
	// mem holds a #global tile argument; scalar arguments have none.
	mem *memory
	// scalar is a scalar argument's value once read (an input).
	scalar *num
	// inputs are the dais.input ops reading the argument, and the element
	// each reads; they are numbered once all inputs are known.
	inputs     []int32
	inputElems []int
	nElems     int
	written    bool
}

// errf returns a diagnostic at the op being lowered, in the verifier's
// style: 'otir.add' op <message>.
func (l *lowerer) errf(format string, args ...any) *diag.Diagnostic {
	return diag.OpErrorf(l.cur, format, args...)
}

// cannot reports an operation that has no combinational equivalent.
func (l *lowerer) cannot(format string, args ...any) *diag.Diagnostic {
	return l.errf("cannot be lowered to combinational logic: %s", fmt.Sprintf(format, args...))
}

// step counts one executed operation or loop iteration against MaxOps.
func (l *lowerer) step() error {
	l.steps++
	if l.steps > l.opts.MaxOps {
		return l.overMaxOps("unrolling the kernel executes", int64(l.opts.MaxOps), "operations and loop iterations", 1)
	}
	return nil
}
