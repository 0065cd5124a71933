package scf

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

// Every record of the dialect is complete: a summary, a format whose $names
// are declared (and that names every operand group and region), and a Verify
// hook (each scf op has rules beyond its record).
func TestRecordsAreComplete(t *testing.T) {
	ds := ir.DialectOps("scf")
	for _, d := range ds {
		name := d.Name
		// Each scf op has rules beyond its record: none is exempt from a hook.
		for _, p := range ir.RecordProblems(d, nil) {
			t.Errorf("%s: %s", name, p)
		}
		if d.Has(ir.Elementwise) || d.Typing != "" {
			t.Errorf("%s: scf ops are not element-wise", name)
		}
		if !strings.Contains(ir.OpDoc(d), name+": "+d.Summary) {
			t.Errorf("OpDoc(%s) lacks the summary", name)
		}
	}
	if len(ds) != len(Ops) {
		t.Errorf("%d scf ops registered, want %d", len(ds), len(Ops))
	}
	for i := range Ops {
		if d := ir.LookupOp(Ops[i].Name); d == nil || d.Verify == nil {
			t.Errorf("%s: not registered with its Verify hook", Ops[i].Name)
		}
	}
}
