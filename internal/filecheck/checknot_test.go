package filecheck

import (
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestRequiredLiteral: the required-literal filter (and running the engine
// only on the lines holding the literal) finds exactly what the engine finds
// on the whole text.
func TestRequiredLiteral(t *testing.T) {
	texts := []string{
		"", "abc", "x abc\nabc", "line 1 value a\nline 22 value b\n", "ab\ncd\nab cd\n",
		"foo bar\nbaz foo\n", "a b\n\n a b", "xyzabc\r\nabc", "é abc\n\xffabc",
	}
	for _, c := range []struct {
		re, must string
		oneLine  bool
	}{
		{"abc", "abc", true},
		{"line [0-9]+ value b", " value b", true},
		{"^abc$", "abc", true},
		{"a(bc)", "abc", true},
		{"(a)(b)c", "abc", true},
		{"ab|cd", "", true},
		{"a[[:space:]]*b", "a", false},
		{"ab[[:space:]]cd", "ab", false},
		{"[[:<:]]foo[[:>:]]", "foo", false}, // the backtracking matcher searches the whole text
		{"(o)\\1", "o", false},
		{"ba(z) fo(o)\\2", "baz foo", false},
		{"a b$", "a b", true},
		{"^ a b", " a b", true},
	} {
		re, err := compileERE(c.re, false)
		if err != nil {
			t.Fatalf("%q: %v", c.re, err)
		}
		if re.must != c.must || re.oneLine != c.oneLine {
			t.Errorf("%q: must %q oneLine %v, want %q %v", c.re, re.must, re.oneLine, c.must, c.oneLine)
		}
		for _, text := range texts {
			ascii := isASCII(text)
			if got, want := re.matchASCII(text, ascii), re.engine(text, ascii); !reflect.DeepEqual(got, want) {
				t.Errorf("%q on %q: %v, want %v", c.re, text, got, want)
			}
		}
	}
}

// checkNotSource returns n CHECK-NOT patterns, each a regex whose leading
// part matches every line of checkNotInput, then a CHECK of its last line.
func checkNotSource(n int) (check, input string) {
	var c, in strings.Builder
	for k := 0; k < n; k++ {
		fmt.Fprintf(&c, "CHECK-NOT: {{.*}}absent%d\n", k)
	}
	c.WriteString("CHECK: END\n")
	for i := 0; in.Len() < 1<<20; i++ {
		fmt.Fprintf(&in, "line %d value %%v%d = otir.add %%x, %%y : i32\n", i, i)
	}
	in.WriteString("END\n")
	return c.String(), in.String()
}

// BenchmarkCheckNot2000 checks 2000 CHECK-NOT regexes over 1 MB (issue 26:
// over 100 s; LLVM's FileCheck takes about 1.5 s).
func BenchmarkCheckNot2000(b *testing.B) {
	check, input := checkNotSource(2000)
	b.SetBytes(int64(len(input)))
	for i := 0; i < b.N; i++ {
		if rc := Check(Options{}, Source{Name: "c", Text: check}, Source{Name: "in", Text: input}, io.Discard); rc != 0 {
			b.Fatalf("exit %d", rc)
		}
	}
}

// FuzzRequiredLiteral: on any regex and text, the required-literal filter
// changes nothing but speed.
func FuzzRequiredLiteral(f *testing.F) {
	f.Add("line [0-9]+ value b", "line 1 value a\nline 22 value b\n", false)
	f.Add("ab[[:space:]]cd", "ab\ncd\nab cd", false)
	f.Add("(a)b\\1$", "aba\nab aba", true)
	f.Add("^ A[[:>:]]", "x\n a\n A ", true)
	f.Fuzz(func(t *testing.T, expr, text string, icase bool) {
		if len(expr) > 200 || len(text) > 2000 {
			return
		}
		re, err := compileERE(expr, icase)
		if err != nil {
			return
		}
		ascii := isASCII(text)
		if got, want := re.matchASCII(text, ascii), re.engine(text, ascii); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q on %q: %v, want %v", expr, text, got, want)
		}
	})
}
