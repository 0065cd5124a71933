package kernels

import (
	"testing"

	"github.com/otir-dev/otir/ir/optable"
)

// TestLoweringsComplete walks every nn operation: each node kind has one
// entry in the table (a lowering, or unsupported with a reason); the graph
// and its terminator are what LowerGraph walks.
func TestLoweringsComplete(t *testing.T) {
	for _, err := range lowerings.Complete(optable.Completeness[lowering]{
		Dialects:   []string{"nn"},
		NotInTable: map[string]string{"nn.graph": "is what LowerGraph lowers", "nn.return": "names the graph's outputs"},
		Check: func(_ string, lw lowering) error {
			return optable.ExactlyOne("lower and unsupported", lw.lower != nil, lw.unsupported != "")
		},
	}) {
		t.Error(err)
	}
}
