package exec

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
)

// notInTable lists the OTIR operations that have no entry in the semantics
// table, each with why: the structure around the ops the table runs.
var notInTable = map[string]string{
	ir.OpModule:   "holds the kernels: Run finds the kernel in it (FindKernel), it is never executed",
	otir.OpKernel: "is what Run runs: runWorkgroup enters its body, binding its arguments",
}

// otirDialect reports whether an operation belongs to OTIR (its own ops and
// the scf and builtin ops it reuses). Ops of other dialects that a test
// binary links (dais, registered by lower/dais) are not the executor's.
func otirDialect(name string) bool {
	d, _, _ := strings.Cut(name, ".")
	return d == "otir" || d == "scf" || d == "builtin"
}

// TestSemanticsComplete walks every OTIR operation: each has exactly one
// kind of entry in the semantics table (run, element-wise, terminator, or
// unsupported with a reason), or is listed in notInTable.
func TestSemanticsComplete(t *testing.T) {
	for _, name := range ir.OpNames() {
		if !otirDialect(name) {
			continue
		}
		s, ok := semOf(name)
		if why, skip := notInTable[name]; skip {
			if ok {
				t.Errorf("%s has an entry in the semantics table but is listed in notInTable (%s)", name, why)
			}
			continue
		}
		if !ok {
			t.Errorf("%s has no executor semantics: add its entry to ops in semantics.go, or unsupported(\"reason\")", name)
			continue
		}
		kinds := 0
		for _, set := range []bool{s.run != nil, s.elem != nil, s.ends, s.unsupported != ""} {
			if set {
				kinds++
			}
		}
		if kinds != 1 {
			t.Errorf("%s: its entry must have exactly one of run, elem, ends and unsupported; it has %d", name, kinds)
		}
		if ir.IsElementwise(name) != (s.elem != nil) {
			t.Errorf("%s: ir.IsElementwise is %v, but its entry is element-wise: %v", name, ir.IsElementwise(name), s.elem != nil)
		}
		if e := s.elem; e != nil && e.pick == nil && e.ints == nil && e.f1 == nil && e.f2 == nil {
			t.Errorf("%s: its element-wise entry has no function", name)
		}
	}
	for name := range ops {
		if ir.LookupOp(name) == nil {
			t.Errorf("the semantics table has an entry for %s, which is not a registered operation", name)
		}
	}
}

// TestUnsupportedAndUnknownOps runs an op with an unsupported entry (the
// error shows its reason) and an op without an entry.
func TestUnsupportedAndUnknownOps(t *testing.T) {
	const name = "otir.test_only_op"
	for _, tc := range []struct {
		what  string
		entry *semantics
		want  string
	}{
		{"unsupported", &semantics{unsupported: "it exists only in this test"},
			"test.otir:3:1: error: 'otir.test_only_op' op is not supported by the executor: it exists only in this test"},
		{"unknown", nil,
			"test.otir:3:1: error: 'otir.test_only_op' op is not an operation the executor can run"},
	} {
		t.Run(tc.what, func(t *testing.T) {
			if tc.entry != nil {
				ops[name] = *tc.entry
				defer delete(ops, name)
			}
			x := newKB(t, []int64{1})
			x.op(name, "", nil)
			d := runErr(t, x.done(), Options{SkipVerify: true})
			if got := renderErr(d); !strings.Contains(got, tc.want) {
				t.Errorf("error:\n%s\nwant it to contain:\n%s", got, tc.want)
			}
		})
	}
	if _, ok := semOf(name); ok {
		t.Fatal("the test entry was not removed")
	}
	// The helper the table uses builds the same entry.
	if s := unsupported("why"); s.unsupported != "why" || s.run != nil || s.elem != nil {
		t.Errorf("unsupported(\"why\") = %+v", s)
	}
}
