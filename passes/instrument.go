package passes

import (
	"fmt"
	"io"

	"github.com/otir-dev/otir/ir"
)

// Instrumentation is called around every pass and verifier run of a Manager,
// as MLIR's PassInstrumentation. Embed NoInstrumentation to implement only
// some hooks.
type Instrumentation interface {
	BeforePass(e *Entry, m *ir.Module)
	// AfterPass is called after the pass, also when it failed.
	AfterPass(e *Entry, m *ir.Module, failed bool)
	// BeforeVerify and AfterVerify bracket the verifier run after pass e.
	BeforeVerify(e *Entry, m *ir.Module)
	AfterVerify(e *Entry, m *ir.Module, failed bool)
}

// NoInstrumentation implements every hook as a no-op.
type NoInstrumentation struct{}

func (NoInstrumentation) BeforePass(*Entry, *ir.Module)        {}
func (NoInstrumentation) AfterPass(*Entry, *ir.Module, bool)   {}
func (NoInstrumentation) BeforeVerify(*Entry, *ir.Module)      {}
func (NoInstrumentation) AfterVerify(*Entry, *ir.Module, bool) {}

// IRPrinter prints the module before and/or after selected passes, with
// MLIR's header lines: `// -----// IR Dump After CSE (cse) //----- //`.
type IRPrinter struct {
	NoInstrumentation
	W io.Writer
	// Before and After select the passes to print around; nil selects none.
	Before, After func(e *Entry) bool
	Opts          ir.PrintOptions
}

// BeforePass prints the IR when Before selects the pass.
func (p *IRPrinter) BeforePass(e *Entry, m *ir.Module) {
	if p.Before != nil && p.Before(e) {
		p.dump("Before "+e.Title(), e, m)
	}
}

// AfterPass prints the IR when After selects the pass ("After X Failed" when
// the pass failed).
func (p *IRPrinter) AfterPass(e *Entry, m *ir.Module, failed bool) {
	if p.After == nil || !p.After(e) {
		return
	}
	if failed {
		p.dump("After "+e.Title()+" Failed", e, m)
		return
	}
	p.dump("After "+e.Title(), e, m)
}

func (p *IRPrinter) dump(when string, e *Entry, m *ir.Module) {
	fmt.Fprintf(p.W, "// -----// IR Dump %s (%s) //----- //\n", when, e.Name())
	printModuleSafely(p.W, m, p.Opts)
	fmt.Fprintln(p.W)
}

// printModuleSafely prints m, reporting a printer panic (IR broken by a
// failing pass) as a line of text instead of crashing.
func printModuleSafely(w io.Writer, m *ir.Module, opts ir.PrintOptions) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(w, "<<the IR could not be printed: %v>>\n", r)
		}
	}()
	if err := ir.Print(w, m, opts); err != nil {
		fmt.Fprintf(w, "<<the IR could not be printed: %v>>\n", err)
	}
}

// PassSet selects passes by registered name, for --print-ir-before=a,b.
func PassSet(names []string) func(e *Entry) bool {
	set := map[string]bool{}
	for _, n := range names {
		set[n] = true
	}
	return func(e *Entry) bool { return set[e.Name()] }
}

// AllPasses selects every pass.
func AllPasses(*Entry) bool { return true }
