package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A test in a folder whose name holds a ';' fails when its command fails:
// %s is quoted, so the name cannot end the command (it gave a false PASS).
func TestSemicolonFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "x;true #")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "fail.lit"), []byte("# RUN: ! cat %s\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "pass.lit"), []byte("# RUN: cat %s | grep -q RUN\n"), 0o644)
	var out, errb strings.Builder
	code := run([]string{"-q", dir}, &out, &errb)
	if code != 1 || !strings.Contains(out.String(), "FAIL: x;true # :: fail.lit") || strings.Contains(out.String(), "pass.lit") {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
}
