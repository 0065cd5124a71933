// Package cse implements the `cse` pass: common-subexpression elimination of
// pure operations.
//
// Two operations are common subexpressions when they have the same name,
// operands, attributes and result types, and both are pure (ir.IsPure): no
// allocation, copy, memory read or write, atomic, wait or barrier is ever
// merged. Operations with regions (scf.for, scf.if) are not merged.
//
// The pass is one pre-order walk with a scoped hash table, as MLIR's CSE: an
// operation can be replaced by an identical one that dominates it, i.e. one
// earlier in the same block or in an enclosing block of the same kernel.
// Entering a region opens a scope, leaving it forgets the region's
// operations, so nothing defined in one branch of an scf.if or in a loop body
// is reused outside it. Each kernel is a scope of its own.
package cse

import (
	"strconv"
	"strings"

	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"
)

func init() {
	passes.Register(passes.Info{
		Name:    "cse",
		Title:   "CSE",
		Summary: "Eliminate common subexpressions (identical pure operations)",
	}, func(*passes.NoOptions, *passes.Context) (passes.Pass, error) {
		return passes.PassFunc(func(m *ir.Module) error { Run(m); return nil }), nil
	})
}

// Run eliminates common subexpressions in every kernel of m and returns the
// number of operations removed.
func Run(m *ir.Module) int {
	c := &cse{ids: map[*ir.Value]int{}, replace: map[*ir.Value]*ir.Value{}}
	for _, op := range m.Body().Ops {
		c.scopes = nil
		c.op(op)
	}
	return c.removed
}

type cse struct {
	// scopes is a stack of tables from an operation's key to the operation.
	scopes  []map[string]*ir.Operation
	ids     map[*ir.Value]int
	replace map[*ir.Value]*ir.Value
	removed int
}

// op rewrites op's operands to their replacements and simplifies its regions;
// it reports whether op was itself found redundant (and must be removed).
func (c *cse) op(op *ir.Operation) (redundant bool) {
	for i, v := range op.Operands {
		if r, ok := c.replace[v]; ok {
			op.Operands[i] = r
		}
	}
	if len(op.Regions) > 0 {
		for b := range op.Blocks() {
			c.block(b)
		}
		return false
	}
	if len(op.Results) == 0 || !ir.IsPure(op) {
		return false
	}
	key := c.key(op)
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if prev, ok := c.scopes[i][key]; ok {
			for j, r := range op.Results {
				c.replace[r] = prev.Results[j]
			}
			return true
		}
	}
	if len(c.scopes) > 0 {
		c.scopes[len(c.scopes)-1][key] = op
	}
	return false
}

// block simplifies a block in a new scope, dropping redundant operations.
func (c *cse) block(b *ir.Block) {
	c.scopes = append(c.scopes, map[string]*ir.Operation{})
	kept := b.Ops[:0]
	for _, op := range b.Ops {
		if c.op(op) {
			op.Block = nil
			c.removed++
			continue
		}
		kept = append(kept, op)
	}
	for i := len(kept); i < len(b.Ops); i++ {
		b.Ops[i] = nil
	}
	b.Ops = kept
	c.scopes = c.scopes[:len(c.scopes)-1]
}

// key identifies an operation up to equivalence: name, operand identities,
// attributes and result types.
func (c *cse) key(op *ir.Operation) string {
	var sb strings.Builder
	sb.WriteString(op.Name)
	sb.WriteByte('(')
	for _, v := range op.Operands {
		id, ok := c.ids[v]
		if !ok {
			id = len(c.ids)
			c.ids[v] = id
		}
		sb.WriteString(strconv.Itoa(id))
		sb.WriteByte(',')
	}
	sb.WriteByte(')')
	sb.WriteString(op.Attrs.String())
	for _, r := range op.Results {
		sb.WriteString(r.Type.String())
		sb.WriteByte(';')
	}
	return sb.String()
}
