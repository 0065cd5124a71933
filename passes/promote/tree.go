package promote

import (
	"math/big"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/internal/intrange"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/typing"
)

// HLS expression trees (spec "HLS Integer Add/Sub" and "HLS Integer Mul").
//
// An integer add/sub expression is a tree of otir.add / otir.sub operations
// whose inner results have exactly one use, by their parent, in the same
// block; a mul chain is the same with otir.mul. Every node has integer
// operand and result element types (a float or index term keeps the written
// shape: the node is handled alone, pairwise). The terms are the tree's
// leaves, in source order, each with a sign (the right operand of a sub is
// subtracted).
//
// The rewrite computes the whole expression as Allo lowers it: every term is
// cast to the n-ary result type N, subtracted terms are negated, and the terms
// are combined by a balanced tree of otir.add (or otir.mul) in N; the root
// then converts N to its own result type. N holds every partial sum (product)
// exactly, so the rewritten tree computes the exact value S of the expression
// from its terms.
//
// Value preservation. The written tree computes something else only when an
// inner result type drops information. An inner node is absorbed into the
// tree when either
//
//	(a) its type holds its exact value range, given the ranges of the values
//	    its (absorbed) children actually produce, so it computes exactly; or
//	(b) its type is an integer at least as wide as the root's result type:
//	    it then equals its exact value modulo 2^w(root), and add, sub and mul
//	    preserve congruences, so the root, which wraps to its own width,
//	    still gets S converted to its type.
//
// Any other inner node (a narrower, wrapping intermediate) stays a leaf, an
// opaque term, and becomes the root of its own expression. So the tree the
// pass builds always computes the value the written program computes.
//
// A tree whose every node already has one element type for operands and
// result (e.g. a wrapping `: i32` chain) has nothing implicit to make
// explicit and is left as written; this also makes the pass idempotent.

// term is a leaf of an expression and its sign.
type term struct {
	v   *ir.Value
	neg bool
}

// tree is a planned expression rewrite.
type tree struct {
	root  *ir.Operation
	inner []*ir.Operation // absorbed nodes, deleted by the rewrite
	terms []term
	mul   bool
	n     ir.Type // the n-ary result element type
	// uniform: every node has one element type; the tree is left to the
	// pairwise path (see planTree).
	uniform bool
}

// part is a planned subtree: its terms (signs relative to its value), its
// absorbed nodes and the range of the value it actually produces.
type part struct {
	terms  []term
	inner  []*ir.Operation
	lo, hi *big.Int
}

// treeGroup reports whether op can be a node of an HLS integer expression,
// and whether it is a mul chain (otherwise an add/sub expression).
func treeGroup(op *ir.Operation) (mul, ok bool) {
	switch op.Name {
	case otir.OpAdd, otir.OpSub:
	case otir.OpMul:
		mul = true
	default:
		return false, false
	}
	if len(op.Operands) != 2 || len(op.Results) != 1 || !typing.IsInt(ir.ElementType(op.Results[0].Type)) {
		return false, false
	}
	for _, v := range op.Operands {
		if v == nil || !typing.IsInt(ir.ElementType(v.Type)) {
			return false, false
		}
	}
	return mul, true
}

// planner collects the expression rooted at one operation.
// onNode, when set (by a test), is called for every node a plan visits.
var onNode func()

type planner struct {
	uses      map[*ir.Value]int
	checked   func(*ir.Operation) bool
	block     *ir.Block
	mul       bool
	rootWidth int
}

// planTree plans the HLS rewrite of the expression rooted at root, or
// returns nil when it is left to the pairwise path (an unrepresentable n-ary
// type). A tree of uniform types is returned with uniform set: it too is left
// to the pairwise path, and so is every subtree of it (each has the same
// element type throughout), which the caller need not plan again: without
// that, a chain of n operations would be planned n times, each time over
// its whole prefix (quadratic, and each step does exact range arithmetic in
// the operations' widths). checked reports the operations that passed
// the rule check and are well formed; only those join a tree, so the root's
// shape is the broadcast of its terms' shapes.
//
// A node absorbed into a tree has its single use inside that tree, so no
// other root can reach it: trees never overlap.
func planTree(root *ir.Operation, uses map[*ir.Value]int, checked func(*ir.Operation) bool) *tree {
	mul, ok := treeGroup(root)
	if !ok {
		return nil
	}
	pl := &planner{uses: uses, checked: checked, block: root.Block, mul: mul,
		rootWidth: ir.ElementType(root.Results[0].Type).(*ir.IntType).Width}
	p := pl.node(root)
	t := &tree{root: root, inner: p.inner, terms: p.terms, mul: mul}
	if uniform(t) {
		t.uniform = true
		return t
	}
	elems := make([]ir.Type, len(t.terms))
	signs := make([]int, len(t.terms))
	key := "add"
	for i, tm := range t.terms {
		elems[i], signs[i] = ir.ElementType(tm.v.Type), 1
		if tm.neg {
			signs[i], key = -1, "sub"
		}
	}
	if mul {
		key, signs = "mul", nil
	}
	n, err := typing.Promote(typing.HLS, key, elems, signs)
	if err != nil {
		return nil
	}
	t.n = n
	return t
}

// node plans op's subtree.
func (pl *planner) node(op *ir.Operation) part {
	if onNode != nil {
		onNode()
	}
	l := pl.operand(op.Operands[0], false)
	r := pl.operand(op.Operands[1], op.Name == otir.OpSub)
	p := part{terms: append(l.terms, r.terms...), inner: append(l.inner, r.inner...)}
	a, b := intrange.Range{Lo: l.lo, Hi: l.hi}, intrange.Range{Lo: r.lo, Hi: r.hi}
	var pr intrange.Range
	switch op.Name {
	case otir.OpAdd:
		pr = a.Add(b)
	case otir.OpSub:
		pr = a.Sub(b)
	default:
		pr = a.Mul(b)
	}
	p.lo, p.hi = pr.Lo, pr.Hi
	return p
}

// operand plans one operand of a node: an absorbed subtree or a leaf.
func (pl *planner) operand(v *ir.Value, negate bool) part {
	if d := v.Def; d != nil && pl.absorbable(d) {
		c := pl.node(d)
		t := ir.ElementType(d.Results[0].Type)
		fits := inRange(c.lo, c.hi, t)
		if fits || t.(*ir.IntType).Width >= pl.rootWidth {
			if !fits {
				c.lo, c.hi = typeRange(t) // wraps: only congruent to its exact value
			}
			if negate {
				for i := range c.terms {
					c.terms[i].neg = !c.terms[i].neg
				}
			}
			c.inner = append(c.inner, d)
			return c
		}
	}
	lo, hi := typeRange(ir.ElementType(v.Type))
	return part{terms: []term{{v: v, neg: negate}}, lo: lo, hi: hi}
}

// absorbable reports whether d may be an inner node of the current tree.
func (pl *planner) absorbable(d *ir.Operation) bool {
	mul, ok := treeGroup(d)
	return ok && mul == pl.mul && d.Block == pl.block && pl.uses[d.Results[0]] == 1 && pl.checked(d)
}

// uniform reports whether every node of t has one element type for its
// operands and result.
func uniform(t *tree) bool {
	want := ir.ElementType(t.root.Results[0].Type)
	for _, op := range append([]*ir.Operation{t.root}, t.inner...) {
		for _, v := range append(op.Operands, op.Results[0]) {
			if ir.ElementType(v.Type) != want {
				return false
			}
		}
	}
	return true
}

// emit writes the balanced tree before the root (b inserts there) and turns
// the root into the tree's last operation: the final add/mul when N is the
// root's element type, otherwise the cast from N.
func (t *tree) emit(b *ir.Builder) {
	vals := make([]*ir.Value, len(t.terms))
	cast := castOnce(b)
	for i, tm := range t.terms {
		v := cast(tm.v, t.n)
		if tm.neg {
			v = b.Unary(otir.OpNeg, v, v.Type)
		}
		vals[i] = v
	}
	name := otir.OpAdd
	if t.mul {
		name = otir.OpMul
	}
	rootType := t.root.Results[0].Type
	last := ir.ElementType(rootType) == t.n
	// Balanced reduction (Allo's _reduce_balanced): combine neighbours
	// pairwise, level by level; an odd one out moves up unchanged.
	for len(vals) > 1 {
		var next []*ir.Value
		for i := 0; i < len(vals); i += 2 {
			if i+1 == len(vals) {
				next = append(next, vals[i])
				continue
			}
			if last && len(vals) == 2 {
				t.root.Name, t.root.Operands, t.root.Attrs = name, []*ir.Value{vals[0], vals[1]}, nil
				return
			}
			next = append(next, b.Binary(name, vals[i], vals[i+1], combinedType(vals[i].Type, vals[i+1].Type, t.n)))
		}
		vals = next
	}
	t.root.Name, t.root.Operands, t.root.Attrs = otir.OpCast, []*ir.Value{vals[0]}, nil
}

// combinedType is the type of an element-wise result of elem on two operands:
// a #private tile of their broadcast shape, or a scalar.
func combinedType(a, b ir.Type, elem ir.Type) ir.Type {
	var shape []int64
	tiled := false
	for _, t := range []ir.Type{a, b} {
		if tt, ok := t.(*ir.TileType); ok {
			shape, _ = typing.Broadcast(shape, tt.Shape)
			tiled = true
		}
	}
	if !tiled {
		return elem
	}
	return ir.Tile(shape, elem, ir.Private)
}

// castOnce returns a function that casts a value to an element type with b,
// reusing the cast when the same value is cast twice (a term used twice).
func castOnce(b *ir.Builder) func(v *ir.Value, elem ir.Type) *ir.Value {
	done := map[*ir.Value]map[ir.Type]*ir.Value{}
	return func(v *ir.Value, elem ir.Type) *ir.Value {
		if c := done[v][elem]; c != nil {
			return c
		}
		c := otir.Cast(b, v, ir.WithElement(v.Type, elem))
		if done[v] == nil {
			done[v] = map[ir.Type]*ir.Value{}
		}
		done[v][elem] = c
		return c
	}
}
