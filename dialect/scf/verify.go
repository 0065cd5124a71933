package scf

import "github.com/otir-dev/otir/ir"

// verifiers holds each op's Verify hook, by name: the op's own semantic rules,
// run by the verifier once the generic checks of its record passed.
var verifiers = map[string]func(*ir.Operation) error{}
