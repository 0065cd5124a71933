package otir

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

var update = flag.Bool("update", false, "rewrite the list of extensions in docs/otir-extensions.md from the records")

// The generated list in docs/otir-extensions.md lies between these lines.
const (
	extensionsBegin = "<!-- BEGIN extensions: generated from the records; go test ./dialect/otir -run TestExtensionsDoc -update -->\n"
	extensionsEnd   = "<!-- END extensions -->\n"
)

// extensionsList is the list of the records with the Extension trait, in
// the families' order, one line each with its summary.
func extensionsList() string {
	var b strings.Builder
	for _, f := range families {
		for _, d := range f.ops {
			if d.Has(ir.Extension) {
				b.WriteString("- `" + d.Name + "`: " + d.Summary + "\n")
			}
		}
	}
	return b.String()
}

// TestExtensionsDoc keeps the list of extensions in docs/otir-extensions.md
// equal to the records with the Extension trait; -update rewrites it.
func TestExtensionsDoc(t *testing.T) {
	const path = "../../docs/otir-extensions.md"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	i, j := strings.Index(doc, extensionsBegin), strings.Index(doc, extensionsEnd)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the lines %q and %q around the list of extensions", path, extensionsBegin, extensionsEnd)
	}
	list := extensionsList()
	if strings.Count(list, "\n") < 7 {
		t.Fatalf("only %d records have the Extension trait:\n%s", strings.Count(list, "\n"), list)
	}
	want := doc[:i+len(extensionsBegin)] + list + doc[j:]
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if doc != want {
		t.Errorf("docs/otir-extensions.md's list of extensions differs from the records: run go test ./dialect/otir -run TestExtensionsDoc -update\nwant:\n%s", list)
	}
}
