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

	"github.com/otir-dev/otir/cmd/internal/crash"
	_ "github.com/otir-dev/otir/cmd/internal/registry"
	"github.com/otir-dev/otir/cmd/otir-opt/internal/optmain"
	"github.com/otir-dev/otir/internal/progress"
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
		Verify:         verify.Verify,
		Dialects:       ir.Dialects(),
		StderrTerminal: func() (bool, int) { return progress.Terminal(os.Stderr) },
	}
}

func main() {
	defer crash.Guard("otir-opt")
	go parse.Prepare() // while the flags are parsed and the input read
	delayFirstGC(startingHeap(physicalMemory()))
	os.Exit(optmain.Main(os.Args, env()))
}

// startingHeap is how large the heap may grow before the first collection:
// a sixteenth of the machine's memory, between 64 and 256 MiB (256 MiB when
// the size is unknown).
//
// The policy trades a little CPU on big runs for a bounded peak. Small
// runs (parsing, verifying and printing 100k operations allocates about
// 110 MB; lowering a 32x32x32 matmul to ALIR about 220 MB) finish without
// a single collection. A big run collects first at this threshold and then
// as usual (GOGC=100: the heap grows to about twice what is live), so its
// peak resident memory follows what it keeps, not what it allocated:
// lowering a 64x64x64 matmul allocates about 2 GB but never has more than
// about 220 MB live, and peaks under 500 MB. Delaying the first collection
// to gigabytes instead (as this tool did) made the peak equal to the whole
// allocation, and the kernel's time to fault in the fresh pages (system
// time) cost more than the collections saved.
func startingHeap(physical uint64) int64 {
	const lo, hi = 64 << 20, 256 << 20
	if physical == 0 {
		return hi
	}
	switch q := physical / 16; {
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
// work. A GOGC or GOMEMLIMIT set by the user is left alone.
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
