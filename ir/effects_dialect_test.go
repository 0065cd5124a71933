package ir_test

import (
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/scf"
	"github.com/otir-dev/otir/ir"
)

// Ops registered by other dialects declare their effect and whether they
// end a block; DCE and the verifier rely on both.
func TestRegisteredOpEffects(t *testing.T) {
	ir.RegisterOp(ir.OpDef{Name: "testfx.pure"})
	ir.RegisterOp(ir.OpDef{Name: "testfx.write", Effect: ir.WriteEffect})
	ir.RegisterOp(ir.OpDef{Name: "testfx.end", Effect: ir.WriteEffect, Traits: ir.Terminator})
	cases := []struct {
		name       string
		effect     ir.Effect
		terminator bool
		removable  bool
	}{
		{"testfx.pure", ir.NoEffect, false, true},
		{"testfx.write", ir.WriteEffect, false, false},
		{"testfx.end", ir.WriteEffect, true, false},
		{"testfx.unregistered", ir.WriteEffect, false, false},
		{scf.OpYield, ir.NoEffect, true, false},
		{otir.OpAdd, ir.NoEffect, false, true},
	}
	for _, c := range cases {
		op := ir.NewOp(c.name, ir.Location{}, nil, nil, nil)
		if got := ir.OpEffect(op); got != c.effect {
			t.Errorf("%s: effect %d, want %d", c.name, got, c.effect)
		}
		if got := ir.IsTerminator(op); got != c.terminator {
			t.Errorf("%s: terminator %v, want %v", c.name, got, c.terminator)
		}
		if got := ir.IsRemovableWhenUnused(op); got != c.removable {
			t.Errorf("%s: removable %v, want %v", c.name, got, c.removable)
		}
	}
}
