package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/otir-dev/otir/internal/lit"
)

func TestCount(t *testing.T) {
	var errOut strings.Builder
	for _, c := range []struct {
		in   string
		n    string
		want int
	}{
		{"a\nb\n", "2", 0}, {"a\nb", "2", 0}, {"", "0", 0}, {"a\n", "2", 1}, {"a\n", "x", 2},
	} {
		if got := countMain([]string{c.n}, strings.NewReader(c.in), &errOut); got != c.want {
			t.Errorf("count %s < %q = %d, want %d", c.n, c.in, got, c.want)
		}
	}
}

// buildTools builds every command of the module into a temporary directory
// (otir-lit finds filecheck and not beside itself) and returns otir-lit.
func buildTools(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bin")
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	if log, err := lit.BuildBinaries(root, bin); err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	return filepath.Join(bin, "otir-lit")
}

// TestFileCheckCorpus runs otir-lit on LLVM's own FileCheck tests
// (../shared/conformance/filecheck/corpus, LLVM 19.1.7's llvm/test/FileCheck
// with its lit.cfg.py) with the project's filecheck: all 75 must pass.
func TestFileCheckCorpus(t *testing.T) {
	corpus, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared", "conformance", "filecheck", "corpus"))
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("cmd/otir-lit: %s is absent (../shared is not checked out); skipping the LLVM FileCheck corpus", corpus)
	}
	otirLit := buildTools(t)
	cmd := exec.Command(otirLit, "-v", corpus)
	cmd.Env = append(os.Environ(), "FILECHECK_OPTS=-dump-input=always") // must not leak into tests
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("otir-lit %s: %v", corpus, err)
	}
	if m := regexp.MustCompile(`(?m)^  Passed\s*: (\d+) `).FindStringSubmatch(string(out)); m == nil || m[1] != "75" || !strings.Contains(string(out), "Total Discovered Tests: 75\n") {
		t.Errorf("want 75 of 75 tests passed; otir-lit says:\n%s", out)
	}
}

// TestOtirLit runs otir-lit on a small suite that exercises its options.
func TestOtirLit(t *testing.T) {
	otirLit := buildTools(t)
	dir := t.TempDir()
	files := map[string]string{
		"lit.cfg.py":         "import lit.formats\nconfig.name = 'demo'\nconfig.suffixes = ['.txt']\nconfig.excludes = ['Inputs']\nconfig.substitutions.append(('%greet', 'echo hello'))\nconfig.available_features.add('demo-feature')\n",
		"pass.txt":           "RUN: %greet | FileCheck %s\nCHECK: hello\n",
		"define.txt":         "; DEFINE: %{check} = FileCheck %s --check-prefix\nRUN: %greet | %{check} HI\nHI: hello\n; REDEFINE: %{check} = not FileCheck %s --check-prefix\nRUN: %greet | %{check} NO\nNO: bye\n",
		"count.txt":          "RUN: printf 'a\\nb\\n' | count 2\n",
		"param.txt":          "RUN: test %{p} = 42\n",
		"xfail.txt":          "XFAIL: demo-feature && !nothing\nRUN: false\n",
		"unsupported.txt":    "UNSUPPORTED: demo-feature || nothing\nRUN: false\n",
		"pipefail.txt":       "XFAIL: *\nRUN: false | true\n",
		"end.txt":            "RUN: true\n; END.\nRUN: false\n",
		"sub/lit.local.cfg":  "config.substitutions.append(('%local', 'true'))\n",
		"sub/local.txt":      "RUN: %local\n",
		"Inputs/ignored.txt": "RUN: false\n",
		"not-a-test.md":      "RUN: false\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(otirLit, dir, "-D", "p=42").CombinedOutput()
	if err != nil {
		t.Errorf("otir-lit: %v\n%s", err, out)
	}
	for _, want := range []string{"Total Discovered Tests: 9\n", "Passed              : 6 ", "Expectedly Failed   : 2 ", "Unsupported         : 1 ", "PASS: demo :: sub/local.txt"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// --filter selects by name; a failure exits 1 and -v shows its log.
	out, err = exec.Command(otirLit, "-v", "--filter", "param", dir).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "FAIL: demo :: param.txt (1 of 1)") || !strings.Contains(string(out), "test %{p} = 42") {
		t.Errorf("otir-lit --filter param without -D: %v\n%s", err, out)
	}
	// No test found: exit 2.
	if err := exec.Command(otirLit, "--filter", "nothing-matches", dir).Run(); err == nil {
		t.Error("otir-lit found tests for a filter that matches none")
	} else if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Errorf("no tests: %v, want exit status 2", err)
	}
}
