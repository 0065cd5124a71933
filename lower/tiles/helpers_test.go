package tiles

import (
	"testing"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes/passtest"
	_ "github.com/otir-dev/otir/passes/promote"
)

func init() { debugPanics = true }

// parseText parses OTIR text, verifies it and runs promote-types.
func parseText(t testing.TB, src string) *ir.Module {
	t.Helper()
	m := passtest.Parse(t, "test.otir", src)
	passtest.MustRun(t, m, "builtin.module(promote-types)", src)
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
