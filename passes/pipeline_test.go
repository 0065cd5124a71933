package passes

import (
	"strings"
	"testing"
)

func TestParsePipeline(t *testing.T) {
	cases := []struct {
		in, want string // want: the fully-specified pipeline, or "error: msg\ncontext"
	}{
		{"builtin.module()", "builtin.module()"},
		{"  builtin.module( test-noop , test-noop )  ", "builtin.module(test-noop,test-noop)"},
		{"builtin.module(test-opts)", "builtin.module(test-opts{count=3 label=\"\" style=hls verbose=false})"},
		{"builtin.module(test-opts{style=cpp count=-7 verbose})", "builtin.module(test-opts{count=-7 label=\"\" style=cpp verbose=true})"},
		// a value with a comma inside angle brackets is one value
		{"builtin.module(test-checked{type=fixed<16,6>})", "builtin.module(test-checked{bits=8 depth=0 type=\"fixed<16,6>\"})"},
		// declared ranges and special values
		{"builtin.module(test-checked{bits=auto depth=-1})", "builtin.module(test-checked{bits=auto depth=-1 type=\"\"})"},
		{"builtin.module(test-checked{bits=0 depth=70})", "builtin.module(test-checked{bits=0 depth=70 type=\"\"})"},
		{"builtin.module(test-opts{label='a b' style=\"cpp\"})", "builtin.module(test-opts{count=3 label=\"a b\" style=cpp verbose=false})"},
		{"builtin.module(test-opts{label={x,y}})", "builtin.module(test-opts{count=3 label=\"x,y\" style=hls verbose=false})"},
		{"builtin.module(test-mark{tag=a},test-mark)", "builtin.module(test-mark{tag=a},test-mark{tag=x})"},

		{"test-noop", "error: expected the pass pipeline to be wrapped in 'builtin.module(...)', e.g. 'builtin.module(test-noop)'\ntest-noop\n^"},
		{"", "error: expected the pass pipeline to be wrapped in 'builtin.module(...)'\n"},
		{"builtin.module", "error: expected the pass pipeline to be wrapped in 'builtin.module(...)'\nbuiltin.module\n^"},
		{"builtin.module(test-noop", "error: expected ',' or ')' to close 'builtin.module('\nbuiltin.module(test-noop\n                        ^"},
		{"builtin.module(test-noop;)", "error: expected ',' or ')' after a pass, found ';'\nbuiltin.module(test-noop;)\n                        ^"},
		{"builtin.module(test-noop,)", "error: expected a pass name, found ')'\nbuiltin.module(test-noop,)\n                         ^"},
		{"builtin.module(test-noop) x", "error: unexpected text after the pass pipeline\nbuiltin.module(test-noop) x\n                          ^"},
		{"builtin.module(test-nop)", "error: 'test-nop' does not refer to a registered pass, did you mean 'test-noop'?\nbuiltin.module(test-nop)\n               ^"},
		{"builtin.module(zzzzzz)", "error: 'zzzzzz' does not refer to a registered pass\nbuiltin.module(zzzzzz)\n               ^"},
		{"builtin.module(func.func(test-noop))", "error: 'func.func(...)' cannot anchor a nested pass pipeline: OTIR nests passes only under otir.kernel(...) or any(...)\nbuiltin.module(func.func(test-noop))\n               ^"},
		{"builtin.module(builtin.module(test-noop))", "error: 'builtin.module(...)' cannot be nested: an OTIR module holds no modules; nest passes under otir.kernel(...) or any(...)\nbuiltin.module(builtin.module(test-noop))\n               ^"},
		{"builtin.module(otir.kernel(test-noop)", "error: expected ',' or ')' to close 'builtin.module('\nbuiltin.module(otir.kernel(test-noop)\n                                     ^"},
		{"builtin.module(otir.kernel(test-noop", "error: expected ',' or ')' to close 'otir.kernel('\nbuiltin.module(otir.kernel(test-noop\n                                    ^"},
		{"builtin.module(test-opts{styl=cpp})", "error: pass 'test-opts' has no option 'styl', did you mean 'style'?\nbuiltin.module(test-opts{styl=cpp})\n                         ^"},
		{"builtin.module(test-opts{zzzzzz=1})", "error: pass 'test-opts' has no option 'zzzzzz' (its options: style, count, verbose, label)\nbuiltin.module(test-opts{zzzzzz=1})\n                         ^"},
		{"builtin.module(test-noop{a=1})", "error: pass 'test-noop' has no option 'a' (it takes no options)\nbuiltin.module(test-noop{a=1})\n                         ^"},
		{"builtin.module(test-opts{style=ccp})", "error: invalid value 'ccp' for option 'style' of pass 'test-opts' (expected one of: hls, cpp), did you mean 'cpp'?\nbuiltin.module(test-opts{style=ccp})\n                               ^"},
		{"builtin.module(test-opts{count=many})", "error: invalid value 'many' for option 'count' of pass 'test-opts' (expected an integer)\nbuiltin.module(test-opts{count=many})\n                               ^"},
		{"builtin.module(test-opts{verbose=yes})", "error: invalid value 'yes' for option 'verbose' of pass 'test-opts' (expected true or false)\nbuiltin.module(test-opts{verbose=yes})\n                                 ^"},
		{"builtin.module(test-opts{style})", "error: option 'style' of pass 'test-opts' needs a value (style=hls|cpp)\nbuiltin.module(test-opts{style})\n                         ^"},
		{"builtin.module(test-opts{style=hls style=cpp})", "error: option 'style' of pass 'test-opts' is given twice\nbuiltin.module(test-opts{style=hls style=cpp})\n                                   ^"},
		{"builtin.module(test-opts{style=hls", "error: unterminated '{' in the options of pass 'test-opts'\nbuiltin.module(test-opts{style=hls\n                        ^"},
		{"builtin.module(test-opts{label='abc})", "error: unterminated quoted option value\nbuiltin.module(test-opts{label='abc})\n                               ^"},
		{"builtin.module(test-checked{type=ufix<8,2>})", "error: invalid value 'ufix<8,2>' for option 'type' of pass 'test-checked' (expected fixed<W,I>)\nbuiltin.module(test-checked{type=ufix<8,2>})\n                                 ^"},
		{"builtin.module(test-checked{bits=1})", "error: invalid value '1' for option 'bits' of pass 'test-checked' (expected 0, auto or an integer from 2 to 53)\nbuiltin.module(test-checked{bits=1})\n                                 ^"},
		{"builtin.module(test-checked{bits=54})", "error: invalid value '54' for option 'bits' of pass 'test-checked' (expected 0, auto or an integer from 2 to 53)\nbuiltin.module(test-checked{bits=54})\n                                 ^"},
		{"builtin.module(test-checked{depth=-2})", "error: invalid value '-2' for option 'depth' of pass 'test-checked' (expected an integer of at least -1)\nbuiltin.module(test-checked{depth=-2})\n                                  ^"},
		{"builtin.module(test-opts{=x})", "error: expected an option name, found '='\nbuiltin.module(test-opts{=x})\n                         ^"},
	}
	for _, c := range cases {
		pl, err := ParsePipeline(c.in)
		var got string
		if err != nil {
			got = "error: " + err.Error() + "\n" + err.(*PipelineError).Context()
		} else {
			got = pl.String()
		}
		if got != c.want {
			t.Errorf("ParsePipeline(%q):\ngot\n%s\nwant\n%s", c.in, got, c.want)
		}
	}
}

// TestPipelineRoundTrip checks that a printed pipeline parses back to itself.
func TestPipelineRoundTrip(t *testing.T) {
	for _, in := range []string{
		"builtin.module(test-opts{label='a b}c' style=cpp},test-noop)",
		"builtin.module(test-opts{label={} count=0})",
		`builtin.module(test-opts{label='say "hi"'})`,
	} {
		pl, err := ParsePipeline(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		again, err := ParsePipeline(pl.String())
		if err != nil {
			t.Fatalf("reparse %s: %v", pl, err)
		}
		if again.String() != pl.String() {
			t.Errorf("round trip: %s -> %s", pl, again)
		}
	}
}

func TestParseOptionsWrapped(t *testing.T) {
	args, err := ParseOptions(" {style=cpp count=2} ", 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range args {
		got = append(got, a.Key+"="+a.Value)
	}
	if strings.Join(got, " ") != "style=cpp count=2" {
		t.Errorf("got %v", got)
	}
}

func TestSuggest(t *testing.T) {
	cands := []string{"print-ir-after-all", "print-ir-before-all", "cse", "dce", "promote-types"}
	cases := map[string]string{
		"print-ir-afer-all": "print-ir-after-all",
		"csee":              "cse",
		"dse":               "cse", // tie: the first candidate wins
		"promote-type":      "promote-types",
		"xyz":               "",
		"":                  "",
		"lower-tiles":       "",
		"c":                 "", // a one-letter name is no typo of another
	}
	for in, want := range cases {
		if got := Suggest(in, cands); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDisplayName(t *testing.T) {
	cases := []struct {
		info Info
		want string
	}{
		{Info{Name: "promote-types"}, "PromoteTypes"},
		{Info{Name: "cse", Title: "CSE"}, "CSE"},
		{Info{Name: "lower_tiles.x"}, "LowerTilesX"},
	}
	for _, c := range cases {
		if got := c.info.DisplayName(); got != c.want {
			t.Errorf("%s: got %q want %q", c.info.Name, got, c.want)
		}
	}
}

func TestNestedPipeline(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"builtin.module(otir.kernel(test-noop))", "builtin.module(otir.kernel(test-noop))"},
		{"builtin.module(otir.kernel(test-noop, test-noop), test-noop, any(test-noop))", "builtin.module(otir.kernel(test-noop,test-noop),test-noop,any(test-noop))"},
		{"builtin.module(otir.kernel())", "builtin.module()"},
	} {
		pl, err := ParsePipeline(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := pl.String(); got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
}
