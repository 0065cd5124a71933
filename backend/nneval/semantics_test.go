package nneval

import (
	"testing"

	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/ir/optable"
)

// notInTable lists the nn operations without an entry, each with why.
var notInTable = map[string]string{
	"nn.graph": "is what Eval runs: it binds the graph's arguments and walks its body",
}

// TestSemanticsComplete walks every nn operation: each has exactly one kind
// of entry in the table (eval, terminator, or unsupported with a reason),
// or is listed in notInTable; every entry is a registered operation.
func TestSemanticsComplete(t *testing.T) {
	for _, err := range ops.Complete(optable.Completeness[semantics]{
		Dialects:   []string{"nn"},
		NotInTable: notInTable,
		Check: func(_ string, s semantics) error {
			return optable.ExactlyOne("eval, ends and unsupported", s.eval != nil, s.ends, s.unsupported != "")
		},
	}) {
		t.Error(err)
	}
	// 37 node kinds, 4 QONNX quantizers, nn.requantize, nn.graph and
	// nn.return.
	if n := len(ir.DialectOps("nn")); n != 45 {
		t.Errorf("found %d nn operations, want 45: the dialect changed, update this test", n)
	}
}
