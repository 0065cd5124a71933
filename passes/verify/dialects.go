package verify

import (
	"strings"
	"sync"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// DialectCheck verifies one operation of another dialect (such as `dais`)
// once the verifier's structural checks passed: the op is registered, its
// operands, results and regions are non-nil and linked, its result types are
// well formed, and its operands dominate it. It returns the first rule the op
// breaks, or nil. It may be called concurrently on the ops of a large block,
// so it must only read the IR.
type DialectCheck func(op *ir.Operation) *diag.Diagnostic

var (
	dialectMu     sync.RWMutex
	dialectChecks = map[string]DialectCheck{} // by op-name prefix, e.g. "dais."
	topLevelOps   = map[string]bool{}
)

// RegisterDialect makes the verifier call check on every op whose name
// starts with prefix (e.g. "dais.") and that has no OTIR rules of its own.
// The named topLevel ops may appear in the module body beside otir.kernel.
func RegisterDialect(prefix string, check DialectCheck, topLevel ...string) {
	dialectMu.Lock()
	defer dialectMu.Unlock()
	dialectChecks[prefix] = check
	for _, n := range topLevel {
		topLevelOps[n] = true
	}
}

// dialectSpec is the spec of a registered op the verifier has no rules for:
// its structure, then its dialect's check if one is registered.
func dialectSpec(op *ir.Operation) *opSpec {
	s := &opSpec{form: form{maxOperands: -1, results: -1, regions: len(op.Regions)}}
	dialectMu.RLock()
	defer dialectMu.RUnlock()
	for prefix, check := range dialectChecks {
		if strings.HasPrefix(op.Name, prefix) {
			s.check = func(_ *verifier, op *ir.Operation) *diag.Diagnostic { return check(op) }
			break
		}
	}
	return s
}

// isTopLevel reports whether a registered dialect allows op in the module body.
func isTopLevel(name string) bool {
	dialectMu.RLock()
	defer dialectMu.RUnlock()
	return topLevelOps[name]
}

// dialectOwned reports whether a registered dialect checks the named op.
func dialectOwned(name string) bool {
	dialectMu.RLock()
	defer dialectMu.RUnlock()
	for prefix := range dialectChecks {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}
