package filecheck

import (
	"reflect"
	"strings"
	"testing"
)

func TestERE(t *testing.T) {
	for _, c := range []struct {
		re, text string
		icase    bool
		want     []int // nil: no match
	}{
		{re: "b+", text: "abbbc", want: []int{1, 4}},
		{re: "a|ab|abc", text: "xabcd", want: []int{1, 4}},                 // leftmost-longest, not first alternative
		{re: "(a|ab)(c|bcd)", text: "abcd", want: []int{0, 4, 0, 1, 1, 4}}, // longest overall
		{re: "x*", text: "abc", want: []int{0, 0}},
		{re: "^b", text: "a\nb", want: []int{2, 3}},
		{re: "a$", text: "a\nb", want: []int{0, 1}},
		{re: "a.b", text: "a\nb", want: nil},
		{re: "a[^x]b", text: "a\nb", want: nil},
		{re: "(a*)b\\1", text: "aabaa", want: []int{0, 5, 0, 2}},
		{re: "(a*)b\\1$", text: "aaba", want: []int{1, 4, 1, 2}},
		{re: "([a-c])\\1", text: "abcc", want: []int{2, 4, 2, 3}},
		{re: "[[:<:]]ab", text: "cab ab", want: []int{4, 6}},
		{re: "ab[[:>:]]", text: "abc ab", want: []int{4, 6}},
		{re: "HELLO", text: "say hello", icase: true, want: []int{4, 9}},
		{re: "[A-C]+", text: "xabcx", icase: true, want: []int{1, 4}},
		{re: "\\n", text: "n", want: []int{0, 1}},
		{re: "a{2}", text: "aaa", want: []int{0, 2}},
		{re: "a{2,}", text: "aaaa", want: []int{0, 4}},
		{re: "a{,", text: "a{,", want: []int{0, 3}},
		{re: "()", text: "a", want: []int{0, 0, 0, 0}},
		{re: "[[.hyphen.]]", text: "a-b", want: []int{1, 2}},
		{re: "[[=a=]]", text: "ba", want: []int{1, 2}},
		{re: "é+", text: "xé\xa9", want: []int{1, 4}}, // bytes: the + applies to the last byte
		{re: "a.c", text: "aéc", want: nil},           // '.' is one byte
		{re: "a..c", text: "aéc", want: []int{0, 4}},
	} {
		re, err := compileERE(c.re, c.icase)
		if err != nil {
			t.Errorf("compileERE(%q): %v", c.re, err)
			continue
		}
		if got := re.match(c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("match(%q, %q) = %v, want %v", c.re, c.text, got, c.want)
		}
	}
}

func TestEREErrors(t *testing.T) {
	for re, want := range map[string]string{
		"":           errEmpty,
		"a||b":       errEmpty,
		"(|a)":       errEmpty,
		"*a":         errBadRpt,
		"a**":        errBadRpt,
		"^*":         errBadRpt,
		"{1}":        errBadRpt,
		"(a":         errEParen,
		"a)":         errEParen,
		"a{1":        errEBrace,
		"a{1,x}":     errBadBr,
		"a{3,2}":     errBadBr,
		"a{256}":     errBadBr,
		"[a":         errEBrack,
		"[z-a]":      errERange,
		"[a-b-c]":    errERange,
		"[[:nope:]]": errECType,
		"[[.nope.]]": errECollate,
		"[[=ab=]]":   errECollate,
		"a\\":        errEEscape,
		"\\1":        errESubReg,
		"(a\\1)":     errESubReg,
	} {
		if _, err := compileERE(re, false); err == nil || err.Error() != want {
			t.Errorf("compileERE(%q) error = %v, want %q", re, err, want)
		}
	}
}

func TestRegexEscape(t *testing.T) {
	s := "a.b*c(d)[e]{f}|g^h$i+j?k\\l"
	re, err := compileERE(regexEscape(s), false)
	if err != nil {
		t.Fatal(err)
	}
	if got := re.match("x" + s); !reflect.DeepEqual(got, []int{1, 1 + len(s)}) {
		t.Errorf("escaped literal match = %v", got)
	}
}

// A pathological back-reference pattern gives up instead of hanging.
func TestBacktrackBudget(t *testing.T) {
	re, err := compileERE("(a*)*(a*)*(a*)*\\1b", false)
	if err != nil {
		t.Fatal(err)
	}
	if got := re.match(strings.Repeat("a", 40)); got != nil {
		t.Errorf("match = %v, want nil", got)
	}
}
