package verify

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// A dialect registered with RegisterDialect: its top-level op may sit in the
// module body, its ops may have !dais.q types, and its check runs after the
// structural checks.
func TestRegisterDialect(t *testing.T) {
	ir.RegisterOp(ir.OpDef{Name: "vdtest.prog", Syntax: ir.SyntaxGeneric, Effect: ir.WriteEffect})
	ir.RegisterOp(ir.OpDef{Name: "vdtest.val", Syntax: ir.SyntaxGeneric})
	ir.RegisterOp(ir.OpDef{Name: "vdtest.free", Syntax: ir.SyntaxGeneric})
	RegisterDialect("vdtest.", func(op *ir.Operation) *diag.Diagnostic {
		if op.Name == "vdtest.val" && op.Attr("ok") == nil {
			return diag.Errorf(op.Loc, "'vdtest.val' op needs 'ok'")
		}
		return nil
	}, "vdtest.prog")
	q := ir.Fixed(-4, 3, 1)
	build := func(top string, ok bool) *ir.Module {
		m := ir.NewModule(at(1))
		prog := ir.NewOp(top, at(2), nil, nil, nil)
		b := ir.NewBuilder(prog.NewRegion())
		b.Loc = at(3)
		var attrs ir.Attrs
		if ok {
			attrs = ir.Attrs{{Name: "ok", Value: &ir.UnitAttr{}}}
		}
		v := b.Create("vdtest.val", nil, []ir.Type{q}, attrs).Results[0]
		b.Create("vdtest.val", []*ir.Value{v}, []ir.Type{q}, ir.Attrs{{Name: "ok", Value: &ir.UnitAttr{}}})
		m.Body().Append(prog)
		return m
	}
	cases := []struct {
		top  string
		ok   bool
		want string // "" for valid
	}{
		{"vdtest.prog", true, ""},
		{"vdtest.prog", false, "t.otir:3:1: error: 'vdtest.val' op needs 'ok'"},
		{"vdtest.free", true, "cannot appear in the module body"},
	}
	for _, c := range cases {
		got := Verify(build(c.top, c.ok))
		switch {
		case c.want == "" && len(got) != 0:
			t.Errorf("%s: unexpected %v", c.top, got)
		case c.want != "" && (len(got) != 1 || !strings.Contains(got[0].Error(), c.want)):
			t.Errorf("%s ok=%v: got %v, want %q", c.top, c.ok, got, c.want)
		}
	}
}
