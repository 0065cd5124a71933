package optmain

import (
	"bytes"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"

	// The dialects otir-opt reads (its main imports the parser, which
	// registers them): docs/ops.md lists them all.
	_ "github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/ir"
)

var update = flag.Bool("update", false, "rewrite docs/ops.md from the operation records and the --list-passes listing of docs/otir-opt.md from the passes' options")

// TestOpsDoc keeps docs/ops.md equal to what the records and dispatch tables
// say; -update rewrites it.
func TestOpsDoc(t *testing.T) {
	const path = "../../../../docs/ops.md"
	want := opsMarkdown()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("docs/ops.md is out of date with the operation records: run go test ./cmd/otir-opt/internal/optmain -run TestOpsDoc -update")
	}
}

// TestListOps checks that --list-ops prints every registered operation with
// its record's summary, and the executor and lowering support.
func TestListOps(t *testing.T) {
	var out bytes.Buffer
	listOps(&out)
	s := out.String()
	for _, name := range ir.OpNames() {
		d := ir.LookupOp(name)
		if !strings.Contains(s, "  "+name+" ") || !strings.Contains(s, d.Summary) {
			t.Errorf("--list-ops lacks %s (%q)", name, d.Summary)
		}
	}
	// The columns' width is the longest name's, so the keys are followed by
	// any run of spaces.
	for _, want := range []string{`operands: +source, dest, mask\?`, `lower-tiles: +no: has no integer lowering`,
		`executor: +n/a: nn graphs run on the nn evaluator \(issue 18\)`} {
		if !regexp.MustCompile(want).MatchString(s) {
			t.Errorf("--list-ops lacks %q", want)
		}
	}
}
