package nneval

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

// notInTable lists the nn operations without an entry, each with why.
var notInTable = map[string]string{
	"nn.graph": "is what Eval runs: it binds the graph's arguments and walks its body",
}

// TestSemanticsComplete walks every nn operation: each has exactly one kind
// of entry in the table (eval, terminator, or unsupported with a reason),
// or is listed in notInTable; every entry is a registered operation.
func TestSemanticsComplete(t *testing.T) {
	n := 0
	for _, name := range ir.OpNames() {
		if !strings.HasPrefix(name, "nn.") {
			continue
		}
		n++
		s, ok := semOf(name)
		if why, skip := notInTable[name]; skip {
			if ok {
				t.Errorf("%s has an entry in the table but is listed in notInTable (%s)", name, why)
			}
			continue
		}
		if !ok {
			t.Errorf("%s has no evaluator semantics: add its entry to ops in semantics.go, or unsupported(\"reason\")", name)
			continue
		}
		kinds := 0
		for _, set := range []bool{s.eval != nil, s.ends, s.unsupported != ""} {
			if set {
				kinds++
			}
		}
		if kinds != 1 {
			t.Errorf("%s: its entry must have exactly one of eval, ends and unsupported; it has %d", name, kinds)
		}
	}
	// 37 node kinds, 3 QONNX quantizers, nn.requantize, nn.graph and
	// nn.return.
	if n != 43 {
		t.Errorf("found %d nn operations, want 43: the dialect changed, update this test", n)
	}
	for name := range ops {
		if ir.LookupOp(name) == nil {
			t.Errorf("the table has an entry for %s, which is not a registered operation", name)
		}
	}
}
