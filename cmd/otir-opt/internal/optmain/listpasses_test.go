package optmain

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/otir-dev/otir/passes"
)

// TestListPassesDoc keeps the --list-passes listing of docs/otir-opt.md
// equal to what the passes' option declarations print; -update rewrites it.
func TestListPassesDoc(t *testing.T) {
	const path = "../../../../docs/otir-opt.md"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const start = "```\n$ otir-opt --list-passes\n"
	i := bytes.Index(doc, []byte(start))
	if i < 0 {
		t.Fatalf("docs/otir-opt.md has no block starting %q", start)
	}
	i += len(start)
	n := bytes.Index(doc[i:], []byte("```\n"))
	if n < 0 {
		t.Fatal("docs/otir-opt.md: the --list-passes block is not closed")
	}
	var real []*passes.Info // the passes of otir-opt, not this package's test passes
	for _, info := range passes.All() {
		if !strings.HasPrefix(info.Name, "test-") {
			real = append(real, info)
		}
	}
	var want bytes.Buffer
	printPasses(&want, real)
	if *update {
		out := append(append(append([]byte{}, doc[:i]...), want.Bytes()...), doc[i+n:]...)
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := string(doc[i : i+n]); got != want.String() {
		t.Errorf("the --list-passes listing of docs/otir-opt.md is out of date with the passes' options: run go test ./cmd/otir-opt/internal/optmain -run TestListPassesDoc -update\ngot:\n%s\nwant:\n%s", got, want.String())
	}
}

// Every option of every pass prints with its declaration: a pass's
// --help line, its synopsis and --list-passes agree.
func TestHelpListsDeclaredOptions(t *testing.T) {
	var list bytes.Buffer
	listPasses(&list)
	for _, info := range passes.All() {
		for _, o := range info.Options() {
			line := o.Name + "=" + o.ValueHint()
			if !strings.Contains(list.String(), line) || !strings.Contains(optionSynopsis(info), line) {
				t.Errorf("%s: option %s is not listed as %q", info.Name, o.Name, line)
			}
		}
	}
}
