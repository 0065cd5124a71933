package verify

import (
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// checkPlacement enforces where an op may appear, from its record d (nil for
// an unregistered op): builtin.module only at the top; an op with Parents
// only in their regions (otir.kernel in the module, otir.return in a kernel,
// scf.yield in scf.for or scf.if); a Terminator last in its block; and in
// the module body only TopLevel ops. parent is the block holding op (nil for
// the module or a detached op, which have no placement rules) and p the op
// whose region holds that block.
func checkPlacement(op *ir.Operation, d *ir.OpDef, parent *ir.Block, p *ir.Operation) *diag.Diagnostic {
	if parent == nil {
		return nil
	}
	if op.Name == ir.OpModule {
		return opError(op, "must be the top-level operation")
	}
	if d == nil {
		// An unregistered op reaches here only when the module allows
		// them, and may stand anywhere, as in MLIR.
		return nil
	}
	pname := ""
	if p != nil {
		pname = p.Name
	}
	if len(d.Parents) > 0 && !contains(d.Parents, pname) {
		if len(d.Parents) == 1 {
			return opError(op, "expects parent op '%s'", d.Parents[0])
		}
		return opError(op, "expects parent op to be one of '%s'", strings.Join(d.Parents, ", "))
	}
	if d.Has(ir.TopLevel) {
		return nil
	}
	if d.Has(ir.Terminator) {
		return lastInBlock(op, parent)
	}
	if pname == ir.OpModule {
		return opError(op, "cannot appear in the module body, which holds only '%s' operations", strings.Join(moduleSymbols(), "', '"))
	}
	return nil
}

// lastInBlock requires a terminator to be the last op of its block.
func lastInBlock(op *ir.Operation, b *ir.Block) *diag.Diagnostic {
	if b.Terminator() != op {
		return opError(op, "must be the last operation in its block")
	}
	return nil
}

// declare records a symbol (an op with the Symbol trait, named by its
// sym_name) and returns the first op with its name (the op itself unless it
// is a redefinition).
func (v *verifier) declare(k *ir.Operation) *ir.Operation {
	name, ok := k.StringAttr("sym_name")
	if !ok {
		return k
	}
	if v.symbols == nil {
		v.symbols = make(map[string]*ir.Operation)
	}
	if first, dup := v.symbols[name]; dup {
		return first
	}
	v.symbols[name] = k
	return k
}

// moduleSymbols names the registered operations a module body holds: those
// with both the TopLevel and the Symbol traits (otir.kernel).
func moduleSymbols() []string {
	var ns []string
	for _, name := range ir.OpNames() {
		if d := ir.LookupOp(name); d.Has(ir.TopLevel) && d.Has(ir.Symbol) {
			ns = append(ns, name)
		}
	}
	return ns
}
