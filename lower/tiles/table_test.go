package tiles

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
)

// notInTable lists the OTIR operations that have no entry in the lowering
// table, each with why: the structure around the ops the table lowers.
var notInTable = map[string]string{
	ir.OpModule:   "holds the kernels: the pass walks it for them (pass.go), it is never lowered",
	otir.OpKernel: "is what LowerKernel lowers: its body becomes the dais.program",
}

// otirDialect reports whether an operation belongs to OTIR (its own ops and
// the scf and builtin ops it reuses): the dais ops, which this package
// produces, are not lowered by it.
func otirDialect(name string) bool {
	d, _, _ := strings.Cut(name, ".")
	return d == "otir" || d == "scf" || d == "builtin"
}

// TestLoweringsComplete walks every OTIR operation: each has exactly one
// kind of entry in the lowering table (lowering, element-wise, terminator,
// or unsupported with a reason), or is listed in notInTable.
func TestLoweringsComplete(t *testing.T) {
	for _, name := range ir.OpNames() {
		if !otirDialect(name) {
			continue
		}
		lw, ok := loweringOf(name)
		if why, skip := notInTable[name]; skip {
			if ok {
				t.Errorf("%s has an entry in the lowering table but is listed in notInTable (%s)", name, why)
			}
			continue
		}
		if !ok {
			t.Errorf("%s has no lowering: add its entry to lowerings in table.go, or unsupported(\"reason\")", name)
			continue
		}
		kinds := 0
		for _, set := range []bool{lw.lower != nil, lw.scalar != nil, lw.ends, lw.unsupported != ""} {
			if set {
				kinds++
			}
		}
		if kinds != 1 {
			t.Errorf("%s: its entry must have exactly one of lower, scalar, ends and unsupported; it has %d", name, kinds)
		}
		if lw.scalar != nil && !ir.IsElementwise(name) {
			t.Errorf("%s has a scalar lowering but is not element-wise", name)
		}
	}
	for name := range lowerings {
		if ir.LookupOp(name) == nil {
			t.Errorf("the lowering table has an entry for %s, which is not a registered operation", name)
		}
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
				lowerings[testOp] = *tc.entry
				defer delete(lowerings, testOp)
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
