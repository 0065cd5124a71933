package parse

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes/verify"
)

// The fuzz targets. Seeds come from the round-trip and error tables (added
// with f.Add) and from parse/testdata/fuzz/<target>/, where `go test -fuzz`
// also stores every crasher it finds; those files stay as regression tests.

func addSeeds(f *testing.F) {
	for _, c := range roundTripCases {
		f.Add([]byte(c.src))
	}
	for _, c := range errorCases {
		f.Add([]byte(c.src))
	}
	f.Add(GenerateChain(40))
	f.Add(GenerateChainOneLine(40))
	f.Add(GenerateEmptyKernels(5))
}

// printText prints m, or fails the test.
func printText(t *testing.T, m *ir.Module, generic bool) string {
	t.Helper()
	var sb strings.Builder
	if err := ir.Print(&sb, m, ir.PrintOptions{Generic: generic}); err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

// outcome is what a parse gave, as comparable text.
func outcome(t *testing.T, src []byte, opts Options) (string, *ir.Module) {
	t.Helper()
	m, err := Parse("fuzz.otir", src, opts)
	if err != nil {
		var d *diag.Diagnostic
		if !errors.As(err, &d) {
			t.Fatalf("error is a %T, not a *diag.Diagnostic: %v", err, err)
		}
		if d.Loc.Line < 1 || d.Loc.Col < 1 {
			t.Fatalf("error without a location: %v", err)
		}
		return "error: " + d.Error(), nil
	}
	return printText(t, m, true), m
}

// FuzzParse checks that no input makes the parser panic, that every error is
// a located diagnostic, and that the fast path and the parallel parse agree
// with the plain participle grammar.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		catchPanics = false
		defer func() { catchPanics = true }()
		want, _ := outcome(t, src, Options{Workers: 1, noStream: true})
		if got, _ := outcome(t, src, Options{Workers: 1, noFastPath: true, noStream: true}); got != want {
			t.Fatalf("grammar-only parse differs from the fast path:\n--- grammar\n%s\n--- fast\n%s", got, want)
		}
		if got, _ := outcome(t, src, Options{Workers: 3, MinChunkTokens: 3, noStream: true}); got != want {
			t.Fatalf("parallel parse differs from the sequential one:\n--- parallel\n%s\n--- sequential\n%s", got, want)
		}
		for _, opts := range []Options{{Workers: 1, MinChunkBytes: 1}, {Workers: 2, MinChunkBytes: 16}} {
			if got, _ := outcome(t, src, opts); got != want {
				t.Fatalf("streamed parse %+v differs from the whole one:\n--- streamed\n%s\n--- whole\n%s", opts, got, want)
			}
		}
	})
}

// FuzzParseVerify runs the verifier on whatever parses: it must not panic.
func FuzzParseVerify(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		catchPanics = false
		defer func() { catchPanics = true }()
		m, err := Parse("fuzz.otir", src, Options{Workers: 1})
		if err != nil {
			return
		}
		_ = verify.Verify(m)
	})
}

// FuzzRoundTrip checks that the printer's output of whatever parses parses
// back to the same text, and that both forms describe the same IR. The
// generic form is checked for everything that parses; the pretty form for
// everything that also verifies, because the printer (ir/pretty.go) prints
// some ill-formed operations in a pretty form that cannot say what is wrong
// with them (e.g. an scf.for whose block argument types differ from its
// iter_args), so that the text parses to a different IR or not at all.
func FuzzRoundTrip(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		catchPanics = false
		defer func() { catchPanics = true }()
		m, err := Parse("fuzz.otir", src, Options{Workers: 1})
		if err != nil || moduleLevelValues(m.Op) {
			return
		}
		forms := []bool{true}
		if !verify.Verify(m).HasErrors() {
			forms = append(forms, false)
		}
		for _, generic := range forms {
			p1 := printText(t, m, generic)
			m2, err := Parse("fuzz.otir", []byte(p1), Options{Workers: 1})
			if err != nil {
				t.Fatalf("printed text (generic=%v) does not parse: %v\n%s", generic, err, p1)
			}
			if p2 := printText(t, m2, generic); p2 != p1 {
				t.Fatalf("round trip (generic=%v) differs:\n--- first\n%s--- second\n%s", generic, p1, p2)
			}
			if g1, g2 := printText(t, m, true), printText(t, m2, true); g1 != g2 {
				t.Fatalf("pretty and generic forms describe different IR (generic=%v):\n--- before\n%s--- after\n%s", generic, g1, g2)
			}
		}
	})
}

// moduleLevelValues reports whether an operation directly in a module body
// defines values: the printer names values per kernel only, so it prints
// those as "%" (ir/printer.go), which cannot be parsed back.
func moduleLevelValues(op *ir.Operation) bool {
	found := false
	op.Walk(func(o *ir.Operation) bool {
		if body := o.Body(0); o.Name == ir.OpModule && body != nil {
			for _, b := range body.Ops {
				if len(b.Results) > 0 {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// TestWriteSeedCorpus writes the seeds as corpus files under testdata/fuzz
// when OTIR_WRITE_SEEDS is set (run it after changing the tables).
func TestWriteSeedCorpus(t *testing.T) {
	if os.Getenv("OTIR_WRITE_SEEDS") == "" {
		t.Skip("set OTIR_WRITE_SEEDS=1 to rewrite parse/testdata/fuzz seeds")
	}
	var seeds [][]byte
	for _, c := range roundTripCases {
		seeds = append(seeds, []byte(c.src))
	}
	for _, c := range errorCases {
		seeds = append(seeds, []byte(c.src))
	}
	for _, target := range []string{"FuzzParse", "FuzzParseVerify", "FuzzRoundTrip"} {
		dir := filepath.Join("testdata", "fuzz", target)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, s := range seeds {
			body := "go test fuzz v1\n[]byte(" + strconv.Quote(string(s)) + ")\n"
			name := filepath.Join(dir, "seed-"+strconv.Itoa(i))
			if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
