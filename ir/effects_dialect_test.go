package ir

import "testing"

// Ops registered by other dialects declare their effect and whether they
// end a block; DCE and the verifier rely on both.
func TestRegisteredOpEffects(t *testing.T) {
	RegisterOp(OpDef{Name: "testfx.pure", Syntax: SyntaxGeneric})
	RegisterOp(OpDef{Name: "testfx.write", Syntax: SyntaxGeneric, Effect: WriteEffect})
	RegisterOp(OpDef{Name: "testfx.end", Syntax: SyntaxGeneric, Effect: WriteEffect, Terminator: true})
	cases := []struct {
		name       string
		effect     Effect
		terminator bool
		removable  bool
	}{
		{"testfx.pure", NoEffect, false, true},
		{"testfx.write", WriteEffect, false, false},
		{"testfx.end", WriteEffect, true, false},
		{"testfx.unregistered", WriteEffect, false, false},
		{OpYield, NoEffect, true, false},
		{OpAdd, NoEffect, false, true},
	}
	for _, c := range cases {
		op := NewOp(c.name, Location{}, nil, nil, nil)
		if got := OpEffect(op); got != c.effect {
			t.Errorf("%s: effect %d, want %d", c.name, got, c.effect)
		}
		if got := IsTerminator(op); got != c.terminator {
			t.Errorf("%s: terminator %v, want %v", c.name, got, c.terminator)
		}
		if got := IsRemovableWhenUnused(op); got != c.removable {
			t.Errorf("%s: removable %v, want %v", c.name, got, c.removable)
		}
	}
}
