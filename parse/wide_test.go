package parse

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/passes/verify"
)

// TestWideInputsParse parses and verifies inputs that were quadratic
// (issue 26): 100,000 kernel arguments took 66 s, 100,000 attributes over a
// minute. The test only has to finish within go test's timeout; the
// benchmarks of the same names give the figures.
func TestWideInputsParse(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  []byte
	}{
		{"arguments", wideSignature(100000)},
		{"attributes", manyAttributes(100000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Parse("wide.otir", tc.src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if errs := verify.Verify(m); errs.HasErrors() {
				t.Fatal(errs)
			}
		})
	}
}

// TestDeepRegionsError: 100,000 nested regions end in the located nesting
// error, not a stack overflow.
func TestDeepRegionsError(t *testing.T) {
	const n = 100000
	src := "otir.kernel @k() {\n" + strings.Repeat("\"scf.execute_region\"() ({\n", n) +
		strings.Repeat("}) : () -> ()\n", n) + "otir.return\n}\n"
	_, err := Parse("deep.otir", []byte(src), Options{})
	const want = "deep.otir:2049:25: error: brackets nested more than 4096 levels deep"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got %v, want %s", err, want)
	}
}

// TestDeepTypeError: a type nested 1,000,000 deep ends in a located error,
// not a stack overflow of the recursive type parser.
func TestDeepTypeError(t *testing.T) {
	const n = 1000000
	src := "otir.kernel @k(%a: " + strings.Repeat("tensor<", n) + "f32" + strings.Repeat(">", n) + ") {\n  otir.return\n}\n"
	_, err := Parse("deep.otir", []byte(src), Options{})
	const want = "deep.otir:1:20: error: type nested more than 256 levels deep"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got %.200v, want %s", err, want)
	}
}
