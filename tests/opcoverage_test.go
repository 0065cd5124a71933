package tests

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/exec"
	"github.com/otir-dev/otir/backend/nneval"
	_ "github.com/otir-dev/otir/dialect/nn"
	_ "github.com/otir-dev/otir/dialect/otir"
	_ "github.com/otir-dev/otir/dialect/scf"
	"github.com/otir-dev/otir/ir"
)

// The checklist of docs/adding-an-op.md, enforced: every operation of the
// otir, scf and nn dialects has, among the lit tests of this folder,
//
//   - a parse test: the op in a check line (CHECK:, or another FileCheck
//     prefix) of a test whose RUN lines run otir-opt and FileCheck;
//   - a verifier test: an expected-error naming "'op' op" in a test run with
//     --verify-diagnostics;
//   - where it is computed, a golden test: for an otir or scf op the
//     executor runs (exec.Support), a test that runs otir-run on a file
//     using it (`otir-run %s`); for an nn kind the evaluator computes
//     (nneval.Computes), a case of the evaluator's golden tests (backend/nneval:
//     nn/Inputs/golden, values from PyTorch; nn/Inputs/quantized, values
//     from exact rational arithmetic) or such a test.
//
// coverageGaps lists what is known to be missing, each with what; the test
// fails on a gap not listed and on a listed gap that is covered, so that
// the list only shrinks.

// A coverage kind of an operation.
const (
	parseTest  = "parse test"
	verifyTest = "verifier test"
	goldenTest = "golden test"
)

var coverageGaps = map[string][]string{}

// litFile is one lit test: its RUN lines, check lines and IR lines (the
// lines that are not comments).
type litFile struct {
	path              string
	run, checks, body string
	expectedErrors    string
}

var (
	checkLine   = regexp.MustCompile(`^\s*(//|#|;)\s*[A-Z][A-Z0-9_]*(-NEXT|-SAME|-NOT|-DAG|-LABEL|-EMPTY|-COUNT-\d+)?:`)
	runLine     = regexp.MustCompile(`^\s*(//|#|;)\s*RUN:(.*)$`)
	commentLine = regexp.MustCompile(`^\s*(//|#|;)`)
)

// litFiles reads the lit tests under dir, and the golden cases of the nn
// evaluator (by path).
func litFiles(t *testing.T, dir string) (tests []litFile, golden map[string]string) {
	t.Helper()
	golden = map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := filepath.Ext(path)
		if ext != ".otir" && ext != ".mlir" && ext != ".lit" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(path)
		if strings.Contains(rel, "/Inputs/golden/") || strings.Contains(rel, "/Inputs/quantized/") {
			golden[rel] = string(src)
			return nil
		}
		if strings.Contains(rel, "/Inputs/") {
			return nil
		}
		f := litFile{path: rel}
		var run, checks, body, errs []string
		for _, l := range strings.Split(string(src), "\n") {
			switch {
			case runLine.MatchString(l):
				run = append(run, runLine.FindStringSubmatch(l)[2])
			case strings.Contains(l, "expected-error"):
				errs = append(errs, l)
			case checkLine.MatchString(l):
				checks = append(checks, l)
			case !commentLine.MatchString(l):
				body = append(body, l)
			}
		}
		f.run, f.checks, f.body, f.expectedErrors = strings.Join(run, "\n"), strings.Join(checks, "\n"), strings.Join(body, "\n"), strings.Join(errs, "\n")
		tests = append(tests, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) < 100 || len(golden) < 40 {
		t.Fatalf("found %d lit tests and %d golden cases under %s: the test no longer finds them", len(tests), len(golden), dir)
	}
	return tests, golden
}

// missingCoverage lists what op lacks.
func missingCoverage(op string, tests []litFile, golden map[string]string) []string {
	name := regexp.MustCompile(regexp.QuoteMeta(op) + `\b`)
	named := "'" + op + "' op"
	var parsed, verified, ran bool
	for _, f := range tests {
		if strings.Contains(f.run, "otir-opt") && strings.Contains(f.run, "FileCheck") && name.MatchString(f.checks) {
			parsed = true
		}
		if strings.Contains(f.run, "--verify-diagnostics") && strings.Contains(f.expectedErrors, named) {
			verified = true
		}
		if strings.Contains(f.run, "otir-run %s") && name.MatchString(f.body) {
			ran = true
		}
	}
	computed := false
	if strings.HasPrefix(op, "nn.") {
		computed, _ = nneval.Computes(op)
		for _, src := range golden {
			ran = ran || name.MatchString(src)
		}
	} else {
		computed, _ = exec.Support(op)
	}
	var missing []string
	if !parsed {
		missing = append(missing, parseTest)
	}
	if !verified {
		missing = append(missing, verifyTest)
	}
	if computed && !ran {
		missing = append(missing, goldenTest)
	}
	return missing
}

// coverageHints say what each kind of test is.
var coverageHints = map[string]string{
	parseTest:  "a check line naming it in a test that runs otir-opt and FileCheck",
	verifyTest: "an expected-error naming it (\"'name' op\") in a test run with --verify-diagnostics",
	goldenTest: "a test that runs otir-run %s on a file using it, or for an nn kind a case in nn/Inputs/golden",
}

// TestOpTestCoverage: every otir, scf and nn operation has its parse,
// verifier and golden tests (see above).
func TestOpTestCoverage(t *testing.T) {
	tests, golden := litFiles(t, ".")
	var ops []string
	for _, name := range ir.OpNames() {
		if d, _, _ := strings.Cut(name, "."); d == "otir" || d == "scf" || d == "nn" {
			ops = append(ops, name)
		}
	}
	if len(ops) < 80 {
		t.Fatalf("only %d otir, scf and nn operations registered", len(ops))
	}
	for _, op := range ops {
		missing := missingCoverage(op, tests, golden)
		known := coverageGaps[op]
		for _, m := range missing {
			if !slices.Contains(known, m) {
				t.Errorf("%s: no %s: %s (docs/adding-an-op.md, section 5)", op, m, coverageHints[m])
			}
		}
		for _, k := range known {
			if !slices.Contains(missing, k) {
				t.Errorf("%s has a %s now: remove it from coverageGaps", op, k)
			}
		}
	}
	var listed []string
	for op := range coverageGaps {
		if ir.LookupOp(op) == nil {
			listed = append(listed, op)
		}
	}
	sort.Strings(listed)
	if len(listed) > 0 {
		t.Errorf("coverageGaps lists operations that are not registered: %v", listed)
	}
}
