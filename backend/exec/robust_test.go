package exec

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
)

// TestMalformedOpsDoNotPanic runs every registered operation, unverified,
// with operand lists and result types that do not fit it: each run must end
// in an ordinary diagnostic, never in the executor's panic guard.
func TestMalformedOpsDoNotPanic(t *testing.T) {
	shapes := []struct {
		operands []string // argument names to pass
		result   string
	}{
		{nil, "i8"},
		{[]string{"s"}, "i8"},
		{[]string{"g"}, "!otir.tile<4xi8, #private>"},
		{[]string{"g", "s"}, "!otir.tile<4xi8, #global>"},
		{[]string{"s", "g", "g"}, "!otir.token"},
		{[]string{"g", "g", "g", "g"}, ""},
	}
	for _, name := range ir.OpNames() {
		if name == ir.OpModule || name == otir.OpKernel {
			continue
		}
		for _, sh := range shapes {
			x := newKB(t, []int64{2}, "g: !otir.tile<4xi8, #global>", "s: i8")
			var ops []*ir.Value
			for _, a := range sh.operands {
				ops = append(ops, x.arg(a))
			}
			x.op(name, sh.result, nil, ops...)
			m := x.done()
			_, err := Run(m, "k", []*Buffer{ints(t, "4xi8", 1, 2, 3, 4), ints(t, "i8", 0)}, Options{SkipVerify: true, CheckRaces: true})
			if err != nil && strings.Contains(err.Error(), "internal error") {
				t.Errorf("%s with operands %v -> %q: %v", name, sh.operands, sh.result, err)
			}
		}
	}
}
