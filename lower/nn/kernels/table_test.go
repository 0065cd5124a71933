package kernels

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

// TestLoweringsComplete walks every nn operation: each node kind has one
// entry in the table (a lowering, or unsupported with a reason); the graph
// and its terminator are what LowerGraph walks.
func TestLoweringsComplete(t *testing.T) {
	notInTable := map[string]bool{"nn.graph": true, "nn.return": true}
	for _, name := range ir.OpNames() {
		if !strings.HasPrefix(name, "nn.") || notInTable[name] {
			continue
		}
		lw, ok := lowerings[name]
		switch {
		case !ok:
			t.Errorf("%s has no entry in nn-to-otir's table (table.go)", name)
		case (lw.lower == nil) == (lw.unsupported == ""):
			t.Errorf("%s: exactly one of lower and unsupported must be set", name)
		}
	}
	for name := range lowerings {
		if ir.LookupOp(name) == nil {
			t.Errorf("table entry %s is not a registered operation", name)
		}
	}
}
