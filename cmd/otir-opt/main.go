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
	"math"
	"os"
	"runtime"
	"runtime/debug"

	_ "github.com/otir-dev/otir/cmd/internal/registry"
	"github.com/otir-dev/otir/cmd/otir-opt/internal/optmain"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/parse"
	"github.com/otir-dev/otir/passes/verify"
)

// env wires the real parser and verifier into the driver.
func env() optmain.Env {
	return optmain.Env{
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Parse: func(filename, src string, lineOffset int) (*ir.Module, error) {
			return parse.ParseString(filename, src, parse.Options{LineOffset: lineOffset})
		},
		ParseUnregistered: func(filename, src string, lineOffset int) (*ir.Module, error) {
			return parse.ParseString(filename, src, parse.Options{LineOffset: lineOffset, AllowUnregistered: true})
		},
		Verify:   verify.Verify,
		Dialects: ir.Dialects(),
	}
}

func main() {
	go parse.Prepare() // while the flags are parsed and the input read
	delayFirstGC(startingHeap(physicalMemory()))
	os.Exit(optmain.Main(os.Args, env()))
}

// startingHeap is how large the heap may grow before the first collection:
// a quarter of the machine's memory, between 1 and 4 GiB (1 GiB when the
// size is unknown). A 1M-operation kernel needs about 1 GB: on most machines
// it is parsed, verified and printed without a collection.
func startingHeap(physical uint64) int64 {
	const lo, hi = 1 << 30, 4 << 30
	switch q := physical / 4; {
	case q < lo:
		return lo
	case q > hi:
		return hi
	default:
		return int64(q)
	}
}

// delayFirstGC lets the heap grow to limit bytes before the garbage collector
// first runs, then restores the usual collector (GOGC=100), as Go's own
// compiler does (cmd/compile's base.AdjustStartingHeap): otir-opt is a batch
// tool whose data mostly lives to the end, so early collections are wasted
// work. Parsing, verifying and printing 100k operations allocates about
// 110 MB and runs with no collection at all. A GOGC or GOMEMLIMIT set by the
// user is left alone.
func delayFirstGC(limit int64) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(limit)
	// The sentinel is unreachable at once; its finalizer runs after the first
	// collection, which the memory limit triggers. (It holds a pointer so that
	// it is not a tiny allocation, whose finalizer might never run.)
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	})
}

type gcSentinel struct{ _ *gcSentinel }
