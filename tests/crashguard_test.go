package tests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryCommandHasTheCrashGuard checks that the main of every command
// (cmd/*/main.go) starts with `defer crash.Guard("<its name>")`, so that a
// panic never reaches a user as Go's crash dump (docs/executor.md, "Exit
// status"). The guard itself is tested in cmd/internal/crash.
func TestEveryCommandHasTheCrashGuard(t *testing.T) {
	mains, err := filepath.Glob("../cmd/*/main.go")
	if err != nil || len(mains) == 0 {
		t.Fatalf("no cmd/*/main.go: %v", err)
	}
	for _, path := range mains {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tool := filepath.Base(filepath.Dir(path))
		want := "func main() {\n\tdefer crash.Guard(\"" + tool + "\")\n"
		if !strings.Contains(string(src), want) {
			t.Errorf("%s: main does not start with defer crash.Guard(%q)", path, tool)
		}
	}
}
