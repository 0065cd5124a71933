// Package tests runs the project's lit-style tests: every file under tests/
// with a registered extension (see lit.Suffixes) is one subtest of TestLit,
// named by its path relative to tests/, e.g.
//
//	go test ./tests -run 'TestLit/filecheck/flags.lit'
package tests

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/otir-dev/otir/internal/lit"
)

// features are the names REQUIRES:, UNSUPPORTED: and XFAIL: can test:
// "shared" when ../shared exists, every built binary by its name, and
// external tools (mlir-opt, python3, the simulators iverilog and ghdl)
// found on PATH.
func features(binDir string) map[string]bool {
	f := map[string]bool{}
	if sharedDir() != "" {
		f["shared"] = true
	}
	for _, b := range lit.Binaries(binDir) {
		f[b] = true
	}
	for _, tool := range []string{"mlir-opt", "python3", "iverilog", "ghdl"} {
		if _, err := exec.LookPath(tool); err == nil {
			f[tool] = true
		}
	}
	return f
}

func TestLit(t *testing.T) {
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	files, err := lit.Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	binDir := builtTools(t)
	cfg := &lit.Config{BinDir: binDir, Features: features(binDir)}
	// Bound the number of tests running at once: each may start several
	// processes, and the machine is small.
	sem := make(chan struct{}, max(1, min(4, runtime.NumCPU())))
	for _, path := range files {
		rel, _ := filepath.Rel(root, path)
		name := filepath.ToSlash(rel)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sem <- struct{}{}
			defer func() { <-sem }()
			content, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			test, err := lit.Parse(path, name, content)
			if err != nil {
				t.Fatal(err)
			}
			res := cfg.Run(test)
			switch res.Status {
			case lit.Unsupported:
				t.Skip(res.Reason)
			case lit.Fail, lit.XPass:
				t.Error(res.Report())
			}
		})
	}
}
