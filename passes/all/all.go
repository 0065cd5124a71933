// Package all links every pass into a binary: importing it (blank) fills the
// pass registry. Each pass package adds a blank import here.
package all

import (
	_ "otir/lower/daisopt"
	_ "otir/lower/tiles"
	_ "otir/passes/cse"
	_ "otir/passes/dce"
	_ "otir/passes/promote"
)
