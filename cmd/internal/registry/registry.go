// Package registry links every pass into a binary: importing it (blank)
// fills the pass registry of github.com/otir-dev/otir/passes. Each pass
// package adds a blank import here.
//
// It lives at the command layer because it names passes of every layer above
// passes/ (the lowering in lower/ included); a package below cmd/ imports
// only the passes it uses.
package registry

import (
	_ "github.com/otir-dev/otir/lower/daisopt"
	_ "github.com/otir-dev/otir/lower/nnkernels"
	_ "github.com/otir-dev/otir/lower/nnquant"
	_ "github.com/otir-dev/otir/lower/tiles"
	_ "github.com/otir-dev/otir/passes/cse"
	_ "github.com/otir-dev/otir/passes/dce"
	_ "github.com/otir-dev/otir/passes/promote"
)
