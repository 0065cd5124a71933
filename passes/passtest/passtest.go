// Package passtest holds what the tests of passes, lowerings and pipelines
// share: parsing a module and running a textual pass pipeline on it as
// otir-opt does, and building a one-kernel module for a pass to rewrite.
package passtest

import (
	"testing"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/parse"
	"github.com/otir-dev/otir/passes"
	"github.com/otir-dev/otir/passes/verify"
)

// Parse parses text (as the file name) and verifies it; text that does
// not parse or verify fails t, shown with the error.
func Parse(t testing.TB, name, text string) *ir.Module {
	t.Helper()
	m, err := parse.ParseString(name, text, parse.Options{})
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, text)
	}
	if ds := verify.Verify(m); ds.HasErrors() {
		t.Fatalf("verify: %v\n%s", ds, text)
	}
	return m
}

// Run runs the textual pass pipeline on m, verifying after each pass as
// otir-opt does, and returns what the passes and the verifier reported. A
// pipeline that does not parse or build fails t.
func Run(t testing.TB, m *ir.Module, pipeline string) diag.List {
	t.Helper()
	pl, err := passes.ParsePipeline(pipeline)
	if err != nil {
		t.Fatal(err)
	}
	pm, err := passes.NewManager(pl)
	if err != nil {
		t.Fatal(err)
	}
	pm.Verify = verify.Verify
	return pm.Run(m)
}

// MustRun is Run failing t when an error is reported; text (the module's
// input, or "") is shown with it.
func MustRun(t testing.TB, m *ir.Module, pipeline, text string) {
	t.Helper()
	if ds := Run(t, m, pipeline); ds.HasErrors() {
		t.Fatalf("%s: %v\n%s", pipeline, ds, text)
	}
}

// Registered builds the registered pass name with its default options.
func Registered(t testing.TB, name string) passes.Pass {
	t.Helper()
	spec, err := passes.Spec(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := spec.Build(passes.NewContext())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Kernel builds a module with one kernel @k(%arg0: arg) and lets fill add
// its body (otir.return is appended).
func Kernel(arg ir.Type, fill func(b *ir.Builder, arg *ir.Value)) *ir.Module {
	m := ir.NewModule(ir.Location{})
	_, body := otir.Kernel(ir.NewBuilder(m.Body()), "k", []ir.Type{arg}, nil)
	b := ir.NewBuilder(body)
	fill(b, body.Args[0])
	otir.Return(b)
	return m
}

// Case is a row of a table test of a pass that removes operations: Build
// fills the kernel's body, Removed is how many operations the pass
// removes, Want the body after it.
type Case struct {
	Name    string
	Build   func(b *ir.Builder, arg *ir.Value)
	Removed int
	Want    string
}

// RunCases runs each case's kernel (@k with one argument of type arg)
// through run, which returns how many operations it removed, and checks
// the count and the printed module.
func RunCases(t *testing.T, arg ir.Type, run func(*ir.Module) int, cases []Case) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			m := Kernel(arg, c.Build)
			if n := run(m); n != c.Removed {
				t.Errorf("removed %d ops, want %d", n, c.Removed)
			}
			want := "module {\n  otir.kernel @k(%arg0: " + arg.String() + ") {" + c.Want + "\n    otir.return\n  }\n}\n"
			if got := m.String(); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}
