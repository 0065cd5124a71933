package diag

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

func TestRender(t *testing.T) {
	sm := NewSourceMgr()
	sm.Add("k.otir", "line one\n  %0 = otir.add %a, %b : i8\n\tx\n")
	cases := []struct {
		d    *Diagnostic
		want string
	}{
		{Errorf(ir.Location{File: "k.otir", Line: 2, Col: 8}, "bad %s", "thing"),
			"k.otir:2:8: error: bad thing\n  %0 = otir.add %a, %b : i8\n       ^\n"},
		{Errorf(ir.Location{File: "k.otir", Line: 3, Col: 2}, "tab"),
			"k.otir:3:2: error: tab\n\tx\n\t^\n"},
		{Errorf(ir.Location{File: "k.otir", Line: 1, Col: 1}, "with note").Note(ir.Location{File: "k.otir", Line: 2, Col: 3}, "defined here"),
			"k.otir:1:1: error: with note\nline one\n^\nk.otir:2:3: note: defined here\n  %0 = otir.add %a, %b : i8\n  ^\n"},
		{Errorf(ir.Location{}, "no location"), "error: no location\n"},
		{Errorf(ir.Location{File: "other.otir", Line: 9, Col: 1}, "unknown file"), "other.otir:9:1: error: unknown file\n"},
		{Errorf(ir.Location{File: "k.otir", Line: 99, Col: 1}, "past the end"), "k.otir:99:1: error: past the end\n"},
		{Errorf(ir.Location{File: "k.otir", Line: 1, Col: 50}, "column past the end"), "k.otir:1:50: error: column past the end\nline one\n        ^\n"},
	}
	for _, c := range cases {
		var sb strings.Builder
		sm.Render(&sb, c.d)
		if sb.String() != c.want {
			t.Errorf("got\n%q\nwant\n%q", sb.String(), c.want)
		}
	}
}

func TestListErr(t *testing.T) {
	var l List
	if l.Err() != nil {
		t.Fatal("empty list is an error")
	}
	l = append(l, &Diagnostic{Severity: Warning, Msg: "w"})
	if l.Err() != nil {
		t.Fatal("a warning is an error")
	}
	l = append(l, Errorf(ir.Location{File: "f", Line: 1, Col: 2}, "e"))
	if l.Err() == nil || !strings.Contains(l.Error(), "f:1:2: error: e") {
		t.Fatalf("got %v", l.Err())
	}
}
