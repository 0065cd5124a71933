package tiles

import (
	"testing"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/parse"
	"github.com/otir-dev/otir/passes"
	_ "github.com/otir-dev/otir/passes/promote"
	"github.com/otir-dev/otir/passes/verify"
)

func init() { debugPanics = true }

// parseText parses OTIR text, verifies it and runs promote-types.
func parseText(t testing.TB, src string) *ir.Module {
	t.Helper()
	m, err := parse.Parse("test.otir", []byte(src), parse.Options{})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if l := verify.Verify(m); l.HasErrors() {
		t.Fatalf("verify: %v", l)
	}
	pl, err := passes.ParsePipeline("builtin.module(promote-types)")
	if err != nil {
		t.Fatal(err)
	}
	pm, err := passes.NewManager(pl)
	if err != nil {
		t.Fatal(err)
	}
	pm.Verify = verify.Verify
	if l := pm.Run(m); l.HasErrors() {
		t.Fatalf("promote-types: %v", l)
	}
	return m
}

// lowerText parses, promotes and lowers the only kernel of src.
func lowerText(t testing.TB, src string, opts Options) (*ir.Operation, error) {
	t.Helper()
	m := parseText(t, src)
	ks := otir.Kernels(m)
	if len(ks) != 1 {
		t.Fatalf("%d kernels", len(ks))
	}
	return LowerKernel(ks[0], opts)
}

// printed prints a program op.
func printed(prog *ir.Operation) string {
	m := ir.NewModule(ir.Location{})
	m.Body().Append(prog)
	return m.String()
}

var _ = diag.Errorf
