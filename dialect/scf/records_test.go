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
	n := 0
	for _, name := range ir.OpNames() {
		if !strings.HasPrefix(name, "scf.") {
			continue
		}
		n++
		d := ir.LookupOp(name)
		for _, p := range ir.RecordProblems(d) {
			t.Errorf("%s: %s", name, p)
		}
		if d.Format == "" {
			t.Errorf("%s: no assembly format", name)
		}
		if d.Verify == nil {
			t.Errorf("%s: no Verify hook", name)
		}
		if d.Has(ir.Elementwise) || d.Typing != "" {
			t.Errorf("%s: scf ops are not element-wise", name)
		}
		if !strings.Contains(ir.OpDoc(d), name+": "+d.Summary) {
			t.Errorf("OpDoc(%s) lacks the summary", name)
		}
	}
	if n != len(Ops) {
		t.Errorf("%d scf ops registered, want %d", n, len(Ops))
	}
	for i := range Ops {
		if d := ir.LookupOp(Ops[i].Name); d == nil || d.Verify == nil {
			t.Errorf("%s: not registered with its Verify hook", Ops[i].Name)
		}
	}
}
