package diag

import (
	"strconv"
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

func loc(line, col int) ir.Location { return ir.Location{File: "t.otir", Line: line, Col: col} }

// render prints diagnostics as "line:col: severity: msg" lines.
func render(l List) string {
	var sb strings.Builder
	for _, d := range l {
		sb.WriteString(strings.TrimPrefix(d.Error(), "t.otir:") + "\n")
	}
	return sb.String()
}

func TestParseExpectations(t *testing.T) {
	cases := []struct {
		name, src string
		offset    int
		want      []string // "line severity text"
		errs      string
	}{
		{name: "same line", src: "%x = otir.add  // expected-error {{bad}}\n",
			want: []string{"1 error bad"}},
		{name: "offsets", src: "// expected-warning @+2 {{w}}\n\nx\n// expected-note@-1 {{n}}\n",
			want: []string{"3 warning w", "3 note n"}},
		{name: "line offset", src: "x // expected-remark {{r}}\n", offset: 10,
			want: []string{"11 remark r"}},
		{name: "below skips directives", src: "// expected-error@below {{a}}\n// expected-error @below {{b}}\nop\n",
			want: []string{"3 error a", "3 error b"}},
		{name: "above skips directives", src: "op\n// expected-error@above {{a}}\n// expected-error @above {{b}}\n",
			want: []string{"1 error a", "1 error b"}},
		{name: "unknown", src: "// expected-error @unknown {{u}}\n", want: []string{"0 error u"}},
		{name: "nested braces", src: "// expected-error-re @+1 {{a{{[0-9]+}}b}}\nx\n", want: []string{"2 error a{{[0-9]+}}b"}},
		{name: "not a directive", src: "// this mentions expected errors\n", want: nil},
		{name: "missing braces", src: "x // expected-error {{oops}\n",
			errs: "1:6: error: malformed expected-error directive: expected '{{message}}' at the end of the line\n"},
		{name: "bare keyword", src: "x // expected-note\n",
			errs: "1:6: error: malformed expected-note directive: expected '{{message}}' at the end of the line\n"},
		{name: "bad regex", src: "// expected-error-re {{a{{[}}}}\n",
			errs: "1:4: error: invalid regex in expected text 'a{{[}}': error parsing regexp: missing closing ]: `[)`\n"},
		{name: "unterminated regex", src: "// expected-error-re {{a{{b}}\n",
			errs: "1:4: error: found start of regex with no end '}}'\n"},
		{name: "above at top", src: "// expected-error @above {{x}}\n",
			errs: "1:4: error: '@above' has no line above it to refer to\n"},
		{name: "below at end", src: "x\n// expected-error @below {{x}}\n",
			errs: "2:4: error: '@below' has no line below it to refer to\n"},
		{name: "before start", src: "// expected-error @-3 {{x}}\n",
			errs: "1:4: error: '@-3' refers to a line before the start of the file\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			es, errs := ParseExpectations("t.otir", c.src, c.offset)
			if got := render(errs); got != c.errs {
				t.Errorf("errors:\n%s\nwant:\n%s", got, c.errs)
			}
			var got []string
			for _, e := range es.List() {
				got = append(got, strings.Join([]string{strconv.Itoa(e.Line), e.Severity.String(), e.Text}, " "))
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	src := strings.Join([]string{
		"op1 // expected-error {{two operands}}",            // 1
		"op2 // expected-warning {{narrow}}",                // 2
		"// expected-note @+1 {{declared}}",                 // 3
		"op4",                                               // 4
		"op5 // expected-error-re {{width {{[0-9]+}} too}}", // 5
		"op6 // expected-error {{never}}",                   // 6
		"op7 // expected-warning {{kind}}",                  // 7
		"// expected-error @unknown {{lost}}",               // 8
	}, "\n")
	es, errs := ParseExpectations("t.otir", src, 0)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	diags := List{
		Errorf(loc(1, 1), "op needs two operands").Note(loc(4, 1), "value declared here"),
		{Severity: Warning, Loc: loc(2, 1), Msg: "result is narrow"},
		Errorf(loc(5, 1), "width 4096 too large"),
		Errorf(loc(5, 1), "width x too large"),
		Errorf(loc(7, 1), "wrong kind"),
		Errorf(ir.Location{}, "lost location"),
		Errorf(loc(4, 3), "surprise"),
		Errorf(ir.Location{File: "other.otir", Line: 1, Col: 1}, "op needs two operands"),
	}
	want := "5:1: error: unexpected error: width x too large\n" +
		"7:8: error: 'error' diagnostic emitted when expecting a 'warning'\n" +
		"4:3: error: unexpected error: surprise\n" +
		"other.otir:1:1: error: unexpected error: op needs two operands\n" +
		"6:8: error: expected error \"never\" was not produced\n" +
		"7:8: error: expected warning \"kind\" was not produced\n"
	if got := render(es.Check(diags)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestCheckAllMet(t *testing.T) {
	es, _ := ParseExpectations("t.otir", "a // expected-error {{x}}\n", 0)
	// One expectation may match several diagnostics, as in mlir-opt.
	if errs := es.Check(List{Errorf(loc(1, 1), "x1"), Errorf(loc(1, 2), "x2")}); len(errs) != 0 {
		t.Errorf("unexpected: %v", errs)
	}
	if !es.List()[0].Matched() {
		t.Error("expectation not marked matched")
	}
}
