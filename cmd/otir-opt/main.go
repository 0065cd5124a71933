// Command otir-opt parses, verifies, transforms and prints OTIR, as mlir-opt
// does for MLIR:
//
//	otir-opt kernel.otir --cse --dce
//	otir-opt kernel.otir --pass-pipeline='builtin.module(promote-types{style=cpp},cse)'
//	otir-opt tests.otir --split-input-file --verify-diagnostics
//
// See docs/otir-opt.md for every flag. The driver lives in internal/optmain.
package main

import (
	"os"

	"otir/cmd/otir-opt/internal/optmain"
	"otir/ir"
	"otir/parse"
	_ "otir/passes/all"
	"otir/passes/verify"
)

// env wires the real parser and verifier into the driver.
func env() optmain.Env {
	return optmain.Env{
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Parse: func(filename string, src []byte, lineOffset int) (*ir.Module, error) {
			return parse.Parse(filename, src, parse.Options{LineOffset: lineOffset})
		},
		Verify: verify.Verify,
	}
}

func main() { os.Exit(optmain.Main(os.Args, env())) }
