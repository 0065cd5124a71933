// Package verify checks every rule of the OTIR specification, and every
// structural rule of the IR, and reports each violation at the offending
// operation with an MLIR-style message: "'otir.alloc' op cannot allocate in
// #global memory (...)".
//
// The verifier reports at most one diagnostic per operation (the first rule it
// breaks, so that cascades stay quiet) and reports all operations of the module,
// in program order. The rules are listed in docs/verifier.md.
//
// Verification is linear in the size of the module: one walk, in which each op
// is checked against its form (operand, result and region counts, attribute
// kinds) before its semantic rules, so no malformed IR can make it panic.
package verify

import (
	"otir/diag"
	"otir/ir"
)

// maxDepth bounds region nesting; deeper (or cyclic) IR is diagnosed instead of
// overflowing the stack.
const maxDepth = 1000

// Verify checks the module and returns every violation found (nil if none).
func Verify(m *ir.Module) diag.List {
	if m == nil || m.Op == nil {
		return diag.List{diag.Errorf(ir.Location{}, "module is null")}
	}
	if m.Op.Name != ir.OpModule {
		return diag.List{opError(m.Op, "cannot be the top-level operation (expected '%s')", ir.OpModule)}
	}
	v := newVerifier(countOps(m.Op, 0, newOpSet(0)))
	v.visit(m.Op, nil, nil, 0)
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
	for _, r := range op.Regions {
		if r == nil {
			continue
		}
		for _, b := range r.Blocks {
			if b == nil {
				continue
			}
			for _, o := range b.Ops {
				if o != nil {
					n += countOps(o, depth+1, seen)
				}
			}
		}
	}
	return n
}

// VerifyOp checks one operation and everything nested in it, in the context of
// its enclosing blocks (so its operands must dominate it and an otir.program_id
// sees its kernel's grid). A detached op is checked on its own.
func VerifyOp(op *ir.Operation) diag.List {
	if op == nil {
		return diag.List{diag.Errorf(ir.Location{}, "operation is null")}
	}
	v := newVerifier(countOps(op, 0, newOpSet(0)))
	// Enter the enclosing blocks, outermost first, marking every op before op's
	// ancestor in each as already defined.
	var chain []*ir.Block
	seen := map[*ir.Block]bool{}
	for b := op.Block; b != nil && !seen[b] && len(chain) < maxDepth; {
		seen[b] = true
		chain = append(chain, b)
		p := b.ParentOp()
		if p == nil {
			break
		}
		if p.Name == ir.OpKernel && v.kernel == nil {
			v.enterKernel(p)
		}
		b = p.Block
	}
	inner := op
	for i := 0; i < len(chain); i++ {
		b := chain[i]
		for _, o := range b.Ops {
			if o == inner {
				break
			}
			if o != nil {
				v.defined.add(o)
			}
		}
		inner = b.ParentOp()
	}
	for i := len(chain) - 1; i >= 0; i-- {
		v.scopes = append(v.scopes, chain[i])
	}
	if op.Name == ir.OpKernel && op.Block != nil {
		// Earlier kernels of the module define the symbols op may clash with.
		for _, o := range op.Block.Ops {
			if o == op {
				break
			}
			if o != nil && o.Name == ir.OpKernel {
				v.declare(o)
			}
		}
	}
	pos := 0
	if op.Block != nil {
		for i, o := range op.Block.Ops {
			if o == op {
				pos = i
				break
			}
		}
	}
	v.visit(op, op.Block, op.ParentOp(), pos)
	return v.diags
}

// verifier is the state of one verification walk.
type verifier struct {
	diags diag.List
	// defined holds the ops whose results are available to later uses: those
	// already walked (an op is added after its regions, so neither it nor its
	// nested ops see its own results). With scopes it decides dominance.
	defined *opSet
	// entered holds the ops with regions already walked into.
	entered *opSet
	// scopes are the blocks enclosing the op being checked, outermost first.
	scopes []*ir.Block
	// kernel is the enclosing otir.kernel (nil outside one) and gridRank the
	// rank of its launch grid.
	kernel   *ir.Operation
	gridRank int
	// symbols maps kernel names to their first definition.
	symbols map[string]*ir.Operation
	// owner is the op whose region holds the op being checked (nil at the
	// top), as found by the walk rather than through possibly stale links,
	// and pos the op's index in its block.
	owner *ir.Operation
	pos   int
}

func newVerifier(ops int) *verifier {
	return &verifier{defined: newOpSet(ops), entered: newOpSet(0)}
}

// visit checks op, held by block parent of op owner, then the ops nested in
// it, in program order.
func (v *verifier) visit(op *ir.Operation, parent *ir.Block, owner *ir.Operation, pos int) {
	v.owner, v.pos = owner, pos
	d := v.check(op, parent)
	if d != nil {
		v.diags = append(v.diags, d)
	}
	if len(op.Regions) > 0 {
		// An op with regions reached twice (listed twice, or inside itself)
		// would make the walk repeat itself exponentially or forever.
		if !v.entered.add(op) {
			if d == nil {
				v.diags = append(v.diags, opError(op, "appears more than once in the IR (or inside its own regions)"))
			}
			return
		}
		if len(v.scopes) >= maxDepth {
			v.diags = append(v.diags, opError(op, "regions are nested more than %d deep", maxDepth))
			return
		}
		outerKernel, outerRank := v.kernel, v.gridRank
		if op.Name == ir.OpKernel {
			v.enterKernel(op)
		}
		for _, r := range op.Regions {
			if r == nil {
				continue
			}
			for _, b := range r.Blocks {
				if b == nil {
					continue
				}
				v.scopes = append(v.scopes, b)
				for i, o := range b.Ops {
					if o != nil {
						v.visit(o, b, op, i)
					}
				}
				v.scopes = v.scopes[:len(v.scopes)-1]
			}
		}
		v.kernel, v.gridRank = outerKernel, outerRank
	}
	if len(op.Results) > 0 && !v.defined.add(op) && d == nil && len(op.Regions) == 0 {
		v.diags = append(v.diags, opError(op, "appears more than once in the IR"))
	}
}

// enterKernel makes k the enclosing kernel and records its grid rank.
func (v *verifier) enterKernel(k *ir.Operation) {
	v.kernel = k
	v.gridRank = 1
	if g, ok := k.Attr("grid").(*ir.ArrayAttr); ok && g != nil {
		v.gridRank = len(g.Elems)
	}
}

// check returns the first rule op breaks, or nil. The order is: registration,
// linkage, form (counts, nil-ness, attribute kinds), tokens, placement,
// dominance, then the op's own semantic rules.
func (v *verifier) check(op *ir.Operation, parent *ir.Block) *diag.Diagnostic {
	spec := specs[op.Name]
	if spec == nil {
		if ir.LookupOp(op.Name) == nil {
			return &diag.Diagnostic{Severity: diag.Error, Loc: op.Loc, Msg: "unregistered operation '" + op.Name + "'"}
		}
		// Registered, but newer than this verifier (or of another dialect):
		// structure, then the dialect's own check (see RegisterDialect).
		spec = dialectSpec(op)
	}
	if parent != nil && op.Block != parent {
		return opError(op, "is not linked to the block that holds it")
	}
	if d := checkForm(op, &spec.form); d != nil {
		return d
	}
	if op.Name != ir.OpDMA {
		for i, r := range op.Results {
			if isToken(r.Type) {
				return opError(op, "result #%d cannot be !otir.token (only 'otir.dma_copy_async' produces tokens)", i)
			}
		}
	}
	if d := checkPlacement(op, parent, v.owner); d != nil {
		return d
	}
	if d := v.checkDominance(op, parent); d != nil {
		return d
	}
	if spec.check != nil {
		return spec.check(v, op)
	}
	return nil
}
