// Package all links every pass into a binary: importing it (blank) fills the
// pass registry. Each pass package adds a blank import here.
package all

import (
	_ "github.com/otir-dev/otir/lower/daisopt"
	_ "github.com/otir-dev/otir/lower/tiles"
	_ "github.com/otir-dev/otir/passes/cse"
	_ "github.com/otir-dev/otir/passes/dce"
	_ "github.com/otir-dev/otir/passes/promote"
)
