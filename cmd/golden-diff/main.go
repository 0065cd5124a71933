// Command golden-diff compares a golden file with actual output and prints
// a readable line diff when they differ. Usage:
//
//	golden-diff EXPECTED [ACTUAL]     (ACTUAL defaults to stdin, or "-")
//
// It exits 0 when the texts are equal, 1 when they differ and 2 on errors.
// With UPDATE_GOLDEN=1 in the environment it rewrites EXPECTED instead.
package main

import (
	"os"

	"github.com/otir-dev/otir/cmd/internal/crash"
	"github.com/otir-dev/otir/internal/lit"
)

func main() {
	defer crash.Guard("golden-diff")
	os.Exit(lit.GoldenDiffMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv("UPDATE_GOLDEN") == "1"))
}
