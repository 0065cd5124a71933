package tiles

import (
	"fmt"
	"strings"
	"testing"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/ir/optable"
)

// notInTable lists the OTIR operations that have no entry in the lowering
// table, each with why: the structure around the ops the table lowers.
var notInTable = map[string]string{
	ir.OpModule:   "holds the kernels: the pass walks it for them (pass.go), it is never lowered",
	otir.OpKernel: "is what LowerKernel lowers: its body becomes the dais.program",
}

// TestLoweringsComplete walks every OTIR operation (its own ops and the scf
// and builtin ops it reuses; the dais ops, which this package produces, are
// not lowered by it): each has exactly one kind of entry in the lowering
// table (lowering, element-wise, terminator, or unsupported with a reason),
// or is listed in notInTable.
func TestLoweringsComplete(t *testing.T) {
	for _, err := range lowerings.Complete(optable.Completeness[lowering]{
		Dialects:   []string{"otir", "scf", "builtin"},
		NotInTable: notInTable,
		Check: func(name string, lw lowering) error {
			if err := optable.ExactlyOne("lower, scalar, ends and unsupported", lw.lower != nil, lw.scalar != nil, lw.ends, lw.unsupported != ""); err != nil {
				return err
			}
			if lw.scalar != nil && !ir.IsElementwise(name) {
				return fmt.Errorf("it has a scalar lowering but is not element-wise")
			}
			return nil
		},
	}) {
		t.Error(err)
	}
}

// TestUnsupportedAndUnknownOps lowers a kernel whose one element-wise op is
// renamed: an unsupported op's error shows its reason; an op without an
// entry is reported as such.
func TestUnsupportedAndUnknownOps(t *testing.T) {
	const src = `otir.kernel @k(%x: !otir.tile<2xi8, #global>, %y: !otir.tile<2xi8, #global>) {
  %v = otir.load %x : !otir.tile<2xi8, #global> -> !otir.tile<2xi8, #private>
  %0 = otir.neg %v : !otir.tile<2xi8, #private>
  otir.store %0, %y : !otir.tile<2xi8, #private>, !otir.tile<2xi8, #global>
  otir.return
}`
	const testOp = "otir.test_only_op"
	for _, tc := range []struct {
		name  string
		entry *lowering // injected for the test
		want  string
	}{
		{otir.OpSqrt, nil, "'otir.sqrt' op cannot be lowered to combinational logic: 'otir.sqrt' has no integer lowering"},
		{otir.OpExp, nil, "'otir.exp' op cannot be lowered to combinational logic: 'otir.exp' has no integer lowering"},
		{otir.OpLog, nil, "'otir.log' op cannot be lowered to combinational logic: 'otir.log' has no integer lowering"},
		{testOp, &lowering{unsupported: "exists only in this test"},
			"'otir.test_only_op' op cannot be lowered to combinational logic: 'otir.test_only_op' exists only in this test"},
		{testOp, nil, "'otir.test_only_op' op cannot be lowered to combinational logic: operation 'otir.test_only_op' is not supported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.entry != nil {
				lowerings.Add(testOp, *tc.entry)
				defer lowerings.Remove(testOp)
			}
			m := parseText(t, src)
			k := otir.Kernels(m)[0]
			k.Walk(func(op *ir.Operation) bool {
				if op.Name == otir.OpNeg {
					op.Name = tc.name
				}
				return true
			})
			_, err := LowerKernel(k, Options{})
			d, ok := err.(*diag.Diagnostic)
			if !ok {
				t.Fatalf("error %T %v, want a diagnostic", err, err)
			}
			if got := d.Error(); !strings.Contains(got, tc.want) {
				t.Errorf("error %q, want it to contain %q", got, tc.want)
			}
		})
	}
	if _, ok := loweringOf(testOp); ok {
		t.Fatal("the test entry was not removed")
	}
}
