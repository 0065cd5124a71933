// Package registry links every pass into a binary: importing it (blank)
// fills the pass registry of github.com/otir-dev/otir/passes. Each pass
// package adds a blank import here.
//
// It lives at the command layer because it names passes of every layer above
// passes/ (the lowerings in lower/ and the pipelines in pipelines/); a
// package below cmd/ imports only the passes it uses.
package registry

import (
	_ "github.com/otir-dev/otir/lower/daisopt"
	_ "github.com/otir-dev/otir/lower/nn/kernels"
	_ "github.com/otir-dev/otir/lower/nn/qonnx"
	_ "github.com/otir-dev/otir/lower/nn/quantize"
	_ "github.com/otir-dev/otir/lower/tiles"
	_ "github.com/otir-dev/otir/passes/cse"
	_ "github.com/otir-dev/otir/passes/dce"
	_ "github.com/otir-dev/otir/passes/promote"
	_ "github.com/otir-dev/otir/pipelines/nncircuit"
)
