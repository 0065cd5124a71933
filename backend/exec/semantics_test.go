package exec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/ir/optable"
)

// notInTable lists the OTIR operations that have no entry in the semantics
// table, each with why: the structure around the ops the table runs.
var notInTable = map[string]string{
	ir.OpModule:   "holds the kernels: Run finds the kernel in it (FindKernel), it is never executed",
	otir.OpKernel: "is what Run runs: runWorkgroup enters its body, binding its arguments",
}

// TestSemanticsComplete walks every OTIR operation (its own ops and the scf
// and builtin ops it reuses; the dais ops a test binary links are not the
// executor's): each has exactly one kind of entry in the semantics table
// (run, element-wise, terminator, or unsupported with a reason), or is
// listed in notInTable.
func TestSemanticsComplete(t *testing.T) {
	for _, err := range ops.Complete(optable.Completeness[semantics]{
		Dialects:   []string{"otir", "scf", "builtin"},
		NotInTable: notInTable,
		Check: func(name string, s semantics) error {
			if err := optable.ExactlyOne("run, elem, ends and unsupported", s.run != nil, s.elem != nil, s.ends, s.unsupported != ""); err != nil {
				return err
			}
			if ir.IsElementwise(name) != (s.elem != nil) {
				return fmt.Errorf("ir.IsElementwise is %v, but its entry is element-wise: %v", ir.IsElementwise(name), s.elem != nil)
			}
			if e := s.elem; e != nil && e.pick == nil && e.ints == nil && e.f1 == nil && e.f2 == nil {
				return fmt.Errorf("its element-wise entry has no function")
			}
			return nil
		},
	}) {
		t.Error(err)
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
				ops.Add(name, *tc.entry)
				defer ops.Remove(name)
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
