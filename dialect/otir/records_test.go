package otir

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

// Every record of the dialect is complete: a summary, a format whose $names
// are declared (and that names every operand group and region), a Verify
// hook unless NoVerify says why none is needed, and a typing rule for every
// Elementwise op unless NoTyping says why not.
func TestRecordsAreComplete(t *testing.T) {
	for _, p := range ir.DialectRecordProblems("otir", NoVerify) {
		t.Error(p)
	}
	for _, d := range ir.DialectOps("otir") {
		if why := NoTyping[d.Name]; d.Has(ir.Elementwise) && d.Typing == "" && why == "" {
			t.Errorf("%s: Elementwise op without a Typing key (add one, or say in NoTyping why not)", d.Name)
		} else if why != "" && (d.Typing != "" || !d.Has(ir.Elementwise)) {
			t.Errorf("%s: listed in NoTyping but has a Typing key or is not Elementwise", d.Name)
		}
		if d.Typing != "" && !d.Has(ir.Elementwise) {
			t.Errorf("%s: Typing key on an op that is not Elementwise", d.Name)
		}
		for _, a := range d.Attrs {
			if len(a.Enum) > 0 && a.Kind != ir.AttrString {
				t.Errorf("%s: attribute %s has an Enum but is not a string", d.Name, a.Name)
			}
		}
	}
	for n := range NoVerify {
		if ir.LookupOp(n) == nil {
			t.Errorf("NoVerify lists %s, which is not registered", n)
		}
	}
	for n := range NoTyping {
		if ir.LookupOp(n) == nil {
			t.Errorf("NoTyping lists %s, which is not registered", n)
		}
	}
	for _, p := range ir.FamilyProblems("otir", 40, registered...) {
		t.Error(p)
	}
}

// The dialect's rule on every op is registered, and the module record
// carries the dialect's otir.typing_style rule after its own.
func TestDialectWideRules(t *testing.T) {
	if len(ir.OpChecks()) == 0 {
		t.Fatal("no dialect-wide check registered")
	}
	m := ir.NewOp(ir.OpModule, ir.Location{}, nil, nil, nil)
	m.SetAttr("otir.typing_style", &ir.StringAttr{Value: "java"})
	err := ir.LookupOp(ir.OpModule).Verify(m, nil)
	if err == nil || !strings.Contains(err.Error(), `attribute 'otir.typing_style' must be "hls" or "cpp", but got "java"`) {
		t.Errorf("module hook: got %v", err)
	}
	tok := ir.NewOp(OpAdd, ir.Location{}, nil, []ir.Type{ir.Token()}, nil)
	if err := checkTokens(tok); err == nil || !strings.Contains(err.Error(), "result #0 cannot be !otir.token") {
		t.Errorf("token rule: got %v", err)
	}
	dma := ir.NewOp(OpDMA, ir.Location{}, nil, []ir.Type{ir.Token()}, nil)
	if err := checkTokens(dma); err != nil {
		t.Errorf("token rule on %s: %v", OpDMA, err)
	}
}

// The documentation of an op comes from its record.
func TestOpDocComesFromTheRecord(t *testing.T) {
	for _, d := range ir.DialectOps("otir") {
		doc := ir.OpDoc(d)
		want := []string{d.Name + ": " + d.Summary + "\n"}
		for _, g := range d.Operands {
			want = append(want, " "+g.Name)
		}
		for _, a := range d.Attrs {
			want = append(want, " "+a.Name)
			if len(a.Enum) > 0 {
				want = append(want, strings.Join(a.Enum, "|"))
			}
		}
		for _, w := range want {
			if !strings.Contains(doc, w) {
				t.Errorf("OpDoc(%s) lacks %q:\n%s", d.Name, w, doc)
			}
		}
	}
	got := ir.OpDoc(ir.LookupOp(OpDMA))
	want := "otir.dma_copy_async: starts an asynchronous (optionally masked) copy, returns a token\n" +
		"  operands: source (a #global or #workgroup tile), dest (a #workgroup tile (#global for a write-back)), mask? (an i1 tile of the copy's shape)\n" +
		"  results: token (!otir.token)\n"
	if !strings.HasPrefix(got, want) || !strings.Contains(got, "  format: $source") {
		t.Errorf("OpDoc(otir.dma_copy_async) =\n%s\nwant prefix\n%s", got, want)
	}
}
