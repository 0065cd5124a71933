package diag

import (
	"bytes"
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

// A diagnostic quoting a huge name, on a huge line, stays small.
func TestRenderShortensLongWords(t *testing.T) {
	name := strings.Repeat("a", 1_000_000)
	sm := NewSourceMgr()
	sm.Add("f.otir", "x\n  "+name+" : i8\n")
	var w bytes.Buffer
	sm.Render(&w, Errorf(ir.Location{File: "f.otir", Line: 2, Col: 3}, "custom op '%s' is unknown", name))
	out := w.String()
	if len(out) > 1000 {
		t.Fatalf("rendered %d bytes", len(out))
	}
	if !strings.HasPrefix(out, "f.otir:2:3: error: custom op 'aaaa") || !strings.Contains(out, "bytes)...") || !strings.Contains(out, "' is unknown\n") {
		t.Fatalf("got %q", out)
	}
	if ShortenWords("short words stay") != "short words stay" {
		t.Error("short message changed")
	}
}

func TestNormalizeNewlines(t *testing.T) {
	for in, want := range map[string]string{
		"a\rb\r":     "a\nb\n",
		"a\r\nb\rc":  "a\r\nb\nc",
		"a\r\nb\r\n": "a\r\nb\r\n",
		"plain\n":    "plain\n",
	} {
		if got := NormalizeNewlines(in); got != want {
			t.Errorf("NormalizeNewlines(%q) = %q, want %q", in, got, want)
		}
	}
}
