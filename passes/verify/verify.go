// Package verify is the generic verifier of the IR: it checks every operation
// against its record (ir.OpDef) and the IR's structural rules, then runs the
// record's Verify hook, where each dialect keeps its operations' own rules
// (dialect/otir, dialect/scf, lower/dais). It reports each violation at the
// offending operation with an MLIR-style message: "'otir.alloc' op cannot
// allocate in #global memory (...)".
//
// The verifier reports at most one diagnostic per operation (the first rule it
// breaks, so that cascades stay quiet) and reports all operations of the module,
// in program order. The rules, and where each lives, are listed in
// docs/verifier.md.
//
// Verification is linear in the size of the module: a walk that numbers the
// ops of each block (for dominance, as MLIR does) then a walk in which each op
// is checked against its form (operand, result and region counts, attribute
// kinds, all from its record) before its semantic rules, so no malformed IR
// can make it panic. The second walk checks large blocks in parallel, with the
// diagnostics of a sequential walk.
package verify

import (
	"runtime"
	"slices"
	"sync"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// maxDepth bounds region nesting; deeper (or cyclic) IR is diagnosed instead of
// overflowing the stack.
const maxDepth = 1000

// parallelOps is the fewest ops per range of a block checked in parallel: a
// block of n ops is split into min(GOMAXPROCS, n/parallelOps) ranges, so only
// blocks of at least 2*parallelOps ops are. Checking an op takes about 150 ns,
// so a range of 2048 ops takes 0.3 ms, a hundred times the cost of starting
// its goroutine; on 2 cores, splitting paid from about 1000 ops per range.
// Typical kernels stay sequential. A variable so tests can force the parallel
// walk on small blocks.
var parallelOps = 2048

// Verify checks the module and returns every violation found (nil if none).
//
// It numbers the ops of every block (ir.NumberBlock), so it must not run
// concurrently with anything else using the same IR.
func Verify(m *ir.Module) diag.List {
	if m == nil || m.Op == nil {
		return diag.List{diag.Errorf(ir.Location{}, "module is null")}
	}
	if m.Op.Name != ir.OpModule {
		return diag.List{opError(m.Op, "cannot be the top-level operation (expected '%s')", ir.OpModule)}
	}
	v := newVerifier()
	v.unregistered = m.AllowUnregistered
	if !v.number(m.Op, 0) {
		v.useSets(m.Op)
	}
	v.visit(m.Op, nil, nil)
	return v.diags
}

// countOps counts the ops under op (to size the verifier's tables up front),
// entering each op with regions once (seen guards against shared or cyclic
// nesting).
func countOps(op *ir.Operation, depth int, seen *opSet) int {
	n := 1
	if len(op.Regions) == 0 || depth >= maxDepth || !seen.add(op) {
		return n
	}
	for b := range op.Blocks() {
		for _, o := range b.Ops {
			if o != nil {
				n += countOps(o, depth+1, seen)
			}
		}
	}
	return n
}

// VerifyOp checks one operation and everything nested in it, in the context of
// its enclosing blocks (so its operands must dominate it and an otir.program_id
// sees its kernel's grid). A detached op is checked on its own. Like Verify,
// it numbers the ops of the blocks it checks and of the enclosing ones.
func VerifyOp(op *ir.Operation) diag.List {
	if op == nil {
		return diag.List{diag.Errorf(ir.Location{}, "operation is null")}
	}
	v := newVerifier()
	// The enclosing blocks, innermost first.
	var chain []*ir.Block
	seen := map[*ir.Block]bool{}
	for b := op.Block; b != nil && !seen[b] && len(chain) < maxDepth; {
		seen[b] = true
		chain = append(chain, b)
		p := b.ParentOp()
		if p == nil {
			break
		}
		b = p.Block
	}
	// Enter them, outermost first: in each, the ops before op's ancestor (all
	// of them if the links are stale and it is not there) are defined.
	v.scopes = make([]*ir.Block, len(chain))
	v.anc = make([]int, len(chain))
	v.owners = make([]*ir.Operation, 0, len(chain))
	regular := true
	inner := op
	for i, b := range chain {
		j := slices.Index(b.Ops, inner)
		if j < 0 {
			j = len(b.Ops)
		}
		regular = ir.NumberBlock(b, v.stamp) == nil && regular
		v.scopes[len(chain)-1-i], v.anc[len(chain)-1-i] = b, j
		inner = b.ParentOp()
	}
	// The ops owning those blocks, outermost first (a block without one
	// ends the chain).
	for i := len(chain) - 1; i >= 0; i-- {
		if p := chain[i].ParentOp(); p != nil {
			v.owners = append(v.owners, p)
		}
	}
	if !regular || !v.number(op, len(chain)) {
		v.useSets(op)
		for i, b := range v.scopes {
			for _, o := range b.Ops[:v.anc[i]] {
				if o != nil {
					v.defined.add(o)
				}
			}
		}
	}
	if isSymbol(op) && op.Block != nil {
		// Earlier symbols of the module are those op may clash with.
		for _, o := range op.Block.Ops {
			if o == op {
				break
			}
			if o != nil && isSymbol(o) {
				v.declare(o)
			}
		}
	}
	v.visit(op, op.Block, op.ParentOp())
	return v.diags
}

// verifier is the state of one verification walk.
type verifier struct {
	diags diag.List
	// unregistered accepts operations of unregistered names, checking only
	// their structure (a module parsed with --allow-unregistered-dialect).
	unregistered bool
	// scopes are the blocks enclosing the op being checked, outermost first,
	// and anc[i] the index in scopes[i] of that op or of its ancestor there.
	scopes []*ir.Block
	anc    []int
	// stamp is the numbering of the ops under check (see number): an op
	// defined in block scopes[i] dominates the op being checked if its order
	// is below anc[i].
	stamp uint32
	// On irregular IR, defined and entered replace the numbering: defined
	// holds the ops whose results are available to later uses, those already
	// walked (an op is added after its regions, so neither it nor its nested
	// ops see its own results), and entered the ops with regions already
	// walked into. Both are nil on regular IR.
	defined, entered *opSet
	// owners are the ops whose regions hold the op being checked, as the walk
	// reached them, outermost first: the Ancestors of the hooks' context.
	owners []*ir.Operation
	ctx    ir.VerifyContext
	// symbols maps the names of the module's symbols (ops with the Symbol
	// trait) to their first definition.
	symbols map[string]*ir.Operation
	// owner is the op whose region holds the op being checked (nil at the
	// top), as found by the walk rather than through possibly stale links.
	owner *ir.Operation
}

func newVerifier() *verifier {
	return &verifier{stamp: ir.NewOrderStamp()}
}

// number numbers the blocks under op (at nesting depth depth) for the
// dominance check, and reports whether the IR there is regular: no op listed
// twice or inside its own regions, every op linked to its block, no region
// nested deeper than maxDepth, no builtin.module below the top. On irregular
// IR, which only a buggy pass makes, the walk uses sets instead (useSets),
// which diagnose it, and runs sequentially.
func (v *verifier) number(op *ir.Operation, depth int) bool {
	if len(op.Regions) == 0 {
		return true
	}
	if depth >= maxDepth {
		return false
	}
	for b := range op.Blocks() {
		if ir.NumberBlock(b, v.stamp) != nil {
			return false
		}
		for _, o := range b.Ops {
			if o != nil && len(o.Regions) > 0 && (o.Name == ir.OpModule || !v.number(o, depth+1)) {
				return false
			}
		}
	}
	return true
}

// useSets switches the walk of root to the sets of ops defined and entered.
func (v *verifier) useSets(root *ir.Operation) {
	v.defined = newOpSet(countOps(root, 0, newOpSet(0)))
	v.entered = newOpSet(0)
}

// visit checks op, held by block parent of op owner, then the ops nested in
// it, in program order.
func (v *verifier) visit(op *ir.Operation, parent *ir.Block, owner *ir.Operation) {
	v.owner = owner
	d := v.check(op, parent)
	if d != nil {
		v.diags = append(v.diags, d)
	}
	if len(op.Regions) > 0 {
		// An op with regions reached twice (listed twice, or inside itself)
		// would make the walk repeat itself exponentially or forever.
		if v.entered != nil && !v.entered.add(op) {
			if d == nil {
				v.diags = append(v.diags, opError(op, "appears more than once in the IR (or inside its own regions)"))
			}
			return
		}
		if len(v.scopes) >= maxDepth {
			v.diags = append(v.diags, opError(op, "regions are nested more than %d deep", maxDepth))
			return
		}
		v.owners = append(v.owners, op)
		for b := range op.Blocks() {
			v.scopes = append(v.scopes, b)
			v.anc = append(v.anc, 0)
			if k := v.ranges(b, op); k > 1 {
				v.visitParallel(b, op, k)
			} else {
				v.visitRange(b, op, 0, len(b.Ops))
			}
			v.scopes = v.scopes[:len(v.scopes)-1]
			v.anc = v.anc[:len(v.anc)-1]
		}
		v.owners = v.owners[:len(v.owners)-1]
	}
	if v.defined != nil && len(op.Results) > 0 && !v.defined.add(op) && d == nil && len(op.Regions) == 0 {
		v.diags = append(v.diags, opError(op, "appears more than once in the IR"))
	}
}

// visitRange visits ops [lo, hi) of block b, the innermost scope, of op owner.
func (v *verifier) visitRange(b *ir.Block, owner *ir.Operation, lo, hi int) {
	top := len(v.anc) - 1
	for i := lo; i < hi; i++ {
		if o := b.Ops[i]; o != nil {
			v.anc[top] = i
			v.visit(o, b, owner)
		}
	}
}

// ranges is the number of ranges to check block b of op owner in: 1 (a
// sequential walk) unless b is large, the IR regular (v.defined == nil) and b
// declares no symbols. Only kernels declare symbols, and only in the module
// body (number rejects nested modules).
func (v *verifier) ranges(b *ir.Block, owner *ir.Operation) int {
	if v.defined != nil || owner.Name == ir.OpModule {
		return 1
	}
	return max(1, min(len(b.Ops)/max(parallelOps, 1), runtime.GOMAXPROCS(0)))
}

// visitParallel visits the ops of block b, the innermost scope, of op owner
// in k contiguous ranges, each in its own goroutine with its own copy of the
// walk state, and appends the ranges' diagnostics in order, so the result is
// that of visitRange. The ranges share the IR and symbols, which they only
// read (see ranges).
func (v *verifier) visitParallel(b *ir.Block, owner *ir.Operation, k int) {
	diags := make([]diag.List, k)
	panics := make([]any, k)
	var wg sync.WaitGroup
	for j := range k {
		wg.Go(func() {
			defer func() { panics[j] = recover() }()
			// Copied here, not by the caller, so that no two ranges write
			// (anc[top] at each op) to the same cache line.
			w := *v
			w.diags = nil
			w.scopes, w.anc = slices.Clone(v.scopes), slices.Clone(v.anc)
			w.owners = slices.Clone(v.owners)
			w.visitRange(b, owner, j*len(b.Ops)/k, (j+1)*len(b.Ops)/k)
			diags[j] = w.diags
		})
	}
	wg.Wait()
	for j := range k {
		if panics[j] != nil {
			panic(panics[j]) // as the sequential walk would have
		}
		v.diags = append(v.diags, diags[j]...)
	}
}

// check returns the first rule op breaks, or nil. The order is: registration,
// linkage, form (from the op's record: counts, nil-ness, attribute kinds), the
// dialects' rules on every op (ir.RegisterOpCheck: otir's on tokens),
// placement, dominance, then the record's Verify hook, and last, for a
// symbol, its redefinition.
func (v *verifier) check(op *ir.Operation, parent *ir.Block) *diag.Diagnostic {
	def := ir.LookupOp(op.Name)
	if def == nil && !v.unregistered {
		return &diag.Diagnostic{Severity: diag.Error, Loc: op.Loc, Msg: "unregistered operation '" + op.Name + "'"}
	}
	if parent != nil && op.Block != parent {
		return opError(op, "is not linked to the block that holds it")
	}
	if d := checkForm(op, def); d != nil {
		return d
	}
	for _, c := range ir.OpChecks() {
		if err := c(op); err != nil {
			return asDiag(op, err)
		}
	}
	if d := checkPlacement(op, def, parent, v.owner); d != nil {
		return d
	}
	if d := v.checkDominance(op, parent); d != nil {
		return d
	}
	if def == nil {
		return nil
	}
	first := op
	if def.Has(ir.Symbol) {
		first = v.declare(op)
	}
	if def.Verify != nil {
		v.ctx.Ancestors = v.owners
		if err := def.Verify(op, &v.ctx); err != nil {
			return asDiag(op, err)
		}
	}
	if first != op {
		name, _ := op.StringAttr("sym_name")
		return (&diag.Diagnostic{Severity: diag.Error, Loc: op.Loc, Msg: "redefinition of symbol named '" + name + "'"}).
			Note(first.Loc, "see existing symbol definition here")
	}
	return nil
}

// asDiag is the diagnostic of a hook's error: the error itself when it is
// one, else "'name' op <error>" at op.
func asDiag(op *ir.Operation, err error) *diag.Diagnostic {
	if d, ok := err.(*diag.Diagnostic); ok && d != nil {
		return d
	}
	return opError(op, "%s", err.Error())
}

// isSymbol reports whether op defines a symbol of its module.
func isSymbol(op *ir.Operation) bool {
	d := ir.LookupOp(op.Name)
	return d != nil && d.Has(ir.Symbol)
}
