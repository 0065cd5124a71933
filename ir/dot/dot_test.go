package dot

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

func TestQuote(t *testing.T) {
	if got, want := quote("a\"b\\c\nd"), `"a\"b\\c\nd"`; got != want {
		t.Errorf("quote = %s, want %s", got, want)
	}
}

func TestEmptyModuleAndDeterminism(t *testing.T) {
	m := ir.NewModule(ir.Location{})
	var a, b strings.Builder
	if err := Write(&a, m); err != nil {
		t.Fatal(err)
	}
	if err := Write(&b, m); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() || !strings.HasPrefix(a.String(), "digraph G {") || !strings.HasSuffix(a.String(), "}\n") {
		t.Errorf("unexpected output:\n%s", a.String())
	}
}
